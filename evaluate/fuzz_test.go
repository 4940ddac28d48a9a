package evaluate

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// FuzzReadMap: no map file makes the reader panic or hang, and a map it
// accepts is one eval can use: valid (Validate, CheckKernel), evaluable
// at a corner of its domain, its kernel finite there, its model
// predicting, and its JSON read back the same. Seeded with the shipped
// maps of up to 64 KB, the hostile corpus's maps (every kernel eval once
// panicked on or measured as no kernel) and a few hand-made files.
func FuzzReadMap(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{
		filepath.Join("..", "generated", "testdata", "*.map.json"),
		filepath.Join("..", "cmd", "featmap", "testdata", "hostile", "maps", "*.json"),
	} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, files...)
	}
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) <= 64<<10 {
			f.Add(b)
		}
	}
	for _, s := range []string{"", "{}", `{"map": null}`, `{"map": {}}`, "[", `{"map": {"in_dim": 1 2}}`, "{} {}", `{"map": {"kernel": {"type": "rbf"}}, "data": {"label_column": -7}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &mapReader{ctx: context.Background(), r: bytes.NewReader(data), buf: make([]byte, 4096)}
		v, err := decodeMap(r)
		if err != nil {
			return
		}
		m := v.Map
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted an invalid map: %v", err)
		}
		if err := m.CheckKernel(); err != nil {
			t.Fatalf("accepted a map whose kernel does not fit: %v", err)
		}
		x := append([]float64(nil), m.Domain.Lo...)
		if m.Coordinates() > 1 {
			x = make([]float64, m.Coordinates())
			for i := range x {
				x[i] = m.Domain.Lo[0]
			}
		}
		if k := m.Kernel.Eval(x, x); math.IsNaN(k) {
			t.Fatalf("K(lo, lo) = NaN for %s", m.Kernel.Describe())
		}
		dim := m.Dim
		if fmap.Additive(m, len(x)) {
			dim *= len(x)
		}
		fmap.RowFeatures(m, make([]float64, dim), x)
		if m.Model != nil && len(x) == m.InDim {
			Predict(m, x)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("accepted a map that does not marshal: %v", err)
		}
		w, err := decodeMap(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("a map read does not read back: %v\n%s", err, b)
		}
		if b2, _ := json.Marshal(w); !bytes.Equal(b, b2) {
			t.Fatalf("read back differently:\n%s\n%s", b, b2)
		}
	})
}
