package main

import (
	"os"
	"strings"
	"testing"
)

// TestSchemaCommand: featmap schema prints the shipped
// docs/spec.schema.json byte for byte (so that `featmap schema >
// docs/spec.schema.json` updates it), and refuses arguments.
func TestSchemaCommand(t *testing.T) {
	code, out, errOut := runCLI("schema")
	if code != exitOK {
		t.Fatalf("schema: exit %d, %q", code, errOut)
	}
	want, err := os.ReadFile("../../docs/spec.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("featmap schema differs from docs/spec.schema.json (%d vs %d bytes): run go test -run TestSchema . -update in the repository root", len(out), len(want))
	}
	if code, _, errOut := runCLI("schema", "x"); code != exitUsage || !strings.Contains(errOut, "usage: featmap schema") {
		t.Errorf("schema x: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI("schema", "-h"); code != exitOK || !strings.Contains(errOut, "example:") {
		t.Errorf("schema -h: exit %d, %q", code, errOut)
	}
}
