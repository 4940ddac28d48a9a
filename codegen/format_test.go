package codegen

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/fma"
)

// formatFile records FormatVersion and the fingerprint of the test maps'
// emitted files under it (formatFingerprint).
var formatFile = filepath.Join("testdata", "format.txt")

// formatFingerprint is the SHA-256 of every file GenerateFiles emits for
// the test maps — every testmaps case with Fast tables, the golden ones
// with Compact and Small tables too, and both blocks maps — each named,
// sized and in full, in that order.
func formatFingerprint(t *testing.T) string {
	t.Helper()
	h := sha256.New()
	write := func(id string, files []File) {
		for _, f := range files {
			fmt.Fprintf(h, "%s %s %d\n", id, f.Name, len(f.Data))
			h.Write(f.Data)
		}
	}
	emit := func(id string, vm fmap.Verified, info Info) {
		files, err := GenerateFiles(vm, info)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		write(id, files)
	}
	for _, c := range testmaps.Cases() {
		tables := []Tables{Fast}
		if c.Golden {
			tables = append(tables, Compact, Small)
		}
		for _, tb := range tables {
			write(c.Name+" "+tb.String(), sharedFiles(t, c, tb))
		}
	}
	emit("Blocks", blocksSmall(), testInfo("Blocks"))
	emit("BlocksBig", blocksBig(), testInfo("BlocksBig"))
	return fmt.Sprintf("sha256:%x", h.Sum(nil))
}

// TestFormatVersion: the test maps' emitted files are the ones whose
// fingerprint testdata/format.txt records beside FormatVersion, so that a
// change of what Generate writes cannot keep the format version (and a
// file written by the old code generator cannot stay fresh to gen): when
// the fingerprint moves, FormatVersion must move, and -update records the
// new pair only then. Compared, like the golden files, on the reference
// platform only.
func TestFormatVersion(t *testing.T) {
	got := formatFingerprint(t)
	want := fmt.Sprintf("format %d\n%s\n", FormatVersion, got)
	old, err := os.ReadFile(formatFile)
	if err != nil && !(*update && os.IsNotExist(err)) {
		t.Fatalf("%v (run go test ./codegen -update)", err)
	}
	oldFormat, oldSum, _ := strings.Cut(strings.TrimSpace(string(old)), "\n")
	sameFormat := oldFormat == fmt.Sprintf("format %d", FormatVersion)
	if *update {
		if !goldenPlatform() {
			t.Fatalf("-update on %s (fused multiply-adds: %v): the fingerprint is of amd64's files without fused multiply-adds", runtime.GOARCH, fma.Fused())
		}
		if sameFormat && oldSum != got {
			t.Fatalf("the emitted files changed (fingerprint %s → %s) but FormatVersion is still %d: raise it (codegen/header.go), then run -update again", oldSum, got, FormatVersion)
		}
		if err := os.WriteFile(formatFile, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !goldenPlatform() {
		t.Skipf("%s not compared: its fingerprint is of amd64's files without fused multiply-adds, this build's (%s, fused multiply-adds: %v) round differently", formatFile, runtime.GOARCH, fma.Fused())
	}
	switch {
	case !sameFormat:
		t.Errorf("FormatVersion is %d, %s records %q: run go test ./codegen -update", FormatVersion, formatFile, oldFormat)
	case oldSum != got:
		t.Errorf("the emitted files of the test maps changed (fingerprint %s → %s) but FormatVersion is still %d: raise FormatVersion (codegen/header.go) so that gen sees files of the old code generator as stale, then run go test ./codegen -update", oldSum, got, FormatVersion)
	}
}
