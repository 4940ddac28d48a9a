#!/bin/sh
# Alternates docs/measurements/dense_numpy.py (numpy with OpenBLAS, one
# thread) with the Go benchmark of codegen/internal/dense's prototype
# (BenchmarkPrototype, and BenchmarkMul for the products' GFLOP/s), REPS
# times (default 5), printing the load before each run, every line both
# print, and at the end the median of every measurement. Run from the
# repository's root: sh docs/measurements/dense_run.sh [REPS]
set -eu
reps=${1:-5}
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
py=${PYTHON:-/usr/bin/python3}
bin=$(mktemp -d)/dense.test
go test -c -o "$bin" ./codegen/internal/dense
log=$(mktemp)
for r in $(seq 1 "$reps"); do
	echo "# rep $r numpy: $(uptime)" | tee -a "$log"
	"$py" docs/measurements/dense_numpy.py | tee -a "$log"
	echo "# rep $r go: $(uptime)" | tee -a "$log"
	(cd codegen/internal/dense && "$bin" -test.run XXX -test.bench 'Prototype|Mul/k(64|256)/cols256/' -test.benchtime 3x) |
		grep Benchmark | tee -a "$log"
done
"$py" - "$log" <<'PY'
import re, statistics, sys
vals = {}
for line in open(sys.argv[1]):
    if line.startswith("numpy "):
        f = line.split()
        vals.setdefault(" ".join(f[:4] + f[5:6]), []).append(float(f[4]))
    elif line.startswith("Benchmark"):
        name = line.split()[0]
        for v, unit in re.findall(r"([\d.]+) (cpu-ns/row|ns/row|GFLOP/s|allocs/op)", line):
            vals.setdefault(f"{name} {unit}", []).append(float(v))
for k in sorted(vals):
    v = vals[k]
    print(f"median {k}: {statistics.median(v):.4g}  (n {len(v)}, min {min(v):.4g}, max {max(v):.4g})")
PY
