package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/featmap/featmap/evaluate"
)

func init() { commands["eval"] = cmdEval }

// cmdEval measures a map written by gen -map on a data file.
func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the measurements as one JSON object")
	label := labelFlag(evaluate.AutoLabel)
	fs.Var(&label, "label-column", "the label column `N`, 0-based: the first or the last, or -1 for none (default: the column after the map's inputs, for a map with a model and a file that has one)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: featmap eval [-json] [-label-column N] MAP.json DATA")
		fmt.Fprintln(stderr, "Measures a map written by featmap gen -map on a data file (CSV, TSV, whitespace or .npy, gzip'd or not):")
		fmt.Fprintf(stderr, "the Gram error against the map's kernel on a seeded sample of at most %d rows, and for a map with\n", evaluate.MaxGramRows)
		fmt.Fprintln(stderr, "a model and labelled rows its accuracy and confusion (classes) or RMSE (regression).")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "example: featmap gen -o digits.go -map digits.json spec.yaml && featmap eval digits.json test.csv")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitHelp
		}
		return exitUsage
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return exitUsage
	}
	if label < -1 && label != evaluate.AutoLabel {
		fmt.Fprintf(stderr, "featmap eval: -label-column %d: want a column (0, 1, …) or -1 for none\n", label)
		return exitUsage
	}
	mapFile, dataFile := fs.Arg(0), fs.Arg(1)
	v, err := evaluate.ReadMap(mapFile)
	if err != nil {
		fmt.Fprintf(stderr, "featmap eval: %v\n", err)
		return exitUsage
	}
	res, err := evaluate.Evaluate(ctx, v.Map, dataFile, evaluate.Options{LabelColumn: int(label)})
	var ie *evaluate.InputError
	switch {
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "featmap eval: %v\n", err)
		return exitUsage
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "featmap eval: %v\n", ctx.Err())
		return exitFailed
	case err != nil:
		fmt.Fprintf(stderr, "featmap eval: %v\n(this is a bug in featmap, not in the files: please report it)\n", err)
		return exitInternal
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			fmt.Fprintln(stderr, "featmap:", err)
			return exitInternal
		}
		return exitOK
	}
	printEval(stdout, mapFile, v.Map.Method, v.Map.Dim, res)
	return exitOK
}

// labelFlag is -label-column: a column, -1 for none, or (not given)
// evaluate.AutoLabel, which the usage does not print as a number.
type labelFlag int

// String is "": the usage states the default in words.
func (l *labelFlag) String() string { return "" }

// Set reads a column number.

func (l *labelFlag) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want an integer column, not %q", s)
	}
	*l = labelFlag(v)
	return nil
}

// printEval writes the human summary of an evaluation.
func printEval(w io.Writer, mapFile, method string, dim int, r *evaluate.Result) {
	rows := fmt.Sprintf("%d rows", r.Rows)
	if r.Used < r.Rows {
		rows += fmt.Sprintf(" (a seeded sample of %d measured)", r.Used)
	}
	fmt.Fprintf(w, "%s (method %s, D = %d) on %s: %s\n", mapFile, method, dim, r.File, rows)
	sample := fmt.Sprintf("all %d rows", r.GramRows)
	if r.GramRows < r.Used {
		sample = fmt.Sprintf("a seeded sample of %d rows", r.GramRows)
	}
	fmt.Fprintf(w, "Gram matrix of %s: relative Frobenius error %.6g, max |K − Ψ·Ψ| %.6g\n", sample, r.GramRelFro, r.LInf)
	switch {
	case r.RMSE != nil:
		fmt.Fprintf(w, "model: RMSE %.6g on %d labelled rows\n", *r.RMSE, r.Labelled)
	case r.Accuracy != nil:
		c := r.Confusion
		right := 0
		for i := range c.Counts {
			right += c.Counts[i][i]
		}
		fmt.Fprintf(w, "model: accuracy %.4f (%d of %d labelled rows)\n", *r.Accuracy, right, r.Labelled)
		if c.Unknown > 0 {
			fmt.Fprintf(w, "  %d rows have a label that is none of the model's classes (counted wrong)\n", c.Unknown)
		}
		fmt.Fprintln(w, confusionSummary(c))
	}
}

// confusionSummary states each class's recall and the most frequent
// confusions.
func confusionSummary(c *evaluate.Confusion) string {
	var b strings.Builder
	b.WriteString("per class (label: right/rows):")
	type pair struct {
		from, to float64
		n        int
	}
	var pairs []pair
	for i, row := range c.Counts {
		total := 0
		for j, n := range row {
			total += n
			if j != i && n > 0 {
				pairs = append(pairs, pair{c.Classes[i], c.Classes[j], n})
			}
		}
		fmt.Fprintf(&b, " %v: %d/%d", c.Classes[i], row[i], total)
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].n > pairs[b].n })
	if len(pairs) == 0 {
		b.WriteString("\nno confusions")
		return b.String()
	}
	b.WriteString("\nmost confused (label → predicted: rows):")
	for _, p := range pairs[:min(len(pairs), 5)] {
		fmt.Fprintf(&b, " %v → %v: %d;", p.from, p.to, p.n)
	}
	return strings.TrimSuffix(b.String(), ";")
}
