#!/bin/bash
# Thirty-seventh session, first call: the unmeasured patches of experiments/plan and experiments/transposes,
# each timed in a tree of its own (.trees/NAME: HEAD 0124423 with the patch applied) beside the session's
# starting tree (.trees/head) on the programs whose default kernels it changes, at every size, and checked
# with memcheck and racecheck; then what session 36 could not run: the benchmarks matvec and mlp without the
# own rows' warp (.trees/base, 8324187) and now, and the new GPU test. From the repository's root on a GPU host
# after `source .gpu/bootstrap`, with .trees carried: OUT=DIR bash experiments/verify/session37a.sh
set -u
out=$(realpath -m "${OUT:-session37a}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
corpus=$(realpath corpus); bench=$(realpath benchmarks)
time_in() {  # tree, json name, where (corpus|bench), sizes, programs...
  local tree=$1 name=$2 where=$3 sizes=$4; shift 4
  local only=""; for p in "$@"; do only="$only --only $p"; done
  local dir=$corpus; [ "$where" = bench ] && dir=$bench
  (cd ".trees/$tree" && timeout 150 python3 -m tiler corpus "$dir" $only --sizes "$sizes" --json "$out/$name.json") \
    > "$log/$name.txt" 2>&1
  echo "== $name rc=$? $(( $(date +%s) - start )) s"
}
sanitize_in() {  # tree, where, size, program
  local dir=$corpus; [ "$2" = bench ] && dir=$bench
  for tool in memcheck racecheck; do
    (cd ".trees/$1" && timeout 90 compute-sanitizer --tool "$tool" --error-exitcode 9 \
       python3 -m tiler corpus "$dir" --only "$4" --sizes "$3") >> "$log/sanitizer-$1.log" 2>&1
    echo "$1 $4 $tool rc=$?"
  done
}
S=small,medium,large
time_in head head-corpus corpus $S ${CORPUS_PROGS}
for patch in ${PATCHES}; do
  progs_var="PROGS_$patch"; progs=${!progs_var}
  [ -n "$progs" ] && time_in "$patch" "$patch-corpus" corpus $S $progs
  python3 experiments/verify/compare_corpus.py "$out/head-corpus.json" "$out/$patch-corpus.json" | cut -c1-200
done
time_in head head-bench bench quick,full matvec mlp kmeans
time_in base base-bench bench quick,full matvec mlp
time_in firstsched firstsched-bench bench quick,full mlp
time_in rereads rereads-bench bench quick,full mlp kmeans
python3 experiments/verify/compare_corpus.py "$out/base-bench.json" "$out/head-bench.json" | cut -c1-200
python3 experiments/verify/compare_corpus.py "$out/head-bench.json" "$out/firstsched-bench.json" | cut -c1-200
python3 experiments/verify/compare_corpus.py "$out/head-bench.json" "$out/rereads-bench.json" | cut -c1-200
left=$(( ${LIMIT_S:-560} - ($(date +%s) - start) - 10 ))
OUT=$log/tests SHARDS=8 GPU_TESTS_S=$(( left < 120 ? left : 120 )) \
  KEYS="warp_a_row_of_each or few_points_split or own_row or (gpu_matches_the_interpreter and (matvec or mlp or launch_weights or promoted_row))" \
  bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -10
for patch in ${PATCHES}; do  # as long as the call's time allows
  progs_var="PROGS_$patch"
  for p in ${!progs_var}; do
    [ $(( $(date +%s) - start )) -lt $(( ${LIMIT_S:-560} - 60 )) ] && sanitize_in "$patch" corpus small "$p"
  done
done
echo "== sanitizers $(( $(date +%s) - start )) s"
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
