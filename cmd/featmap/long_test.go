package main

import (
	"flag"
	"testing"
)

// long turns on the long CLI runs that the default run leaves out: the
// downstream modules built from scratch (TestDownstreamModule,
// TestDownstreamToolsModule) and the sizes of the starters' emitted files
// (TestInit's initSizes). CI passes it (.ci/run: go test ./cmd/featmap
// -long); docs/quality.md lists them.
var long = flag.Bool("long", false, "also run the long CLI runs: the downstream modules, the starters' file sizes (CI passes it)")

// needLong skips t unless the run asked for the long tests (-long), and
// under -short.
func needLong(t *testing.T, why string) {
	t.Helper()
	if !*long || testing.Short() {
		t.Skip(why + ": a long CLI run, with -long (docs/quality.md)")
	}
}
