package homogeneous

import (
	"fmt"
	"strings"
	"testing"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// TestCompareChi2 measures, for χ² at D = 3, 5, 7, 11, the VZ map (uniform
// and rectangular windows, VLFeat's default periods), Li's direct series
// (Algorithm 1, log-uniform on the domain) and the Chebyshev series with
// fmap.Verify (absolute measure, Problem.Reference) on {0..255} and on the
// interval [1e-6, 1], logs the table, and asserts the qualitative facts of
// docs/formulas.md §3.3 that hold on these sets:
//
//   - on the interval, Li beats both VZ windows and Chebyshev at every D;
//   - on the interval, Chebyshev beats uniform-window VZ at D = 3 and 5 and
//     loses to it at D = 7 and 11 (the crossing in the table of
//     docs/formulas.md §3.3);
//   - every method improves strictly with D on both domains.
func TestCompareChi2(t *testing.T) {
	if testing.Short() {
		t.Skip("2.3 million pairs per map on the interval")
	}
	dims := []int{3, 5, 7, 11}
	methods := []string{"vz uniform", "vz rectangular", "li", "chebyshev"}
	domains := []struct {
		name string
		dom  fmap.Domain
	}{
		{"{0..255}", fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}}},
		{"[1e-6, 1]", fmap.Domain{Lo: []float64{1e-6}, Hi: []float64{1}}},
	}
	// linf[domain][method][dim index]
	linf := make([][][]float64, len(domains))
	var tab strings.Builder
	fmt.Fprintf(&tab, "χ², absolute error L∞ / RMS over all ordered pairs (fmap.Verify, Problem.Reference):\n")
	fmt.Fprintf(&tab, "%-10s %-15s", "domain", "method")
	for _, d := range dims {
		fmt.Fprintf(&tab, " | %-19s", fmt.Sprintf("D = %d", d))
	}
	tab.WriteString("\n")
	for di, dm := range domains {
		p := problem(fmap.Chi2, 1, dm.dom)
		ref, err := p.Reference()
		if err != nil {
			t.Fatal(err)
		}
		linf[di] = make([][]float64, len(methods))
		for mi, method := range methods {
			fmt.Fprintf(&tab, "%-10s %-15s", dm.name, method)
			for _, d := range dims {
				var meth design.Method
				switch method {
				case "vz uniform":
					meth = &VZ{Opts: VZOptions{Window: Uniform}}
				case "vz rectangular":
					meth = &VZ{Opts: VZOptions{Window: Rectangular}}
				case "li":
					meth = &Li{}
				case "chebyshev":
					meth = Chebyshev{}
				}
				a := fmap.Verify(design1(t, meth, p, d), ref).Absolute
				linf[di][mi] = append(linf[di][mi], a.LInf)
				fmt.Fprintf(&tab, " | %-19s", fmt.Sprintf("%.3g / %.3g", a.LInf, a.RMS))
			}
			tab.WriteString("\n")
		}
	}
	t.Log("\n" + tab.String())

	const vzU, vzR, li, cheb = 0, 1, 2, 3
	iv := linf[1]
	for i, d := range dims {
		if !(iv[li][i] < iv[vzU][i] && iv[li][i] < iv[vzR][i] && iv[li][i] < iv[cheb][i]) {
			t.Errorf("interval, D=%d: Li (%.3g) does not beat VZ (%.3g, %.3g) and Chebyshev (%.3g)", d, iv[li][i], iv[vzU][i], iv[vzR][i], iv[cheb][i])
		}
		chebWins := iv[cheb][i] < iv[vzU][i]
		if want := d <= 5; chebWins != want {
			t.Errorf("interval, D=%d: Chebyshev %.3g vs uniform VZ %.3g: Chebyshev better = %v, want %v", d, iv[cheb][i], iv[vzU][i], chebWins, want)
		}
	}
	for di, dm := range domains {
		for mi, method := range methods {
			for i := 1; i < len(dims); i++ {
				if !(linf[di][mi][i] < linf[di][mi][i-1]) {
					t.Errorf("%s, %s: L∞ %.3g at D=%d is not below %.3g at D=%d", dm.name, method, linf[di][mi][i], dims[i], linf[di][mi][i-1], dims[i-1])
				}
			}
		}
	}
}
