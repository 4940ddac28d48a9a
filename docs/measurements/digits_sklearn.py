#!/usr/bin/python3
"""Reference figures for docs/learning.md's measurements: scikit-learn on
the repository's digits (testdata/digits.csv.gz), split as quality/'s
TestLearnedDigits splits them: per class, in file order, every fourth row
(the 4th, 8th, ...) is a test row, the others train (1 352 / 445 rows).

Run from the repository's root with Debian's python3-sklearn:
    /usr/bin/python3 docs/measurements/digits_sklearn.py
Its output is docs/measurements/digits_sklearn.txt. Hyperparameters are
chosen by 5-fold cross-validation on the training rows only; the random
maps are averaged over 5 seeds (mean, min, max)."""

import gzip

import numpy as np
import sklearn
from sklearn.kernel_approximation import Nystroem, RBFSampler
from sklearn.linear_model import RidgeClassifier
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

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
print(f"scikit-learn {sklearn.__version__}; {len(ytr)} train, {len(yte)} test rows")

gammas = [1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3]
svc = GridSearchCV(SVC(kernel="rbf"), {"C": [1, 3, 10, 30, 100], "gamma": gammas}, cv=5).fit(Xtr, ytr)
g = svc.best_params_["gamma"]
print(f"exact-kernel SVC (RBF): {100 * svc.score(Xte, yte):.2f} %  (C {svc.best_params_['C']}, gamma {g}, sigma {1 / np.sqrt(2 * g):.3g})")

for name, make in [("RBFSampler", lambda D, s, gm: RBFSampler(gamma=gm, n_components=D, random_state=s)),
                   ("Nystroem", lambda D, s, gm: Nystroem(gamma=gm, n_components=D, random_state=s))]:
    for D in (64, 256):
        # gamma and the ridge alpha by cross-validation on the training
        # rows (seed 0), then 5 seeds at those values.
        cv = GridSearchCV(make_pipeline(make(D, 0, 1e-3), RidgeClassifier()),
                          {make_pipeline(make(D, 0, 1e-3), RidgeClassifier()).steps[0][0] + "__gamma": gammas,
                           "ridgeclassifier__alpha": [1e-3, 1e-2, 0.1, 1]}, cv=5).fit(Xtr, ytr)
        p = cv.best_params_
        gm = [v for k, v in p.items() if k.endswith("gamma")][0]
        acc = [100 * make_pipeline(make(D, s, gm), RidgeClassifier(alpha=p["ridgeclassifier__alpha"])).fit(Xtr, ytr).score(Xte, yte) for s in range(5)]
        print(f"{name}-{D} + ridge: {np.mean(acc):.2f} % (min {min(acc):.2f}, max {max(acc):.2f}; gamma {gm}, alpha {p['ridgeclassifier__alpha']})")
