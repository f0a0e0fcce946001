#!/bin/bash
# Thirty-first session, fifth and seventh calls (SIZES=small, then medium): the whole corpus at those sizes against PyTorch (--peer), this tree: where
# a launch's host issue time (now prepared calls) weighs most. The run saves after each program (a cut run keeps
# what it measured).
set -u
out=$(realpath -m "${OUT:-session31e}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout ${CORPUS_S:-430} python3 -m tiler corpus corpus --sizes ${SIZES:-small} --peer --json "$log/corpus-${SIZES:-small}-peer.json" \
  > "$log/corpus-${SIZES:-small}-peer.log" 2>&1
echo "corpus rc=$? $(( $(date +%s) - start )) s"; grep -v -i "warn" "$log/corpus-${SIZES:-small}-peer.log" | grep -A40 "pairs timed" | head -60
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session31e-${SIZES:-small}-logs.tgz" -C "$out" logs
