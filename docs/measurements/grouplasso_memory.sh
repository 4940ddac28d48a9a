#!/usr/bin/env bash
# The group lasso's peak memory at its largest size, 4096 random features
# (two rbf kernels × dim_per_kernel 2048, 3000 labelled rows of 4 columns,
# seeded): the peak resident set of featmap design, by /usr/bin/time -v.
# Run from the repository's root: docs/measurements/grouplasso_memory.sh
set -euo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir/rows.csv" <<'PY'
import random, sys
random.seed(3)
with open(sys.argv[1], "w") as f:
    for _ in range(3000):
        x = [random.uniform(0, 10) for _ in range(4)]
        y = 1 if (x[0] - 5) ** 2 + (x[1] - 5) ** 2 < 9 else 0
        f.write(",".join("%.4f" % v for v in x) + ",%d\n" % y)
PY
cat > "$dir/gl.yaml" <<'YAML'
version: 1
name: GL
kernels:
  - {type: rbf, sigma: 2, columns: [0, 1]}
  - {type: rbf, sigma: 2, columns: [2, 3]}
domain: {dims: 4, interval: [0, 10]}
method: {name: rff-group-lasso, dim_per_kernel: 2048}
data: {file: rows.csv, columns: [0, 3], label_column: 4}
YAML
go build -o "$dir/featmap" ./cmd/featmap
/usr/bin/time -v "$dir/featmap" design "$dir/gl.yaml" 2>"$dir/time.txt" >/dev/null
grep -E 'Maximum resident set size|Elapsed' "$dir/time.txt"
