#!/bin/bash
# Twenty-seventh session, sixth call: a wrap written `((a % n) + n) % n` recognised as the array's wrap (the
# fuzzer's form): the wrapped-window GPU tests, memcheck and racecheck on it, the fuzzer over seeds whose programs
# now stage wrapped windows (3848, 3883, 3890, 3943 among 3800-4199), and the 9-tap circular convolution in that
# form timed here and in .head/ (aee1579: read in place) at 2^24 points.
set -u
out=$(realpath -m "${OUT:-session27f}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 120 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py -k "wrapped_window" \
  > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "wrapped_window and 1d-twice" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1)"
done
echo "== $(( $(date +%s) - start )) s"
timeout 200 python3 -m tiler fuzz 400 --seed 3800 --gpu --mutations 0 > "$log/fuzz.log" 2>&1
echo "fuzz rc=$? $(tail -3 "$log/fuzz.log" | tr '\n' ' ')"
prog=$(realpath tests/programs/windows/halo_wrap_twice_1d.fut)
for tree in now head; do
  dir=$([ $tree = now ] && echo . || echo .head)
  (cd $dir && timeout 60 python3 -m tiler bench "$prog" -s n=16777216 --repeat 10 --json "$log/wrap-$tree.json" \
    > "$log/wrap-$tree.log" 2>&1; echo "wrap bench $tree rc=$?")
  grep -E "^│ (untiled|tiled|copy)" "$log/wrap-$tree.log" | head -4
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session27f-logs.tgz" -C "$out" logs && rm -rf "$log"
