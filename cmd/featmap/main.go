// Command featmap designs explicit feature maps for kernels from a YAML spec,
// verifies them, and emits them as Go code or comparison reports.
//
// Usage:
//
//	featmap design [-json] [-solver purego|clp] SPEC.yaml
//	featmap version
//
// Exit codes: 0 success, 1 the design failed (e.g. a target error that no
// dimension up to target.max_dim reaches), 2 a bad spec or bad usage.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/solver"
)

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `featmap designs explicit kernel feature maps and emits them as Go code.

Usage:
  featmap design [-json] [-solver purego|clp] SPEC.yaml
  featmap version

Run "featmap COMMAND -h" for a command's flags.
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "design":
		return cmdDesign(args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "featmap", featmap.Version)
		return exitOK
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "featmap: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// commonFlags are the flags every designing command takes.
type commonFlags struct {
	solver string
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.solver, "solver", solver.DefaultName, "LP backend: "+strings.Join(solver.Names(), ", ")+` ("clp" needs -tags clp)`)
}

// parse parses the flags and the single spec argument, and loads the spec.
// It returns a nonzero exit code on failure (having printed why).
func parseCommand(fs *flag.FlagSet, c *commonFlags, args []string, stderr io.Writer) (*featmap.Spec, featmap.RunOptions, int) {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return nil, featmap.RunOptions{}, exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "featmap %s: want exactly one spec file, got %d arguments\n", fs.Name(), fs.NArg())
		fs.Usage()
		return nil, featmap.RunOptions{}, exitUsage
	}
	sv, err := solver.Get(c.solver)
	if err != nil {
		fmt.Fprintln(stderr, "featmap:", err)
		return nil, featmap.RunOptions{}, exitUsage
	}
	spec, err := featmap.LoadSpec(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, featmap.RunOptions{}, exitUsage
	}
	return spec, featmap.RunOptions{Solver: sv, Progress: progress(stderr)}, exitOK
}

// progress returns a progress printer that stays silent during the first
// second of a run, so that quick designs print nothing.
func progress(w io.Writer) func(string) {
	start := time.Now()
	return func(msg string) {
		if d := time.Since(start); d >= time.Second {
			fmt.Fprintf(w, "[%5.1fs] %s\n", d.Seconds(), msg)
		}
	}
}

func cmdDesign(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("design", flag.ContinueOnError)
	var c commonFlags
	c.register(fs)
	asJSON := fs.Bool("json", false, "print the design as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: featmap design [-json] [-solver purego|clp] SPEC.yaml")
		fs.PrintDefaults()
	}
	spec, opts, code := parseCommand(fs, &c, args, stderr)
	if code != exitOK {
		return code
	}
	d, err := spec.Design(opts)
	if err != nil {
		fmt.Fprintf(stderr, "featmap: %s: %v\n", spec.Path, err)
		return exitFailed
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(d.JSON()); err != nil {
			fmt.Fprintln(stderr, "featmap:", err)
			return exitFailed
		}
		return exitOK
	}
	printDesign(stdout, d)
	return exitOK
}

// printDesign writes the human summary of a design.
func printDesign(w io.Writer, d *featmap.Design) {
	m, v := d.Map, d.Map.Errors
	fmt.Fprintf(w, "%s: %s, D = %d, method %s\n", d.Spec.Name, describeKernel(d.Spec), m.Dim, d.Method.Name)
	fmt.Fprintf(w, "domain: %s\n", describeDomain(d.Spec))
	if len(m.Terms) > 0 {
		fmt.Fprintln(w, "\nfrequencies and weights:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  ω\tα\tdims")
		for _, t := range m.Terms {
			dims := 2
			if t.Freq[0] == 0 {
				dims = 1
			}
			fmt.Fprintf(tw, "  %.10g\t%.10g\t%d\n", t.Freq[0], t.Weight, dims)
		}
		tw.Flush()
	}
	if len(m.LiK) > 0 {
		fmt.Fprintf(w, "\nLi parameters k: %.6g\n", m.LiK)
	}
	if len(d.Stages) > 0 {
		fmt.Fprintf(w, "\n%s error per stage (L∞ / RMS):\n", v.Measure)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, st := range d.Stages {
			fmt.Fprintf(tw, "  %s\t%.6g\t%.6g\n", st.Name, st.Error.LInf, st.Error.RMS)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "\nverified %s error: L∞ %.6g, RMS %.6g\n  on %s\n", v.Measure, v.Reported.LInf, v.Reported.RMS, v.Reported.On)
	fmt.Fprintf(w, "weighted signature error: L∞ %.6g on %s\n", v.Signature.LInf, v.Signature.On)
	if v.Design.Points > 0 {
		fmt.Fprintf(w, "  (L∞ %.6g on the design set %s)\n", v.Design.LInf, v.Design.On)
	}
	fmt.Fprintf(w, "design time %.2f s", d.Seconds)
	if d.LPs > 0 {
		fmt.Fprintf(w, ", %d LPs", d.LPs)
	}
	fmt.Fprintln(w)
}

func describeKernel(s *featmap.Spec) string {
	if s.Kernel.Homogeneous() {
		return fmt.Sprintf("%s kernel (γ = %g)", s.Kernel.Type, s.Kernel.Gamma)
	}
	return fmt.Sprintf("%s kernel (σ = %g)", s.Kernel.Type, s.Kernel.Sigma)
}

func describeDomain(s *featmap.Spec) string {
	var parts []string
	for i := range s.Domain.Lo {
		if s.Domain.Integer {
			parts = append(parts, fmt.Sprintf("{%g..%g}", s.Domain.Lo[i], s.Domain.Hi[i]))
		} else {
			parts = append(parts, fmt.Sprintf("[%g, %g]", s.Domain.Lo[i], s.Domain.Hi[i]))
		}
	}
	return strings.Join(parts, " × ")
}
