"""The plan options are declared once (analyse/options.py: OPTIONS): the
command line, the Python API, tuning files and the docs are made from it."""
from pathlib import Path

import pytest

from tiler.analyse.options import CLI_NAMES, OPTIONS, TUNED, Options, Takes, docs_table, make_options
from tiler.errors import PlainError

ROOT = Path(__file__).resolve().parents[1]

# a value each kind of option takes, and the field it gives
SAMPLE = {Takes.FLAG: (True, True), Takes.EITHER: (False, False), Takes.WHOLE: None, Takes.TILE: ("16,_", (16, None)),
          Takes.TABLE: ({"n": 64}, (("n", 64),))}


def _sample(option):
    if option.takes is Takes.WHOLE:
        value = option.least if option.valid is None or option.valid(option.least) else option.most
        return value, value
    return SAMPLE[option.takes]


def test_the_docs_table_is_the_one_made_from_the_options():
    text = (ROOT / "docs/python-api.md").read_text()
    assert docs_table() in text, "paste tiler.analyse.options.docs_table() into docs/python-api.md"


@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_option_reaches_options_from_the_api_and_the_command_line(name):
    from click.testing import CliRunner

    from tiler.cli import main

    option = OPTIONS[name]
    value, held = _sample(option)
    assert getattr(make_options(**{name: value}), name) == held
    args = {Takes.FLAG: [option.flag], Takes.EITHER: [f"--no-{option.flag[2:]}"], Takes.TILE: [option.flag, "16,_"],
            Takes.WHOLE: [option.flag, str(value)], Takes.TABLE: [option.flag, "m=64"]}[option.takes]  # mm's own size
    done = CliRunner().invoke(main, ["explain", str(ROOT / "benchmarks/mm.fut"), "--json", *args])
    assert done.exit_code == 0, (args, done.output[-500:])


def test_an_option_of_the_wrong_kind_or_range_is_refused_by_its_name():
    with pytest.raises(PlainError, match=r"--lanes 100: threads a row are whole warps"):
        make_options(CLI_NAMES, lanes=100)
    with pytest.raises(PlainError, match=r"unroll 'x': a whole number, not a str"):
        make_options(unroll="x")
    with pytest.raises(PlainError, match="interior 1: True or False"):
        make_options(interior=1)
    with pytest.raises(PlainError, match="zz: not a plan option"):
        make_options(zz=1)
    with pytest.raises(PlainError, match="--no-split and --lanes contradict"):
        make_options(CLI_NAMES, no_split=True, lanes=64)


def test_a_tuning_may_set_what_the_tuner_varies():
    from tiler.pipeline import run_all
    from tiler.tune import autotune

    for bench in ("mm", "nbody", "softmax", "kmeans", "lavamd"):
        path = ROOT / "benchmarks" / f"{bench}.fut"
        analysis = run_all(path.read_text(), path.name, Options(), until="analyse")["analyse"]
        for family, values in autotune.families(analysis):
            for v in values:  # a dict of options, or a value of the option the family is named after
                keys = set(v) if isinstance(v, dict) else {family}
                assert keys <= set(TUNED), keys - set(TUNED)
    assert "sizes" not in TUNED and "fast_math" not in TUNED and "tile" in TUNED


def test_only_options_that_choose_the_schedule_turn_the_race_off():
    assert not make_options(sizes={"n": 5}, max_shared=1000, fast_math=True, no_launch_timing=True).steers_schedule()
    for name, option in OPTIONS.items():
        if option.steers:
            value, _ = _sample(option)
            assert make_options(**{name: value}).steers_schedule(), name
