package fmap

import (
	"errors"
	"fmt"
	"math"
)

// Nystroem is a Nyström map (Williams and Seeger, 2001; Vedaldi–Zisserman
// §1): Ψ(x) = Proj·[K(x, l_1), …, K(x, l_m)] with landmarks l_j ∈ ℝⁿ
// (Landmarks, row-major m×n), K the stage's kernel and Proj (row-major
// m×m) the pseudo-inverse square root W^{+1/2} of the landmarks' kernel
// matrix W_ij = K(l_i, l_j), so that Ψ(x)·Ψ(y) = k_xᵀ W⁺ k_y. An input
// with a non-finite coordinate maps to 0.
//
// Proj may have fewer rows than landmarks: D×m, Uᵀ·W^{+1/2} with U the m×D
// orthonormal directions kept (the top D eigenvectors of the m Nyström
// features' second moment on the data: more landmarks than outputs), so
// that Ψ(x)·Ψ(y) = k_xᵀ W^{+1/2} U Uᵀ W^{+1/2} k_y.
type Nystroem struct {
	Kernel    Kernel    `json:"kernel"`
	In        int       `json:"in"`
	Landmarks []float64 `json:"landmarks"`
	Proj      []float64 `json:"proj"`
	// Dropped is the number of eigenvalues of W too small to invert
	// (below a relative floor the method states), left out of W^{+1/2}:
	// the map has m components (or Proj's rows) but rank at most
	// m − Dropped.
	Dropped int `json:"dropped,omitempty"`
}

// Size is the number m of landmarks.
func (s *Nystroem) Size() int {
	if s.In < 1 {
		return 0
	}
	return len(s.Landmarks) / s.In
}

// Dim is the number of outputs, Proj's rows: m, or fewer when the map
// keeps D < m directions of its m landmarks' features.
func (s *Nystroem) Dim() int {
	if m := s.Size(); m > 0 {
		return len(s.Proj) / m
	}
	return 0
}

// out is the number of components, Dim.
func (s *Nystroem) out(int) int { return s.Dim() }

// Landmark returns landmark j.
func (s *Nystroem) Landmark(j int) []float64 { return s.Landmarks[j*s.In : (j+1)*s.In] }

func (s *Nystroem) validate(in int) error {
	m := s.Size()
	switch {
	case s.In != in:
		return fmt.Errorf("fmap: a Nyström stage of %d inputs after a stage of %d outputs", s.In, in)
	case m == 0 || len(s.Landmarks) != m*s.In:
		return fmt.Errorf("fmap: %d landmark coordinates for %d inputs", len(s.Landmarks), s.In)
	case s.Dim() < 1 || s.Dim() > m || len(s.Proj) != s.Dim()*m:
		return fmt.Errorf("fmap: a %d-entry projection for %d landmarks", len(s.Proj), m)
	}
	if err := s.Kernel.Check(s.In); err != nil {
		return err
	}
	for _, v := range append(append([]float64(nil), s.Landmarks...), s.Proj...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("fmap: a Nyström stage with a non-finite landmark or projection entry")
		}
	}
	return nil
}

// eval writes Proj·k_x to dst.
func (s *Nystroem) eval(dst, x []float64) {
	if nonFinite(x) {
		clear(dst)
		return
	}
	m := s.Size()
	kx := make([]float64, m)
	for j := range m {
		kx[j] = s.Kernel.Eval(x, s.Landmark(j))
	}
	for i := range s.Dim() {
		var v float64
		for j, k := range kx {
			v += s.Proj[i*m+j] * k
		}
		dst[i] = v
	}
}
