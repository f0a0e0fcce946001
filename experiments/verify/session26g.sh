#!/bin/bash
# Twenty-sixth session, seventh call: windows wrapped by `%` staged with their halo (the copy wraps, the reads find
# their place from the wrapped index), and the march's register cap only where a thread's live words and halo loads
# leave room (the review's spilling programs among the GPU tests now): the window, halo and march GPU tests,
# memcheck and racecheck on the wrapped windows and the new march programs, the 25-point f64 star in the corpus as
# .head/ (47acef2), .hn/ (bfcfcd9: capped) and this tree (uncapped) make it, and the 1-D circular convolution
# benched here and in .head/ (not staged there). Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session26g}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 170 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "march or window or halo" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
echo "== $(( $(date +%s) - start )) s"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "wrapped_window or (march_versions and inside and (radius6 or wide_coef or wave_f64))" \
    > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1)"
done
echo "== $(( $(date +%s) - start )) s"
rm -rf fz && mkdir fz && cp corpus/d_stencil3d_25pt_f64.* fz/
for tree in head hn; do
  (cd .$tree && timeout 80 python3 -m tiler.bench.corpus ../fz small,medium,large "$log/$tree.json") \
    > "$log/$tree.log" 2>&1; echo "$tree corpus rc=$?"
done
timeout 80 python3 -m tiler corpus fz --sizes small,medium,large --json "$log/now.json" --against "$log/head.json" \
  > "$log/now.log" 2>&1; echo "now corpus rc=$?"; grep -E "^[abcdg]_|slower" "$log/now.log" | head
rm -rf fz
echo "== $(( $(date +%s) - start )) s"
prog=$(realpath tests/programs/windows/halo_wrap_1d.fut)
for tree in now head; do
  dir=$([ $tree = now ] && echo . || echo .head)
  (cd $dir && timeout 60 python3 -m tiler bench "$prog" -s n=16777216 \
     --repeat 10 --json "$log/wrap-$tree.json" > "$log/wrap-$tree.log" 2>&1; echo "wrap bench $tree rc=$?")
  grep -E "^│ (untiled|tiled|copy)" "$log/wrap-$tree.log" | head -4
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session26g-logs.tgz" -C "$out" logs && rm -rf "$log"
