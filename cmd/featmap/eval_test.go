package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/featmap/featmap/evaluate"
	"github.com/featmap/featmap/internal/digits"
)

// evalProgram classifies every row of a gzip'd CSV of digits (64 pixels,
// the label) with the emitted predictor and prints one line per row: the
// label and the predicted class.
const evalProgram = `package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		panic(err)
	}
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ",")
		var x [64]float64
		for j := range x {
			x[j], _ = strconv.ParseFloat(fields[j], 64)
		}
		fmt.Println(fields[64], DigitsClass(&x))
	}
}
`

// TestEvalAgreesWithEmittedPredictor: featmap eval's accuracy on a data
// file is the emitted predictor's, row for row: the Go code gen writes for
// a learned digits map, compiled and run on every row, classifies each row
// as evaluate.Predict does on the map gen -map wrote, and eval -json's
// accuracy is the share of those rows classified right. Compiles a
// program, so -short skips it.
func TestEvalAgreesWithEmittedPredictor(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the emitted predictor; skipped with -short")
	}
	for _, method := range []string{"rff", "nystroem"} {
		t.Run(method, func(t *testing.T) {
			spec := strings.Replace(learnDigits, "{name: rff, seed: 1}", "{name: "+method+", seed: 1}", 1) + "learn: {sigma: shared, ridge: auto}\n"
			evalAgrees(t, spec)
		})
	}
}

// evalAgrees is TestEvalAgreesWithEmittedPredictor for one spec.
func evalAgrees(t *testing.T, spec string) {
	dir := t.TempDir()
	src, mapFile := filepath.Join(dir, "digits.go"), filepath.Join(dir, "digits.json")
	if code, _, errOut := runCLI("gen", "-o", src, "-map", mapFile, "-pkg", "main", digitsSpec(t, spec)); code != exitOK {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	for name, text := range map[string]string{"main.go": evalProgram, "go.mod": "module example.com/eval\n\ngo 1.24\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := filepath.Abs(filepath.Join("..", "..", "testdata", "digits.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", ".", data)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	v, err := evaluate.ReadMap(mapFile)
	if err != nil {
		t.Fatal(err)
	}
	rows, labels, err := digits.LoadLabelled(data, 1797)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != len(rows) {
		t.Fatalf("the emitted predictor classified %d rows, the file has %d", len(lines), len(rows))
	}
	right := 0
	for i, l := range lines {
		f := strings.Fields(l)
		label, _ := strconv.ParseFloat(f[0], 64)
		got, _ := strconv.ParseFloat(f[1], 64)
		if label != labels[i] {
			t.Fatalf("row %d: the program read label %v, want %v", i, label, labels[i])
		}
		if want := evaluate.Predict(v.Map, rows[i]); got != want {
			t.Errorf("row %d: the emitted predictor says %v, evaluate.Predict %v", i, got, want)
		}
		if got == label {
			right++
		}
	}
	code, stdout, errOut := runCLI("eval", "-json", mapFile, data)
	if code != exitOK {
		t.Fatalf("eval: exit %d: %s", code, errOut)
	}
	var res struct {
		Rows       int      `json:"rows"`
		GramRelFro float64  `json:"gram_rel_fro"`
		LInf       float64  `json:"linf"`
		Accuracy   *float64 `json:"accuracy"`
		RMSE       *float64 `json:"rmse"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	want := float64(right) / float64(len(rows))
	if res.Rows != len(rows) || res.Accuracy == nil || *res.Accuracy != want || res.RMSE != nil || !(res.GramRelFro > 0 && res.LInf > 0) {
		t.Errorf("eval -json: %s\nwant %d rows, accuracy %v (%d of %d right by the emitted predictor)", stdout, len(rows), want, right, len(rows))
	}
	t.Logf("eval: accuracy %v = the emitted predictor's (%d of %d), Gram relative Frobenius %.4g, L∞ %.4g", want, right, len(rows), res.GramRelFro, res.LInf)
}

// TestEvalErrors: eval's exit codes and messages: 2 for a map file that is
// not one, a data file that is missing or bad (the data section's errors,
// in eval's terms) and a wrong flag or argument count; rows outside the
// map's domain measured with a warning; flags before, between or after
// the files; the text output states the columns used, the Gram error and
// the model's accuracy and confusions.
func TestEvalErrors(t *testing.T) {
	dir := t.TempDir()
	mapFile := filepath.Join(dir, "m.json")
	if code, _, errOut := runCLI("gen", "-o", filepath.Join(dir, "m.go"), "-map", mapFile, digitsSpec(t, learnDigits+"learn: {sigma: shared}\n")); code != exitOK {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	row := strings.TrimSuffix(strings.Repeat("1,", 64), ",")
	good := write("good.csv", row+",3\n"+row+",4\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{mapFile, good}, exitOK, "model: accuracy"},
		{[]string{mapFile}, exitUsage, "usage: featmap eval"},
		{[]string{write("not.json", "version: 1\n"), good}, exitUsage, "not a map written by featmap gen -map"},
		{[]string{write("nomap.json", "{}\n"), good}, exitUsage, `no "map" key`},
		{[]string{mapFile, filepath.Join(dir, "none.csv")}, exitUsage, "none.csv: no such file or directory"},
		{[]string{mapFile, write("bad.csv", row+",3\n"+strings.Replace(row, "1", "x", 1)+",4\n")}, exitUsage, `bad.csv:2: column 0: "x" is not a number`},
		{[]string{mapFile, write("out.csv", row+",3\n"+strings.Replace(row, "1", "17", 1)+",4\n")}, exitOK, "warning: 1 of the 2 rows measured have a value outside the map's domain"},
		{[]string{mapFile, write("neg.csv", row+",3\n"+strings.Replace(row, "1", "-1", 1)+",4\n")}, exitOK, "warning: 1 of the 2 rows"},
		{[]string{"-label-column", "70", mapFile, good}, exitUsage, "-label-column is 70 but the file has 65 columns"},
		{[]string{"-label-column", "-5", mapFile, good}, exitUsage, "-label-column -5"},
		{[]string{mapFile, good, "-json"}, exitOK, `"gram_rel_fro"`},
		{[]string{mapFile, "-label-column", "64", good}, exitOK, "label: column 64 (-label-column)"},
		{[]string{mapFile, good}, exitOK, "inputs: columns 0..63; label: column 64 (the map's data section)"},
		{[]string{"--", mapFile, good}, exitOK, "model: accuracy"},
		{[]string{mapFile, good, good}, exitUsage, "want a map file and a data file, got 3 arguments"},
	} {
		code, stdout, errOut := runCLI(append([]string{"eval"}, c.args...)...)
		if code != c.code || !strings.Contains(stdout+errOut, c.want) {
			t.Errorf("eval %s: exit %d, want %d with %q:\n%s%s", strings.Join(c.args, " "), code, c.code, c.want, stdout, errOut)
		}
	}
	// Rows of the map's inputs alone: the Gram error, no model figures.
	code, stdout, _ := runCLI("eval", "-json", mapFile, write("nolabel.csv", row+"\n"+row+"\n"))
	if code != exitOK || !strings.Contains(stdout, `"gram_rel_fro"`) || strings.Contains(stdout, `"accuracy"`) {
		t.Errorf("eval of unlabelled rows: exit %d\n%s", code, stdout)
	}
}
