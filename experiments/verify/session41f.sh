#!/bin/bash
# Forty-first session, sixth call: the split-K versions restored beside the TMA versions (versions/split.py reads
# the in-place plan): the three programs that lost them in session41e, the start's tree and this one, A B; GPU
# tests of mm's TMA product. Logs in one archive.   OUT=DIR bash experiments/verify/session41f.sh
set -u
out=$(realpath -m "${OUT:-session41f}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timer=$(realpath experiments/verify/time_default.py); corpus=$(realpath corpus)
P="a_matmul_loop_f32 a_matmul_stream_f32 a_matmul_tprelude_f32"
for tree in head now; do
  (cd .trees/$tree && timeout 70 python3 "$timer" "$corpus" small,medium,large "$log/corpus-$tree.json" $P) \
    > "$log/corpus-$tree.txt" 2>&1
  echo "== corpus $tree rc=$? $(( $(date +%s) - start )) s"
done
paste <(grep default "$log/corpus-head.txt" | grep -v ":" | sort) <(grep default "$log/corpus-now.txt" | grep -v ":" | sort)
timeout 40 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "core_products_copied_by_tma and mm" \
  > "$log/pytest-core-tma.txt" 2>&1
echo "== pytest rc=$? $(( $(date +%s) - start )) s"; tail -2 "$log/pytest-core-tma.txt"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
