package datafile

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzDataFile reads arbitrary bytes as the data file of a χ² problem on
// {0..16}: the read either fails with a *DataError naming the file, or
// every kept row has the domain's width of finite integers in {0..16},
// the held-out rows are a fifth of those kept (at least one), and the row
// count is at least the rows kept. It never panics.
func FuzzDataFile(f *testing.F) {
	for _, seed := range []string{"1,2\n3,4\n", "a,b\n1,2\n3,4\n5,6\n", "1 2\n3\n", "NaN,1\n", "\x1f\x8b\x08", "", "16\n0\n7\n",
		"1,2,3\n4,5,6\n7,8,9\n10,11,12\n13,14,15\n", "1,2\r3,4\r5,6\r", "1,2\r\n3,4\r\n", "1e400,1\n2,3\n", "1,2x,0\n3,4,1\n",
		"1,2,x\n3,4,y\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDataFile(t, "d.csv", data) })
}

// FuzzDataNpy is FuzzDataFile for a file named d.npy, read as NumPy's
// format (header, dtype, shape, rows), seeded with files of both dtypes,
// both header lengths and the broken headers of TestDataNpy.
func FuzzDataNpy(f *testing.F) {
	rows := [][]float64{{1, 2, 0}, {16, 0, 1}, {3, 4, 1}, {5, 6, 0}, {7, 8, 1}}
	v2 := npyBytes(rows, false, "", "")
	hlen := binary.LittleEndian.Uint16(v2[8:10])
	v2 = append(binary.LittleEndian.AppendUint32([]byte("\x93NUMPY\x02\x00"), uint32(hlen)), v2[10:]...)
	for _, seed := range [][]byte{
		npyBytes(rows, false, "", ""), npyBytes(rows, true, "", ""), v2,
		npyBytes(rows, false, "<i8", ""), npyBytes(rows, false, "", "(5, 3, 1)"), npyBytes(rows, false, "", "(6, 3)"),
		npyBytes(rows, false, "", "(15,)"), npyBytes([][]float64{{math.NaN(), 1, 0}}, false, "", ""), npyBytes(rows, false, "", "(2, 3)"),
		[]byte("\x93NUMPY\x01\x00\xff\xff"), []byte("\x93NUMPY\x03\x00\xff\xff\xff\x7f"),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDataFile(t, "d.npy", data) })
}

// FuzzDataLineEnds: a text file whose lines end in lone carriage returns
// reads as the same file with line feeds: the same rows kept, or an error
// at the same line.
func FuzzDataLineEnds(f *testing.F) {
	for _, seed := range []string{"1,2\n3,4\n", "a,b\n1,2\n\n3,4\n5,6\n", "1,2\n3\n", "16\n0\n7", "1,2,3\n4,5,6\n7,8,9\n10,11,12\n13,14,15\n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.ContainsRune(text, '\r') || strings.HasPrefix(text, "\x1f\x8b") {
			return
		}
		lf, errLF := readText(t, text)
		cr, errCR := readText(t, strings.ReplaceAll(text, "\n", "\r"))
		var a, b *DataError
		switch {
		case (errLF == nil) != (errCR == nil):
			t.Fatalf("with line feeds %v, with carriage returns %v", errLF, errCR)
		case errLF != nil && errors.As(errLF, &a) && errors.As(errCR, &b) && a.Line != b.Line:
			t.Fatalf("errors at lines %d and %d: %v; %v", a.Line, b.Line, errLF, errCR)
		case errLF == nil && !reflect.DeepEqual(lf.Data.Fit, cr.Data.Fit):
			t.Fatalf("rows differ")
		}
	})
}

// readText reads text as the data file d.csv of a χ² problem on {0..16}.
func readText(t *testing.T, text string) (*Result, error) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return Read(context.Background(), filepath.Join(dir, "spec.yaml"), section("d.csv"), chi2(), Options{})
}

// checkDataFile reads data, written to a file of the given name, as the
// data file of a χ² problem on {0..16} (at most 50 rows kept) and checks
// what FuzzDataFile promises.
func checkDataFile(t *testing.T, name string, data []byte) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	sec := section(name)
	sec.MaxRows = 50
	r, err := Read(context.Background(), filepath.Join(dir, "spec.yaml"), sec, chi2(), Options{})
	if err != nil {
		var de *DataError
		if !errors.As(err, &de) {
			t.Fatalf("error %v is not a *DataError", err)
		}
		return
	}
	d := r.Data
	kept := append(append([][]float64{}, d.Held...), d.Fit...)
	if d.Rows < len(kept) || len(kept) > 50 || len(d.Held) != max(1, len(kept)/5) {
		t.Fatalf("rows %d, kept %d, held %d", d.Rows, len(kept), len(d.Held))
	}
	for _, x := range kept {
		if len(x) != len(kept[0]) {
			t.Fatalf("rows of %d and %d values", len(x), len(kept[0]))
		}
		for _, v := range x {
			if math.IsNaN(v) || v < 0 || v > 16 || v != math.Trunc(v) {
				t.Fatalf("value %v kept", v)
			}
		}
	}
}
