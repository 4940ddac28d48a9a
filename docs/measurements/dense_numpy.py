#!/usr/bin/env python3
"""Times numpy with OpenBLAS computing the dense maps of
codegen/internal/dense's prototype (docs/measurements/dense.md): the same
shapes, random frequencies and landmarks with a fixed seed, inputs like the
digits' pixel counts (integers 0-16, a third of them 0).

  rff-d256       Psi(x) = [cos w_k.x, sin w_k.x]/sqrt(m), m = 128, n = 64
  rff-d1024      the same with m = 512
  nystroem-d256  Psi(x) = P.[exp(-|x - l_j|^2/(2 sigma^2))]_j, 256 landmarks
  nystroem-d64   the same with 64 landmarks (examples/digits' shape)

each as a numpy user writes it at its fastest: one matrix product for the
phases (or for the cross terms of |x - l|^2 = |x|^2 + |l|^2 - 2 x.l,
clamped at 0), the elementwise functions over the whole batch, a second
product for Nystrom, every result into an array allocated once before the
timing (out=), as the Go benchmark writes into a dst allocated once: a
fresh array of the batch costs a page fault per 4 KiB at its first write,
a cost of the memory, not of the map (docs/measurements/dense.md).
float64 and float32, a batch of --rows rows (100 000) and one row at a
time (1000 calls), on one thread (threadpoolctl), and numpy's a @ b of
2048 x 2048 (the machine's GEMM rate). It prints one line per measurement:

  numpy MAP DTYPE batch|one-row NS_PER_ROW ns/row
  numpy MAP DTYPE batch|one-row NS_PER_ROW cpu-ns/row
  numpy gemm DTYPE 2048 GFLOPS GFLOP/s
  numpy gemm DTYPE 2048 GFLOPS cpu-GFLOP/s

(cpu-: of the process's CPU time, which on a loaded machine does not count
the time other processes held the core; the Go benchmark reports both.)

Not a test dependency. Run it with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE
unset (--coretype NAME sets the first) (docs/measurements/dense_run.sh alternates it with the Go benchmark).
"""

import argparse
import os
import sys
import time

for v in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
    if v in os.environ:
        sys.exit(f"dense_numpy.py: unset {v} first (--coretype sets the core type)")
# --coretype NAME picks OpenBLAS's kernels (OPENBLAS_CORETYPE) before numpy
# loads it: OpenBLAS 0.3.21 does not recognise every CPU (on an Intel Xeon
# with AVX-512 whose model it does not know it falls back to Prescott's SSE3
# kernels, a third of its SkylakeX rate), and numpy should be timed at its
# best. The header line names the kernels that ran.
if "--coretype" in sys.argv:
    i = sys.argv.index("--coretype")
    if i + 1 >= len(sys.argv):
        sys.exit("dense_numpy.py: --coretype needs a name (SkylakeX, Haswell, Zen, ...)")
    os.environ["OPENBLAS_CORETYPE"] = sys.argv[i + 1]

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

N_IN = 64
SHAPES = [
    ("rff-d256", False, 128, 256, 49.0),
    ("rff-d1024", False, 512, 1024, 49.0),
    ("nystroem-d256", True, 256, 256, 34.7),
    ("nystroem-d64", True, 64, 64, 34.7),
]


def inputs(rng, rows):
    x = rng.integers(0, 17, size=(rows, N_IN)).astype(np.float64)
    x[rng.random(size=x.shape) < 1 / 3] = 0
    return x


def rff(rng, m, sigma, dtype):
    """Returns make(rows), which allocates the work arrays of a batch of
    rows and returns psi(x, out), which writes the map of x to out."""
    w = (rng.normal(size=(m, N_IN)) / sigma).astype(dtype)
    wt = np.ascontiguousarray(w.T)
    s = dtype(np.sqrt(1 / m))

    def make(rows):
        ph = np.empty((rows, m), dtype=dtype)

        def psi(x, out):
            np.matmul(x, wt, out=ph)
            np.cos(ph, out=out[:, 0::2])
            np.sin(ph, out=out[:, 1::2])
            out *= s

        return psi

    return make, 2 * m


def nystroem(rng, m, d, sigma, dtype):
    land = rng.integers(0, 17, size=(m, N_IN)).astype(np.float64)
    proj = rng.normal(size=(d, m)) / np.sqrt(m)
    c = 8.0  # the domain's centre, as the Go prototype subtracts it
    s2 = 1 / (2 * sigma * sigma)
    lc = land - c
    lt = np.ascontiguousarray((2 * s2 * lc).T).astype(dtype)
    nl = (s2 * (lc * lc).sum(axis=1)).astype(dtype)
    pt = np.ascontiguousarray(proj.T).astype(dtype)
    cc, ss = dtype(c), dtype(s2)

    def make(rows):
        t = np.empty((rows, N_IN), dtype=dtype)
        q = np.empty(rows, dtype=dtype)
        g = np.empty((rows, m), dtype=dtype)

        def psi(x, out):
            np.subtract(x, cc, out=t)
            np.einsum("ij,ij->i", t, t, out=q)
            np.multiply(q, ss, out=q)
            np.matmul(t, lt, out=g)
            np.subtract(g, nl, out=g)
            np.subtract(g, q[:, None], out=g)
            np.minimum(g, 0, out=g)
            np.exp(g, out=g)
            np.matmul(g, pt, out=out)

        return psi

    return make, d


def timed(f, reps):
    """The median wall time and the median CPU time of the process (on a
    loaded machine the wall time also counts others' time on the core)."""
    wall, cpu = [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        f()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    wall.sort()
    cpu.sort()
    return wall[len(wall) // 2], cpu[len(cpu) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=3, help="repetitions per measurement (the median is printed)")
    ap.add_argument("--maps", default=",".join(s[0] for s in SHAPES))
    ap.add_argument("--no-gemm", action="store_true")
    ap.add_argument("--coretype", help="OpenBLAS's kernels (OPENBLAS_CORETYPE); default: its own detection")
    a = ap.parse_args()
    with threadpool_limits(limits=1):
        for info in threadpool_info():
            if info.get("internal_api") == "openblas":
                print(f"# {info['internal_api']} {info['version']} {info.get('architecture')} threads {info['num_threads']}", flush=True)
        for name, nys, m, d, sigma in SHAPES:
            if name not in a.maps.split(","):
                continue
            for dtype in (np.float64, np.float32):
                rng = np.random.default_rng(51)
                x = inputs(rng, a.rows).astype(dtype)
                make, dim = nystroem(rng, m, d, sigma, dtype) if nys else rff(rng, m, sigma, dtype)
                out = np.zeros((a.rows, dim), dtype=dtype)
                psi = make(a.rows)
                psi(x, out)  # warm up: the work arrays' pages
                s, c = timed(lambda: psi(x, out), a.reps)
                print(f"numpy {name} {np.dtype(dtype).name} batch {s / a.rows * 1e9:.1f} ns/row", flush=True)
                print(f"numpy {name} {np.dtype(dtype).name} batch {c / a.rows * 1e9:.1f} cpu-ns/row", flush=True)
                one = x[:1000]
                psi1, out1 = make(1), np.zeros((1, dim), dtype=dtype)

                def rows():
                    for i in range(one.shape[0]):
                        psi1(one[i : i + 1], out1)

                s, c = timed(rows, a.reps)
                print(f"numpy {name} {np.dtype(dtype).name} one-row {s / one.shape[0] * 1e9:.1f} ns/row", flush=True)
                print(f"numpy {name} {np.dtype(dtype).name} one-row {c / one.shape[0] * 1e9:.1f} cpu-ns/row", flush=True)
        if not a.no_gemm:
            for dtype in (np.float64, np.float32):
                rng = np.random.default_rng(1)
                p = rng.normal(size=(2048, 2048)).astype(dtype)
                q = rng.normal(size=(2048, 2048)).astype(dtype)
                p @ q
                s, c = timed(lambda: p @ q, max(a.reps, 3))
                print(f"numpy gemm {np.dtype(dtype).name} 2048 {2 * 2048**3 / s / 1e9:.1f} GFLOP/s", flush=True)
                print(f"numpy gemm {np.dtype(dtype).name} 2048 {2 * 2048**3 / c / 1e9:.1f} cpu-GFLOP/s", flush=True)


if __name__ == "__main__":
    main()
