package quality

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A problem is one design whose verified error the ledger keeps: a spec
// and the number read from its design (metric).
type problem struct {
	// ID names the problem in the ledger; it says what the spec holds.
	ID string
	// Spec is the spec's YAML. A data file is named by dataFile, which
	// specFile replaces with the absolute path of the repository's copy.
	Spec string
	// Metric is what is read from the design's JSON: metricLInf (the
	// verified L∞ error on the domain, in the spec's measure) or
	// metricData (the held-out rows' Gram error, relative Frobenius).
	Metric string
	// Tier says which runs design it: tierShort every run, tierSample
	// -long's (and -ledger sample) too, tierAll only -ledger all.
	Tier int
}

const (
	tierShort = iota
	tierSample
	tierAll
)

const (
	metricLInf = "linf"
	metricData = "data"
	// metricBox is the relative Frobenius Gram error on the domain's
	// verification inputs (verification.frobenius), metricWine that of
	// the design's map on the 178 standardised wine rows (a data-free
	// map measured on rows it never saw: metricOf).
	metricBox  = "box"
	metricWine = "wine"
	// dataFile stands for the digits' path in a problem's spec,
	// patchesFile for the patch histograms' (testdata/patches.csv).
	dataFile    = "DIGITS"
	patchesFile = "PATCHES"
)

// grid returns every problem of the ledger, in a fixed order: the 130
// one-input chum problems (χ², JS and intersection on 8-bit integers and
// on intervals of 3, 4 and 6 decades, absolute and relative error; the RBF
// kernel σ = 0.3 and 1 on [0, π]; D = 7, 9, …, 15), Table 2's cells, the
// shipped specs with a target, and the data-driven methods on the digits.
func grid() []problem {
	var ps []problem
	ps = append(ps, oneInputGrid()...)
	ps = append(ps, table2Grid()...)
	ps = append(ps, shippedSpecs()...)
	ps = append(ps, digitsGrid()...)
	ps = append(ps, kernelsGrid()...)
	ps = append(ps, wineBoxGrid()...)
	ps = append(ps, patchesGrid()...)
	return ps
}

// wineBoxGrid is the polynomial kernel (x·y/13 + 1)^d without data on the
// box a user writes for the 13 standardised wine measurements, [−6, 6]¹³:
// degree 3 at D = 16, 64, 256 and degree 2 at D = 32, each by its Gram
// error on the 178 standardised rows (metricWine) and on the box's
// verification points (metricBox).
func wineBoxGrid() []problem {
	var ps []problem
	for _, c := range []struct{ d, dim int }{{3, 16}, {3, 64}, {3, 256}, {2, 32}} {
		spec := fmt.Sprintf("kernel: {type: poly, degree: %d, scale: 0.07692307692307693, offset: 1}\ndomain: {dims: 13, interval: [-6, 6]}\ntarget: {dim: %d}\nmethod: {name: polynomial}\n", c.d, c.dim)
		id := fmt.Sprintf("wine-box/poly%d-s1/13-c1/polynomial/D%d", c.d, c.dim)
		ps = append(ps, problem{ID: id, Spec: spec, Metric: metricWine, Tier: tier(c.d == 3 && c.dim == 64, true)},
			problem{ID: id + "/box", Spec: spec, Metric: metricBox, Tier: tier(false, c.dim == 64)})
	}
	return ps
}

// patchesGrid is Nyström on the patch histograms of testdata/patches.csv
// (700 rows: 560 to fit, 140 held out; rbf σ = 0.93, the rows' median
// distance): D landmarks, and more than D (n_landmarks, reduced to D; at
// the 560 rows to fit, the rows themselves: kernel PCA of them).
func patchesGrid() []problem {
	const head = "kernel: {type: rbf, sigma: 0.93}\ndomain: {dims: 16, interval: [0, 1]}\ndata: {file: " + patchesFile + ", columns: [0, 15], label_column: 16}\n"
	var ps []problem
	for _, c := range []struct {
		dim, m int
		id     string
	}{{16, 0, "nystroem-kmeans"}, {64, 0, "nystroem-kmeans"}, {16, 128, "nystroem-m128"}, {64, 512, "nystroem-m512"}, {256, 560, "nystroem-m560"}} {
		method := "{name: nystroem}"
		if c.m > 0 {
			method = fmt.Sprintf("{name: nystroem, n_landmarks: %d}", c.m)
		}
		ps = append(ps, problem{ID: fmt.Sprintf("patches/rbf-s0.93/%s/D%d", c.id, c.dim), Spec: head + fmt.Sprintf("target: {dim: %d}\nmethod: %s\n", c.dim, method),
			Metric: metricData, Tier: tier(c.dim == 16 && c.m > 0, c.dim <= 64)})
	}
	return ps
}

// oneInputGrid is the 130 one-input problems of chum's default design.
func oneInputGrid() []problem {
	type domain struct{ id, yaml string }
	domains := []domain{
		{"u8", "{integers: [0, 255]}"},
		{"1e-3", "{interval: [0.001, 1]}"},
		{"1e-4", "{interval: [0.0001, 1]}"},
		{"1e-6", "{interval: [0.000001, 1]}"},
	}
	var ps []problem
	for _, k := range []string{"chi2", "js", "intersection"} {
		for _, d := range domains {
			for _, w := range []string{"absolute", "relative"} {
				for _, dim := range []int{7, 9, 11, 13, 15} {
					ps = append(ps, problem{
						ID: fmt.Sprintf("chum/%s/%s/%s/D%d", k, d.id, w, dim),
						Spec: fmt.Sprintf("kernel: {type: %s}\ndomain: %s\nerror: {norm: linf, weight: %s}\ntarget: {dim: %d}\nmethod: {name: chum}\n",
							k, d.yaml, w, dim),
						Metric: metricLInf,
						Tier:   oneInputTier(k, d.id, w, dim),
					})
				}
			}
		}
	}
	for _, sigma := range []string{"0.3", "1"} {
		for _, dim := range []int{7, 9, 11, 13, 15} {
			ps = append(ps, problem{
				ID:     fmt.Sprintf("chum/rbf-s%s/pi/uniform/D%d", sigma, dim),
				Spec:   fmt.Sprintf("kernel: {type: rbf, sigma: %s}\ndomain: {interval: [0, 3.141592653589793]}\ntarget: {dim: %d}\nmethod: {name: chum}\n", sigma, dim),
				Metric: metricLInf,
				Tier:   tier(sigma == "0.3" && dim == 7, sigma == "1" && dim == 11),
			})
		}
	}
	return ps
}

// table2Grid is Chum's Table 2 setting (the 2-D RBF kernel on [0, π]²,
// specs/table2-rbf2d-sigma0*.yaml) cell by cell.
func table2Grid() []problem {
	methods := []struct{ id, yaml string }{
		{"proj", "{name: projection}"},
		{"proj-tensor", "{name: projection, pool: tensor}"},
		{"modulation", "{name: modulation}"},
		{"tensor-greedy", "{name: tensor-greedy}"},
	}
	var ps []problem
	for _, sigma := range []string{"0.3", "0.2"} {
		for _, dim := range []int{31, 73, 101} {
			for _, m := range methods {
				ps = append(ps, problem{
					ID: fmt.Sprintf("table2/%s/s%s/D%d", m.id, sigma, dim),
					Spec: fmt.Sprintf("kernel: {type: rbf, sigma: %s}\ndomain: {dims: 2, interval: [0, 3.141592653589793]}\ntarget: {dim: %d}\nmethod: %s\n",
						sigma, dim, m.yaml),
					Metric: metricLInf,
					Tier: tier(m.id == "tensor-greedy" && sigma == "0.3" && dim == 31,
						dim == 31 && (m.id == "tensor-greedy" || m.id == "modulation" && sigma == "0.3")),
				})
			}
		}
	}
	return ps
}

// shippedSpecs is every spec of specs/ that designs one map (a target, not
// a comparison), as the file holds it today: by its held-out error with
// data, else its L∞ error.
func shippedSpecs() []problem {
	files, err := filepath.Glob(filepath.Join("..", "specs", "*.yaml"))
	if err != nil {
		panic(err)
	}
	sort.Strings(files)
	var ps []problem
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			panic(err)
		}
		text := string(b)
		if !strings.Contains(text, "\ntarget:") {
			continue
		}
		metric := metricLInf
		if strings.Contains(text, "\ndata:") {
			metric = metricData
		}
		// A data file relative to specs/ is the repository's digits.
		text = strings.ReplaceAll(text, "../testdata/digits.csv.gz", dataFile)
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		ps = append(ps, problem{ID: "spec/" + name, Spec: text, Metric: metric,
			Tier: tier(name == "table1-chi2-7d" || name == "annfm-chi2-digits-d7", true)})
	}
	return ps
}

// digitsGrid is the data-driven methods on the digits (1 797 rows of 64
// pixel counts 0..16): the held-out rows' Gram error of rff's samplings,
// Nyström's landmarks and rf-pca for the rbf kernel (σ = 49, about the
// median distance), of rff and Nyström for exp-χ² (β = 0.005, about one
// over the median χ² distance of two rows, 183), Nyström of more landmarks
// than D (n_landmarks) for both, and of Nyström, annfm and chum for the
// additive χ² kernel.
func digitsGrid() []problem {
	const data = "data: {file: " + dataFile + ", columns: [0, 63], label_column: 64}\n"
	rbf := "kernel: {type: rbf, sigma: 49}\ndomain: {dims: 64, interval: [0, 16]}\nerror: {weight: absolute}\n" + data
	expChi2 := "kernel: {type: exp-chi2, beta: 0.005}\ndomain: {dims: 64, interval: [0, 16]}\nerror: {weight: absolute}\n" + data
	chi2 := "kernel: {type: chi2}\ndomain: {integers: [0, 16]}\nerror: {weight: absolute}\n" + data
	var ps []problem
	add := func(id, head string, dim int, method string, short bool) {
		ps = append(ps, problem{
			ID:     fmt.Sprintf("digits/%s/D%d", id, dim),
			Spec:   head + fmt.Sprintf("target: {dim: %d}\nmethod: %s\n", dim, method),
			Metric: metricData,
			Tier:   tier(short, dim <= 16),
		})
	}
	for _, dim := range []int{16, 64, 256} {
		for _, s := range []string{"random", "qmc", "orthogonal"} {
			add("rbf/rff-"+s, rbf, dim, "{name: rff, sampling: "+s+"}", false)
		}
		for _, l := range []string{"kmeans", "random"} {
			add("rbf/nystroem-"+l, rbf, dim, "{name: nystroem, landmarks: "+l+"}", dim == 16 && l == "kmeans")
		}
	}
	for _, dim := range []int{16, 64} {
		add("rbf/rf-pca", rbf, dim, "{name: rf-pca}", false)
		add("exp-chi2-b0.005/rff", expChi2, dim, "{name: rff}", false)
		add("exp-chi2-b0.005/nystroem-kmeans", expChi2, dim, "{name: nystroem}", false)
	}
	// Nyström of m landmarks reduced to D (n_landmarks: 8D at D = 16, 4D
	// at D = 64, a few seconds each).
	for _, c := range []struct{ dim, m int }{{16, 128}, {64, 256}} {
		opts := fmt.Sprintf("{name: nystroem, n_landmarks: %d}", c.m)
		add(fmt.Sprintf("rbf/nystroem-m%d", c.m), rbf, c.dim, opts, false)
		add(fmt.Sprintf("exp-chi2-b0.005/nystroem-m%d", c.m), expChi2, c.dim, opts, false)
	}
	add("chi2/nystroem-kmeans", chi2, 64, "{name: nystroem}", false)
	add("chi2/annfm-kmeans", chi2, 7, "{name: annfm, anchors: kmeans, n_anchors: 16}", false)
	add("chi2/chum", chi2, 7, "{name: chum}", false)
	return ps
}

// kernelsGrid is the polynomial, Laplacian and Matérn kernels on the
// digits: the Laplacian of σ = 250 and Matérn of ν = 3/2, σ = 49 (about the
// median L1 and Euclidean distances of two rows) by rff and Nyström, and
// (x·y/4096 + 1)² (ρ = scale·E‖x‖² ≈ 0.94) by the polynomial method (its
// 2 145 monomials too many to project: the data-free map) and Nyström.
func kernelsGrid() []problem {
	const data = "data: {file: " + dataFile + ", columns: [0, 63], label_column: 64}\n"
	dom := "domain: {dims: 64, interval: [0, 16]}\nerror: {weight: absolute}\n" + data
	heads := map[string]string{
		"laplacian-s250":   "kernel: {type: laplacian, sigma: 250}\n" + dom,
		"matern1.5-s49":    "kernel: {type: matern, nu: 1.5, sigma: 49}\n" + dom,
		"poly2-s1/4096-c1": "kernel: {type: poly, degree: 2, scale: 0.000244140625, offset: 1}\n" + dom,
	}
	var ps []problem
	add := func(id string, dim int, method string, short bool) {
		k, _, _ := strings.Cut(id, "/")
		if strings.HasPrefix(id, "poly2") {
			k = "poly2-s1/4096-c1"
		}
		ps = append(ps, problem{
			ID:     fmt.Sprintf("digits/%s/D%d", id, dim),
			Spec:   heads[k] + fmt.Sprintf("target: {dim: %d}\nmethod: %s\n", dim, method),
			Metric: metricData,
			Tier:   tier(short, dim <= 64),
		})
	}
	for _, dim := range []int{64, 256} {
		add("laplacian-s250/rff", dim, "{name: rff}", false)
		add("matern1.5-s49/rff", dim, "{name: rff}", false)
		add("poly2-s1/4096-c1/polynomial", dim, "{name: polynomial}", dim == 64)
	}
	add("laplacian-s250/nystroem-kmeans", 64, "{name: nystroem}", false)
	add("matern1.5-s49/nystroem-kmeans", 64, "{name: nystroem}", false)
	add("poly2-s1/4096-c1/nystroem-kmeans", 64, "{name: nystroem}", false)
	return ps
}

// tier is tierShort if short, else tierSample if sample, else tierAll.
func tier(short, sample bool) int {
	switch {
	case short:
		return tierShort
	case sample:
		return tierSample
	}
	return tierAll
}

// oneInputTier puts the chum problem at D = 7 of χ² on [10⁻³, 1] with the
// relative error (one of those a speed change once made worse) and of JS on
// 8-bit integers in every run, and one problem of each kernel on 8-bit
// integers and on [10⁻⁶, 1], its measure and D picked by a hash, in the
// sample (-long).
func oneInputTier(kernel, domain, weight string, dim int) int {
	short := dim == 7 && (kernel == "chi2" && domain == "1e-3" && weight == "relative" ||
		kernel == "js" && domain == "u8" && weight == "absolute")
	h := fnv.New32a()
	h.Write([]byte(kernel + "/" + domain))
	v := h.Sum32()
	sample := (domain == "u8" || domain == "1e-6") && dim == 7+2*int(v%5) && (weight == "relative") == (v/5%2 == 1)
	return tier(short, sample)
}

// specFile writes a problem's spec into dir, its data file named by its
// absolute path in the repository, and returns the file's path.
func specFile(p problem, dir, digits string) (string, error) {
	text := p.Spec
	if !strings.HasPrefix(text, "version:") && !strings.Contains(text, "\nversion:") {
		text = "version: 1\nname: Ledger\n" + text
	}
	text = strings.ReplaceAll(text, dataFile, digits)
	if strings.Contains(text, patchesFile) {
		pa, err := filepath.Abs(filepath.Join("..", "testdata", "patches.csv"))
		if err != nil {
			return "", err
		}
		text = strings.ReplaceAll(text, patchesFile, pa)
	}
	name := strings.NewReplacer("/", "_", "[", "", "]", "").Replace(p.ID) + ".yaml"
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, []byte(text), 0o644)
}

// digitsPath is the absolute path of the repository's digits.
func digitsPath(t testing.TB) string {
	p, err := filepath.Abs(filepath.Join("..", "testdata", "digits.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
