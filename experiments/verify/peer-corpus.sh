#!/bin/bash
# The whole corpus against its PyTorch twins (issue 55's measure), shards of it
# a call (on a GPU host after `source .gpu/bootstrap`): SHARDS="K/N[,K/N...]"
# of the programs (in one run), at the size sets SETS, each program's default,
# untiled kernel and cost model's choice beside its twin eager and under
# torch.compile (TF32 off). Stops before the call's limit (LIMIT_S); the JSON
# keeps every program timed so far. PROGRAMS="a b ..." times those instead of
# shards (TAG names the files). Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-peer-corpus}")
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
shards=${SHARDS:-1/1}
tag=${TAG:-$(echo "$shards" | tr /, o_)}
only=""; for p in ${PROGRAMS:-}; do only="$only --only $p"; done
[ -n "$only" ] || only=$(python3 -c "
import sys; from pathlib import Path; from tiler.bench.corpus import programs
for s in sys.argv[1].split(','):
    k, n = map(int, s.split('/')); print(' '.join('--only ' + p.stem for p in programs(Path('corpus'), (), (k, n))), end=' ')
" "$shards")
timeout ${LIMIT_S:-560} python3 -m tiler corpus corpus --peer $only --sizes ${SETS:-small,medium,large} \
  --json "$out/peer-$tag.json" > "$out/peer-$tag.log" 2>&1
echo "exit $?"
grep -v "^  (" "$out/peer-$tag.log" | tail -30
