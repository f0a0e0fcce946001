#!/bin/bash
# Copies of a chunk sharing the steps unrolled at once, timed in three trees in one GPU call: .baseline
# (tools/corpus-baseline dc3e285: all 64 of A's steps at once), .prev (1543798: 8 at a time) and the work tree
# (then: 32 at a time). On a GPU host, from the repository's root, after `source .gpu/bootstrap`:
#   bash experiments/copy_unroll.sh    (log: copy-unroll-2026-11-27-h100.log)
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p changed-corpus; for p in a_matvec_rows_f32 a_ell_spmv_f32; do ln -sf ../corpus/$p.fut ../corpus/$p.toml changed-corpus/ 2>/dev/null; done
for round in 1 2; do
for t in .baseline .prev .; do
  echo "=== $t round $round" >> $OUT/unroll.log
  (cd $t && timeout 60 python3 -m tiler bench matvec -s n=8192 -s m=8191 2>&1 | grep -E "^│ (tiled|untiled|cuBLAS) " >> $OUT/unroll.log
   timeout 60 python3 -m tiler bench $OLDPWD/tests/programs/analysis/own_rows_dot.fut -s n=8192 -s m=8191 2>&1 | grep -E "^│ (tiled|untiled) " >> $OUT/unroll.log
   [ $round = 1 ] && timeout 120 python3 -m tiler.bench.corpus $OLDPWD/changed-corpus small,medium,large $OUT/corpus-$(basename $t).json > $OUT/corpus-$(basename $t).log 2>&1)
done; done
cat $OUT/unroll.log; tail -n 12 $OUT/corpus-*.log
