#!/bin/bash
# Times the corpus programs a change touched, in this tree and in the tree
# `tools/corpus-baseline REV` made under .baseline/, in one GPU call, and
# runs compute-sanitizer on the ones named with SANITIZE; then `tiler bench`
# of the benchmarks named with BENCH in both trees. On a GPU host, from the
# repository's root, after `source .gpu/bootstrap`:
#   SANITIZE="a b" BENCH="kmeans" bash experiments/changed_programs.sh prog1 prog2 ...
# Logs and JSON go to $OUT (or ./changed-programs), in at most 8 files (what
# the device tool brings back): the sanitizer's and the benches' logs appended.
set -u
out=${OUT:-changed-programs}
mkdir -p "$out" changed-corpus
nvidia-smi --query-gpu=name --format=csv,noheader
for p in "$@"; do ln -sf "../corpus/$p.fut" "../corpus/$p.toml" changed-corpus/; done
for p in ${SANITIZE:-}; do
  for tool in memcheck racecheck; do
    timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 -m tiler corpus corpus --only "$p" --sizes small >> "$out/sanitizer.log" 2>&1
    echo "$p $tool rc=$?" | tee -a "$out/sanitizer.log"
  done
done
(cd .baseline && timeout 240 python3 -m tiler.bench.corpus ../changed-corpus small,medium,large "$out/base.json" \
  > "$out/base.log" 2>&1); tail -2 "$out/base.log"
timeout 240 python3 -m tiler corpus changed-corpus --json "$out/now.json" --against "$out/base.json" \
  > "$out/now.log" 2>&1; tail -12 "$out/now.log"
for b in ${BENCH:-}; do  # their JSON in one file a tree
  for tree in base now; do
    dir=$([ $tree = base ] && echo .baseline || echo .)
    echo "== $b, $tree" >> "$out/bench.log"
    (cd $dir && timeout 90 python3 -m tiler bench "$b" --json "/tmp/bench-$b-$tree.json" >> "$out/bench.log" 2>&1)
    echo "\"$b\": $(cat /tmp/bench-$b-$tree.json 2>/dev/null || echo null)," >> "$out/bench-$tree.json"
  done
done
tail -40 "$out/bench.log"
