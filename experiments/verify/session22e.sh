#!/bin/bash
# Twenty-second session, fifth call, the final tree: (1) GPU tests of split-K (now with two heavy bodies one
# point a thread, b_mc_option_f64 and b_nbody3d_pot_f64) and of the split; (2) the benchmark mlp at sizes that
# run its split-K version, whose tiles hold rows of at most 64 (new: a bounded schedule), checked and under
# memcheck and racecheck; (3) the GPU fuzzer. Run from the repository root after `source .gpu/bootstrap`.
set -u
out=$(realpath -m "${OUT:-session22e}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-200} python3 -m pytest -q -m gpu -p no:cacheprovider -n 4 tests/test_gpu.py -k "split" \
  > "$log/gpu-tests.log" 2>&1) &
timeout 100 python3 -m tiler bench mlp -s n=100 -s h=5000 -s d=37 --repeat 5 > "$log/mlp.log" 2>&1
echo "mlp rc=$?"; grep -E "^│ |differ|error" "$log/mlp.log" | head -8
san() {  # tool
  timeout 150 compute-sanitizer --tool $1 --error-exitcode 9 python3 -m tiler bench mlp -s n=100 -s h=4100 -s d=37 \
    --repeat 1 > "$log/san-$1.log" 2>&1; echo "mlp $1 rc=$?"
}
san memcheck & san racecheck & wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head
echo "== $(( $(date +%s) - start )) s"
timeout 150 python3 -m tiler fuzz 100 --seed 29500 --gpu --mutations 0 > "$log/fuzz.log" 2>&1; echo "fuzz rc=$?"
tail -2 "$log/fuzz.log"
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session22e-logs.tgz" -C "$out" logs && rm -rf "$log"
