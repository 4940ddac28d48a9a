package featmap_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/codegen"
)

// A spec goes in, a verified map comes out: Vedaldi–Zisserman's 7-D map of
// the χ² kernel on histogram entries in [0.001, 1], its measured error, and
// Ψ(x)·Ψ(y) against the kernel 2xy/(x + y).
func Example() {
	src := []byte(`version: 1
name: Chi2
kernel: {type: chi2}
domain: {interval: [0.001, 1]}
target: {dim: 7}
method: {name: vz}
`)
	s, err := featmap.ParseSpec("chi2.yaml", src)
	if err != nil {
		log.Fatal(err)
	}
	d, err := s.Design(context.Background(), featmap.Settings{})
	if err != nil {
		log.Fatal(err)
	}
	m := d.Map
	fmt.Println("D =", m.Dim)
	fmt.Printf("verified L∞ error %.2g\n", d.Verification.Absolute.LInf)

	x, y := 0.2, 0.5
	px, py := make([]float64, m.Dim), make([]float64, m.Dim)
	m.Eval(px, []float64{x})
	m.Eval(py, []float64{y})
	var dot float64
	for i := range px {
		dot += px[i] * py[i]
	}
	fmt.Printf("Ψ(x)·Ψ(y) = %.4f, K(x, y) = %.4f\n", dot, 2*x*y/(x+y))
	// Output:
	// D = 7
	// verified L∞ error 0.0045
	// Ψ(x)·Ψ(y) = 0.2859, K(x, y) = 0.2857
}

// A spec file in, Go source out: LoadSpec reads
// specs/chebyshev-chi2-hist-7d.yaml (the 7-D Chebyshev map of the χ²
// kernel), Design designs and verifies it, and
// codegen.Generate emits the map as a Go file of package hist, whose
// exported functions are listed here.
func Example_generate() {
	s, err := featmap.LoadSpec("specs/chebyshev-chi2-hist-7d.yaml")
	if err != nil {
		log.Fatal(err)
	}
	d, err := s.Design(context.Background(), featmap.Settings{})
	if err != nil {
		log.Fatal(err)
	}
	src, err := codegen.Generate(d.Verified(), codegen.Info{Name: s.Name, Package: "hist", Version: featmap.Version, SpecPath: s.Path, SpecHash: "sha256:" + s.Hash})
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "package ") || strings.HasPrefix(line, "func "+s.Name) {
			fmt.Println(line)
		}
	}
	// Output:
	// package hist
	// func Chi2ChebHistD7(out *[Chi2ChebHistD7Dim]float64, x float64) {
	// func Chi2ChebHistD7Slice(dst, src []float64) {
	// func Chi2ChebHistD7F32(out *[Chi2ChebHistD7Dim]float32, x float32) {
	// func Chi2ChebHistD7SliceF32(dst, src []float32) {
}
