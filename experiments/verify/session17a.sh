#!/bin/bash
# Seventeenth session, first call: correctness on the GPU of three trees side
# by side: this checkout (main), .bmm/ and .tc/ (the branches bmm and tc,
# from `git archive`). The GPU tests each tree adds, the fuzzer (tc's writes
# one seed in five under --tensor-cores), then compute-sanitizer memcheck and
# racecheck of the kernels each tree changes. On a GPU host after
# `source .gpu/bootstrap`; logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session17a}")
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
start=$(date +%s)
tests() {  # DIR NAME -k EXPR [more pytest arguments]
  local dir=$1 name=$2; shift 2
  (cd "$dir" && export PYTHONPATH=/tmp/site:$PWD && timeout ${GPU_S:-280} python3 -m pytest -q -m gpu -p no:cacheprovider -n 4 "$@" \
     > "$out/$name-gpu-tests.log" 2>&1)
  echo "$name: $(tail -1 "$out/$name-gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$out/$name-gpu-tests.log" | head -20
}
fuzz() {  # DIR NAME N SEED
  (cd "$1" && export PYTHONPATH=/tmp/site:$PWD && timeout ${FUZZ_S:-240} python3 -m tiler fuzz "$3" --seed "$4" --gpu --out "$out/$2-fuzz" \
     > "$out/$2-fuzz.log" 2>&1; echo "rc=$?" >> "$out/$2-fuzz.log")
  echo "$2 fuzz: $(tail -2 "$out/$2-fuzz.log" | tr '\n' ' ')"
}
tests . main tests/test_gpu.py -k "${MAIN_K:-floats_past or nbody}" &
tests .bmm bmm tests/test_gpu.py -k "batched_element_column or matmul" &
tests .tc tc tests/test_gpu.py -k "tensor_cores or mm_bf16 or mm_f64" &
fuzz .tc tc ${FUZZ_N:-200} 11000 &
fuzz . main ${FUZZ_N:-150} 12000 &
wait
echo "tests and fuzz: $(( $(date +%s) - start )) s"
sanitize() {  # DIR NAME COMMAND...: memcheck and racecheck side by side
  local dir=$1 name=$2; shift 2
  for tool in memcheck racecheck; do
    (cd "$dir" && export PYTHONPATH=/tmp/site:$PWD && timeout ${SAN_S:-200} compute-sanitizer --tool "$tool" --error-exitcode 9 "$@" \
       > "$out/san-$name-$tool.log" 2>&1; echo "$name $tool rc=$?" >> "$out/sanitizer.txt") &
  done
}
corpus_small() { echo python3 -m tiler corpus corpus --only "$1" --sizes small; }
sanitize . b_minhash_int $(corpus_small b_minhash_int)
sanitize .bmm a_batched_matmul_f32 $(corpus_small a_batched_matmul_f32)
sanitize .bmm a_vecmat_stream_f32 $(corpus_small a_vecmat_stream_f32)
for b in mm mm_rows mm_bf16 mm_f64; do
  sanitize .tc "$b-tc" python3 -m tiler bench "$b" -s m=300 -s n=301 -s q=257 --tensor-cores --repeat 1
done
wait
sort "$out/sanitizer.txt"
echo "total: $(( $(date +%s) - start )) s"
