"""One launch of k-means' tiled kernel at its full size through the Python
API, for Nsight Compute (issue 11: where its time goes):

    ncu --set full -k regex:kmeans_tiled -c 1 python experiments/kmeans_ncu.py

RESULTS.md, "k-means: chunks of rows and rows read whole".
"""
import sys

sys.path.insert(0, ".")
import numpy as np  # noqa: E402

import tiler  # noqa: E402

N, D, K = 1 << 20, 34, 16
rng = np.random.default_rng(0)
points = rng.uniform(0, 1, (N, D)).astype(np.float32)
centres = rng.uniform(0, 1, (K, D)).astype(np.float32)
k = tiler.compile("benchmarks/kmeans.fut", sizes={"n": N, "d": D, "k": K}, fast_math="--fast-math" in sys.argv)
for _ in range(3):
    (labels,) = k.run(points=points, centres=centres)
want = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(-1).argmin(1)
print("labels agree:", float((labels == want).mean()))
