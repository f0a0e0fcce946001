"""Process replay against committed hashes: the generated CUDA of every
corpus, analysis-test and regression program, of every benchmark under the
option sets of tests/replay.py, and of 100 programs of the fuzzer's
generator. A change that alters any of them fails here, listing each by
name, so that a refactor is shown to leave the CUDA alone and a deliberate
change names what it touched: see the diffs with `python tests/replay.py`,
then record the new hashes with TILER_UPDATE_GOLDEN=1. The first line of
each module (tiler's version) is left out of its hash."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from conftest import header, header_options
from replay import OPTION_SETS

from tiler.analyse.options import OPTIONS
from tiler.cli import main
from tiler.cli.arguments import options_from
from tiler.errors import PlainError
from tiler.fuzz.generate import generate
from tiler.pipeline import run_all
from tiler.syntax import pretty

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests/golden/replay.json"
UPDATE = os.environ.get("TILER_UPDATE_GOLDEN") == "1"
FUZZ_SEEDS = range(100)


def _programs():
    """(name, text, option set) for every program replayed."""
    for folder in ("corpus", "tests/programs/analysis", "tests/programs/regress"):
        for path in sorted((ROOT / folder).glob("*.fut")):
            yield f"{folder}/{path.name}", path.read_text(), "header" if header(path).get("options") else "tiled"
    for path in sorted((ROOT / "benchmarks").glob("*.fut")):
        for name in OPTION_SETS:
            yield f"benchmarks/{path.name}", path.read_text(), name
    for seed in FUZZ_SEEDS:
        yield f"fuzz {seed}", pretty(generate(seed)), "tiled"


def _options(option_set: str, name: str):
    """tests/replay.py's command-line option set, parsed as `tiler explain`
    parses it ("header": the options the program's header gives)."""
    if option_set == "header":
        return header_options(ROOT / name)
    ctx = main.commands["explain"].make_context("explain", ["p.fut", *OPTION_SETS[option_set]])
    return options_from(**{k: v for k, v in ctx.params.items() if k in OPTIONS})


def _hash(name: str, text: str, option_set: str) -> str:
    try:
        cuda = run_all(text, name.rsplit("/", 1)[-1], _options(option_set, name))["render"]
    except PlainError as e:  # an option set that does not fit the program (a 2-D tile of a 1-D kernel)
        return "refused: " + e.message
    body = cuda.split("\n", 1)[1]  # past the line naming tiler's version, which any release changes
    return hashlib.sha1(body.encode()).hexdigest()[:16]


def test_the_generated_cuda_is_the_recorded_one():
    now = {f"{name} [{option_set}]": _hash(name, text, option_set) for name, text, option_set in _programs()}
    if UPDATE:
        GOLDEN.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
    recorded = json.loads(GOLDEN.read_text())
    changed = sorted(k for k in now if recorded.get(k) != now[k])
    gone = sorted(set(recorded) - set(now))
    assert not changed and not gone, (
        f"the CUDA of {len(changed)} program(s) changed: {', '.join(changed[:20])}"
        + (f"; no longer replayed: {', '.join(gone)}" if gone else "")
        + ". `python tests/replay.py` shows the diffs against HEAD for the benchmarks, analysis and regression "
        "programs (through the command line, which refuses a --size a program does not have); once the change is "
        "meant, record it with TILER_UPDATE_GOLDEN=1")
