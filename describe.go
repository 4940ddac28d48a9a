package featmap

import (
	"fmt"
	"strings"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/multidim"
)

// Describe restates the spec in a few lines of words: kernel, domain,
// error measure, and target and method (or the comparison).
func (s *Spec) Describe() []string {
	lines := []string{
		"kernel: " + s.Kernel.Describe(),
		"domain: " + s.Domain.Describe(),
		fmt.Sprintf("error: %s, minimised in the %s norm", s.Error.Weight, s.Error.Norm),
	}
	if s.Target != nil {
		if s.Target.Dim > 0 {
			lines = append(lines, fmt.Sprintf("target: D = %d", s.Target.Dim))
		} else {
			lines = append(lines, fmt.Sprintf("target: the smallest D ≤ %d with error ≤ %g", s.Target.MaxDim, s.Target.MaxError))
		}
	}
	if s.Method != nil {
		lines = append(lines, "method: "+MethodLabels([]MethodSpec{*s.Method})[0])
	}
	return lines
}

// MethodLabels returns a label per method that tells it apart from the
// others: the method's name, followed in parentheses by the options that
// differ from their defaults or between methods of the same name, e.g.
// "chum", "vz (rectangular)", "vz (uniform)", "li (bins 10)". Labels that
// would still coincide get "#2", "#3", ... appended.
func MethodLabels(ms []MethodSpec) []string {
	count := map[string]int{}
	for _, m := range ms {
		count[m.Name]++
	}
	labels := make([]string, len(ms))
	seen := map[string]int{}
	for i, m := range ms {
		var shown []string
		for _, o := range methodOptionList(m) {
			if o.changed || count[m.Name] > 1 && differs(ms, m.Name, o.key, o.text) {
				shown = append(shown, o.text)
			}
		}
		labels[i] = m.Name
		if len(shown) > 0 {
			labels[i] += " (" + strings.Join(shown, ", ") + ")"
		}
		seen[labels[i]]++
		if n := seen[labels[i]]; n > 1 {
			labels[i] += fmt.Sprintf(" #%d", n)
		}
	}
	return labels
}

// differs reports whether the methods named name disagree on option key.
func differs(ms []MethodSpec, name, key, text string) bool {
	for _, m := range ms {
		if m.Name != name {
			continue
		}
		found := false
		for _, o := range methodOptionList(m) {
			if o.key == key {
				found = true
				if o.text != text {
					return true
				}
			}
		}
		if !found {
			return true
		}
	}
	return false
}

// methodOption is one option of a method in words: its key, how a label
// shows it, how a description shows it (key and value), and whether it
// differs from the default.
type methodOption struct {
	key, text, desc string
	changed         bool
}

// methodOptionList lists a method's options in spec terms (defaults
// included where the method has a named default, such as vz's window).
func methodOptionList(m MethodSpec) []methodOption {
	var out []methodOption
	add := func(key, text string, changed bool) {
		out = append(out, methodOption{key, text, text, changed})
	}
	num := func(key string, v float64) {
		if v != 0 {
			add(key, fmt.Sprintf("%s %g", key, v), true)
		}
	}
	// fit adds the LP designer's options that chum and the
	// multi-dimensional LP methods share.
	fit := func(c design.ChumOptions) {
		num("refine_iterations", float64(c.RefineIterations))
		if c.NoPolish {
			add("polish", "no polish", true)
		}
		num("starts", float64(c.Starts))
		num("seed", float64(c.Seed))
	}
	switch m.Name {
	case MethodChum:
		c := m.Chum
		num("omega_max", c.OmegaMax)
		num("spacing", c.Spacing)
		num("z_points", float64(c.ZPoints))
		fit(c)
	case MethodVZ:
		add("window", string(m.VZ.Window), m.VZ.Window != homogeneous.Rectangular)
		out[len(out)-1].desc = "window " + string(m.VZ.Window)
		num("period", m.VZ.Period)
	case MethodLi:
		if len(m.Li.K) > 0 {
			add("k", fmt.Sprintf("k %g", m.Li.K), true)
		}
		if m.Li.Data != "" {
			add("data", "data "+m.Li.Data, true)
		}
		if len(m.Li.K) == 0 {
			add("bins", fmt.Sprintf("bins %d", m.Li.Bins), m.Li.Bins != 0 && m.Li.Bins != homogeneous.DefaultLiBins)
		}
	case MethodProjection, MethodModulation, MethodTensorGreedy:
		o := m.Multi
		if m.Name == MethodProjection {
			add("pool", "pool "+o.Pool, o.Pool != multidim.PoolPolar)
			num("angles", float64(o.Angles))
			num("radii", float64(o.Radii))
			num("omega_max", o.OmegaMax)
		}
		num("axis_dim", float64(o.AxisDim))
		num("z_points", float64(o.ZPoints))
		fit(o.Chum)
	}
	return out
}
