#!/bin/bash
# Twenty-second session, after the re-read: the C launcher skips a race whose two versions the launch's last
# race timed already. GPU tests of the host launcher's races, the split-K races and the split. Run from the
# repository root after `source .gpu/bootstrap`. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session22h}")
log=$out/logs
mkdir -p "$log"
timeout 170 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "host_launcher or race or split_k" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head
tar -czf "$out/session22h-logs.tgz" -C "$out" logs && rm -rf "$log"
