#!/bin/bash
# The window version (analyse/window_tile.py) on a GPU host, after
# `source .gpu/bootstrap`: its GPU tests, then the corpus programs that have
# one timed in the tree before it (.baseline/, tools/corpus-baseline) and in
# this one (default raced; "model's choice": the window kernel alone), and in
# copies of this tree with 4 and 16 points a thread (.p4/, .p16/). Logs to $OUT.
set -u
out=${OUT:-windows}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
timeout ${GPU_S:-150} python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py -k "${GPU_K:-window}" \
  $(python3 -c "import xdist" 2>/dev/null && echo "-n 4") > "$out/gpu-tests.log" 2>&1
tail -3 "$out/gpu-tests.log"; grep -E "^(FAILED|E )" "$out/gpu-tests.log" | head -30
rm -rf wcorp && mkdir wcorp
for p in ${PROGRAMS}; do cp corpus/$p.* wcorp/; done
(cd .baseline && timeout ${BASE_S:-120} python3 -m tiler.bench.corpus ../wcorp ${SETS:-medium,large} "$out/base.json" \
  > "$out/base.log" 2>&1); tail -2 "$out/base.log"
timeout ${NOW_S:-150} python3 -m tiler corpus wcorp --sizes ${SETS:-medium,large} --json "$out/now.json" \
  --against "$out/base.json" > "$out/now.log" 2>&1
tail -30 "$out/now.log"
for tree in ${TREES:-}; do
  (cd $tree && timeout ${TREE_S:-100} python3 -m tiler.bench.corpus ../wcorp ${SETS:-medium,large} "$out/tree$tree.json" \
    > "$out/tree$tree.log" 2>&1); grep -E "model's choice" "$out/tree$tree.log" | head -20
done
rm -rf wcorp
if [ -n "${GATE:-}" ]; then
  timeout ${GATE_S:-120} python3 benchmarks/gate $GATE --json "$out/gate.json" 2>&1 | tee "$out/gate.log" | tail -8
fi
