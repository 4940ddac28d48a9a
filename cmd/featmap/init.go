package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/spec"
)

func init() { commands["init"] = cmdInit }

// starter is a kernel's starter spec: its sections, each with a comment
// on what it means and which keys to change.
type starter struct {
	kernel, domain, target, method string
	// pieces says gen evaluates its map by polynomial pieces, whose
	// default, fastest file is large (starterEmit; docs/gen.md,
	// "Generated-file size").
	pieces bool
}

// The sections the starters share: a histogram bin's (the homogeneous
// kernels'), a vector's of random Fourier features.
const (
	binDomain = "domain:\n  interval: [0.001, 1]    # one histogram bin's values: lo > 0 is the smallest nonzero value\n" +
		"                          # (0 maps to 0); or integers: [0, 255] for counts\n"
	binTarget    = "target:\n  dim: 7                  # the output dimension D per bin (or max_error: 0.01)\n"
	binMethod    = "method:\n  name: chum              # Chum's LP design; also vz, li, chebyshev\n"
	rffTarget    = "target:\n  dim: 1024               # the output dimension D (even for cos-sin features)\n"
	skewedDomain = "domain:\n  dims: 64                # the length n of your vectors\n  interval: [0, 1]        # every value in [lo, hi]\n"
	skewedMethod = "method:\n  name: rff               # random Fourier features (qmc frequencies by default for the skewed kernels)\n  seed: 1\n"
	vectorDomain = "domain:\n  dims: 13                # the length n of your vectors\n  interval: [-5, 5]       # every value in [lo, hi]\n"
	vectorMethod = "method:\n  name: rff               # random Fourier features from the kernel's spectral law (or nystroem with data)\n  seed: 1\n"
)

// starters are the starter specs, one per kernel type (TestStarters holds
// every type of fmap.KernelTypes to one).
var starters = map[string]starter{
	fmap.Chi2:         {kernel: "kernel:\n  type: chi2              # K(x, y) = 2xy/(x + y), summed over a histogram's bins\n", domain: binDomain, target: binTarget, method: binMethod, pieces: true},
	fmap.Intersection: {kernel: "kernel:\n  type: intersection      # K(x, y) = min(x, y), summed over a histogram's bins\n", domain: binDomain, target: binTarget, method: binMethod, pieces: true},
	fmap.JS:           {kernel: "kernel:\n  type: js                # Jensen–Shannon, summed over a histogram's bins\n", domain: binDomain, target: binTarget, method: binMethod, pieces: true},
	fmap.Hellinger: {kernel: "kernel:\n  type: hellinger         # K(x, y) = √(xy): its exact map √x has one dimension\n", domain: binDomain,
		target: "target:\n  dim: 1                  # the exact map has one dimension\n", method: binMethod},
	fmap.RBF: {kernel: "kernel:\n  type: rbf\n  sigma: 0.3              # K(x, y) = exp(−(x − y)²/(2σ²)); one value, or one per axis\n",
		domain: "domain:\n  interval: [0, 3.141592653589793]   # x, y in [lo, hi]; dims: 2 or 3 for points (then see docs/spec.md)\n",
		target: "target:\n  dim: 11                 # the output dimension D (or max_error: 0.01)\n",
		method: "method:\n  name: chum              # Chum's LP design; also harmonic, or rff for random features\n", pieces: true},
	fmap.SkewedChi2: {kernel: "kernel:\n  type: skewed-chi2\n  sigma: 0.5              # Π_j sech(σ(log(x_j + c) − log(y_j + c)))\n  c: 0.01                 # the offset: lo + c must be > 0\n", domain: skewedDomain, target: rffTarget, method: skewedMethod},
	fmap.SkewedIntersection: {kernel: "kernel:\n  type: skewed-intersection\n  sigma: 0.5              # Π_j min(((x_j + c)/(y_j + c))^σ, ((y_j + c)/(x_j + c))^σ)\n" +
		"  c: 0.01                 # the offset: lo + c must be > 0\n", domain: skewedDomain, target: rffTarget, method: skewedMethod},
	fmap.ExpChi2: {kernel: "kernel:\n  type: exp-chi2\n  beta: 1                 # exp(−β Σ_j (x_j − y_j)²/(x_j + y_j))\n", domain: skewedDomain, target: rffTarget,
		method: "method:\n  name: rff               # the χ² map of each value, then Gaussian random features\n  inner: {name: chum, dim: 5}\n  seed: 1\n"},
	fmap.Poly: {kernel: "kernel:\n  type: poly              # (scale·x·y + offset)^degree, scikit-learn's polynomial_kernel\n" +
		"  degree: 3               # an integer 1..8\n  scale: 0.0769           # scikit-learn's gamma (default 1/n)\n  offset: 1               # scikit-learn's coef0 (≥ 0)\n",
		domain: "domain:\n  dims: 13                # the length n of your vectors\n  interval: [-5, 5]       # every value in [lo, hi] (standardised inputs, say)\n",
		target: "target:\n  dim: 560                # C(n + degree, degree) = 560 monomials: the exact map; a smaller D sketches\n",
		method: "method:\n  name: polynomial        # exact monomials; below their number, with data: their top principal directions\n  seed: 1\n"},
	fmap.Laplacian: {kernel: "kernel:\n  type: laplacian\n  sigma: 13               # exp(−Σ_j |x_j − y_j|/σ): about the median L1 distance of 13 standardised inputs; one value, or one per axis\n", domain: vectorDomain, target: rffTarget, method: vectorMethod},
	fmap.Matern:    {kernel: "kernel:\n  type: matern\n  nu: 1.5                 # the smoothness: 0.5, 1.5 or 2.5 (scikit-learn's Matern)\n  sigma: 3                # the length scale, about the median distance of 13 standardised inputs; one value, or one per axis\n", domain: vectorDomain, target: rffTarget, method: vectorMethod},
}

// starterEmit is the emit section of the starters whose maps gen
// evaluates by polynomial pieces, with the sizes of their files (gen of
// init chi2, intersection, js and rbf with each setting; docs/gen.md,
// "Generated-file size", has each; TestInit holds them to these
// ranges).
const starterEmit = "emit:\n  tables: fast            # gen's code: fast (the fastest, and a large file: 130–370 KB here),\n" +
	"                          # compact (34–64 % of that) or small (23–28 KB, slower per input)\n"

// cmdInit prints a commented starter spec for a kernel that design accepts
// as it is.
func cmdInit(_ context.Context, args []string, stdout, stderr io.Writer) int {
	types := fmap.KernelTypes()
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprintf(stderr, "usage: featmap init KERNEL | rff | nystroem\nPrints a commented starter spec for KERNEL (%s) that featmap design accepts as it is,\n"+
			"or for a map learned from labelled rows (rff or nystroem, with data and learn sections: it reads data.csv).\nexample: featmap init chi2 > chi2.yaml\n", strings.Join(types, " | "))
		return exitHelp
	}
	if len(args) == 1 && learnedStarters[args[0]] != "" {
		fmt.Fprintf(stdout, "# yaml-language-server: $schema=%s\n", spec.SchemaURL)
		fmt.Fprint(stdout, learnedStarters[args[0]])
		return exitOK
	}
	if len(args) != 1 || !slices.Contains(types, args[0]) {
		fmt.Fprintf(stderr, "usage: featmap init KERNEL | rff | nystroem, KERNEL one of %s\n", strings.Join(types, ", "))
		return exitUsage
	}
	k := args[0]
	st := starters[k]
	emit := ""
	if st.pieces {
		emit = starterEmit
	}
	// The editor's schema: the YAML language server completes and checks
	// keys with it (docs/spec.schema.json, at its published URL).
	fmt.Fprintf(stdout, "# yaml-language-server: $schema=%s\n", spec.SchemaURL)
	fmt.Fprintf(stdout, "# A featmap spec (the format: docs/spec.md). Design it with\n#   featmap design SPEC.yaml\n# and emit Go with featmap gen -o FILE.go SPEC.yaml.\nversion: 1\nname: %s\n", starterName(k))
	fmt.Fprint(stdout, st.kernel, st.domain, "error:\n  weight: absolute        # |K − Ψ·Ψ| over pairs of the domain\n", st.target, st.method, emit)
	fmt.Fprint(stdout, "# data: {file: samples.csv}  # optional: your rows, to verify the map on them (and learn from them)\n")
	return exitOK
}

// starterName is a Go identifier for the kernel's starter map.
func starterName(k string) string {
	var b strings.Builder
	for _, part := range strings.Split(k, "-") {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String() + "Map"
}

// learnedStart is the start of the learned starters: what they do and the
// commands that design, emit and check them.
const learnedStart = `# A featmap spec learned from labelled rows (see docs/learning.md): σ of the
# Gaussian kernel learned from data.csv's labels, then a map of D features and
# a ridge model on them (gen emits NClass for classes, NScore for numbers).
# Put your rows in data.csv (n feature columns, then the label), then
#   featmap design SPEC.yaml                           # states σ, the model, its held-out accuracy
#   featmap gen -o map.go -map map.json SPEC.yaml      # the Go code, and the map as JSON
#   featmap eval map.json test.csv                     # the predictor on rows it never saw
version: 1
`

// learnedData is the data and learn sections of the learned starters.
const learnedData = `data:
  file: data.csv          # your rows: CSV, TSV, whitespace or .npy, gzip'd or not
  columns: [0, 63]        # the feature columns (domain.dims of them)
  label_column: 64        # the label: class numbers, or numbers to regress
learn:
  sigma: shared           # one σ; per-axis learns one per column, starting from the shared one
  ridge: auto             # the model's λ chosen on the validation split
  # task: classification  # or regression; without it, decided from the labels
`

// learnedKernel is the kernel, domain and error sections of the learned
// starters.
const learnedKernel = `kernel:
  type: rbf
  sigma: 30               # where learning starts: about the median distance between rows
domain:
  dims: 64                # n, the feature columns of a row
  interval: [0, 16]       # every feature in [lo, hi]
error:
  weight: absolute        # |K − Ψ·Ψ|, measured on held-out rows of data.csv
`

// learnedStarters are the starter specs of maps learned from labelled
// rows, by method.
var learnedStarters = map[string]string{
	"rff": learnedStart + "name: LearnedRFF\n" + learnedKernel +
		"target:\n  dim: 256                # D random Fourier features (even: cos-sin pairs)\n" +
		"method:\n  name: rff               # σ learned on exactly these features\n  seed: 1\n" + learnedData,
	"nystroem": learnedStart + "name: LearnedNystroem\n" + learnedKernel +
		"target:\n  dim: 256                # D landmarks (k-means centres of the rows to fit)\n" +
		"method:\n  name: nystroem          # σ learned on random features, the landmarks fitted at it\n  seed: 1\n" + learnedData,
}
