#!/bin/bash
# Twenty-seventh session, fifth call: tiles sized by an int argument (b_window_stats_f64's `w`): the GPU tests of
# tiles the launch sizes, memcheck and racecheck on the int-sized ones, the program timed in .head/ (aee1579) and
# here in the same call, and the fuzzer again.
set -u
out=$(realpath -m "${OUT:-session27e}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "launch_sizes or tile_fits" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "launch_sizes and b_window_stats" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1)"
done
echo "== $(( $(date +%s) - start )) s"
rm -rf fz && mkdir fz && for p in b_window_stats_f64; do cp corpus/$p.* fz/; done
(cd .head && timeout 150 python3 -m tiler.bench.corpus ../fz small,medium,large "$log/head.json") \
  > "$log/head.log" 2>&1; echo "head corpus rc=$?"
timeout 150 python3 -m tiler corpus fz --sizes small,medium,large --json "$log/now.json" --against "$log/head.json" \
  > "$log/now.log" 2>&1; echo "now corpus rc=$?"; grep -E "^[abcdg]_|against|geomean|median|slower" "$log/now.log" | head -12
rm -rf fz
echo "== $(( $(date +%s) - start )) s"
bash experiments/verify/launch_sized_launcher.sh > "$log/launcher.log" 2>&1; echo "launcher rc=$? $(tr "\n" " " < "$log/launcher.log")"
timeout 170 python3 -m tiler fuzz 300 --seed 3700 --gpu --mutations 0 > "$log/fuzz.log" 2>&1
echo "fuzz rc=$? $(tail -3 "$log/fuzz.log" | tr '\n' ' ')"
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session27e-logs.tgz" -C "$out" logs && rm -rf "$log"
