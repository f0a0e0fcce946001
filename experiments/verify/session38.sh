#!/bin/bash
# Thirty-eighth session: the patches of experiments/plan, each in a tree of its own (.trees/NAME: HEAD dd93850
# with the patch applied) timed beside the session's start (.trees/head) on the programs whose generated code
# it changes, default only (time_default.py), the two trees in turns A B B A where time allows. JOBS is a file
# of lines "TREE FOLDER SIZES PROG... [-- NAME=--flag=value ...]" run in order (a line "# ..." is skipped,
# "sleep S" leaves the GPU idle S seconds). From the
# repository's root on a GPU host after `source .gpu/bootstrap`, with .trees carried:
#   OUT=DIR JOBS=FILE [LIMIT_S=540] bash experiments/verify/session38.sh
set -u
out=$(realpath -m "${OUT:-session38}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
limit=${LIMIT_S:-540}
timer=$(realpath experiments/verify/time_default.py)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
n=0
while read -r tree folder sizes rest; do
  [[ -z "$tree" || "$tree" == \#* ]] && continue
  [ "$tree" = sleep ] && { sleep "$folder"; continue; }  # "sleep S": leave the GPU idle S seconds
  left=$(( limit - ($(date +%s) - start) ))
  [ $left -lt 30 ] && { echo "== out of time before: $tree $rest"; continue; }
  n=$((n + 1))
  folder=$(realpath "$folder")
  (cd ".trees/$tree" && timeout $(( left - 10 )) python3 "$timer" "$folder" "$sizes" "$log/$n-$tree.json" $rest) \
    > "$log/$n-$tree.txt" 2>&1
  echo "== $n $tree rc=$? $(( $(date +%s) - start )) s"
  grep -vE "^  \(|compiled in" "$log/$n-$tree.txt" | tail -40 | cut -c1-160
done < "${JOBS}"
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
