#!/usr/bin/env python3
"""Reference figures of scikit-learn's PolynomialCountSketch (a TensorSketch)
on the rows featmap's polynomial maps are measured on (docs/kernels.md).

Run from the repository's root with Debian's python3-sklearn:
    /usr/bin/python3 docs/polysketch_reference.py > docs/measurements/polysketch_reference.txt
It prints, for each data set, kernel and D, the relative Frobenius error
||K - Z Z^T||_F / ||K||_F of the Gram matrix of the rows, the mean over
seeds 0..9. Not a dependency of featmap or its tests.
"""
import csv
import gzip

import numpy as np
from sklearn.kernel_approximation import PolynomialCountSketch
from sklearn.metrics.pairwise import polynomial_kernel


def wine():
    # testdata/wine.csv: 13 measurements and a class; standardised with the
    # population standard deviation, as featmap's internal/wine does.
    with open("testdata/wine.csv") as f:
        rows = np.array([[float(v) for v in r[:13]] for r in csv.reader(f)])
    return (rows - rows.mean(0)) / rows.std(0)


def digits():
    # testdata/digits.csv.gz: the first 500 rows' 64 pixel counts, / 16.
    with gzip.open("testdata/digits.csv.gz", "rt") as f:
        rows = np.array([[float(v) for v in r[:64]] for r in csv.reader(f)][:500])
    return rows / 16


def gram_error(x, degree, gamma, coef0, dim, seeds=10):
    k = polynomial_kernel(x, degree=degree, gamma=gamma, coef0=coef0)
    errs = []
    for seed in range(seeds):
        z = PolynomialCountSketch(degree=degree, gamma=gamma, coef0=coef0,
                                  n_components=dim, random_state=seed).fit_transform(x)
        errs.append(np.linalg.norm(k - z @ z.T) / np.linalg.norm(k))
    return float(np.mean(errs))


for name, x in (("wine", wine()), ("digits", digits())):
    n = x.shape[1]
    for degree in (2, 3):
        for dim in (16, 32, 64, 256, 1024):
            e = gram_error(x, degree, 1 / n, 1, dim)
            print(f"{name}\t(x.y/{n} + 1)^{degree}\tD = {dim}\t{e:.4g}")
