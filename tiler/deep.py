"""Run a function with room for deep recursion.

Programs nest (a chain of ten thousand lets is a legal program), and the
parser, checker and printer recurse over them. `call_deep` runs a function
on a thread with a large stack and a high recursion limit, and re-raises
whatever it raised.
"""
from __future__ import annotations

import sys
import threading

STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 200_000


def call_deep(fn, *args, **kwargs):
    result: dict = {}

    def target():
        try:
            result["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread
            result["error"] = exc

    old_limit, old_stack = sys.getrecursionlimit(), threading.stack_size()
    sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
    threading.stack_size(STACK_BYTES)
    try:
        # a daemon: Ctrl-C interrupts the caller's join, and the process must then exit without waiting for the
        # work (a minute of interpretation, say) to finish
        worker = threading.Thread(target=target, name="tiler-deep", daemon=True)
        worker.start()
        worker.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    if "error" in result:
        raise result["error"]
    return result.get("value")
