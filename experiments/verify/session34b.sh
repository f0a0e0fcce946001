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
python3 experiments/verify/compare_corpus.py "$out/corpus-head.json" "$out/corpus-now.json"
grep -E "against the better|slower than untiled|wrong|FAIL" "$log/corpus-now.txt" | cut -c1-200
echo "== total $(( $(date +%s) - start )) s"
