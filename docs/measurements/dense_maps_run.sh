#!/bin/sh
# Alternates docs/measurements/dense_numpy.py (numpy with OpenBLAS, one
# thread, its kernels CORETYPE, default SkylakeX) with BenchmarkDense of
# codegen (the emitted rff and Nyström maps of 64 inputs) at ROWS rows per
# NSlice call (default 100 000, as the numpy script), and the products'
# GFLOP/s of codegen/internal/dense (BenchmarkMul), REPS times (default 3),
# printing the load before each run and every line both print. Run from
# the repository's root:
#   sh docs/measurements/dense_maps_run.sh [REPS [ROWS [CORETYPE]]]
# The plain Go loop is left out (at 100 000 rows it takes minutes); run
# BenchmarkDense at its default 1 200 rows for it.
set -eu
reps=${1:-3}
rows=${2:-100000}
core=${3:-SkylakeX}
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
py=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
go test -c -o "$tmp/codegen.test" ./codegen
go test -c -o "$tmp/dense.test" ./codegen/internal/dense
for r in $(seq 1 "$reps"); do
	echo "# rep $r numpy: $(uptime)"
	"$py" docs/measurements/dense_numpy.py --coretype "$core" --rows "$rows"
	echo "# rep $r go: $(uptime)"
	(cd codegen && "$tmp/codegen.test" -test.run '^$' -test.bench '^BenchmarkDense$' -test.v \
		-dense.rows "$rows" -dense.run 'Slice$|SliceF32$|One$|Parallel2$') | sed -n '/ns per row/,/^ *$/p'
	(cd codegen/internal/dense && "$tmp/dense.test" -test.run '^$' -test.bench 'Mul/k(64|256)/cols256/' -test.benchtime 3x) | grep Benchmark
done
