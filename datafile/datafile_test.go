package datafile

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// chi2 is the problem of the tests' data files: the χ² kernel on the
// integers {0..16}, one axis (an additive kernel: any number of feature
// columns).
func chi2() *fmap.Problem {
	return &fmap.Problem{
		Kernel:  fmap.Kernel{Type: fmap.Chi2, Gamma: 1},
		Domain:  fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{16}},
		Measure: fmap.Absolute, Norm: fmap.LInf, Negative: fmap.NegativeSign,
	}
}

// section is a data section of file as the spec decoder fills it when
// only the file is given (every column, no label, a header detected, the
// default row cap and holdout), at line 7 of its spec.
func section(file string) *Section {
	return &Section{File: file, Last: -1, Label: -1, MaxRows: DefaultMaxRows, Holdout: DefaultHoldout, Line: 7}
}

// digits is the section of the digits file: 64 feature columns and the
// label in column 64.
func digits() *Section {
	d := section("digits.csv.gz")
	d.First, d.Last, d.Label = 0, 63, 64
	return d
}

// writeFiles writes the named files into a fresh directory and returns
// the path of a spec there (which need not exist: Read takes its data
// file's path relative to the spec's directory).
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "spec.yaml")
}

// read reads section d of a spec beside files for problem p.
func read(t *testing.T, d *Section, p *fmap.Problem, files map[string]string) (*Result, error) {
	t.Helper()
	return Read(context.Background(), writeFiles(t, files), d, p, Options{})
}

// mustRead is read that fails the test on an error.
func mustRead(t *testing.T, d *Section, p *fmap.Problem, files map[string]string) *Result {
	t.Helper()
	r, err := read(t, d, p, files)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLoadDigits: the digits file loads with its label column apart: 1797
// rows counted, the SHA-256 of the file's bytes, a fifth held out for
// verification (359 rows) and the rest to fit, 64 features each, labels
// 0–9 kept beside the rows; two loads give the same rows in the same order.
func TestLoadDigits(t *testing.T) {
	raw, err := os.ReadFile("../testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"digits.csv.gz": string(raw)}
	a, b := mustRead(t, digits(), chi2(), files), mustRead(t, digits(), chi2(), files)
	d := a.Data
	sum := sha256.Sum256(raw)
	switch {
	case d.Rows != 1797 || len(d.Held) != 359 || len(d.Fit) != 1797-359:
		t.Errorf("rows %d, held %d, fit %d; want 1797, 359, 1438", d.Rows, len(d.Held), len(d.Fit))
	case d.SHA256 != hex.EncodeToString(sum[:]):
		t.Errorf("sha256 %s, want %x", d.SHA256, sum)
	case len(d.Held[0]) != 64 || len(d.HeldLabels) != 359 || len(d.FitLabels) != 1438:
		t.Errorf("%d features, %d/%d labels", len(d.Held[0]), len(d.HeldLabels), len(d.FitLabels))
	case a.Header:
		t.Error("a header was detected in a file without one")
	case d.File != "digits.csv.gz":
		t.Errorf("file %q, want the section's", d.File)
	}
	for _, l := range append(d.HeldLabels, d.FitLabels...) {
		if l != float64(int(l)) || l < 0 || l > 9 {
			t.Fatalf("label %v, want 0..9", l)
		}
	}
	if !reflect.DeepEqual(a.Data, b.Data) {
		t.Error("two loads differ")
	}
}

// TestHoldout: data.holdout sets the held-out fraction: 0 holds no row out
// (every row kept is a row to fit, in the order the default split puts
// them, held-out rows first), 0.5 half of them; the default 0.2 holds out
// n/5 (at least one, at most HeldRows) for every n.
func TestHoldout(t *testing.T) {
	raw, err := os.ReadFile("../testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"digits.csv.gz": string(raw)}
	def := mustRead(t, digits(), chi2(), files).Data
	none := digits()
	none.Holdout = 0
	d0 := mustRead(t, none, chi2(), files).Data
	if len(d0.Held) != 0 || len(d0.HeldLabels) != 0 || len(d0.Fit) != 1797 || len(d0.FitLabels) != 1797 {
		t.Errorf("holdout 0: %d held, %d fit, want 0 and 1797", len(d0.Held), len(d0.Fit))
	}
	if !reflect.DeepEqual(d0.Fit, append(slices.Clone(def.Held), def.Fit...)) || !reflect.DeepEqual(d0.FitLabels, append(slices.Clone(def.HeldLabels), def.FitLabels...)) {
		t.Error("holdout 0: the rows to fit are not the default split's rows, held-out first")
	}
	half := digits()
	half.Holdout = 0.5
	if d := mustRead(t, half, chi2(), files).Data; len(d.Held) != 898 || len(d.Fit) != 899 {
		t.Errorf("holdout 0.5: %d held, %d fit, want 898 and 899", len(d.Held), len(d.Fit))
	}
	for n := 2; n <= 20000; n++ {
		if got, want := HeldCount(n, DefaultHoldout), min(HeldRows, max(1, n/5)); got != want {
			t.Fatalf("HeldCount(%d, %v) = %d, want %d", n, DefaultHoldout, got, want)
		}
	}
	for _, n := range []int{2, 3, 7, 100} {
		if h := HeldCount(n, MaxHoldout); h < 1 || n-h < 1 {
			t.Errorf("HeldCount(%d, %v) = %d: want a held-out row and a row to fit", n, MaxHoldout, h)
		}
	}
}

// TestDataMaxRowsAboveFile: a data.max_rows far above what the file holds
// (2·10⁶ rows of 40 features would take 0.75 GB, beyond MaxKeptBytes)
// costs nothing: the limit is on the bytes of the rows kept, checked as
// rows come; the cap alone used to be refused at the first line even for
// a file of 300 rows.
func TestDataMaxRowsAboveFile(t *testing.T) {
	var sb strings.Builder
	for i := range 300 {
		row := make([]string, 40)
		for j := range row {
			row[j] = strconv.Itoa((i + j) % 17)
		}
		sb.WriteString(strings.Join(row, ",") + "\n")
	}
	files := map[string]string{"d.csv": sb.String()}
	d := section("d.csv")
	d.MaxRows = 2000000
	// χ² is additive: any number of feature columns.
	if r := mustRead(t, d, chi2(), files).Data; r.Rows != 300 || len(r.Held)+len(r.Fit) != 300 {
		t.Errorf("%d rows read, %d kept; want 300 and 300", r.Rows, len(r.Held)+len(r.Fit))
	}
	// Past the bound (lowered here to 100 rows of 40), the read stops at
	// the row that would cross it, naming the rows kept and the spec's
	// data.max_rows.
	defer func(n int) { keptLimit = n }(keptLimit)
	keptLimit = 100 * RowBytes(40)
	spec := writeFiles(t, files)
	_, err := Read(context.Background(), spec, d, chi2(), Options{})
	var de *DataError
	if !errors.As(err, &de) || de.Line != 101 || !strings.Contains(err.Error(), "more than 0.03433 MiB of rows kept (101 rows of 40 feature columns, 360 bytes each): lower data.max_rows (2000000, "+spec+":7) to at most 100") {
		t.Errorf("error %v; want a DataError at line 101 naming the rows, the columns and data.max_rows at %s:7", err, spec)
	}
}

// TestDataRows: headers are detected or given; the label column is never
// a feature; max_rows keeps a seeded reservoir sample (the same rows every
// time, a different set from the first rows, and a uniform one: the mean
// line of the 50 rows kept of 300 is within three standard errors of a
// uniform sample's, 150.5 ± 3·11.2).
func TestDataRows(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("a b c\n")
	for i := range 300 {
		sb.WriteString(strings.Join([]string{strconv.Itoa(i % 17), strconv.Itoa(i / 17 % 17), strconv.Itoa(i % 3)}, " ") + "\n")
	}
	files := map[string]string{"d.txt": sb.String()}
	sec := section("d.txt")
	sec.Label, sec.MaxRows = 2, 50
	r := mustRead(t, sec, chi2(), files)
	d := r.Data
	if !r.Header || d.Rows != 300 || len(d.Held)+len(d.Fit) != 50 || len(d.Held) != 10 {
		t.Fatalf("header %v, rows %d, kept %d (held %d); want true, 300, 50 (10)", r.Header, d.Rows, len(d.Held)+len(d.Fit), len(d.Held))
	}
	late, sum := 0, 0.0
	kept, keptLabels := append(slices.Clone(d.Held), d.Fit...), append(slices.Clone(d.HeldLabels), d.FitLabels...)
	for k, x := range kept {
		if len(x) != 2 {
			t.Fatalf("row %v: want the two feature columns only", x)
		}
		if x[1] >= 3 { // rows i ≥ 51 only
			late++
		}
		// Row i is (i mod 17, ⌊i/17⌋ mod 17, i mod 3): i = 17·x₁ + x₀, or
		// that plus 289 (= 17², 1 mod 3) where the label says so.
		i := 17*int(x[1]) + int(x[0])
		if i%3 != int(keptLabels[k]) {
			i += 289
		}
		sum += float64(i + 1)
	}
	// The mean of n lines drawn without replacement from 1..N has the
	// standard error √((N² − 1)/12/n · (N − n)/(N − 1)): 11.2 here.
	const n, N = 50.0, 300.0
	se := math.Sqrt((N*N - 1) / 12 / n * (N - n) / (N - 1))
	mean := sum / n
	t.Logf("mean line of the rows kept %.1f (uniform: %.1f ± %.1f)", mean, (N+1)/2, se)
	if math.Abs(mean-(N+1)/2) > 3*se {
		t.Errorf("the rows kept have the mean line %.1f, a uniform sample's is %.1f ± %.1f: not a uniform reservoir sample", mean, (N+1)/2, se)
	}
	for _, l := range d.FitLabels {
		if l > 2 {
			t.Fatalf("label %v, want 0..2", l)
		}
	}
	if late == 0 {
		t.Error("the sample holds only rows among the first 51: not a reservoir sample")
	}
	again := mustRead(t, sec, chi2(), files)
	if !reflect.DeepEqual(again.Data.Fit, d.Fit) {
		t.Error("two samples differ")
	}
	header := section("d.txt")
	header.First, header.Last, header.Header = 0, 1, yes()
	if r := mustRead(t, header, chi2(), files); r.Data.Rows != 300 {
		t.Errorf("header: true: %d rows", r.Data.Rows)
	}
}

// TestDataHeaderWarning: a first line taken as a header although some of
// its fields are numbers (a data row with a typo, "1,2e,0") is said in a
// warning naming the file, line and column; a header of names is not.
func TestDataHeaderWarning(t *testing.T) {
	var rows strings.Builder
	for i := range 20 {
		rows.WriteString(strconv.Itoa(i%17) + "," + strconv.Itoa(i/17) + "\n")
	}
	for _, c := range []struct {
		first string
		warn  bool
	}{{"3,2e\n", true}, {"x,y\n", false}} {
		files := map[string]string{"d.csv": c.first + rows.String()}
		r := mustRead(t, section("d.csv"), chi2(), files)
		if !r.Header || r.Data.Rows != 20 {
			t.Fatalf("first line %q: header %v, %d rows; want a header and 20 rows", c.first, r.Header, r.Data.Rows)
		}
		got := strings.Join(r.Warnings, "\n")
		if c.warn != strings.Contains(got, `d.csv:1: column 1: "2e" is not a number, so the line is taken as a header`) || !c.warn && got != "" {
			t.Errorf("first line %q: warnings %q", c.first, got)
		}
	}
	// Told it is a header: no warning.
	files := map[string]string{"d.csv": "3,2e\n" + rows.String()}
	d := section("d.csv")
	d.Header = yes()
	if r := mustRead(t, d, chi2(), files); len(r.Warnings) != 0 {
		t.Errorf("header: true: warnings %q", r.Warnings)
	}
}

// TestDataCancel: Read stops reading the data file when its context ends
// (cancelled here at the first progress message, 100 rows in: the other
// 4 900 are not read), with an error wrapping the context's.
func TestDataCancel(t *testing.T) {
	var sb strings.Builder
	for i := range 5000 {
		sb.WriteString(strconv.Itoa(i%17) + "," + strconv.Itoa(i/17%17) + "\n")
	}
	spec := writeFiles(t, map[string]string{"d.csv": sb.String()})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var msgs []string
	const every = 100
	r, err := Read(ctx, spec, section("d.csv"), chi2(), Options{ProgressRows: every, Progress: func(m string) {
		msgs = append(msgs, m)
		cancel()
	}})
	if !errors.Is(err, context.Canceled) || r != nil {
		t.Errorf("result %v, err %v; want none and the context's error", r != nil, err)
	}
	if len(msgs) > CheckRows/every+1 {
		t.Errorf("%d progress messages after the cancel, want at most %d: %q", len(msgs), CheckRows/every+1, msgs)
	}
}

// TestDataProgress: a long read reports every Options.ProgressRows rows how
// many rows it has read, how much of the file that is and how many it
// keeps; the last message is at the last multiple of the interval.
func TestDataProgress(t *testing.T) {
	var sb strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&sb, "%d %d\n", i%17, i/17%17)
	}
	d := section("d.txt")
	d.MaxRows = 250
	var msgs []string
	if _, err := Read(context.Background(), writeFiles(t, map[string]string{"d.txt": sb.String()}), d, chi2(),
		Options{ProgressRows: 100, Progress: func(m string) { msgs = append(msgs, m) }}); err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 10 {
		t.Fatalf("%d progress messages, want 10 (one per 100 of 1000 rows): %q", len(msgs), msgs)
	}
	want := regexp.MustCompile(`^data d\.txt: 1000 rows read \((\d+)% of (\d+) bytes\), 250 kept$`)
	m := want.FindStringSubmatch(msgs[9])
	if m == nil {
		t.Fatalf("last message %q, want %v", msgs[9], want)
	}
	// The whole file has been read by its 1000th row (bufio reads ahead).
	if m[1] != "100" || m[2] != strconv.Itoa(sb.Len()) {
		t.Errorf("last message %q: want 100%% of %d bytes", msgs[9], sb.Len())
	}
	if !strings.HasPrefix(msgs[0], "data d.txt: 100 rows read") || !strings.HasSuffix(msgs[0], ", 100 kept") {
		t.Errorf("first message %q", msgs[0])
	}
}

// TestDataErrors: every bad data file is an error naming the file, the
// line and the column where there is one — never a crash or a hang (a FIFO
// as the file returns at once).
func TestDataErrors(t *testing.T) {
	with := func(file string, set func(*Section)) *Section {
		d := section(file)
		if set != nil {
			set(d)
		}
		return d
	}
	cases := []struct {
		name string
		data *Section
		file string
		want string
	}{
		{"not a number", with("d.csv", nil), "1,2\n3,1.2.3\n", `d.csv:2: column 1: "1.2.3" is not a number`},
		{"NaN", with("d.csv", nil), "1,2\nNaN,3\n", `d.csv:2: column 0: "NaN" is not finite`},
		{"infinite", with("d.csv", nil), "1,2\n3,-Inf\n", `d.csv:2: column 1: "-Inf" is not finite`},
		{"outside the domain", with("d.csv", nil), "1,2\n3,17\n", `d.csv:2: column 1: 17 is outside the domain the integers {0..16}`},
		{"not an integer", with("d.csv", nil), "1,2.5\n", `d.csv:1: column 1: 2.5 is not an integer`},
		{"column count", with("d.csv", nil), "1,2\n3,4,5\n", `d.csv:2: 3 columns, but the first row has 2`},
		{"column count: one", with("d.csv", nil), "1,2\n3\n", `d.csv:2: 1 column, but the first row has 2`},
		{"empty", with("d.csv", nil), "", `d.csv: 0 data rows: need at least 2`},
		{"header only", with("d.csv", nil), "a,b\n", `d.csv: 0 data rows: need at least 2 (line 1 was taken as a header, because "a" is not a number; data.header: false reads it as data)`},
		{"one row after a guessed header", with("d.csv", func(d *Section) { d.Label = 2 }), "1,2x,0\n3,4,1\n",
			`d.csv: 1 data row: need at least 2 (line 1 was taken as a header, because "2x" is not a number; data.header: false reads it as data)`},
		{"bad label after a guessed header", with("d.csv", func(d *Section) { d.Label = 2 }), "1,2,x\n3,4,y\n",
			`d.csv:2: column 2: "y" is not a number (line 1 was taken as a header, because "x" is not a number; data.header: false reads it as data)`},
		{"overflow", with("d.csv", nil), "1,2\n3,1e400\n", `d.csv:2: column 1: "1e400" overflows: it is beyond ±1.798e+308, the largest float64`},
		{"overflow first", with("d.csv", nil), "1e400,2\n3,4\n", `d.csv:1: column 0: "1e400" overflows`},
		{"file name not printable", with("d\x1b[31m.csv", nil), "1,2\n", `/d\x1b[31m.csv": 1 data row`},
		{"forced no header", with("d.csv", func(d *Section) { d.Header = new(bool) }), "a,b\n1,2\n", `d.csv:1: column 0: "a" is not a number`},
		{"label in columns", with("d.csv", func(d *Section) { d.First, d.Last, d.Label = 0, 1, 1 }), "1,2\n", `label_column 1 is inside data.columns [0, 1]`},
		{"columns beyond", with("d.csv", func(d *Section) { d.First, d.Last = 0, 5 }), "1,2\n", `data.columns ends at 5 but the file has 2 columns (0..1)`},
		{"columns beyond one", with("d.csv", func(d *Section) { d.First, d.Last = 0, 5 }), "1\n", `data.columns ends at 5 but the file has 1 column (0)`},
		{"label beyond", with("d.csv", func(d *Section) { d.Label = 4 }), "1,2\n", `data.label_column is 4 but the file has 2 columns (0..1)`},
		{"label beyond one", with("d.csv", func(d *Section) { d.Label = 4 }), "1\n", `data.label_column is 4 but the file has 1 column (0)`},
		{"missing file", with("nothere.csv", nil), "", `nothere.csv: no such file or directory (data.file, `},
		{"missing file: where", with("nothere.csv", nil), "", `/spec.yaml:7, relative to the spec's directory)`},
		{"gzip broken", with("d.csv.gz", nil), "\x1f\x8bnot gzip", `gzip`},
		{"npy", with("d.npy", nil), "x", `not a .npy file`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{}
			if !strings.HasPrefix(c.name, "missing file") {
				files[c.data.File] = c.file
			}
			_, err := read(t, c.data, chi2(), files)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	// A .gz file cut short: its last, partial line is not taken for a
	// short row ("47 columns, but the first row has 65" on a cut digits
	// file); the error says the compressed data ends early. A whole file
	// that is damaged (its checksum wrong, junk after the stream) fails
	// with gzip's own error, not said to end early.
	t.Run("gzip cut short or damaged", func(t *testing.T) {
		var plain strings.Builder
		for i := range 2000 {
			plain.WriteString(strconv.Itoa(i%17) + "," + strconv.Itoa(i*7%17) + "\n")
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write([]byte(plain.String()))
		zw.Close()
		whole := gz.Bytes()
		crc := slices.Clone(whole)
		crc[len(crc)-8] ^= 0xff // the trailer's CRC-32
		for _, c := range []struct {
			name, body, want string
		}{
			{"cut short", string(whole[:len(whole)*2/3]), "d.csv.gz: gzip: unexpected EOF: the compressed data ends early"},
			{"checksum", string(crc), "d.csv.gz: gzip: invalid checksum"},
			{"junk after it", string(whole) + "junk after the stream", "d.csv.gz: gzip: invalid header: the file goes on after the end of its compressed data with bytes that are not gzip"},
		} {
			_, err := read(t, section("d.csv.gz"), chi2(), map[string]string{"d.csv.gz": c.body})
			if err == nil || !strings.Contains(err.Error(), c.want) || c.name != "cut short" && strings.Contains(err.Error(), "ends early") ||
				strings.Contains(err.Error(), "gzip: gzip:") {
				t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
			}
		}
	})
	t.Run("fifo and device", func(t *testing.T) {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "fifo.csv")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skip("no FIFO here:", err)
		}
		// Refused before it is opened: reading the FIFO would block
		// until a writer came, /dev/zero would never end.
		for _, f := range []string{fifo, "/dev/zero"} {
			_, err := Read(context.Background(), filepath.Join(dir, "spec.yaml"), section(f), chi2(), Options{})
			var de *DataError
			if !errors.As(err, &de) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v, want a DataError 'not a regular file'", f, err)
			}
		}
	})
	t.Run("rbf columns", func(t *testing.T) {
		rbf := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1, 1, 1}},
			Domain: fmap.Domain{Lo: []float64{0, 0, 0}, Hi: []float64{16, 16, 16}}, Measure: fmap.Uniform, Norm: fmap.LInf}
		files := map[string]string{"d.csv": "1,2\n3,4\n"}
		_, err := read(t, section("d.csv"), rbf, files)
		if err == nil || !strings.Contains(err.Error(), "2 feature columns (0..1) but domain.dims is 3") {
			t.Errorf("error %v", err)
		}
		label := section("d.csv")
		label.Label = 1
		_, err = read(t, label, rbf, files)
		if err == nil || !strings.Contains(err.Error(), "1 feature column (0) but domain.dims is 3") {
			t.Errorf("one feature column: error %v", err)
		}
	})
}

// npyBytes encodes rows as a .npy file (format 1.0, C order), float64 or
// float32, with the dtype and shape written as given (for error cases).
func npyBytes(rows [][]float64, f32 bool, descr, shape string) []byte {
	if descr == "" {
		descr = "<f8"
		if f32 {
			descr = "<f4"
		}
	}
	if shape == "" {
		shape = fmt.Sprintf("(%d, %d)", len(rows), len(rows[0]))
	}
	h := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape)
	for (10+len(h)+1)%64 != 0 {
		h += " "
	}
	h += "\n"
	b := []byte("\x93NUMPY\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(h)))
	b = append(b, h...)
	for _, r := range rows {
		for _, v := range r {
			if f32 {
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
			} else {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
			}
		}
	}
	return b
}

// TestDataNpy: a .npy file (float64 or float32, gzip'd or not) gives the
// same rows as the same data as CSV; bad .npy files are clear errors with
// the row and column where there is one.
func TestDataNpy(t *testing.T) {
	var rows [][]float64
	var csv strings.Builder
	for i := range 40 {
		r := []float64{float64(i % 17), float64((i * 5) % 17), float64(i % 3)}
		rows = append(rows, r)
		fmt.Fprintf(&csv, "%g,%g,%g\n", r[0], r[1], r[2])
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(npyBytes(rows, false, "", ""))
	zw.Close()
	files := map[string]string{"d.csv": csv.String(), "d.npy": string(npyBytes(rows, false, "", "")),
		"f.npy": string(npyBytes(rows, true, "", "")), "g.npy.gz": gz.String()}
	labelled := func(file string) *Section {
		d := section(file)
		d.Label = 2
		return d
	}
	want := mustRead(t, labelled("d.csv"), chi2(), files).Data
	for _, name := range []string{"d.npy", "f.npy", "g.npy.gz"} {
		got := mustRead(t, labelled(name), chi2(), files).Data
		if !reflect.DeepEqual(got.Fit, want.Fit) || !reflect.DeepEqual(got.HeldLabels, want.HeldLabels) || got.Rows != 40 {
			t.Errorf("%s: rows differ from the CSV's (%d rows)", name, got.Rows)
		}
	}
	bad := map[string]struct{ file, want string }{
		"magic":   {"not numpy at all", "not a .npy file"},
		"dtype":   {string(npyBytes(rows, false, "<i8", "")), `.npy dtype "<i8"`},
		"shape":   {string(npyBytes(rows, false, "", "(40, 3, 1)")), ".npy array of 3 dimensions"},
		"short":   {string(npyBytes(rows, false, "", "(41, 3)")), "d.npy:41: .npy data ends within row 41 of 41"},
		"long":    {string(npyBytes(rows, false, "", "(10, 3)")), ".npy header's shape says 10 rows of 3 values, but 720 more bytes follow them (30 rows more): the shape is wrong"},
		"NaN":     {string(npyBytes([][]float64{{1, 2, 0}, {math.NaN(), 2, 0}}, false, "", "")), `d.npy:2: column 0: "NaN" is not finite`},
		"outside": {string(npyBytes([][]float64{{1, 2, 0}, {1, 20, 0}}, false, "", "")), "d.npy:2: column 1: 20 is outside the domain"},
	}
	for name, c := range bad {
		_, err := read(t, labelled("d.npy"), chi2(), map[string]string{"d.npy": c.file})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

// TestDataCarriageReturns: lines that end in a lone carriage return (old
// Mac files), in "\r\n" or in "\n" are the same rows, whatever the
// buffer boundaries fall on.
func TestDataCarriageReturns(t *testing.T) {
	var lines []string
	for i := range 5000 {
		lines = append(lines, strconv.Itoa(i%17)+","+strconv.Itoa(i*7%17))
	}
	want := mustRead(t, section("d.csv"), chi2(), map[string]string{"d.csv": strings.Join(lines, "\n") + "\n"}).Data
	for name, sep := range map[string]string{"CR": "\r", "CRLF": "\r\n"} {
		for _, last := range []string{"", sep} {
			got := mustRead(t, section("d.csv"), chi2(), map[string]string{"d.csv": strings.Join(lines, sep) + last}).Data
			if got.Rows != 5000 || !reflect.DeepEqual(got.Fit, want.Fit) {
				t.Errorf("%s (last line ends %q): %d rows, want the 5000 of the same file with \\n", name, last, got.Rows)
			}
		}
	}
	// A truncated gzip'd .npy is the gzip stream's error, not a bad .npy.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(npyBytes([][]float64{{1, 2}, {3, 4}}, false, "", ""))
	zw.Close()
	_, err := read(t, section("d.npy.gz"), chi2(), map[string]string{"d.npy.gz": string(gz.Bytes()[:20])})
	if err == nil || !strings.Contains(err.Error(), "the compressed data ends early") {
		t.Errorf("a cut .npy.gz: %v, want the gzip data ending early", err)
	}
}

// TestDataBOM: a UTF-8 byte order mark before the first line (as
// spreadsheet programs write "CSV UTF-8") is not part of the first field:
// a file of numbers with one has no header and keeps its first row (no
// warning), and one with a header still has it.
func TestDataBOM(t *testing.T) {
	var sb strings.Builder
	for i := range 300 {
		sb.WriteString(strings.Join([]string{strconv.Itoa(i % 17), strconv.Itoa(i / 17 % 17), strconv.Itoa(i % 3)}, ",") + "\n")
	}
	for name, body := range map[string]string{"numbers": "\ufeff" + sb.String(), "header": "\ufeffa,b,c\n" + sb.String()} {
		d := section("d.csv")
		d.Label = 2
		r := mustRead(t, d, chi2(), map[string]string{"d.csv": body})
		if r.Data.Rows != 300 || r.Header != (name == "header") || len(r.Warnings) > 0 {
			t.Errorf("%s: %d rows, header %v, warnings %q; want 300 rows, header %v, no warning", name, r.Data.Rows, r.Header, r.Warnings, name == "header")
		}
	}
}

// yes is a true data.header.
func yes() *bool {
	b := true
	return &b
}

// TestDataEmptyLinesReport: a file of millions of empty lines (2 GB of
// them gzip to 9 MB) has no row to report for a long read: the read
// reports the lines every lineTick of them all the same, and stops when
// its context ends.
func TestDataEmptyLinesReport(t *testing.T) {
	body := strings.Repeat("\n", 2*lineTick+5) + "1,2\n3,4\n"
	spec := writeFiles(t, map[string]string{"d.csv": body})
	var msgs []string
	r, err := Read(context.Background(), spec, section("d.csv"), chi2(), Options{Progress: func(m string) { msgs = append(msgs, m) }})
	if err != nil || r.Data.Rows != 2 {
		t.Fatalf("%v, want the 2 rows", err)
	}
	if len(msgs) != 2 || !strings.Contains(msgs[0], fmt.Sprintf("d.csv: %d lines read (", lineTick)) || !strings.Contains(msgs[1], ", 0 rows") {
		t.Errorf("progress %q, want two reports of the lines read", msgs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Read(ctx, spec, section("d.csv"), chi2(), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled read of empty lines: %v, want context.Canceled", err)
	}
}

// TestDataKeepOutside: with Options.KeepOutside a row with a value beyond
// the domain or not an integer on an integer domain is kept, where the
// default refuses the file at it; a value where the kernel is not defined
// (χ² of a negative value) is refused either way, naming the line, the
// column and why. A file whose columns do not fit the section is an error
// with the key and the file's width.
func TestDataKeepOutside(t *testing.T) {
	files := map[string]string{"x.csv": "1,2\n40,3\n2.5,4\n"}
	if _, err := read(t, section("x.csv"), chi2(), files); err == nil || !strings.Contains(err.Error(), "x.csv:2: column 0: 40 is outside the domain") {
		t.Errorf("default: %v", err)
	}
	r, err := Read(context.Background(), writeFiles(t, files), section("x.csv"), chi2(), Options{KeepOutside: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.Data.Fit) + len(r.Data.Held); n != 3 {
		t.Errorf("KeepOutside: %d rows kept, want 3", n)
	}
	neg := map[string]string{"x.csv": "1,2\n3,-1\n"}
	_, err = Read(context.Background(), writeFiles(t, neg), section("x.csv"), chi2(), Options{KeepOutside: true})
	if err == nil || !strings.Contains(err.Error(), "x.csv:2: column 1: -1: the chi2 kernel is defined for x ≥ 0 only") {
		t.Errorf("a negative value with KeepOutside: %v", err)
	}
	d := section("x.csv")
	d.Label = 7
	_, err = read(t, d, chi2(), files)
	var de *DataError
	if !errors.As(err, &de) || de.Key != "data.label_column" || de.Width != 2 || de.Line != 1 {
		t.Errorf("label column 7 of 2: %#v", err)
	}
}
