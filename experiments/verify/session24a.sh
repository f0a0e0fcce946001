#!/bin/bash
# Twenty-fourth session, first call: the whole `pytest -m gpu` (not run whole since before the twenty-second
# session; the race and gate change of 2837d4f and the `runs_at` fix never ran on a GPU), in 12 shards (the kernels themselves were
# sanitized in session23d). Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session24a}")
mkdir -p "$out/logs"
SHARDS=12 GPU_TESTS_S=${GPU_TESTS_S:-480} OUT="$out/logs" \
  bash experiments/verify/whole-gpu.sh
tar -czf "$out/session24a-logs.tgz" -C "$out" logs && cp "$out/logs/gpu-tests.log" "$out/" && rm -rf "$out/logs"
