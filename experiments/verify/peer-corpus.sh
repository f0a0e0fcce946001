#!/bin/bash
# The whole corpus against its PyTorch twins (issue 55's measure), one shard a
# call (on a GPU host after `source .gpu/bootstrap`): SHARD=K/N of the
# programs, at the size sets SETS, each program's default, untiled kernel and
# cost model's choice beside its twin eager and under torch.compile (TF32
# off). Stops before the call's limit (LIMIT_S); the JSON keeps every program
# timed so far. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-peer-corpus}")
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
tag=$(echo "${SHARD:-1/1}" | tr / of)
timeout ${LIMIT_S:-560} python3 -m tiler corpus corpus --peer --shard "${SHARD:-1/1}" --sizes ${SETS:-small,medium,large} \
  --json "$out/peer-$tag.json" > "$out/peer-$tag.log" 2>&1
echo "exit $?"
grep -v "^  (" "$out/peer-$tag.log" | tail -30
