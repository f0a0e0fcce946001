#!/bin/bash
# Twenty-third session, second call, the final rule (groups of 8 rows of tiles only for products on the fast
# matrix units): GPU tests of the grouped tiles and of every tensor-core program, memcheck and racecheck on two
# grouped products with a partial last group, bf16 and TF32 at 8192^3 against the session's start (.baseline/),
# and the GPU fuzzer's products. Run from the repository root after `source .gpu/bootstrap`. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session23b}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout 240 python3 -m pytest -q -m gpu -p no:cacheprovider -n 6 tests/test_gpu.py \
  -k "groups_of_rows or tensor_cores_match" > "$log/gpu-tests.log" 2>&1) &
san() {  # tool, name, args...
  local tool=$1 name=$2; shift 2
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench "$@" --repeat 1 \
    > "$log/san-$tool-$name.log" 2>&1; echo "$name $tool rc=$?"
}
san memcheck bf16 mm_bf16 -s m=1100 -s n=100 -s q=300 &
san racecheck bf16 mm_bf16 -s m=1100 -s n=100 -s q=300 &
wait
san memcheck tf32 mm --tensor-cores -s m=1300 -s n=70 -s q=390 &
san racecheck tf32 mm --tensor-cores -s m=1300 -s n=70 -s q=390 &
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head
echo "== $(( $(date +%s) - start )) s"
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout 200 python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ (tiled|cuBLAS|tensor)|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -24
  echo "== $(( $(date +%s) - start )) s"
}
big="-s m=8192 -s n=8192 -s q=8192"
run base-bf16 .baseline mm_bf16 $big
run now-bf16 . mm_bf16 $big
run base-tc8k .baseline mm --tensor-cores $big
run now-tc8k . mm --tensor-cores $big
timeout 150 python3 -m tiler fuzz 60 --seed 31000 --gpu --mutations 0 --products > "$log/fuzz.log" 2>&1
echo "fuzz rc=$?"; tail -2 "$log/fuzz.log"
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session23b-logs.tgz" -C "$out" logs && rm -rf "$log"
