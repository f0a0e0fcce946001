#!/bin/bash
# Twenty-seventh session, first call: halo tiles the launch sizes (windows whose extent is known only at launch,
# issue 56): their GPU tests, memcheck and racecheck on them, the corpus programs that gain a window version
# timed in .head/ (aee1579: no tile) and here in the same call, and the 1-D convolution of a launch-known length.
set -u
out=$(realpath -m "${OUT:-session27a}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 170 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "launch_sizes or tile_fits or halo_tiles_past or wrapped_window" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "launch_sizes and (1d-5 or 2100 or 37 or 70-133)" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1)"
done
echo "== $(( $(date +%s) - start )) s"
rm -rf fz && mkdir fz && for p in d_xcorr_valid_f32 a_conv2d_filter_f32 b_xcorr_ncc_f64; do cp corpus/$p.* fz/; done
(cd .head && timeout 150 python3 -m tiler.bench.corpus ../fz small,medium,large "$log/head.json") \
  > "$log/head.log" 2>&1; echo "head corpus rc=$?"
timeout 150 python3 -m tiler corpus fz --sizes small,medium,large --json "$log/now.json" --against "$log/head.json" \
  > "$log/now.log" 2>&1; echo "now corpus rc=$?"; grep -E "^[abcdg]_|against|geomean|median|slower" "$log/now.log" | head -20
rm -rf fz
echo "== $(( $(date +%s) - start )) s"
prog=$(realpath tests/programs/windows/halo_launch_1d.fut)
for m in 31 255; do
  for tree in now head; do
    dir=$([ $tree = now ] && echo . || echo .head)
    (cd $dir && timeout 60 python3 -m tiler bench "$prog" -s n=16777216,m=$m --repeat 10 --json "$log/conv-$tree-$m.json" \
      > "$log/conv-$tree-$m.log" 2>&1; echo "conv bench $tree m=$m rc=$?")
    grep -E "^│ (untiled|tiled|window|copy)" "$log/conv-$tree-$m.log" | head -4
  done
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session27a-logs.tgz" -C "$out" logs && rm -rf "$log"
