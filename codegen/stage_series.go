package codegen

import (
	"fmt"
	"math"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// seriesKind emits a χ² series map (fmap.Series: Li's direct series, the
// Chebyshev series): its formula, with a table on an integer domain.
type seriesKind struct {
	scalar
	noFiles
	m *fmap.Map
	s *fmap.Series
}

func (k *seriesKind) fast() *scalar { return &k.scalar }

func (k *seriesKind) plan(p *plan) error {
	if err := noModel(p); err != nil {
		return err
	}
	k.scalar.k = k
	if k.m.InDim == 1 && k.m.Domain.Integer {
		k.table = newTable(k.m)
	}
	return nil
}

func (k *seriesKind) planFormula(*plan) error {
	k.scalar.k = k
	return nil
}

// A series map is homogeneous of degree 1: x = 0 gives zeros, x < 0 its
// rule, and no phase can overflow.
func (k *seriesKind) homogeneous() bool       { return true }
func (k *seriesKind) negative() fmap.Negative { return k.s.Negative }
func (k *seriesKind) limit() float64          { return math.Inf(1) }
func (k *seriesKind) data() *dataFile         { return nil }

func (k *seriesKind) header(e *emitter) []string { return e.mapHeader(k) }

func (k *seriesKind) api(e *emitter, f *jen.File) { k.scalar.api(e, f) }

func (k *seriesKind) kernel(e *emitter) string { return kernelText(e.p.m, 1, false) }

func (k *seriesKind) form(*emitter) string {
	if k.s.Form == fmap.LiSeries {
		return "Li et al.'s direct χ² series c_q(x) = Π_{p<q} ρ_p(x)·2√k_q·x/(x+k_q), ρ_p(x) = (x−k_p)/(x+k_p)"
	}
	return "Li et al.'s Chebyshev χ² series: d_0 = 2x/(x+1), d_1 = −(√2·log x/π)·d_0, d_q = [(−1)^q·(2·log x/π)·d_{q−1} + (q−2)·d_{q−2}]/q"
}

func (k *seriesKind) edges(e *emitter) string { return k.scalar.edges(e) }

// parameterLines lists Li's parameters k_q with round-trip precision (the
// Chebyshev series has none).
func (k *seriesKind) parameterLines(*emitter) []string {
	if k.s.Form == fmap.LiSeries {
		ks := make([]string, len(k.s.K))
		for i, q := range k.s.K {
			ks[i] = num(q)
		}
		return append([]string{"Parameters k_1..k_N:", ""}, "\t"+strings.Join(ks, ", "))
	}
	return []string{fmt.Sprintf("Terms d_0..d_%d (no parameters).", k.m.Dim-1)}
}

func (k *seriesKind) evaluationLines(e *emitter) []string {
	return k.scalar.evaluationLines(e, nil, false)
}

func (k *seriesKind) formulaText(*emitter) string {
	if k.s.Form == fmap.LiSeries {
		return "a running product with one division per term and no transcendental function"
	}
	return "one log and the stable upward recurrence"
}

func (k *seriesKind) formulaBody(e *emitter) []jen.Code {
	if k.s.Form == fmap.LiSeries {
		return k.liBody(e)
	}
	return k.chebyshevBody(e)
}

// liBody evaluates Li's direct series at x > 0: a running product P of
// ρ_q = (x − k_q)/(x + k_q) and c_q = P·2√k_q·x/(x + k_q), with one division
// r_q = 1/(x + k_q) per term.
func (k *seriesKind) liBody(e *emitter) []jen.Code {
	var body []jen.Code
	ks := k.s.K
	for q, kq := range ks {
		r := fmt.Sprintf("r%d", q)
		body = append(body, jen.Id(r).Op(":=").Lit(1).Op("/").Parens(jen.Id("x").Op("+").Add(e.lit.f64(kq))))
		c := e.lit.f64(2 * math.Sqrt(kq)).(*jen.Statement).Op("*").Parens(jen.Id("x").Op("*").Id(r))
		rho := jen.Parens(jen.Id("x").Op("-").Add(e.lit.f64(kq))).Op("*").Id(r)
		switch {
		case q == 0:
			body = append(body, outAssign(q, c))
			if len(ks) > 1 {
				body = append(body, jen.Id("p").Op(":=").Add(rho))
			}
		default:
			body = append(body, outAssign(q, jen.Id("p").Op("*").Add(c)))
			if q < len(ks)-1 {
				body = append(body, jen.Id("p").Op("*=").Add(rho))
			}
		}
	}
	return body
}

// chebyshevBody evaluates Li's Chebyshev series at x > 0 by the upward
// recurrence d_q = (−1)^q (c/q) d_{q−1} + ((q−2)/q) d_{q−2}, c = 2 log x/π.
func (k *seriesKind) chebyshevBody(e *emitter) []jen.Code {
	n := e.p.dim
	d := func(q int) *jen.Statement { return jen.Id(fmt.Sprintf("d%d", q)) }
	body := []jen.Code{
		jen.Id("d0").Op(":=").Lit(2).Op("*").Parens(jen.Id("x").Op("/").Parens(jen.Id("x").Op("+").Lit(1))),
		outAssign(0, d(0)),
	}
	if n == 1 {
		return body
	}
	body = append(body,
		jen.Id("c").Op(":=").Add(e.lit.f64(2/math.Pi)).Op("*").Qual("math", "Log").Call(jen.Id("x")),
		jen.Id("d1").Op(":=").Add(e.lit.f64(-1/math.Sqrt2)).Op("*").Id("c").Op("*").Add(d(0)),
		outAssign(1, d(1)),
	)
	for q := 2; q < n; q++ {
		a := 1 / float64(q)
		if q%2 == 1 {
			a = -a
		}
		v := e.lit.f64(a).(*jen.Statement).Op("*").Id("c").Op("*").Add(d(q - 1))
		if q > 2 {
			v = v.Op("+").Add(e.lit.f64(float64(q-2) / float64(q))).Op("*").Add(d(q - 2))
		}
		if q == n-1 {
			body = append(body, outAssign(q, v))
			continue
		}
		body = append(body, d(q).Op(":=").Add(v), outAssign(q, d(q)))
	}
	return body
}
