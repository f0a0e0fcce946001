#!/bin/bash
# Twenty-seventh session, third call: the whole `pytest -m gpu` (last whole in session24a) in 12 shards, after
# halo tiles the launch sizes changed how every launch sizes its dynamic shared memory (Kernel.shared_at).
set -u
out=$(realpath -m "${OUT:-session27c}")
mkdir -p "$out/logs"
SHARDS=12 GPU_TESTS_S=${GPU_TESTS_S:-470} OUT="$out/logs" \
  bash experiments/verify/whole-gpu.sh
tar -czf "$out/session27c-logs.tgz" -C "$out" logs && cp "$out/logs/gpu-tests.log" "$out/" && rm -rf "$out/logs"
