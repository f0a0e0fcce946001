#!/bin/bash
# Fourteenth session, first call (on a GPU host after `source .gpu/bootstrap`):
# the window and halo GPU tests again (the halo copy's thread index was
# respelt in 0bf543b after the last GPU run), the g_ corpus twins against the
# interpreter, and the g_ programs against PyTorch (issue 57's starting
# point). Logs to $OUT.
set -u
out=${OUT:-session14a}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
n=$(python3 -c "import xdist" 2>/dev/null && echo "-n 6")
timeout ${GPU_S:-220} python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py $n -k "${GPU_K:-window or halo}" \
  > "$out/gpu-tests.log" 2>&1
tail -2 "$out/gpu-tests.log"; grep -E "^(FAILED|E )" "$out/gpu-tests.log" | head -30
timeout 60 python3 -m pytest -q -p no:cacheprovider tests/test_twins.py -k "g_" > "$out/twins.log" 2>&1
tail -2 "$out/twins.log"
only=""; for p in corpus/g_*.fut; do only="$only --only $(basename $p .fut)"; done
timeout ${NOW_S:-280} python3 -m tiler corpus corpus $only --sizes ${SETS:-medium,large} --peer \
  --json "$out/g.json" > "$out/g.log" 2>&1
grep -v "^  (" "$out/g.log" | tail -40
