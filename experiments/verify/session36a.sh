#!/bin/bash
# Thirty-sixth session, first call: the corpus programs with no per-shape record at their large sizes against
# their PyTorch twins (torch.compile per shape), saved after each program, cut at LIMIT_S.
set -u
out=$(realpath -m "${OUT:-session36a}")
mkdir -p "$out"
start=$(date +%s)
OUT=$out SET=large LIMIT_S=${LIMIT_S:-560} bash experiments/verify/peer-rest.sh > "$out/run.txt" 2>&1
tail -40 "$out/run.txt"
echo "== total $(( $(date +%s) - start )) s"
