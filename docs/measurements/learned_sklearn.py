#!/usr/bin/python3
"""Reference figures for docs/learning.md's measurements of learned maps
against scikit-learn, and the data files featmap learns from
(learned_featmap.sh measures featmap on them).

Run from the repository's root with Debian's python3-sklearn (unset
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE first):
    /usr/bin/python3 docs/measurements/learned_sklearn.py DIR
It writes DIR/<set>-train.csv and DIR/<set>-test.csv (features, then the
label; no header) and prints the figures of learned_sklearn.txt.

1. The repository's digits (testdata/digits.csv.gz), split as quality/'s
   TestLearnedDigits and examples/digits split them: per class, in file
   order, every fourth row is a test row (1 352 / 445 rows). Exact-kernel
   SVC (RBF) with C and gamma by 5-fold CV; the exact-kernel ridge
   classifier (one-vs-rest +-1 targets, squared loss: the model featmap's
   maps carry) with gamma and alpha by 5-fold CV, and its best test
   accuracy over the whole grid (an oracle: the most any ridge classifier
   of the exact kernel reaches on these test rows); Nystroem-256 + ridge
   (gamma, alpha by CV, 5 seeds).
2. scikit-learn's bundled breast-cancer, wine and diabetes sets: 70/30
   splits (random_state 0, stratified for classes), standardised by the
   training rows' mean and deviation. Classes: SVC (RBF, C and gamma by
   5-fold CV) and Nystroem-D + RidgeClassifier (gamma, alpha by 5-fold CV,
   5 seeds); diabetes (numbers): KernelRidge (RBF, gamma and alpha by
   5-fold CV) and Nystroem-D + Ridge, RMSE. D = 64, featmap's D.
"""

import gzip
import os
import sys

import numpy as np
import sklearn
from sklearn.datasets import load_breast_cancer, load_diabetes, load_wine
from sklearn.kernel_approximation import Nystroem
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import Ridge, RidgeClassifier
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
D = 64
print(f"scikit-learn {sklearn.__version__}")


def save(name, Xtr, ytr, Xte, yte):
    for part, X, y in (("train", Xtr, ytr), ("test", Xte, yte)):
        np.savetxt(os.path.join(out, f"{name}-{part}.csv"), np.c_[X, y], delimiter=",", fmt="%.17g")


def nystroem(Xtr, ytr, Xte, yte, dim, gammas, alphas, classes):
    """Nystroem-dim + ridge, gamma and alpha by 5-fold CV (seed 0), then
    seeds 0-4 at those values: test accuracy in percent, or RMSE."""
    model = RidgeClassifier if classes else Ridge
    cv = StratifiedKFold(5) if classes else KFold(5)
    grid = GridSearchCV(make_pipeline(Nystroem(n_components=dim, random_state=0), model()),
                        {"nystroem__gamma": gammas, model.__name__.lower() + "__alpha": alphas}, cv=cv).fit(Xtr, ytr)
    g = grid.best_params_["nystroem__gamma"]
    a = grid.best_params_[model.__name__.lower() + "__alpha"]
    scores = []
    for s in range(5):
        m = make_pipeline(Nystroem(gamma=g, n_components=dim, random_state=s), model(alpha=a)).fit(Xtr, ytr)
        p = m.predict(Xte)
        scores.append(100 * np.mean(p == yte) if classes else np.sqrt(np.mean((p - yte) ** 2)))
    return np.mean(scores), min(scores), max(scores), g, a


def svc(Xtr, ytr, Xte, yte, gammas):
    s = GridSearchCV(SVC(kernel="rbf"), {"C": [0.1, 0.3, 1, 3, 10, 30, 100], "gamma": gammas}, cv=5).fit(Xtr, ytr)
    return 100 * s.score(Xte, yte), s.best_params_


# 1. The digits.
rows = [l.split(",") for l in gzip.open("testdata/digits.csv.gz", "rt").read().split("\n") if l.strip()]
X = np.array([[float(v) for v in r[:64]] for r in rows])
y = np.array([int(float(r[64])) for r in rows])
seen = {}
test = np.zeros(len(y), bool)
for i, c in enumerate(y):
    k = seen.get(c, 0)
    seen[c] = k + 1
    test[i] = k % 4 == 3
Xtr, ytr, Xte, yte = X[~test], y[~test], X[test], y[test]
print(f"\ndigits: {len(ytr)} train, {len(yte)} test rows")
dg = [1e-4, 2e-4, 5e-4, 7e-4, 1e-3, 1.5e-3, 2e-3, 5e-3]
acc, p = svc(Xtr, ytr, Xte, yte, dg)
print(f"  exact-kernel SVC (RBF): {acc:.2f} %  (C {p['C']}, gamma {p['gamma']})")
Y = -np.ones((len(ytr), 10))
Y[np.arange(len(ytr)), ytr] = 1
alphas = [1e-3, 1e-2, 0.1, 1]
krr = GridSearchCV(KernelRidge(kernel="rbf"), {"gamma": dg, "alpha": alphas}, cv=5, scoring=lambda m, X, Yc: np.mean(m.predict(X).argmax(1) == Yc.argmax(1))).fit(Xtr, Y)
print(f"  exact-kernel ridge classifier (one-vs-rest): {100 * np.mean(krr.predict(Xte).argmax(1) == yte):.2f} %  (gamma {krr.best_params_['gamma']}, alpha {krr.best_params_['alpha']}, by 5-fold CV)")
oracle = max((100 * np.mean(KernelRidge(kernel="rbf", gamma=g, alpha=a).fit(Xtr, Y).predict(Xte).argmax(1) == yte), g, a) for g in dg for a in alphas)
print(f"  exact-kernel ridge classifier, the best on the test rows over the grid (an oracle): {oracle[0]:.2f} %  (gamma {oracle[1]}, alpha {oracle[2]})")
m, lo, hi, g, a = nystroem(Xtr, ytr, Xte, yte, 256, dg, alphas, True)
print(f"  Nystroem-256 + ridge: {m:.2f} % (min {lo:.2f}, max {hi:.2f}; gamma {g}, alpha {a})")

# 2. Three bundled sets, 70/30, standardised.
gammas = [1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1]
for name, load, classes in (("breast-cancer", load_breast_cancer, True), ("wine", load_wine, True), ("diabetes", load_diabetes, False)):
    X, y = load(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y if classes else None)
    mu, sd = Xtr.mean(0), Xtr.std(0)
    Xtr, Xte = (Xtr - mu) / sd, (Xte - mu) / sd
    save(name, Xtr, ytr, Xte, yte)
    top = np.abs(np.r_[Xtr, Xte]).max()
    print(f"\n{name}: {len(ytr)} train, {len(yte)} test rows of {X.shape[1]} inputs, standardised (largest |x| {top:.3g})")
    if classes:
        acc, p = svc(Xtr, ytr, Xte, yte, gammas)
        print(f"  exact-kernel SVC (RBF): {acc:.2f} %  (C {p['C']}, gamma {p['gamma']})")
        m, lo, hi, g, a = nystroem(Xtr, ytr, Xte, yte, D, gammas, [1e-3, 1e-2, 0.1, 1, 10], True)
        print(f"  Nystroem-{D} + ridge: {m:.2f} % (min {lo:.2f}, max {hi:.2f}; gamma {g}, alpha {a})")
    else:
        k = GridSearchCV(KernelRidge(kernel="rbf"), {"gamma": gammas, "alpha": [1e-3, 1e-2, 0.1, 1, 10]}, cv=KFold(5)).fit(Xtr, ytr)
        rmse = np.sqrt(np.mean((k.predict(Xte) - yte) ** 2))
        print(f"  kernel ridge (RBF, gamma and alpha by 5-fold CV): RMSE {rmse:.2f}  (gamma {k.best_params_['gamma']}, alpha {k.best_params_['alpha']})")
        m, lo, hi, g, a = nystroem(Xtr, ytr, Xte, yte, D, gammas, [1e-3, 1e-2, 0.1, 1, 10], False)
        print(f"  Nystroem-{D} + ridge: RMSE {m:.2f} (min {lo:.2f}, max {hi:.2f}; gamma {g}, alpha {a})")
