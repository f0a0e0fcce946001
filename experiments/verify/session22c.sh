#!/bin/bash
# Twenty-second session, third call: (1) the three programs a reduction step of 20 f32 adds made heavy, every
# size, with their PyTorch twins; (2) the GPU fuzzer, general programs and products, on this checkout
# (split-K's new condition, heavy bodies at 20). Run from the repository root after `source .gpu/bootstrap`.
# Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session22c}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
rm -rf hv && mkdir hv && for p in b_coulomb_grid2d_f32 b_nbody2d_helper_f32 b_nbody3d_accel_f32; do cp corpus/$p.* hv/; done
timeout 200 python3 -m tiler corpus hv --sizes small,medium,large --peer --json "$log/hv-peer.json" \
  > "$log/hv-peer.log" 2>&1
grep -v "^  (" "$log/hv-peer.log" | tail -16
echo "== peer $(( $(date +%s) - start )) s"
timeout 200 python3 -m tiler fuzz 120 --seed 29100 --gpu --mutations 0 > "$log/fuzz.log" 2>&1; echo "fuzz rc=$?"
tail -2 "$log/fuzz.log"
timeout 100 python3 -m tiler fuzz 40 --seed 29300 --gpu --products --mutations 0 > "$log/fuzz-products.log" 2>&1
echo "fuzz products rc=$?"; tail -2 "$log/fuzz-products.log"
echo "== total $(( $(date +%s) - start )) s"
rm -rf hv
cp "$log"/*.json "$out/" 2>/dev/null
tar -czf "$out/session22c-logs.tgz" -C "$out" logs && rm -rf "$log"
