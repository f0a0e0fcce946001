#!/bin/bash
# Twenty-eighth session, fourteenth call: the GPU fuzz with one seed in seven's tiled kernels compiled knowing
# sizes (fuzz.properties.hints: own, larger, smaller and multiple-of-8 sizes, parity-free), general programs and products. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28n}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 170 python3 -m tiler fuzz 280 --seed 54000 --gpu --mutations 0 > "$log/fuzz.log" 2>&1
echo "fuzz rc=$? $(tail -1 "$log/fuzz.log")  $(( $(date +%s) - start )) s"
timeout 110 python3 -m tiler fuzz 140 --seed 55000 --gpu --products --mutations 0 > "$log/fuzz-products.log" 2>&1
echo "fuzz products rc=$? $(tail -1 "$log/fuzz-products.log")  $(( $(date +%s) - start )) s"
grep -iE "fail|error" "$log"/fuzz*.log | head -20
tar -czf "$out/session28n-logs.tgz" -C "$out" logs
