"""Tuning files (tiler/tune/tuning.py): read by compile, explain and the Python
API, the command line's own values first, another device's table unused;
and `tiler tune`'s search (tiler/tune/autotune.py) with a stand-in for the GPU
(tests/test_gpu.py runs the real one)."""
from __future__ import annotations

import json
import shutil

import pytest
from conftest import BENCHMARKS, tiler

import tiler as tiler_api
from tiler.analyse import Options
from tiler.errors import PlainError, UserError
from tiler.pipeline import run_to
from tiler.runtime import gpu_unavailable
from tiler.tune.autotune import Trial, families, one_at_a_time, search
from tiler.tune.tuning import Tuned, flags, for_program, merged, read, write

TABLE = """[[tuned]]
device = "NVIDIA H200"
sizes = { n = 8192, m = 8192 }
tile = [32]
chunk = 96
time_ms = 0.121
default_ms = 0.130
date = "2026-11-21"
"""


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "matvec.fut"
    shutil.copy(BENCHMARKS / "matvec.fut", path)
    (tmp_path / "matvec.tuning").write_text(TABLE)
    return path


def test_explain_and_compile_apply_the_programs_tuning(program):
    data = json.loads(tiler("explain", program, "--json").stdout)
    assert data["block"]["threads"] == [32] and data["streams"][0]["chunk"] == 96
    assert data["tuning"]["flags"] == "--tile 32 --chunk 96" and data["tuning"]["device"] == "NVIDIA H200"
    launch = json.loads(tiler("compile", program, "--emit", "launch").stdout)
    assert launch["versions"][0]["block"][0] == 32
    text = " ".join(tiler("explain", program).stdout.split())  # lines wrap at the terminal's width
    assert "tuned: --tile 32 --chunk 96 from" in text and "0.121 ms there, the default 0.130 ms" in text


def test_the_command_line_wins_and_no_tuning_ignores_it(program):
    data = json.loads(tiler("explain", program, "--json", "--tile", "16").stdout)
    assert data["block"]["threads"] == [16] and data["streams"][0]["chunk"] == 96
    assert data["tuning"]["flags"] == "--chunk 96"
    data = json.loads(tiler("explain", program, "--json", "--no-tuning").stdout)
    assert data["block"]["threads"] == [16] and data["tuning"] is None


def test_another_devices_table_is_not_used(program):
    options, applied = for_program(str(program), Options(), device=lambda: "NVIDIA A100")
    assert options == Options() and applied.tuned is None
    assert applied.note == "tuned on NVIDIA H200, not on this NVIDIA A100: not used"


def test_the_table_at_the_sizes_given_is_chosen(tmp_path):
    small = Tuned("G", {"n": 100}, {"tile": (64,)})
    large = Tuned("G", {"n": 10000}, {"tile": (32,)})
    write(tmp_path / "p.tuning", [small, large], "p.fut")
    (tmp_path / "p.fut").write_text("")
    assert read(tmp_path / "p.tuning") == [small, large]  # written and read back the same
    options, applied = for_program(str(tmp_path / "p.fut"), Options(sizes=(("n", 100),)), device=lambda: "G")
    assert options.tile == (64,) and "at the sizes given" in applied.note
    options, applied = for_program(str(tmp_path / "p.fut"), Options(), device=lambda: "G")
    assert options.tile == (32,) and applied.note == "tuned on this G, at n=10000"


@pytest.mark.parametrize("text, message", [
    ("[[tuned]]\ndevice = \"G\"\nwarp = 3\n", "tuned table 1 has unknown key `warp`"),
    ("[[tuned]]\ntile = [8]\n", "tuned table 1 has no `device`"),
    ("[[tuned]\n", "cannot read the tuning file"),
    ("[[tuned]]\ndevice = \"G\"\nchunk = 0\n", "a chunk is between 1 and 4096"),
])
def test_a_bad_tuning_file_is_refused(tmp_path, text, message):
    """Located where the file's text says where (UserError), else a plain error."""
    (tmp_path / "p.fut").write_text("")
    (tmp_path / "p.tuning").write_text(text)
    with pytest.raises((PlainError, UserError), match=message):
        for_program(str(tmp_path / "p.fut"), Options(), device=lambda: "G")


def test_a_missing_tuning_file_given_is_refused(program):
    done = tiler("explain", program, "--tuning", program.parent / "none.tuning")
    assert done.returncode == 1 and "--tuning" in done.stderr and "no such file" in done.stderr


def test_the_python_api_reads_it_too(program):
    k = tiler_api.compile(program)
    assert k.explain["tuning"]["flags"] == "--tile 32 --chunk 96" and k.launch["versions"][0]["block"][0] == 32
    assert tiler_api.compile(program, tuning=False).explain["tuning"] is None


# ---- the search (tiler/tune/autotune.py), with a stand-in for the GPU ------------------


def analysed(name):
    path = BENCHMARKS / f"{name}.fut"
    return run_to("analyse", path.read_text(), path.name)


def test_the_families_follow_the_plan():
    # rows staged to coalesce: the other remedy, the launch's transposition, is tried too
    # (first the threads a row: its few-row launches split each row's sum)
    assert [n for n, _ in families(analysed("matvec"))] == ["split", "tile", "chunk", "buffering", "transpose",
                                                           "unroll", "min_blocks"]
    assert dict(families(analysed("rownorm")))["transpose"] == [True, False]
    assert flags({"transpose": False}) == "--no-transpose" and flags({"transpose": True}) == "--transpose"
    mm = dict(families(analysed("mm")))
    # and a register tile's interior blocks; the blocks an SM wherever something is staged; A's transposition for
    # TMA's copies (core_tma.py) on and off
    assert list(mm) == ["split", "tile", "chunk", "register_tile", "buffering", "transpose", "interior", "min_blocks"]
    assert mm["transpose"] == [True, False]
    assert mm["min_blocks"] == [0, 1, 2, 3, 4] and "interior" not in dict(families(analysed("matvec")))
    assert (16, 16) in mm["tile"] and (8, 8) in mm["register_tile"]
    assert [n for n, _ in families(analysed("conv2d"))] == ["tile"]  # nothing staged: only the block to try
    lavamd = dict(families(analysed("lavamd")))  # a 1-D block in a 2-D grid: the other dim keeps one thread
    assert lavamd["tile"][0] == (1, 16) and flags({"tile": (None, 16)}) == "--tile _,16"
    # its threads share every tile: coarsening (points a thread), the chunk loop's unrolling
    assert (1, 4) in lavamd["register_tile"] and "unroll" in lavamd
    nbody3d = dict(families(analysed("nbody3d")))  # four inputs read at one index: packing is tried
    assert nbody3d["pack"] == [True] and (2,) in nbody3d["register_tile"]


def fake(times: dict, wrong=()):
    """A batch measurement: a time per (tile, chunk), some candidates wrong."""
    calls = []

    def measure(params):
        calls.append(params)
        key = (params.get("tile"), params.get("chunk"))
        if key in wrong:
            return Trial(params, None, "discarded: out0 differs")
        return Trial(params, times.get(key, 1.0), "ok")
    return one_at_a_time(measure), calls


def test_coordinate_descent_keeps_the_fastest_and_never_a_wrong_one():
    measure, calls = fake({((32,), None): 0.8, ((32,), 64): 0.5}, wrong={((64,), None)})
    result = search([("tile", [(16,), (32,), (64,)]), ("chunk", [32, 64])], measure, budget_s=100)
    assert calls[0] == {} and result.default.ms == 1.0
    # the block first (32 is best, 64 is wrong and discarded), then the chunk with the block fixed
    assert calls[1:6] == [{"tile": (16,)}, {"tile": (32,)}, {"tile": (64,)}, {"tile": (32,), "chunk": 32},
                          {"tile": (32,), "chunk": 64}]
    assert result.best.parameters == {"tile": (32,), "chunk": 64} and result.best.ms == 0.5
    assert not any(t.parameters == {"tile": (64,)} and t.ok for t in result.trials)


def test_a_second_pass_finds_what_one_family_at_a_time_misses():
    """Block 16 only pays with chunk 64: the second pass tries the blocks again with it."""
    measure, calls = fake({((32,), None): 0.8, ((32,), 64): 0.5, ((16,), 64): 0.2})
    result = search([("tile", [(16,), (32,)]), ("chunk", [32, 64])], measure, budget_s=100)
    assert result.best.parameters == {"tile": (16,), "chunk": 64}
    assert len(calls) == len({tuple(sorted(c.items())) for c in calls})  # nothing measured twice
    one = search([("tile", [(16,), (32,)]), ("chunk", [32, 64])], fake({((32,), None): 0.8, ((32,), 64): 0.5, ((16,), 64): 0.2})[0],
                 budget_s=100, passes=1)
    assert one.best.parameters == {"tile": (32,), "chunk": 64}


def test_each_family_is_tried_best_estimate_first_and_in_batches():
    measure, calls = fake({})
    batches = []

    def batched(batch):
        batches.append(len(batch))
        return measure(batch)
    estimate = {(16,): 3.0, (32,): 1.0, (64,): None, (128,): 2.0}
    search([("tile", [(16,), (32,), (64,), (128,)])], batched, budget_s=100, width=2,
           estimate=lambda p: estimate[p["tile"]])
    assert [c.get("tile") for c in calls] == [None, (32,), (128,), (16,), (64,)]  # no estimate: last
    assert batches == [1, 2, 2]


def test_the_budget_ends_the_search_with_the_best_so_far():
    ticks = iter(range(100))
    measure, calls = fake({((32,), None): 0.5})
    result = search([("tile", [(16,), (32,), (64,), (128,)])], measure, budget_s=2.5, clock=lambda: next(ticks))
    assert len(calls) == 3 and result.best.parameters == {"tile": (32,)} and "budget" in result.stopped


def test_workers_spread_a_batch_over_one_process_a_gpu():
    from tiler.tune.autotune import Workers

    workers = Workers(2, stand_in)
    try:
        trials = workers([{"chunk": c} for c in (8, 16, 32, 64)])
    finally:
        workers.close()
    assert [t.parameters["chunk"] for t in trials] == [8, 16, 32, 64]
    assert [t.gpu for t in trials] == [0, 1, 0, 1]
    assert [t.verdict for t in trials] == ["ok on 0", "ok on 1", "ok on 0", "ok on 1"]  # CUDA_VISIBLE_DEVICES


def stand_in():
    """A worker's measurement without a GPU: says which device it was given."""
    import os

    device = os.environ["CUDA_VISIBLE_DEVICES"]
    return lambda params: Trial(params, 1.0, f"ok on {device}")


def test_a_new_table_replaces_the_one_for_the_same_device_and_sizes():
    a, b = Tuned("G", {"n": 1}, {"chunk": 8}), Tuned("H", {"n": 1}, {"chunk": 8})
    new = Tuned("G", {"n": 1}, {"chunk": 64})
    assert merged([a, b], new) == [b, new]


@pytest.mark.skipif(gpu_unavailable() is None, reason="a GPU is present")
def test_tune_without_a_gpu_says_so_in_one_line():
    done = tiler("tune", BENCHMARKS / "matvec.fut")
    assert done.returncode == 1 and done.stderr.startswith("error: no GPU:") and "Traceback" not in done.stderr


def test_explain_says_when_the_default_was_fastest_or_the_command_line_wins(tmp_path):
    path = tmp_path / "matvec.fut"
    shutil.copy(BENCHMARKS / "matvec.fut", path)
    write(tmp_path / "matvec.tuning", [Tuned("G", {"n": 10}, {}, 0.5, 0.5)], "matvec.fut")
    assert "the default schedule was fastest (tuned on G" in " ".join(tiler("explain", path).stdout.split())
    write(tmp_path / "matvec.tuning", [Tuned("G", {"n": 10}, {"chunk": 32}, 0.4, 0.5)], "matvec.fut")
    assert "the command line sets what it tuned" in " ".join(tiler("explain", path, "--chunk", "128").stdout.split())


def test_a_resumed_search_does_not_measure_again():
    from tiler.tune.autotune import resumed, trial_from_json, trial_json

    measure, calls = fake({((32,), None): 0.5})
    first = search([("tile", [(16,), (32,)])], measure, budget_s=100)
    saved = [trial_from_json(trial_json(t)) for t in first.trials]  # through the partial file's JSON
    assert saved == first.trials
    measure, calls = fake({((32,), None): 0.5})
    second = search([("tile", [(16,), (32,), (64,)])], resumed(measure, saved), budget_s=100)
    assert calls == [{"tile": (64,)}] and second.best.parameters == {"tile": (32,)}
    assert "(from the interrupted run)" in second.trials[0].verdict


def test_the_rank_correlation_of_the_cost_model():
    from tiler.tune.autotune import rank_correlation

    def trials(pairs):
        return [Trial({}, ms, "ok", cost) for cost, ms in pairs]
    assert rank_correlation(trials([(1, 1.0), (2, 2.0), (3, 3.0)])) == pytest.approx(1.0)
    assert rank_correlation(trials([(1, 3.0), (2, 2.0), (3, 1.0)])) == pytest.approx(-1.0)
    assert rank_correlation(trials([(1, 1.0), (1, 2.0), (1, 3.0)])) is None  # the model ranks them alike
    assert rank_correlation(trials([(1, 1.0), (2, 2.0)])) is None


def test_the_plot_draws_every_timed_candidate(tmp_path):
    pytest.importorskip("matplotlib")
    from tiler.cli.tune import _tune_plot
    from tiler.tune.autotune import Result

    trials = [Trial({}, 1.0, "ok", 1.03), Trial({"tile": (32,)}, 0.8, "ok", 1.06), Trial({"chunk": 8}, None, "x")]
    _tune_plot(Result(trials[1], trials[0], trials), str(tmp_path / "t.png"), "p.fut")
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"


def test_the_journal_keeps_trials_for_the_same_device_and_sizes(tmp_path):
    from tiler.tune.autotune import Journal

    path = tmp_path / "p.tuning.partial.json"
    journal = Journal(path, "G", {"n": 5})
    journal.record(Trial({"tile": (32,)}, 0.5, "ok", 1.0))
    journal.record(Trial({"tile": (32,)}, 0.5, "ok", 1.0))  # once
    assert Journal(path, "G", {"n": 5}).prior == [Trial({"tile": (32,)}, 0.5, "ok", 1.0)]
    assert Journal(path, "G", {"n": 6}).prior == [] and Journal(path, "H", {"n": 5}).prior == []
    journal.close()
    assert not path.exists()


def test_a_table_tuned_under_fast_math_applies_only_to_fast_math(tmp_path):
    (tmp_path / "p.fut").write_text("")
    ieee, fast = Tuned("G", {"n": 1}, {"chunk": 8}), Tuned("G", {"n": 1}, {"chunk": 64}, fast_math=True)
    write(tmp_path / "p.tuning", merged([ieee], fast), "p.fut")
    assert read(tmp_path / "p.tuning") == [ieee, fast]  # both kept: they differ in math
    assert "fast_math = true" in (tmp_path / "p.tuning").read_text()
    options, _ = for_program(str(tmp_path / "p.fut"), Options(), device=lambda: "G")
    assert options.chunk == 8 and not options.fast_math  # a tuning never turns fast math on
    options, _ = for_program(str(tmp_path / "p.fut"), Options(fast_math=True), device=lambda: "G")
    assert options.chunk == 64
    write(tmp_path / "p.tuning", [fast], "p.fut")
    options, applied = for_program(str(tmp_path / "p.fut"), Options(), device=lambda: "G")
    assert options == Options() and applied.note == "tuned only with --fast-math: not used without it"
    (tmp_path / "p.tuning").write_text('[[tuned]]\ndevice = "G"\nfast_math = "yes"\n')
    with pytest.raises(UserError, match="`fast_math` must be true or false"):
        for_program(str(tmp_path / "p.fut"), Options(), device=lambda: "G")


def test_a_table_tuned_with_loops_kept_applies_only_to_keep_loops(tmp_path):
    """A table's parameters are those of the kernel it was tuned on: one
    tuned with loops read as streams never steers the kernel --keep-loops
    makes, nor the reverse."""
    (tmp_path / "p.fut").write_text("")
    streams, kept = Tuned("G", {"n": 1}, {"chunk": 8}), Tuned("G", {"n": 1}, {"chunk": 64}, keep_loops=True)
    write(tmp_path / "p.tuning", merged([streams], kept), "p.fut")
    assert read(tmp_path / "p.tuning") == [streams, kept] and "keep_loops = true" in (tmp_path / "p.tuning").read_text()
    assert for_program(str(tmp_path / "p.fut"), Options(), device=lambda: "G")[0].chunk == 8
    assert for_program(str(tmp_path / "p.fut"), Options(keep_loops=True), device=lambda: "G")[0].chunk == 64
    write(tmp_path / "p.tuning", [streams], "p.fut")
    options, applied = for_program(str(tmp_path / "p.fut"), Options(keep_loops=True), device=lambda: "G")
    assert options == Options(keep_loops=True)
    assert applied.note == "tuned with loops read as streams: not used with --keep-loops"
    (tmp_path / "p.tuning").write_text('[[tuned]]\ndevice = "G"\nkeep_loops = 1\n')
    with pytest.raises(UserError, match="`keep_loops` must be true or false"):
        for_program(str(tmp_path / "p.fut"), Options(), device=lambda: "G")


def test_a_fast_math_search_gives_every_candidate_fast_math_and_resumes_only_its_own(tmp_path):
    from tiler.tune.autotune import Journal, candidate_options

    options = candidate_options({"chunk": 32}, {"n": 64}, {"fast_math": True})
    assert options.fast_math and options.chunk == 32 and options.sizes == (("n", 64),)
    path = tmp_path / "p.tuning.partial.json"
    Journal(path, "G", {"n": 5}).record(Trial({"tile": (32,)}, 0.5, "ok", 1.0))
    assert Journal(path, "G", {"n": 5}, fast_math=True).prior == []


@pytest.mark.parametrize("body, said", [
    ("tuned = [1, 2]", "1:9: error: `tuned` must be a list of tables"),
    ('[[tuned]]\ndevice = "X"\nsizes = 5', "3:9: error: tuned table 1: `sizes` must be a table"),
    ('[[tuned]]\ndevice = "X"\nsizes = [1, 2]', "3:9: error: tuned table 1: `sizes` must be a table"),
    ('[[tuned]]\ndevice = "X"\nsizes = { n = { m = 1 } }', "3:9: error: tuned table 1: `sizes` must be a table"),
    ('[[tuned]]\ndevice = "A"\n\n[[tuned]]\ndevice = "B"\nbogus = 3', "6:9: error: tuned table 2 has unknown key `bogus`"),
    ('[[tuned]]\ndevice = "X"\ntile = [0, 8]', "3:8: error: tuned table 1: tile 0,8: between 1 and 1024"),
    ('[[tuned]]\ndevice = "X"\nchunk = "big"', "3:9: error: tuned table 1: chunk"),
    ('tile = [16, 8]\n\n[[tuned]]\ndevice = "X"', "1:1: error: `tile` is outside every [[tuned]] table"),
    ('[[tuned]]\ndevice = "X"\nno_register_tile = true\ndouble_buffer = true',
     "4:17: error: tuned table 1: `no_register_tile` and `double_buffer` contradict each other")],
    ids=["not-tables", "sizes-int", "sizes-list", "sizes-nested", "unknown-key", "tile-zero", "chunk-text",
         "outside-a-table", "contradicting"])
def test_a_malformed_tuning_file_is_a_located_error(tmp_path, body, said):
    from conftest import BENCHMARKS, tiler

    program = tmp_path / "p.fut"
    program.write_text((BENCHMARKS / "nbody.fut").read_text())
    (tmp_path / "p.tuning").write_text(body + "\n")
    r = tiler("explain", program)
    assert r.returncode == 1 and f"{tmp_path / 'p.tuning'}:{said}" in r.stderr, r.stderr
