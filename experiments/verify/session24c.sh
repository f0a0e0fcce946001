#!/bin/bash
# Twenty-fourth session, third call: the march (2.5-D blocking, analyse/march.py) on the GPU: its kernels against
# the interpreter (every march program, sizes no tile divides, odd and even runs of planes), memcheck and
# racecheck on two of them, then star25 and stencil3d and the corpus's marched programs timed in the session's
# start (.baseline/, c2b3d27) and this tree, in the same call. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session24c}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "march or window_versions or halo_tiles or window_version_races" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
echo "== $(( $(date +%s) - start )) s"
for t in "star25 and odd-run" "d_stencil3d_7pt_f32 and 133"; do
  for tool in memcheck racecheck; do
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
      tests/test_gpu.py -k "march_versions and $t" > "$log/sanitize-$tool-${t%% *}.log" 2>&1
    echo "$tool $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool-${t%% *}.log" | tail -1)"
  done
done
echo "== $(( $(date +%s) - start )) s"
for tree in now base; do
  dir=$([ $tree = now ] && echo . || echo .baseline)
  (cd $dir && timeout 100 python3 -m tiler bench star25 stencil3d --repeat 10 --json "$log/bench-$tree.json" \
    > "$log/bench-$tree.log" 2>&1; echo "bench $tree rc=$?")
  grep -E "^│ (untiled|tiled) |^[a-z_0-9]+ \(" "$log/bench-$tree.log" | head -8
done
echo "== $(( $(date +%s) - start )) s"
rm -rf fz && mkdir fz && for p in d_stencil3d_7pt_f32 d_stencil3d_25pt_f64 a_laplace3d_f64; do cp corpus/$p.* fz/; done

(cd .baseline && timeout 100 python3 -m tiler.bench.corpus ../fz small,medium,large "$log/base.json") \
  > "$log/base.log" 2>&1; echo "base corpus rc=$?"
timeout 100 python3 -m tiler corpus fz --sizes small,medium,large --json "$log/now.json" --against "$log/base.json" \
  > "$log/now.log" 2>&1; echo "now corpus rc=$?"; grep -E "^[abcdg]_|against|geomean|median" "$log/now.log" | head -16
rm -rf fz
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session24c-logs.tgz" -C "$out" logs && rm -rf "$log"
