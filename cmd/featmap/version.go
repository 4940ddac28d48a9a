package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/featmap/featmap"
)

func init() { commands["version"] = cmdVersion }

const versionUsage = "usage: featmap version\nPrints featmap's version (the one gen's headers and freshness keys record).\nexample: featmap version\n"

// cmdVersion prints featmap's version; it takes no arguments.
func cmdVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && slices.Contains([]string{"-h", "-help", "--help"}, args[0]) {
		fmt.Fprint(stderr, versionUsage)
		return exitHelp
	}
	if len(args) > 0 {
		fmt.Fprint(stderr, versionUsage)
		return exitUsage
	}
	fmt.Fprintln(stdout, "featmap", featmap.Version)
	return exitOK
}
