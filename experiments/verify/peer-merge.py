"""The whole corpus against PyTorch, from the fifteenth to thirty-third
sessions' peer runs (a later file wins for a program and size), with its
summary: python3 experiments/verify/peer-merge.py OUT.json (from the
repository's root). Those runs timed torch.compile after it had recompiled
each twin for any shape; `--per-shape` merges instead the runs from the
thirty-fifth session on, which compile it for each shape (PER_SHAPE)."""
import json
import statistics
import sys

sys.path.insert(0, ".")
from tiler.bench.corpus import summary  # noqa: E402
from tiler.bench.peer import peer_summary, ratio  # noqa: E402

FILES = ["experiments/results/corpus-2026-11-29e-h200-peer-shard1.json",
         "experiments/results/corpus-2026-11-29e-h200-peer-shards23-part.json",
         "experiments/results/corpus-2026-11-29f-h200-peer-rest1.json",
         "experiments/results/corpus-2026-11-29f-h200-peer-rest2.json",
         "experiments/results/session16a-2026-11-29-h200-now.json",
         # the seventeenth session: the five never timed, the moved split gates, bmm's four, speculation
         "experiments/results/session17b-2026-11-29-h200-untimed-peer.json",
         "experiments/results/session17c-2026-11-29-h200-mine.json",
         "experiments/results/session17c-2026-11-29-h200-bmm.json",
         "experiments/results/session17d-2026-11-29-h200-now.json",
         # the twenty-second session: split-K for few tiles (the five moved at small), heavy bodies at 20
         "experiments/results/session22b-2026-11-30-h200-peer.json",
         "experiments/results/session22c-2026-11-30-h200-hv-peer.json",
         # split-K for heavy bodies one point a thread (33 of the 14 programs' 42 pairs timed with twins)
         "experiments/results/session22d-2026-11-30-h200-peer.json",
         # the thirty-first session (launches issued as prepared calls): the whole corpus at small sizes and 94
         # programs at medium ones
         "experiments/results/corpus-2026-12-01-h200-session31c-now-peer.json",
         "experiments/results/corpus-2026-12-01-h200-session31e-small-peer.json",
         "experiments/results/corpus-2026-12-01-h200-session31g-medium-peer.json",
         # the thirty-second session (prefix folds as scans): b_prefix_masked_i64 and e_balance_drawdown_f64 at
         # the three sizes (session32b, cut after them), then the scanned programs at small and large sizes
         "experiments/results/session32-2026-12-01-h200/session32b/corpus-small.json",
         "experiments/results/session32-2026-12-01-h200/session32b/corpus-medium.json",
         "experiments/results/session32-2026-12-01-h200/session32b/corpus-large.json",
         "experiments/results/corpus-2026-12-01-h200-session32c-small.json",
         "experiments/results/corpus-2026-12-01-h200-session32c-large.json",
         # after the review's mends (shares whole rounds, exclusive scans leave out the last term): medium, large
         "experiments/results/corpus-2026-12-01-h200-session32d-medium.json",
         "experiments/results/corpus-2026-12-01-h200-session32d-large.json",
         # scans down columns: two e_col_ programs at the three sizes (the third failed its check, since mended)
         "experiments/results/corpus-2026-12-01-h200-session32e-cols.json",
         # the thirty-third session: e_col_running_max_ratio_f64 (mended) and e_balance_drawdown_f64 (a chain of
         # scans) at the three sizes
         "experiments/results/session33-2026-12-01-h200/session33a/corpus-colmax.json",
         "experiments/results/session33-2026-12-01-h200/session33b/corpus-drawdown-now.json"]
# torch.compile for each shape (bench/peer.py, dynamic=False): the whole corpus at each size
PER_SHAPE = ["experiments/results/session35-2026-12-01-h200/c/peer-large.json",
             "experiments/results/session35-2026-12-01-h200/d/peer/peer-b-large.json",
             "experiments/results/session35-2026-12-01-h200/d/kmeans-now.json",
             "experiments/results/session36-2026-12-01-h200/a/peer-rest-large.json",
             "experiments/results/session36-2026-12-01-h200/b/peer/peer-rest-large.json",
             # the thirty-seventh session: every program (but a_kmeans_assign_f32, above) at small and medium sizes
             "experiments/results/session37-2026-12-01-h200/b/peer/peer-rest-small-medium.json",
             # a_ell_spmv_f32 (a warp a row of its own rows) and a_outer_update_f32 (the strided version) at large
             "experiments/results/session37-2026-12-01-h200/c/peer/peer-changed-large.json",
             # the thirty-eighth session: the heavy body at 15, main's prelude once a launch, the load-ahead
             "experiments/results/session38-2026-12-01-h200/c/peer-changed.json",
             # the thirty-ninth session: the f64 products sm_90's units now take by default, at every size
             "experiments/results/session39-2026-12-01-h200/b/peer-f64units.json"]
if "--per-shape" in sys.argv:
    sys.argv.remove("--per-shape")
    FILES = PER_SHAPE
records = {}
for f in FILES:
    for r in json.load(open(f))["records"]:
        records[(r["program"], r["size_set"])] = r
# (a program that failed before its sizes were timed has one record without a size: a later file's timed
# records replace it)
timed = {p for p, size in records if size is not None}
records = [r for (p, size), r in records.items() if size is not None or p not in timed]
print(len({r["program"] for r in records}), "programs,", len(records), "(program, size) pairs")
print(summary(records))
print(peer_summary(records).split("\n")[0])
for size in ("small", "medium", "large"):
    xs = [x for r in records if r["size_set"] == size and (x := ratio(r)) is not None]
    if not xs:
        continue
    print(f"{size}: {len(xs)} pairs, median {statistics.median(xs):.2f}x, {sum(x < 0.5 for x in xs)} below 0.5x")
json.dump({"records": records, "sources": FILES}, open(sys.argv[1], "w"), indent=1)
