#!/usr/bin/python3
"""Makes testdata/patches.csv and testdata/patches-hidden.csv: 16-bin
grey-level histograms of 24 x 24 patches of scikit-learn's two sample
images (china.jpg, flower.jpg, bundled with scikit-learn), the data set
the Nystrom n_landmarks measurements and tests use beside the digits
(docs/nystroem.md, "More landmarks than D").

Run from the repository's root with Debian's python3-sklearn:
    /usr/bin/python3 docs/measurements/patches.py
It draws 1000 patches with numpy's default_rng(45045): patch k from image
k mod 2, its top-left corner uniform over the image; grey = 0.299 R +
0.587 G + 0.114 B; 16 equal bins of [0, 256); each count divided by the
576 pixels, so a row sums to 1. Column 16 is the image (0 china, 1
flower). The rows are shuffled by the same generator; the first 700 go to
patches.csv (the rows a spec designs from: featmap holds out a fifth of
them and fits on the rest), the last 300 to patches-hidden.csv (rows no
design sees). It prints the median distance between the 1000 rows (the
rbf sigma the measurements take, 0.93 rounded)."""

import numpy as np
from sklearn.datasets import load_sample_images

SEED = 45045
rng = np.random.default_rng(SEED)
images = load_sample_images().images
rows = []
for k in range(1000):
    im = images[k % 2]
    i = rng.integers(0, im.shape[0] - 24 + 1)
    j = rng.integers(0, im.shape[1] - 24 + 1)
    p = im[i:i + 24, j:j + 24].astype(float)
    grey = 0.299 * p[..., 0] + 0.587 * p[..., 1] + 0.114 * p[..., 2]
    h, _ = np.histogram(grey, bins=16, range=(0, 256))
    rows.append(list(h / 576.0) + [k % 2])
x = np.array(rows)[rng.permutation(1000)]


def write(path, part):
    with open(path, "w") as f:
        for r in part:
            f.write(",".join(repr(float(v)) for v in r[:16]) + ",%d\n" % r[16])


write("testdata/patches.csv", x[:700])
write("testdata/patches-hidden.csv", x[700:])
h = x[:, :16]
d = np.sqrt(((h[:, None, :] - h[None, :, :]) ** 2).sum(-1))[np.triu_indices(1000, 1)]
print("median distance between rows: %.4g" % np.median(d))
