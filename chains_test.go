package featmap

import (
	"fmt"
	"sync"
	"testing"

	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/spec"
)

// chumChains holds, per problem and chum options, the first spec of this
// test binary that asked for them and its chum method, so that the tests
// that design the same chum problem continue one chain (chum.Chum keeps
// its designs by problem pointer): TestChumHonestDimensions' sweep of a
// kernel to D = 16, TestTable1Continuation's default designs of its 5- and
// 7-D Table-1 specs and TestSameDimensionComparison's chum column on
// {0..255} make each dimension once. A chain's design of D is the same whoever asks first
// (it continues from D − 1, deterministically), so sharing changes no map.
var chumChains = struct {
	sync.Mutex
	m map[string]chumChain
}{m: map[string]chumChain{}}

type chumChain struct {
	spec   *Spec
	method spec.MethodSpec
}

// sharedChum returns the spec and chum method whose chain designs s's
// problem with m's options: the first such pair this test binary saw (s
// and m themselves if none). Only problems without data are shared; the
// key is every field a design depends on (kernel, domain, measure, norm,
// negative rule, the chum options), printed in full.
func sharedChum(t *testing.T, s *Spec, m spec.MethodSpec) (*Spec, spec.MethodSpec) {
	t.Helper()
	c, ok := m.Method.(*chum.Chum)
	if !ok {
		t.Fatalf("%s: method %s, want chum", s.Path, m.Name())
	}
	p := s.Problem
	if p.Data != nil {
		return s, m
	}
	key := fmt.Sprintf("%#v|%#v|%#v|%#v|%#v|%#v", p.Kernel, p.Domain, p.Measure, p.Norm, p.Negative, c.Opts)
	chumChains.Lock()
	defer chumChains.Unlock()
	if ch, ok := chumChains.m[key]; ok {
		return ch.spec, ch.method
	}
	chumChains.m[key] = chumChain{s, m}
	return s, m
}

// TestSharedChum: the 5- and 7-D Table-1 problems of a kernel with
// chum's default options, and TestChumHonestDimensions' spec of it, share
// one chain; another kernel, another error weight or other chum options do
// not.
func TestSharedChum(t *testing.T) {
	const table1 = "version: 1\nname: JSU8D%d\nkernel: {type: js}\ndomain: {integers: [0, 255]}\nerror: {norm: linf, weight: absolute}\ntarget: {dim: %d}\nmethod: {name: chum%s}\n"
	first := parse(t, fmt.Sprintf(table1, 5, 5, ""))
	sh, shm := sharedChum(t, first, *first.Method)
	for _, c := range []struct {
		name, src string
		same      bool
	}{
		{"7-D spec", fmt.Sprintf(table1, 7, 7, ""), true},
		{"sweep", "version: 1\nname: Dims\nkernel: {type: js}\ndomain: {integers: [0, 255]}\nerror: {weight: absolute}\ncompare: {methods: [chum], dims: [3]}\n", true},
		{"relative", "version: 1\nname: Dims\nkernel: {type: js}\ndomain: {integers: [0, 255]}\nerror: {weight: relative}\ncompare: {methods: [chum], dims: [3]}\n", false},
		{"chi2", "version: 1\nname: Dims\nkernel: {type: chi2}\ndomain: {integers: [0, 255]}\nerror: {weight: absolute}\ncompare: {methods: [chum], dims: [3]}\n", false},
		{"options", "version: 1\nname: Dims\nkernel: {type: js}\ndomain: {integers: [0, 255]}\nerror: {weight: absolute}\ncompare: {methods: [{name: chum, starts: 3}], dims: [3]}\n", false},
		{"alone", fmt.Sprintf(table1, 7, 7, ", continuation: false"), false},
	} {
		s := parse(t, c.src)
		var m spec.MethodSpec
		if s.Method != nil {
			m = *s.Method
		} else {
			m = s.Compare.Methods[0]
		}
		got, gm := sharedChum(t, s, m)
		if (got == sh) != c.same || (gm.Method == shm.Method) != c.same {
			t.Errorf("%s: shared %v, want %v", c.name, got == sh, c.same)
		}
	}
}
