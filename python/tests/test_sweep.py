"""Sweeps from Python give the command line's figures, as Arrow tables."""

import json
import subprocess

import pytest

import volley
from test_simulate import cli


def test_a_sweep_gives_the_command_lines_figures(tmp_path):
    table = volley.sweep("the-village", "turn_limit", [3, 8], runs=10, seed=2, jobs=2)
    subprocess.run([cli(), "sweep", "the-village", "--set", "turn_limit=3,8", "--runs", "10", "--seed", "2",
                    "--out", str(tmp_path)], check=True, capture_output=True)
    expected = json.loads((tmp_path / "sweep.json").read_text())
    assert volley.summary_of(table) == expected
    assert table.column("value").to_pylist() == [3, 8], "whole numbers stay whole numbers"
    # The table's columns are sweep.csv's, with the same figures (the file rounds them).
    lines = (tmp_path / "sweep.csv").read_text().splitlines()
    assert tuple(table.column_names) == tuple(lines[0].split(","))
    for row, line in zip(table.to_pylist(), lines[1:]):
        for key, cell in zip(table.column_names, line.split(",")):
            if isinstance(row[key], float) and key != "value":
                assert row[key] == pytest.approx(float(cell), abs=0.006), key
            else:
                assert str(row[key]) == cell, key
    # Each value's battles are the simulation of the changed scenario from the same seed.
    assert table.column("side0_wins").to_pylist() == [p["summary"]["sides"][0]["wins"] for p in expected]


def test_a_sweep_battle_by_battle():
    table = volley.sweep("the-village", "turn_limit", [3, 8], runs=6, seed=2, battles=True)
    assert table.num_rows == 12 and table.column_names[0] == "value"
    assert table.column("value").to_pylist() == [3] * 6 + [8] * 6
    assert table.column("index").to_pylist() == list(range(6)) * 2
    summaries = volley.summary_of(table)
    for i, point in enumerate(summaries):
        winners = table.column("winner").to_pylist()[i * 6:(i + 1) * 6]
        assert [winners.count(0), winners.count(1)] == [s["wins"] for s in point["summary"]["sides"]]
    # A longer battle lasts at least as many turns as the shorter limit allows.
    turns = table.column("turns").to_pylist()
    assert max(turns[:6]) <= 3 and max(turns[6:]) > 3


def test_values_of_every_kind():
    np = pytest.importorskip("numpy")
    # numpy's numbers are numbers; the value column takes the values' type.
    table = volley.sweep("the-village", "turn_limit", np.arange(3, 5), runs=2)
    assert table.column("value").type == "int64" and table.column("value").to_pylist() == [3, 4]
    assert [p["value"] for p in volley.summary_of(table)] == ["3", "4"], "sweep.json's texts"
    assert volley.sweep("the-village", "turn_limit", [np.int32(3)], runs=2).column("value").to_pylist() == [3]
    words = volley.sweep("mittelhof", "rules.wings.5.quality", ["poor", "good"], runs=2)
    assert words.column("value").type == "string"
    # A table the file leaves out is made on the way (the farm has no [rules]).
    hidden = volley.sweep("the-farm", "rules.rules_hidden", [True, False], runs=2)
    assert hidden.column("value").to_pylist() == [True, False]
    # numpy's booleans are booleans (their type's name differs between numpy versions).
    flags = volley.sweep("the-farm", "rules.rules_hidden", np.array([True, False]), runs=2)
    assert flags.column("value").type == "bool" and volley.summary_of(flags) == volley.summary_of(hidden)


def test_a_refused_value_is_told_at_its_line_in_the_file():
    # mittelhof.toml gives the Austrian right wing's quality on line 90, column 11.
    with pytest.raises(ValueError, match=r"mittelhof.toml \(rules.wings.5.quality = superb\):90:11: unknown variant"):
        volley.sweep("mittelhof", "rules.wings.5.quality", ["poor", "superb"], runs=1)


def test_bad_sweeps_say_what_is_wrong(tmp_path):
    with pytest.raises(ValueError, match="sides.0.units has .* entries"):
        volley.sweep("the-village", "sides.0.units.99.figures", [1], runs=1)
    with pytest.raises(ValueError, match="with turn_limit = 'x'"):
        volley.sweep("the-village", "turn_limit", ["'x'"], runs=1)
    with pytest.raises(ValueError, match="two names"):
        volley.sweep("the-village", "turn_limit", [3], runs=1, agents="heuristic")
    # Everything is checked before a battle is played, and blamed on what is wrong.
    with pytest.raises(ValueError, match="^runs: at least 1"):
        volley.sweep("the-village", "turn_limit", [5], runs=0)
    with pytest.raises(ValueError, match='^unknown agent "heuristc"'):
        volley.sweep("the-village", "turn_limit", [5], agents=("heuristc", "random"))
    with pytest.raises(TypeError, match="a list of values"):
        volley.sweep("the-village", "turn_limit", "10")
    with pytest.raises(TypeError, match="numbers, booleans or text"):
        volley.sweep("the-village", "turn_limit", [None])
    with pytest.raises(ValueError, match="beyond TOML"):
        volley.sweep("the-village", "turn_limit", [2**70])
    with pytest.raises(ValueError, match="turn_limit: 5 and 5 are the same value"):
        volley.sweep("the-village", "turn_limit", [5, 5])
    with pytest.raises(ValueError, match="are the same value"):
        volley.sweep("the-village", "turn_limit", ["3", " 3"])
    with pytest.raises(ValueError, match="at least one"):
        volley.sweep("the-village", "turn_limit", [])
    # A file that does not load as written is told at its own place, not blamed on a value.
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\nruleset = "old-fritz"\nturn_limit = [\n')
    with pytest.raises(ValueError, match=r"broken.toml:\d+:\d+") as e:
        volley.sweep(str(broken), "turn_limit", [5], runs=1)
    assert "turn_limit = 5" not in str(e.value)
