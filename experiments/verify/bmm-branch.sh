#!/bin/bash
# Branch bmm (a map's element of an array of main's read along a column,
# `b[k, j]`, promoted through a transposed view the map walks beside it):
# on a GPU host after `source .gpu/bootstrap`, with .baseline/ from
# `tools/corpus-baseline main` (the tree before the branch): the GPU tests of
# the new analysis program, memcheck and racecheck of a_batched_matmul_f32,
# and the corpus programs whose kernels the branch changes timed before and
# after in one call, with their PyTorch twins. PROGRAMS: those programs
# (tests/replay.py --base main lists them). Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-bmm-branch}")
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
n=$(python3 -c "import xdist" 2>/dev/null && echo "-n 8")
timeout ${GPU_S:-150} python3 -m pytest -q -m gpu -p no:cacheprovider $n tests/test_gpu.py \
  -k "batched_element_column" > "$out/gpu-tests.log" 2>&1
tail -2 "$out/gpu-tests.log"; grep -E "^(FAILED|ERROR)" "$out/gpu-tests.log" | head -20
rm -rf bc && mkdir bc && for p in ${PROGRAMS:-a_attn_online_softmax_f32 a_batched_matmul_f32 a_matmul_int_rowstream a_vecmat_stream_f32}; do cp corpus/$p.* bc/; done
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    python3 -m tiler corpus bc --only a_batched_matmul_f32 --sizes small > "$out/$tool.log" 2>&1
  echo "a_batched_matmul_f32 $tool rc=$?"
done
(cd .baseline && timeout ${BASE_S:-150} python3 -m tiler.bench.corpus ../bc ${SETS:-small,medium,large} "$out/base.json") \
  > "$out/base.log" 2>&1
timeout ${NOW_S:-240} python3 -m tiler corpus bc --sizes ${SETS:-small,medium,large} --peer --json "$out/now.json" \
  --against "$out/base.json" > "$out/now.log" 2>&1
grep -v "^  (" "$out/now.log" | tail -30
rm -rf bc
