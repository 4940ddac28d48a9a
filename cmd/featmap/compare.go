package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/report"
)

func init() { commands["compare"] = cmdCompare }

func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	var c commonFlags
	c.register(fs)
	out := fs.String("o", "", "the report's directory (default ./report-NAME, NAME the spec's name)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: featmap compare [-o DIR] [-solver purego|clp] SPEC.yaml")
		fmt.Fprintln(stderr, "Designs every method of the spec's compare section at every D and writes a report.")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "example: featmap compare -o report specs/compare-chi2-8bit.yaml")
	}
	spec, opts, code := parseCommand(ctx, fs, &c, args, stderr)
	if code != exitOK {
		return code
	}
	if spec.Compare == nil {
		fmt.Fprintf(stderr, "featmap compare: %s has no compare section (it is a single design: use featmap design)\n", spec.Path)
		return exitUsage
	}
	dir := *out
	if dir == "" {
		dir = "report-" + spec.Name
	}
	// Checked before the designs, which may take minutes: a DIR that
	// cannot hold the report (not a writable directory, or holding a
	// user's own index.html, a symlink, …) would fail only when the
	// report is written.
	if err := report.CheckDir(dir); err != nil {
		fmt.Fprintf(stderr, "featmap compare: -o %s: %v\n", dir, err)
		return exitUsage
	}
	cmp, err := spec.RunComparison(ctx, opts)
	if err != nil {
		return failed(stderr, spec.Path, err)
	}
	in, err := cmp.ReportInput()
	if err != nil {
		fmt.Fprintf(stderr, "featmap: %s: %v\n", spec.Path, err)
		return exitFailed
	}
	in.Command = compareCommand(*out, c.solver, spec.Path)
	if err := report.Write(dir, in); err != nil {
		fmt.Fprintln(stderr, "featmap:", err)
		return exitFailed
	}
	printComparison(stdout, cmp)
	fmt.Fprintf(stdout, "\nreport: %s (index.html, report.md, results.json) in %.1f s\n", dir, cmp.Seconds)
	if n := cmp.Failed(); n > 0 {
		fmt.Fprintf(stderr, "featmap: %d of the comparison's designs failed (their errors are in the report)\n", n)
	}
	return exitOK
}

// compareCommand returns the command line that regenerates a report, as
// the report shows it.
func compareCommand(out, solverName, spec string) string {
	parts := []string{"featmap compare"}
	if out != "" {
		parts = append(parts, "-o "+filepath.ToSlash(out))
	}
	if solverName != "" && solverName != "purego" {
		parts = append(parts, "-solver "+solverName)
	}
	return strings.Join(append(parts, filepath.ToSlash(spec)), " ")
}

// printComparison writes the L∞ table of a comparison, and with data first
// the held-out data's Gram-matrix error, which then ranks the methods.
func printComparison(w io.Writer, c *featmap.Comparison) {
	axis := "D"
	if c.Widths {
		axis = "output width"
		fmt.Fprintf(w, "%s: by output width (numbers per row): %s\n", c.Spec.Name, c.WidthRule())
	}
	if d := c.Spec.Problem.Data; d != nil {
		fmt.Fprintf(w, "%s: held-out data error (Gram matrix, relative Frobenius; %s) per method and %s\n", c.Spec.Name, d.File, axis)
		printTable(w, c, func(v fmap.Verification) float64 {
			if v.Data == nil {
				return math.NaN()
			}
			return v.Data.Frobenius
		})
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%s: L∞ %s error per method and %s\n", c.Spec.Name, c.Spec.Problem.Measure, axis)
	printTable(w, c, func(v fmap.Verification) float64 { return v.Reported.LInf })
}

// printTable writes one number of every cell, a row per method.
func printTable(w io.Writer, c *featmap.Comparison, value func(fmap.Verification) float64) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "method\t")
	for _, d := range c.Dims {
		if c.Widths {
			fmt.Fprintf(tw, "width %d\t", d)
		} else {
			fmt.Fprintf(tw, "D = %d\t", d)
		}
	}
	fmt.Fprintln(tw)
	for i, row := range c.Cells {
		fmt.Fprintf(tw, "%s\t", c.Labels[i])
		for _, cell := range row {
			switch {
			case cell.NA != "":
				fmt.Fprint(tw, "n/a\t")
			case cell.Err != nil:
				fmt.Fprint(tw, "failed\t")
			default:
				fmt.Fprintf(tw, "%.3g\t", value(cell.Design.Verification))
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
