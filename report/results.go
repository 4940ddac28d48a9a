package report

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/featmap/featmap/fmap"
)

// Results is the content of results.json: every number of the report's
// table, in machine-readable form. Everything but Timings depends only on
// the Input's spec and maps, so two runs of the same spec give the same
// Results apart from Timings.
type Results struct {
	Name      string       `json:"name"`
	Spec      string       `json:"spec"`
	SpecSHA   string       `json:"spec_sha256"`
	Generator string       `json:"generator,omitempty"`
	Kernel    fmap.Kernel  `json:"kernel"`
	Domain    fmap.Domain  `json:"domain"`
	Measure   fmap.Measure `json:"measure"`
	// Methods are the method labels (the table's rows), Dims its columns.
	Methods []MethodResult `json:"methods"`
	Dims    []int          `json:"dims"`
	// Widths says Dims are output widths (numbers per row), each method
	// designed at the D giving that width (CellResult.MapDim).
	Widths bool `json:"widths,omitempty"`
	// Cells is every method at every dimension, method by method.
	Cells []CellResult `json:"cells"`
	// Best names, per dimension, the methods with the smallest errors.
	Best []BestResult `json:"best"`
	// PlotDim is the D the signature and kernel-error plots show.
	PlotDim int `json:"plot_dim,omitempty"`
	// Timings are the design times: the only numbers that differ between
	// two runs of the same spec.
	Timings Timings `json:"timings"`
}

// MethodResult is one row of the table.
type MethodResult struct {
	Label   string `json:"label"`
	Name    string `json:"name"`
	Options string `json:"options,omitempty"`
}

// CellResult is one method at one dimension. LInf and RMS are the verified
// error in the report's measure (Verification.Reported), present exactly
// when Status is "ok".
type CellResult struct {
	Method string `json:"method"` // the method's label
	Dim    int    `json:"dim"`
	// MapDim is the map's D when Dim is an output width (Results.Widths).
	MapDim int      `json:"map_dim,omitempty"`
	Status string   `json:"status"` // ok, n/a or failed
	Reason string   `json:"reason,omitempty"`
	LInf   *float64 `json:"linf,omitempty"`
	RMS    *float64 `json:"rms,omitempty"`
	// On is the set the error was measured on, in words.
	On           string             `json:"on,omitempty"`
	Verification *fmap.Verification `json:"verification,omitempty"`
	Stages       []StageResult      `json:"stages,omitempty"`
	LPs          int                `json:"lps,omitempty"`
	Map          *fmap.Map          `json:"map,omitempty"`
	// MapOmitted says why Map is absent from an ok cell: a map of more
	// than MaxResultNumbers constants (random features, Nyström
	// landmarks), which `featmap design -json` prints.
	MapOmitted string `json:"map_omitted,omitempty"`
}

// MaxResultNumbers is the most constants a map in results.json may hold;
// larger maps are left out (a report of twenty 1024-D random maps of 64
// inputs would hold 1.3·10⁶ numbers).
const MaxResultNumbers = 4096

// StageResult is one stage of an optimising design with its measured
// error.
type StageResult struct {
	Name string  `json:"name"`
	LInf float64 `json:"linf"`
	RMS  float64 `json:"rms"`
}

// BestResult names the methods with the smallest L∞ and RMS errors at one
// dimension (several on a tie, none if no method made it).
type BestResult struct {
	Dim  int      `json:"dim"`
	LInf []string `json:"linf"`
	RMS  []string `json:"rms"`
	// Data names the methods with the smallest held-out data error (the
	// Gram matrix's relative Frobenius error), when there is data.
	Data []string `json:"data,omitempty"`
}

// Timings holds the design times, in seconds of wall time.
type Timings struct {
	// Workers designs ran at once on CPUs CPUs.
	Workers int          `json:"workers"`
	CPUs    int          `json:"cpus"`
	Cells   []TimeResult `json:"cells"`
}

// TimeResult is the design time of one made or failed cell.
type TimeResult struct {
	Method  string  `json:"method"`
	Dim     int     `json:"dim"`
	Seconds float64 `json:"seconds"`
}

// Results returns the content of results.json.
func (in *Input) Results() *Results {
	r := &Results{
		Name: in.Name, Spec: in.SpecPath, SpecSHA: in.SpecSHA, Generator: in.Generator,
		Kernel: in.Kernel, Domain: in.Domain, Measure: in.Measure,
		Dims:    append([]int{}, in.Dims...),
		Widths:  in.Widths,
		Methods: []MethodResult{}, Cells: []CellResult{}, Best: []BestResult{},
		Timings: Timings{Workers: in.Workers, CPUs: in.CPUs, Cells: []TimeResult{}},
	}
	for i, m := range in.Methods {
		r.Methods = append(r.Methods, MethodResult{Label: m.Label, Name: m.Name, Options: m.Options})
		for j, d := range in.Dims {
			cr := cellResult(m.Label, d, in.Cells[i][j])
			if in.Widths && cr.Status == StatusOK {
				cr.MapDim = in.Cells[i][j].Map.Dim
			}
			r.Cells = append(r.Cells, cr)
			if c := in.Cells[i][j]; c.Status() != StatusNA {
				r.Timings.Cells = append(r.Timings.Cells, TimeResult{Method: m.Label, Dim: d, Seconds: c.Seconds})
			}
		}
	}
	bl, br, bd := in.best(qLInf), in.best(qRMS), in.best(qDataFrob)
	data := in.hasData()
	for j, d := range in.Dims {
		b := BestResult{Dim: d, LInf: []string{}, RMS: []string{}}
		for i, m := range in.Methods {
			if bl[i][j] {
				b.LInf = append(b.LInf, m.Label)
			}
			if br[i][j] {
				b.RMS = append(b.RMS, m.Label)
			}
			if data && bd[i][j] {
				b.Data = append(b.Data, m.Label)
			}
		}
		r.Best = append(r.Best, b)
	}
	if j, _ := in.chosenDim(); j >= 0 {
		r.PlotDim = in.Dims[j]
	}
	return r
}

func cellResult(label string, dim int, c Cell) CellResult {
	out := CellResult{Method: label, Dim: dim, Status: c.Status()}
	switch out.Status {
	case StatusNA:
		out.Reason = c.NA
	case StatusFailed:
		out.Reason = c.errorText()
	default:
		v := c.Verification
		linf, rms := v.Reported.LInf, v.Reported.RMS
		out.LInf, out.RMS, out.On = &linf, &rms, v.Reported.On
		out.Verification, out.LPs, out.Map = v, c.LPs, c.Map
		if n := mapNumbers(c.Map); n > MaxResultNumbers {
			out.Map = nil
			out.MapOmitted = fmt.Sprintf("%d constants, more than %d: featmap design -json prints the map", n, MaxResultNumbers)
		}
		for _, st := range c.Steps {
			out.Stages = append(out.Stages, StageResult{Name: st.Name, LInf: st.Error.LInf, RMS: st.Error.RMS})
		}
	}
	return out
}

// mapNumbers counts the constants of a map's stages.
func mapNumbers(m *fmap.Map) int {
	n := 0
	for _, st := range m.Stages {
		switch k := st.Kind.(type) {
		case *fmap.Random:
			n += len(k.Freq) + len(k.Phase)
		case *fmap.Nystroem:
			n += len(k.Landmarks) + len(k.Proj)
		case *fmap.Fourier:
			n += len(k.Terms) * (1 + m.InDim)
		case *fmap.Series:
			n += len(k.K)
		}
	}
	return n
}

// resultsJSON returns results.json's bytes.
func (in *Input) resultsJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(in.Results()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
