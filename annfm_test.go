package featmap

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestANNFMDigits: on the digits, annfm's k-means anchors (one
// table per pixel, learned from the rows to fit) leave a lower held-out
// Gram error than uniform anchors of the same table size, at D = 3, 7 and
// 11 per pixel; and k-means anchors without a data section are a spec
// error at the option's line.
func TestANNFMDigits(t *testing.T) {
	raw, err := os.ReadFile("testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"digits.csv.gz": string(raw)}
	body := `version: 1
name: AnnDigits
kernel: {type: chi2}
domain: {integers: [0, 16]}
target: {dim: %d}
method: {name: annfm, anchors: %s, n_anchors: 12}
`
	data := "data: {file: digits.csv.gz, columns: [0, 63], label_column: 64}\n"
	_, err = ParseSpec("a.yaml", []byte(fmt.Sprintf(body, 5, "kmeans")))
	if err == nil || !strings.Contains(err.Error(), "a.yaml:6: method.anchors: k-means anchors are learned from data") {
		t.Errorf("kmeans without data: %v", err)
	}
	for _, dim := range []int{3, 7, 11} {
		km := mustDesign(t, loadSpec(t, writeSpecWith(t, fmt.Sprintf(body, dim, "kmeans")+data, files)), Settings{})
		un := mustDesign(t, loadSpec(t, writeSpecWith(t, fmt.Sprintf(body, dim, "uniform")+data, files)), Settings{})
		if got := km.Map.Coordinates(); got != 64 {
			t.Errorf("D = %d: k-means map has %d tables, want one per pixel", dim, got)
		}
		a, b := km.Verification.Data.Frobenius, un.Verification.Data.Frobenius
		t.Logf("D = %d, 12 anchors: held-out Gram error k-means %.4g, uniform %.4g", dim, a, b)
		if a >= b {
			t.Errorf("D = %d: k-means anchors (%.4g) not below uniform anchors (%.4g)", dim, a, b)
		}
	}
}

// TestANNFMEnergyOption: energy is read as a number (absent: the default
// 0.99), a value outside [0, 1] is a spec error at its line, and a D whose
// leading components keep less of the anchor matrix's trace than energy
// fails the design naming the D that would do (χ², 101 uniform anchors on
// {0..100}: as on [0, 1] up to the factor 100 of a 1-homogeneous kernel,
// r'(99 %) = 2 and r'(95 %) = 1, docs/formulas.md §4.2).
func TestANNFMEnergyOption(t *testing.T) {
	body := `version: 1
name: Ann
kernel: {type: chi2}
domain: {integers: [0, 100]}
target: {dim: 1}
method: {name: annfm, n_anchors: 101%s}
`
	if _, err := ParseSpec("a.yaml", []byte(fmt.Sprintf(body, ", energy: 1.5"))); err == nil || !strings.Contains(err.Error(), "a.yaml:6: method.energy: 1.5 is not a fraction") {
		t.Errorf("energy 1.5: %v", err)
	}
	s, err := ParseSpec("a.yaml", []byte(fmt.Sprintf(body, "")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Design(t.Context(), Settings{}); err == nil || !strings.Contains(err.Error(), "below energy 0.99: D = 2 would keep enough") {
		t.Errorf("default energy at D = 1: %v", err)
	}
	s, err = ParseSpec("a.yaml", []byte(fmt.Sprintf(body, ", energy: 0.95")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Design(t.Context(), Settings{}); err != nil {
		t.Errorf("energy 0.95 at D = 1: %v", err)
	}
}
