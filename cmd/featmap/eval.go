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
	"github.com/featmap/featmap/fmap"
)

func init() { commands["eval"] = cmdEval }

// cmdEval measures a map written by gen -map on a data file.
func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the measurements as one JSON object")
	label := labelFlag(evaluate.AutoLabel)
	fs.Var(&label, "label-column", "the label column `N`, 0-based: the first or the last, the others the map's inputs, or -1 for none (default: the file is read as the map's data file was, its inputs and label column; for a map file that does not record them, the column after the map's inputs, for a map with a model and a file that has one)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: featmap eval [-json] [-label-column N] MAP.json DATA (flags may also follow the files)")
		fmt.Fprintln(stderr, "Measures a map written by featmap gen -map on a data file (CSV, TSV, whitespace or .npy, gzip'd or not):")
		fmt.Fprintf(stderr, "the Gram error against the map's kernel on a seeded sample of at most %d rows, and for a map with\n", evaluate.MaxGramRows)
		fmt.Fprintln(stderr, "a model and labelled rows its accuracy and confusion (classes) or RMSE (regression).")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "example: featmap gen -o digits.go -map digits.json spec.yaml && featmap eval digits.json test.csv")
	}
	files, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitHelp
		}
		return exitUsage
	}
	if len(files) != 2 {
		fmt.Fprintf(stderr, "featmap eval: want a map file and a data file, got %d arguments\n", len(files))
		fs.Usage()
		return exitUsage
	}
	if label < -1 && label != evaluate.AutoLabel {
		fmt.Fprintf(stderr, "featmap eval: -label-column %d: want a column (0, 1, …) or -1 for none\n", label)
		return exitUsage
	}
	mapFile, dataFile := files[0], files[1]
	v, err := evaluate.ReadMapContext(ctx, mapFile)
	switch {
	case err != nil && ctx.Err() != nil:
		fmt.Fprintf(stderr, "featmap eval: %v\n", ctx.Err())
		return exitFailed
	case err != nil:
		fmt.Fprintf(stderr, "featmap eval: %v\n", err)
		return exitUsage
	}
	res, err := evaluate.Evaluate(ctx, v.Map, dataFile, evaluate.Options{LabelColumn: int(label), Columns: v.Data})
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
		if w := outsideWarning(v.Map, res); w != "" {
			fmt.Fprintln(stderr, "featmap eval: warning:", w)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			fmt.Fprintln(stderr, "featmap:", err)
			return exitInternal
		}
		return exitOK
	}
	printEval(stdout, mapFile, v.Map, res)
	return exitOK
}

// parseInterspersed parses args with fs, flags before, between or after
// the files (featmap eval MAP DATA -json, as design and gen take them),
// and returns the files; after "--" everything is a file.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(files, rest...), nil
		}
		if len(rest) == 0 {
			return files, nil
		}
		files, args = append(files, rest[0]), rest[1:]
	}
}

// outsideWarning is the warning for rows outside the map's domain ("" for
// none).
func outsideWarning(m *fmap.Map, r *evaluate.Result) string {
	if r.OutsideDomain == 0 {
		return ""
	}
	return fmt.Sprintf("%d of the %d rows measured have a value outside the map's domain (%s): the map maps them, and they are in every figure here, but its stated error was verified on the domain and does not hold there",
		r.OutsideDomain, r.Used, m.Domain.Describe())
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

// printEval writes the human summary of an evaluation of map m.
func printEval(w io.Writer, mapFile string, m *fmap.Map, r *evaluate.Result) {
	rows := fmt.Sprintf("%d rows", r.Rows)
	if r.Used < r.Rows {
		rows += fmt.Sprintf(" (a seeded sample of %d measured)", r.Used)
	}
	fmt.Fprintf(w, "%s (method %s, D = %d) on %s: %s\n", mapFile, m.Method, m.Dim, r.File, rows)
	fmt.Fprintln(w, columnsLine(m, r))
	if s := outsideWarning(m, r); s != "" {
		fmt.Fprintln(w, "warning:", s)
	}
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

// columnsLine says which columns were the map's inputs (an additive
// map's bins) and which the label, and why.
func columnsLine(m *fmap.Map, r *evaluate.Result) string {
	cols := func(a, b int) string {
		if a == b {
			return fmt.Sprintf("column %d", a)
		}
		return fmt.Sprintf("columns %d..%d", a, b)
	}
	in := fmt.Sprintf("inputs: %s", cols(r.Inputs[0], r.Inputs[1]))
	if r.Additive {
		in = fmt.Sprintf("bins: %s (%d values a row, each mapped by the map of one input, the features concatenated)", cols(r.Inputs[0], r.Inputs[1]), r.Inputs[1]-r.Inputs[0]+1)
	}
	switch r.LabelFrom {
	case "flag":
		return fmt.Sprintf("%s; label: column %d (-label-column)", in, r.LabelColumn)
	case "map":
		return fmt.Sprintf("%s; label: column %d (the map's data section)", in, r.LabelColumn)
	case "model":
		return fmt.Sprintf("%s; label: column %d (the column after the map's inputs)", in, r.LabelColumn)
	}
	if r.Additive {
		return in + "; no label column (-label-column N leaves column N out)"
	}
	return in + "; no label column"
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
