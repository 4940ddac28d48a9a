package featmap_test

import (
	"context"
	"fmt"
	"log"

	"github.com/featmap/featmap"
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
