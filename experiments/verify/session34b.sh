#!/bin/bash
# Thirty-fourth session, second call: splits for few points run further where their reductions stream each
# point's own elements (analyse/own_reads.py). The corpus programs whose launch conditions changed, at their three
# sizes: the session's start (.head) then now, now against the PyTorch twins too.
set -u
out=$(realpath -m "${OUT:-session34b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
progs="a_matvec_rows_f32 a_vecmat_stream_f32 a_matvec_transpose_f32 a_matvec_colindex_f64 c_residual_sub_f32
 c_rowdot_normweights_f64 b_gp_matern_f64 a_ell_spmv_f32 b_lj_neighbor_list"
only=$(for p in $progs; do echo -n " --only $p"; done)
corpus=$(realpath corpus)
(cd .head && timeout 240 python3 -m tiler corpus "$corpus" $only --json "$out/corpus-head.json") > "$log/corpus-head.txt" 2>&1
echo "== corpus head rc=$? $(( $(date +%s) - start )) s"
timeout 330 python3 -m tiler corpus corpus $only --peer --peer-warmers 6 --json "$out/corpus-now.json" \
  > "$log/corpus-now.txt" 2>&1
echo "== corpus now rc=$? $(( $(date +%s) - start )) s"
python3 - "$out/corpus-head.json" "$out/corpus-now.json" <<'PY'
import json, sys
def load(p):
    try:
        d = json.load(open(p))
    except Exception as e:
        print("cannot read", p, e); return {}
    recs = d["records"] if isinstance(d, dict) else d
    return {(r["program"], r.get("size_set")): r for r in recs if "ms" in r}
head, now = load(sys.argv[1]), load(sys.argv[2])
for key in sorted(now):
    ms, h = now[key]["ms"], head.get(key, {}).get("ms", {})
    peer = min([ms[k] for k in ("torch eager", "torch.compile") if ms.get(k)] or [float("nan")])
    print(f"{key[0]:28s} {key[1]:7s} untiled {ms.get('untiled', 0):.4f} head {h.get('default', float('nan')):.4f} "
          f"now {ms['default']:.4f} ({now[key]['version']['default'].split(key[0])[-1]}) peer {peer:.4f} "
          f"now/head {h.get('default', float('nan')) / ms['default']:.2f}x peer/now {peer / ms['default']:.2f}x")
PY
grep -E "against the better|slower than untiled|wrong|FAIL" "$log/corpus-now.txt" | cut -c1-200
echo "== total $(( $(date +%s) - start )) s"
