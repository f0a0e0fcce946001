#!/bin/bash
# Points a thread for the window version (--window-points, raced as the
# default's is): the corpus programs that have a window version, and the
# window benchmarks, at 4, 8 (the default) and 16 points, in one call on a GPU
# host after `source .gpu/bootstrap`. Logs to $OUT.
set -u
out=${OUT:-windows-points}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
only=""
for f in corpus/*.fut; do
  python3 -m tiler explain "$f" 2>/dev/null | grep -q "^  window, " && only="$only --only $(basename "$f" .fut)"
done
echo "programs:$only" | tee "$out/programs.txt"
timeout ${CORPUS_S:-400} python3 -m tiler corpus corpus $only --sizes ${SETS:-medium,large} \
  --variant p4=--window-points\ 4 --variant p16=--window-points\ 16 --json "$out/points.json" > "$out/points.log" 2>&1
grep -v "^  (" "$out/points.log" | tail -40
