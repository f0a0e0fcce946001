#!/bin/bash
# Split-K timed against the tree before it (.baseline/, tools/corpus-baseline),
# in one call on a GPU host after `source .gpu/bootstrap`: the split-K GPU
# tests, then the programs that have a split-K version, at sizes of few outputs
# and a long reduction (make_few.py), in both trees, with the PyTorch peer where
# a twin exists (PEER=--peer). Logs to $OUT.
set -u
out=${OUT:-split-k}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
if [ -n "${GPU_K:-}" ]; then
  timeout ${GPU_S:-150} python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py -k "$GPU_K" $(python3 -c "import xdist" 2>/dev/null && echo "-n 4") \
    > "$out/gpu-tests.log" 2>&1
  tail -3 "$out/gpu-tests.log"; grep -E "^(FAILED|E )" "$out/gpu-tests.log" | head -30
fi
rm -rf fewk && python3 experiments/split-k/make_few.py fewk ${PROGRAMS} > "$out/make.log" 2>&1
(cd .baseline && timeout ${BASE_S:-150} python3 -m tiler.bench.corpus ../fewk ${SETS:-kA,kB,kC} "$out/base.json" \
  > "$out/base.log" 2>&1); tail -2 "$out/base.log"
timeout ${NOW_S:-200} python3 -m tiler corpus fewk --sizes ${SETS:-kA,kB,kC} ${PEER:-} --json "$out/now.json" \
  --against "$out/base.json" > "$out/now.log" 2>&1
tail -40 "$out/now.log"
for tree in ${TREES:-}; do  # the same tree with another K_SHARE (a copy, edited): on the programs in TREE_PROGRAMS
  rm -rf fewt && python3 experiments/split-k/make_few.py fewt ${TREE_PROGRAMS} > /dev/null 2>&1
  (cd $tree && timeout ${TREE_S:-100} python3 -m tiler.bench.corpus ../fewt ${SETS:-kA,kB,kC} "$out/tree$tree.json" \
    > "$out/tree$tree.log" 2>&1); tail -1 "$out/tree$tree.log"
  rm -rf fewt
done
rm -rf fewk
for p in ${PEER_ONLY:-}; do  # the corpus's own sizes, against PyTorch
  timeout ${PEER_S:-150} python3 -m tiler corpus corpus --only "$p" --sizes ${PEER_SIZES:-large} --peer \
    > "$out/peer-$p.log" 2>&1; tail -6 "$out/peer-$p.log"
done
