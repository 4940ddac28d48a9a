package learn

import (
	"context"
	"strings"
	"testing"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/sampled"
)

// TestForSections: every learning method's learner names the section it
// learns from, a method that learns nothing has none, and a learner
// handed another section's options refuses them instead of learning from
// zero values.
func TestForSections(t *testing.T) {
	for _, c := range []struct {
		m       design.Method
		section string
	}{
		{&sampled.RFF{}, SigmaSection},
		{&sampled.Nystroem{}, SigmaSection},
		{&RFFGroupLasso{}, KernelsSection},
		{&sampled.Polynomial{}, ""},
		{&sampled.RFPCA{}, ""},
	} {
		l, ok := For(c.m)
		if ok != (c.section != "") {
			t.Errorf("%s: For's ok = %v", c.m.Name(), ok)
			continue
		}
		if ok && l.Section() != c.section {
			t.Errorf("%s: learns from %q, want %q", c.m.Name(), l.Section(), c.section)
		}
	}
	p := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, Data: &fmap.Data{}}
	sigma, _ := For(&sampled.RFF{})
	gl, _ := For(&RFFGroupLasso{})
	for _, c := range []struct {
		l    design.Learner
		opts any
	}{{sigma, []KernelGroup{}}, {gl, LearnOptions{}}} {
		_, err := c.l.Learn(context.Background(), design.Learning{Problem: p, Options: c.opts})
		if err == nil || !strings.Contains(err.Error(), "takes") {
			t.Errorf("%s learner given %T: err = %v, want a refusal", c.l.Section(), c.opts, err)
		}
	}
}

// TestResults: Results reads each learner's own result and nothing else.
func TestResults(t *testing.T) {
	lr, gr := &LearnResult{}, &GroupLassoResult{}
	if a, b := Results(&design.Learned{Result: lr}); a != lr || b != nil {
		t.Errorf("σ's result read as %v, %v", a, b)
	}
	if a, b := Results(&design.Learned{Result: gr}); a != nil || b != gr {
		t.Errorf("the group lasso's result read as %v, %v", a, b)
	}
	if a, b := Results(&design.Learned{Result: 3}); a != nil || b != nil {
		t.Errorf("another result read as %v, %v", a, b)
	}
}
