package homogeneous

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// DefaultLiBins is the default number of logarithmic histogram bins of Li's
// Algorithm 1, and MaxLiBins the largest number accepted.
const (
	DefaultLiBins = 100
	MaxLiBins     = 1 << 20
)

// chi2Only is the Applies of the χ² series methods: Li's series (direct
// and Chebyshev) approximate the χ² kernel with γ = 1 only.
func chi2Only(method string, p *fmap.Problem) error {
	switch k := p.Kernel; {
	case k.Type != fmap.Chi2:
		return fmt.Errorf("%s needs kernel chi2 with gamma 1, not %s", method, k.Type)
	case gammaOf(k) != 1:
		return fmt.Errorf("%s needs kernel chi2 with gamma 1, not gamma %v", method, k.Gamma)
	}
	return oneAxis(method, p)
}

// oneAxis is the Applies of the one-dimensional methods.
func oneAxis(name string, p *fmap.Problem) error {
	if n := p.InDim(); n != 1 {
		return fmt.Errorf("%s designs maps of one input axis only; domain.dims is %d", name, n)
	}
	return nil
}

// LiOptions tune Li's direct χ² series. At most one of K and Data is set;
// with neither, Algorithm 1 runs on the values of the spec's data (its rows
// to fit) if it has a data section, else on a log-uniform density over the
// domain.
type LiOptions struct {
	// K gives the parameters k_1..k_N explicitly (N is the dimension).
	K []float64 `yaml:"k" spec:"positive,maxlen=10000"`
	// Bins is the number of logarithmic histogram bins of Algorithm 1.
	// Default 100.
	Bins int `yaml:"bins" spec:"min=2,max=1048576"`
	// Data is a file of data values (nonnegative numbers separated by white
	// space, '#' comments) for the data-driven variant of Algorithm 1,
	// relative to the spec's directory; LoadFiles reads it into Values.
	// Deprecated: the spec's data section does this for every method.
	Data   string    `yaml:"data" spec:"nonempty"`
	Values []float64 `yaml:"-"`
}

// SetDefaults fills in the default number of bins of Algorithm 1 (which
// explicit k skip).
func (o *LiOptions) SetDefaults() {
	if o.Bins == 0 && len(o.K) == 0 {
		o.Bins = DefaultLiBins
	}
}

// Li is Li, Lebanon and Sminchisescu's direct χ² series (method "li",
// γ = 1 only; Li et al. §3): a map of N terms
//
//	c_q(x) = Π_{p<q} (x − k_p)/(x + k_p) · 2√k_q · x/(x + k_q),   q = 1..N,
//
// for which 2xy/(x+y) − Σ c_q(x)c_q(y) = Π_p ρ_p(x)ρ_p(y) · 2xy/(x+y)
// exactly. The parameters are Opts.K when given (its length is N);
// otherwise Algorithm 1 chooses them (LiFromValues on Opts.Values when
// given, else LiLogUniform on [m, b] = [smallest nonzero input of the
// domain, its upper end]) with Opts.Bins bins.
type Li struct{ Opts LiOptions }

// The interfaces Li implements (design/doc.go lists them).
var (
	_ design.Method        = (*Li)(nil)
	_ design.FileLoader    = (*Li)(nil)
	_ design.Deprecator    = (*Li)(nil)
	_ design.OptionChecker = (*Li)(nil)
	_ design.SeriesMethod  = (*Li)(nil)
	_ design.TargetChecker = (*Li)(nil)
	_ design.Defaulter     = (*LiOptions)(nil)
)

// Name returns "li".
func (*Li) Name() string { return "li" }

// OneInputSeries marks Li's maps as Fourier stages (design.SeriesMethod).
func (*Li) OneInputSeries() {}

// Options returns the options.
func (m *Li) Options() any { return &m.Opts }

// Applies accepts the χ² kernel with γ = 1 on one input axis.
func (*Li) Applies(p *fmap.Problem) error { return chi2Only("li", p) }

// Dims: the length of explicit k, else every dimension.
func (m *Li) Dims(*fmap.Problem) design.Dims {
	if n := len(m.Opts.K); n > 0 {
		return design.Dims{Only: []int{n}, Why: fmt.Sprintf("li with explicit k makes D = %d only (one dimension per k)", n)}
	}
	return design.ClosedFormDims("li", "")
}

// CheckOptions rejects explicit k together with Algorithm 1's options.
func (m *Li) CheckOptions(*fmap.Problem) error {
	switch o := m.Opts; {
	case len(o.K) > 0 && o.Data != "":
		return &design.OptionError{Key: "data", Other: "k", Msg: "li takes explicit k or data for Algorithm 1, not both"}
	case len(o.K) > 0 && o.Bins != 0:
		return &design.OptionError{Key: "k", Other: "bins", Msg: "bins are for Algorithm 1, which explicit k skip"}
	}
	return nil
}

// CheckTarget: explicit k fix the dimension.
func (m *Li) CheckTarget(dim int) error {
	n := len(m.Opts.K)
	switch {
	case n == 0:
	case dim == 0:
		return &design.OptionError{Key: "k", Msg: fmt.Sprintf("fixes the dimension at %d (one per k): give target.dim: %d, not target.max_error", n, n)}
	case n != dim:
		return &design.OptionError{Key: "k", Msg: fmt.Sprintf("has %d values but target.dim is %d: li makes one dimension per k", n, dim)}
	}
	return nil
}

// LoadFiles reads the data file into Values: open returns the file's
// content and its path as messages should name it.
func (m *Li) LoadFiles(open func(name string) (io.ReadCloser, string, error)) error {
	if m.Opts.Data == "" {
		return nil
	}
	r, name, err := open(m.Opts.Data)
	if err != nil {
		return &design.OptionError{Key: "data", Msg: err.Error(), Err: err}
	}
	defer r.Close()
	if m.Opts.Values, err = ParseValues(r, name); err != nil {
		return &design.OptionError{Key: "data", Msg: err.Error(), Err: err}
	}
	return nil
}

// Deprecated returns the data option's warning when it is given: the
// spec's data section names the file every method and the verification
// use (design.Deprecator).
func (m *Li) Deprecated() (key, warning string) {
	if m.Opts.Data == "" {
		return "", ""
	}
	return "data", "deprecated: give the file in the spec's data section (data: {file: …}), which every method and the verification use"
}

// Design returns the series of dimension dim.
func (m *Li) Design(_ context.Context, p *fmap.Problem, dim int, _ design.Settings) (*design.Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if err := chi2Only("li", p); err != nil {
		return nil, err
	}
	opt := m.Opts
	var ks []float64
	var err error
	switch {
	case opt.K != nil && opt.Values != nil:
		return nil, errors.New("homogeneous: li takes either explicit parameters k or data values, not both")
	case opt.K != nil:
		if len(opt.K) != dim {
			return nil, fmt.Errorf("homogeneous: li has %d parameters k for dimension %d; give exactly one per dimension", len(opt.K), dim)
		}
		for i, k := range opt.K {
			if !(k > 0) || math.IsInf(k, 1) {
				return nil, fmt.Errorf("homogeneous: li parameter k%d = %v is not positive and finite", i+1, k)
			}
		}
		ks = append([]float64(nil), opt.K...)
	case opt.Values != nil:
		if ks, err = LiFromValues(dim, opt.Bins, opt.Values); err != nil {
			return nil, err
		}
	case p.Data != nil && len(p.Data.Fit) > 0:
		// Algorithm 1 on the values of the data's rows to fit (every
		// coordinate: the map applies to each).
		var values []float64
		for _, x := range p.Data.Fit {
			values = append(values, x...)
		}
		if ks, err = LiFromValues(dim, opt.Bins, values); err != nil {
			return nil, fmt.Errorf("%w (the data's rows to fit)", err)
		}
	default:
		lo, err := p.SmallestNonzero()
		if err != nil {
			return nil, fmt.Errorf("%w (li's Algorithm 1 needs the range [m, b] of its log-uniform density)", err)
		}
		if ks, err = LiLogUniform(dim, opt.Bins, lo, p.Domain.Hi[0]); err != nil {
			return nil, err
		}
	}
	return result(fmap.NewSeriesMap(p.Kernel, p.Domain, "li", &fmap.Series{Form: fmap.LiSeries, K: ks, Dim: len(ks), Negative: p.Negative}))
}

// liBins returns the bin count with 0 meaning the default, or an error.
func liBins(bins int) (int, error) {
	switch {
	case bins == 0:
		return DefaultLiBins, nil
	case bins < 0 || bins > MaxLiBins:
		return 0, fmt.Errorf("homogeneous: li bins %d: want 1..%d (0 selects %d)", bins, MaxLiBins, DefaultLiBins)
	}
	return bins, nil
}

// liEdges returns the B+1 logarithmic bin edges e_j = lo·(hi/lo)^{j/B}
// (e_0 = lo and e_B = hi exactly) and the B geometric bin centres
// x_j = √(e_j e_{j+1}). Each edge is computed from the nearer end of the
// range, which keeps the argument of exp, and so its rounding, small.
func liEdges(bins int, lo, hi float64) (edges, centres []float64) {
	edges = make([]float64, bins+1)
	r := math.Log(hi / lo)
	for j := range edges {
		if 2*j <= bins {
			edges[j] = lo * math.Exp(r*float64(j)/float64(bins))
		} else {
			edges[j] = hi * math.Exp(-r*float64(bins-j)/float64(bins))
		}
	}
	edges[0], edges[bins] = lo, hi
	centres = make([]float64, bins)
	for j := range centres {
		centres[j] = math.Sqrt(edges[j] * edges[j+1])
	}
	return edges, centres
}

// liGreedy is step 3–5 of Algorithm 1: with b_j = x_j/(x_j+1)·h_j, it picks
// n times the bin with the largest |b_j| (ties → the lowest j), takes its
// centre as k_i and multiplies every b_j by (x_j − k_i)/(x_j + k_i).
func liGreedy(n int, centres, mass []float64) []float64 {
	b := make([]float64, len(centres))
	for j, x := range centres {
		b[j] = x / (x + 1) * mass[j]
	}
	ks := make([]float64, n)
	for i := range ks {
		best := 0
		for j := range b {
			if math.Abs(b[j]) > math.Abs(b[best]) {
				best = j
			}
		}
		k := centres[best]
		ks[i] = k
		for j, x := range centres {
			b[j] *= (x - k) / (x + k)
		}
	}
	return ks
}

// LiLogUniform returns the parameters k_1..k_n that Li's Algorithm 1 picks
// for a density uniform in log x on [m, b] (0 < m ≤ b): every one of the
// bins logarithmic bins on [m, b] has the same mass (docs/formulas.md §2.2).
// bins = 0 means DefaultLiBins. For m = 1e-5, b = 1 and 100 bins the picks
// are the bins 99, 90, 80, 96, 69, 59, 85, 49, 75, 93, 39, ….
func LiLogUniform(n, bins int, m, b float64) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("homogeneous: li dimension %d: want at least 1", n)
	}
	bins, err := liBins(bins)
	if err != nil {
		return nil, err
	}
	if !(m > 0) || !(b >= m) || math.IsInf(b, 1) {
		return nil, fmt.Errorf("homogeneous: li range [%v, %v]: want 0 < m ≤ b, finite", m, b)
	}
	_, centres := liEdges(bins, m, b)
	mass := make([]float64, bins)
	for j := range mass {
		mass[j] = 1
	}
	return liGreedy(n, centres, mass), nil
}

// LiFromValues returns the parameters k_1..k_n that Li's Algorithm 1 picks
// for data values: zeros are ignored (c_q(0) = 0), lo and hi are the
// smallest and largest positive values, and the mass of a bin is the number
// of values v with e_j ≤ v < e_{j+1} (the last bin closed). bins = 0 means
// DefaultLiBins. Negative, NaN and infinite values are errors, as is data
// with no positive value.
func LiFromValues(n, bins int, values []float64) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("homogeneous: li dimension %d: want at least 1", n)
	}
	bins, err := liBins(bins)
	if err != nil {
		return nil, err
	}
	lo, hi := math.Inf(1), 0.0
	for i, v := range values {
		if !(v >= 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("homogeneous: li data value %d is %v; values must be nonnegative and finite", i+1, v)
		}
		if v > 0 {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if hi == 0 {
		return nil, fmt.Errorf("homogeneous: li data has no positive value (%d values)", len(values))
	}
	edges, centres := liEdges(bins, lo, hi)
	mass := make([]float64, bins)
	r := math.Log(hi / lo)
	for _, v := range values {
		if v == 0 {
			continue
		}
		j := bins - 1
		if r > 0 {
			j = int(math.Floor(math.Log(v/lo) / r * float64(bins)))
			j = min(max(j, 0), bins-1)
			// Settle rounding against the edges themselves.
			for j > 0 && v < edges[j] {
				j--
			}
			for j < bins-1 && v >= edges[j+1] {
				j++
			}
		}
		mass[j]++
	}
	return liGreedy(n, centres, mass), nil
}

// ParseValues reads data values for Li's Algorithm 1: nonnegative finite
// numbers separated by white space or newlines; blank lines and comments
// from '#' to the end of a line are ignored. name is used in errors, which
// name the file and line, e.g. `data.txt:7: "abc" is not a number`. A file
// without any value is an error.
func ParseValues(r io.Reader, name string) ([]float64, error) {
	br := bufio.NewReader(r)
	var out []float64
	for line := 1; ; line++ {
		text, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		for _, f := range strings.Fields(text) {
			v, perr := strconv.ParseFloat(f, 64)
			switch {
			case perr != nil && errors.Is(perr, strconv.ErrRange):
				return nil, fmt.Errorf("%s:%d: %q is out of the float64 range", name, line, f)
			case perr != nil:
				return nil, fmt.Errorf("%s:%d: %q is not a number", name, line, f)
			case math.IsNaN(v) || math.IsInf(v, 0):
				return nil, fmt.Errorf("%s:%d: %q is not a finite number", name, line, f)
			case v < 0:
				return nil, fmt.Errorf("%s:%d: %s is negative; values must be nonnegative", name, line, f)
			}
			if v == 0 {
				v = 0 // drop the sign of −0
			}
			out = append(out, v)
		}
		if err == io.EOF {
			break
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no values", name)
	}
	return out, nil
}
