package main

import (
	"context"
	"fmt"
	"io"

	"github.com/featmap/featmap/spec"
)

func init() { commands["schema"] = cmdSchema }

// cmdSchema prints the JSON Schema of spec version 1 (spec.Schema),
// the content of docs/spec.schema.json.
func cmdSchema(_ context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(stderr, "usage: featmap schema\nPrints the JSON Schema (draft 2020-12) of spec version 1, for editors that complete and check spec keys.\n"+
			"example: featmap schema > spec.schema.json, then start a spec with\n  # yaml-language-server: $schema=spec.schema.json\n")
		return exitHelp
	}
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: featmap schema (it takes no arguments)")
		return exitUsage
	}
	s, err := spec.Schema()
	if err != nil {
		fmt.Fprintln(stderr, "featmap:", err)
		return exitInternal
	}
	fmt.Fprintf(stdout, "%s\n", s)
	return exitOK
}
