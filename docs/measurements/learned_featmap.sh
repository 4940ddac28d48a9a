#!/bin/sh
# featmap's side of learned_sklearn.py's measurements (docs/learning.md,
# "Measurements"): learned nystroem maps designed on the training files
# learned_sklearn.py wrote to DIR, and featmap eval's test accuracy (or
# RMSE) on the test files, seeds 1-5 of each. Run from the repository's
# root after learned_sklearn.py:
#     sh docs/measurements/learned_featmap.sh DIR
# Its output is learned_featmap.txt.
set -e
dir=$1
bin=$dir/featmap
go build -o "$bin" ./cmd/featmap
root=$(pwd)

# measure NAME TRAIN TEST INPUTS BOUND SIGMA DIM METHOD LEARN DATA: seeds 1-5.
measure() {
	name=$1 train=$2 test=$3 n=$4 bound=$5 sigma=$6 dim=$7 method=$8 learn=$9
	shift 9
	data=$1
	out=""
	for seed in 1 2 3 4 5; do
		mkdir -p "$dir/m"
		cat >"$dir/m/spec.yaml" <<Y
version: 1
name: M
kernel: {type: rbf, sigma: $sigma}
domain: {dims: $n, interval: [-$bound, $bound]}
error: {weight: absolute}
target: {dim: $dim}
method: {name: nystroem, seed: $seed$method}
data: {file: $train, columns: [0, $((n - 1))], label_column: $n$data}
learn: $learn
Y
		"$bin" gen -o "$dir/m/m.go" -map "$dir/m/m.json" "$dir/m/spec.yaml" 2>/dev/null
		v=$("$bin" eval "$dir/m/m.json" "$test" | sed -n 's/^model: accuracy \([0-9.]*\).*/\1/p; s/^model: RMSE \([0-9.e+-]*\).*/\1/p')
		out="$out $v"
	done
	echo "$name:$out" | awk -F: '{n = split($2, a, " "); s = 0; lo = 1e300; hi = -1e300
		for (i = 1; i <= n; i++) { v = a[i]; if (v < 1.5) v *= 100; s += v; if (v < lo) lo = v; if (v > hi) hi = v }
		printf "%s: mean %.2f (min %.2f, max %.2f)\n", $1, s / n, lo, hi }'
}

shared="{sigma: shared, ridge: auto}"
peraxis="{sigma: per-axis, ridge: auto}"
d=$root/examples/digits
echo "digits (examples/digits: 1352 train, 445 test rows), D = 256"
measure "  nystroem, data.holdout 0.2 (the default)" "$d/train.csv.gz" "$d/test.csv.gz" 64 16 30 256 "" "$shared" ""
measure "  nystroem, data.holdout 0" "$d/train.csv.gz" "$d/test.csv.gz" 64 16 30 256 "" "$shared" ", holdout: 0"
measure "  nystroem, n_landmarks 1024, data.holdout 0" "$d/train.csv.gz" "$d/test.csv.gz" 64 16 30 256 ", n_landmarks: 1024" "$shared" ", holdout: 0"
for set in breast-cancer:30:15:5.5 wine:13:5:3.6 diabetes:10:5:3.2; do
	ds=${set%%:*} rest=${set#*:}
	n=${rest%%:*} rest=${rest#*:}
	bound=${rest%%:*} sigma=${rest#*:}
	task=""
	[ "$ds" = diabetes ] && task=", task: regression"
	echo "$ds (standardised, 70/30), D = 64, data.holdout 0, σ from $sigma"
	measure "  nystroem, shared σ" "$dir/$ds-train.csv" "$dir/$ds-test.csv" "$n" "$bound" "$sigma" 64 "" "{sigma: shared, ridge: auto$task}" ", holdout: 0"
	measure "  nystroem, σ per axis" "$dir/$ds-train.csv" "$dir/$ds-test.csv" "$n" "$bound" "$sigma" 64 "" "{sigma: per-axis, ridge: auto$task}" ", holdout: 0"
done
