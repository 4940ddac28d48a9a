package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/learn"
)

func init() { commands["design"] = cmdDesign }

func cmdDesign(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("design", flag.ContinueOnError)
	var c commonFlags
	c.register(fs)
	asJSON := fs.Bool("json", false, "print the design as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: featmap design [-json] [-solver purego|clp] SPEC.yaml")
		fmt.Fprintln(stderr, "Designs the spec's map, verifies it and prints it with its measured errors.")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "example: featmap design specs/table1-chi2-7d.yaml")
	}
	spec, opts, code := parseCommand(ctx, fs, &c, args, stderr)
	if code != exitOK {
		return code
	}
	if spec.Compare != nil {
		fmt.Fprintf(stderr, "featmap design: %s is a comparison spec; run featmap compare on it\n", spec.Path)
		return exitUsage
	}
	d, err := spec.Design(ctx, opts)
	if err != nil {
		return failed(stderr, spec.Path, err)
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
	m, v, p := d.Map, d.Verification, d.Problem
	fmt.Fprintf(w, "%s: %s, D = %d, method %s\n", d.Spec.Name, p.Kernel.Describe(), m.Dim, d.Method.Name())
	fmt.Fprintf(w, "domain: %s\n", p.Domain.Describe())
	if l := d.LearnedLine(); l != "" {
		fmt.Fprintln(w, l)
	}
	for _, l := range d.ModelLines() {
		fmt.Fprintln(w, l)
	}
	if f := m.Fourier(); f != nil {
		fmt.Fprintln(w, "\nfrequencies and weights:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  ω\tα\tdims")
		for _, t := range f.Terms {
			freq := fmt.Sprintf("%.10g", t.Freq[0])
			if len(t.Freq) > 1 {
				freq = fmt.Sprintf("%.6g", t.Freq)
			}
			fmt.Fprintf(tw, "  %s\t%.10g\t%d\n", freq, t.Weight, fmap.TermDim(f.Form, t.Freq))
		}
		tw.Flush()
		if z := m.ZeroComponents(); z > 0 {
			fmt.Fprintf(w, "(%d of the %d components are identically 0: their terms have weight 0 at the optimum)\n", z, m.Dim)
		}
	}
	if ns, ok := m.Stages[0].Kind.(*fmap.Nystroem); ok && len(m.Stages) == 1 {
		fmt.Fprintf(w, "\n%d landmarks of %d inputs", ns.Size(), ns.In)
		if ns.Dim() < ns.Size() {
			fmt.Fprintf(w, ", the top %d directions of their features on the rows to fit kept", ns.Dim())
		}
		if ns.Dropped > 0 {
			fmt.Fprintf(w, "; %d eigenvalues of their kernel matrix too small to invert, left out of W^{+1/2} (rank %d)", ns.Dropped, ns.Size()-ns.Dropped)
		}
		fmt.Fprintln(w)
	}
	if s := m.Series(); s != nil && len(s.K) > 0 {
		fmt.Fprintf(w, "\nLi parameters k: %.6g\n", s.K)
	}
	if len(d.Steps) > 0 {
		fmt.Fprintf(w, "\n%s error per stage (L∞ / RMS):\n", v.Measure)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, st := range d.Steps {
			fmt.Fprintf(tw, "  %s\t%.6g\t%.6g\n", st.Name, st.Error.LInf, st.Error.RMS)
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
	printErrors(w, d)
	if v.Signature.On != "" {
		fmt.Fprintf(w, "weighted signature error: L∞ %.6g on %s\n", v.Signature.LInf, v.Signature.On)
	}
	if v.Design.Points > 0 {
		fmt.Fprintf(w, "  (L∞ %.6g on the design set %s)\n", v.Design.LInf, v.Design.On)
	}
	fmt.Fprintf(w, "design time %.2f s", d.Seconds)
	if d.LearnSeconds > 0 {
		fmt.Fprintf(w, " (after %.2f s of learning)", d.LearnSeconds)
	}
	if d.LPs > 0 {
		fmt.Fprintf(w, ", %d LPs", d.LPs)
	}
	fmt.Fprintln(w)
	if a := d.Auto; a != nil {
		fmt.Fprintf(w, "\n%s\n", a.Summary())
		for _, c := range a.Candidates {
			switch {
			case c.Error != nil:
				fmt.Fprintf(w, "  %s: %.6g\n", c.Method, *c.Error)
			case c.Failed != "":
				fmt.Fprintf(w, "  %s: failed: %s\n", c.Method, c.Failed)
			default:
				fmt.Fprintf(w, "  %s: skipped: %s\n", c.Method, c.Skipped)
			}
		}
	}
	if s := d.Search; s != nil {
		fmt.Fprintf(w, "\nmax_error %g search: %d designs in %.2f s wall, %s; D = %d verified\n",
			s.MaxError, len(s.Tried), s.Seconds, s.Strategy, m.Dim)
		for _, t := range s.Tried {
			verdict := "above"
			if t.Met {
				verdict = "meets"
			}
			fmt.Fprintf(w, "  D = %d: %.6g (%s)\n", t.Dim, t.Error, verdict)
		}
	}
}

// printErrors writes the verified errors. A map designed with data
// states its error on the held-out rows first (the error that matters for
// the user's inputs, and the one that ranks maps), then the error on the
// box of the domain, labelled so: random or grid points of the whole box,
// most of them where no data lie and a data-learned map is not meant to be
// good. With
// no row held out (data.holdout 0) it says the data error is not measured
// and how to measure it.
func printErrors(w io.Writer, d *featmap.Design) {
	v := d.Verification
	box := func(prefix string) {
		fmt.Fprintf(w, "%sverified %s error: L∞ %.6g, RMS %.6g\n  on %s\n", prefix, v.Measure, v.Reported.LInf, v.Reported.RMS, v.Reported.On)
		if v.Measure != fmap.Absolute {
			fmt.Fprintf(w, "  absolute error: L∞ %.6g, RMS %.6g\n  on %s\n", v.Absolute.LInf, v.Absolute.RMS, v.Absolute.On)
		}
		fmt.Fprintf(w, "  relative Frobenius error of the Gram matrix of those inputs: %.6g (Ψ = 0 scores 1)\n", v.Frobenius)
		if s := featmap.BoxWorth(v); s != "" {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	dv, data := v.Data, d.Problem.Data
	switch {
	case dv != nil:
		fmt.Fprintf(w, "verified on the held-out data (%s, %d rows, sha256 %.12s…): Gram matrix relative Frobenius error %.6g (Ψ = 0 scores 1), absolute error L∞ %.6g, RMS %.6g\n  on %s\n",
			dv.File, dv.Rows, dv.SHA256, dv.Frobenius, dv.Absolute.LInf, dv.Absolute.RMS, dv.Absolute.On)
		if b := dv.RankBound; b != nil {
			fmt.Fprintf(w, "  the limit: %s (the error of the best rank-%d approximation of their Gram matrix, which no map of %d components beats)\n", b, b.Rank, b.Rank)
		}
		box("on the box (points of the domain, not the data): ")
	case data != nil && len(data.Fit) > 0:
		fmt.Fprintf(w, "on the data (%s): not measured, no row was held out (data.holdout 0); %s\n", data.File, learn.EvalHint)
		box("on the box (points of the domain, not the data): ")
	default:
		box("")
	}
}
