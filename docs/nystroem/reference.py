"""Reference figures for docs/nystroem.md ("Against numpy and scikit-learn",
"More landmarks than D"): numpy and scikit-learn on the digits split the
tests use (testdata/digits.csv.gz: the first 1400 rows to fit, the other
397 held out), never a dependency of the tests.

    python3 docs/nystroem/reference.py > docs/nystroem/reference.txt

For the Gaussian kernel (sigma = 49, about the median distance) and exp-chi2
(beta = 0.005, about 1/median chi2 distance of the raw counts) at
D = 16, 64, 256, on the held-out rows, in the relative Frobenius measure
of featmap's data error, ||K - PP'||_F / ||K||_F:
  - k-means Nystrom with D landmarks (scikit-learn's KMeans, n_init 1, on x
    for rbf and on sqrt(x) for exp-chi2, as featmap's kmeansSpace; mean of
    seeds 0-3; eigenvalues of W below 1e-10 of the largest dropped);
  - Nystrom with m = 4D and 8D such landmarks (m at most the 1400 rows to
    fit), reduced to the top D eigenvectors of the uncentred second moment
    of its features on the rows to fit (seed 0);
  - the kernel-PCA limit: the top D eigenvectors of the rows to fit's Gram
    matrix, extended to the held-out rows (Nystrom with every row to fit a
    landmark, reduced to D);
  - the rank-D bound: the error of the best rank-D approximation of the
    held-out rows' Gram matrix (its eigenvalues beyond the D-th).
"""
import gzip
import os
import sys

import numpy as np
from sklearn.cluster import KMeans

here = os.path.dirname(os.path.abspath(__file__))
with gzip.open(os.path.join(here, '..', '..', 'testdata', 'digits.csv.gz'), 'rt') as f:
    xs = np.loadtxt(f, delimiter=',')[:, :64]
fit, held = xs[:1400], xs[1400:]


def rbf(a, b, s=49.0):
    d = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2 * a @ b.T
    return np.exp(-np.maximum(d, 0) / (2 * s * s))


def echi(a, b, beta=0.005):
    out = np.empty((len(a), len(b)))
    for i in range(len(a)):
        t = a[i] + b
        n = (a[i] - b) ** 2
        out[i] = np.exp(-beta * np.where(t > 0, n / np.where(t > 0, t, 1), 0).sum(1))
    return out


def whiten(L, k):
    w, V = np.linalg.eigh(k(L, L))
    keep = w > 1e-10 * w.max()
    return V[:, keep] / np.sqrt(w[keep])


def err(P, Kh):
    return np.linalg.norm(Kh - P @ P.T) / np.linalg.norm(Kh)


def landmarks(k_space, back, m, seed):
    km = KMeans(n_clusters=m, n_init=1, random_state=seed).fit(k_space(fit))
    return back(km.cluster_centers_)


def top(F, D):
    w, U = np.linalg.eigh(F.T @ F)
    return U[:, np.argsort(w)[::-1][:D]]


kernels = (('rbf', rbf, lambda x: x, lambda x: x),
           ('exp-chi2', echi, np.sqrt, lambda u: u * u))
for name, k, space, back in kernels:
    Kh, Khf = k(held, held), k(held, fit)
    ev = np.sort(np.linalg.eigvalsh(Kh))[::-1]
    wf, Vf = np.linalg.eigh(k(fit, fit))
    o = np.argsort(wf)[::-1]
    wf, Vf = wf[o], Vf[:, o]
    for D in (16, 64, 256):
        plain = [err(k(held, L) @ whiten(L, k), Kh)
                 for L in (landmarks(space, back, D, s) for s in range(4))]
        line = ['%-8s D %3d' % (name, D),
                'nystroem(D) %.4g' % np.mean(plain)]
        for mult in (4, 8):
            m = mult * D
            if m > len(fit):
                continue
            L = landmarks(space, back, m, 0)
            A = whiten(L, k)
            U = top(k(fit, L) @ A, D)
            line.append('m=%d %.4g' % (m, err(k(held, L) @ A @ U, Kh)))
        line.append('kpca %.4g' % err(Khf @ (Vf[:, :D] / np.sqrt(wf[:D])), Kh))
        line.append('rank-D bound %.4g' % (np.sqrt((ev[D:] ** 2).sum()) / np.linalg.norm(Kh)))
        print(', '.join(line), flush=True)
