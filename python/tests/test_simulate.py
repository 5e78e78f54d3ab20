"""Simulations from Python give the command line's figures, as Arrow tables."""

import json
import os
import pathlib
import subprocess

import pytest

import volley

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cli() -> str:
    """The command line's binary: $VOLLEY_BIN, else the debug build (scripts/test builds it)."""
    path = os.environ.get("VOLLEY_BIN") or str(ROOT / "target" / "debug" / "volley")
    assert os.path.exists(path), f"{path}: build the command line first (cargo build -p volley-cli)"
    return path


def test_a_simulation_is_an_arrow_table_with_the_command_lines_summary(tmp_path):
    table = volley.simulate("the-village", runs=12, seed=3, jobs=2)
    assert table.num_rows == 12
    assert set(table.column_names) >= {"index", "seed", "winner", "turns", "actions", "side0_lost", "side1_lost",
                                       "side0_casualty_pct", "side1_casualty_pct"}
    pct = table.column("side0_casualty_pct").to_pylist()
    lost, start = table.column("side0_lost").to_pylist(), table.column("side0_start").to_pylist()
    assert pct == [100.0 * a / b for a, b in zip(lost, start)]
    summary = volley.summary_of(table)
    subprocess.run([cli(), "simulate", "the-village", "--runs", "12", "--seed", "3", "--out", str(tmp_path)],
                   check=True, capture_output=True)
    assert summary == json.loads((tmp_path / "summary.json").read_text())
    # The table's rows agree with its summary: the wins of each side.
    winners = table.column("winner").to_pylist()
    assert [winners.count(0), winners.count(1)] == [s["wins"] for s in summary["sides"]]
    # The same seed, another number of threads: the same battles.
    again = volley.simulate("the-village", runs=12, seed=3, jobs=1)
    assert again.column("seed").to_pylist() == table.column("seed").to_pylist()
    assert again.column("winner").to_pylist() == winners


def test_a_simulation_reads_into_pandas():
    pandas = pytest.importorskip("pandas")
    frame = volley.simulate("hochdorf-mill", runs=4, seed=1).to_pandas()
    assert isinstance(frame, pandas.DataFrame) and len(frame) == 4


def test_bad_simulations_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="at least 1"):
        volley.simulate("the-village", runs=0)
    with pytest.raises(ValueError, match="^runs: at least 1, not -1"):
        volley.simulate("the-village", runs=-1)
    with pytest.raises(ValueError, match="^seed: at least 0"):
        volley.simulate("the-village", runs=1, seed=-1)
    with pytest.raises(ValueError, match="^seed: at most"):
        volley.simulate("the-village", runs=1, seed=2**64)
    with pytest.raises(TypeError, match="^runs: a whole number"):
        volley.simulate("the-village", runs=2.5)
    with pytest.raises(ValueError, match="give a bundled scenario"):
        volley.simulate("", runs=1)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b'name = "x"\n\xff\xfe')
    with pytest.raises(ValueError, match=r"binary.toml:2:1: not UTF-8 text \(byte 0xff\)"):
        volley.simulate(str(binary), runs=1)
    with pytest.raises(ValueError, match="not a bundled scenario"):
        volley.simulate("no-such-battle", runs=1)
    with pytest.raises(ValueError):
        volley.simulate("the-village", runs=1, agents=("heuristic", "nobody"))


def test_the_columns_are_read_without_a_copy():
    """The columns are the buffers Rust wrote: numpy, pandas (Arrow-backed), polars and DuckDB
    read them where they are."""
    table = battles = volley.simulate("the-village", runs=20, seed=3)
    seeds = table.column("seed").chunk(0)
    address = seeds.buffers()[1].address
    assert seeds.to_numpy(zero_copy_only=True).ctypes.data == address
    pandas = pytest.importorskip("pandas")
    frame = table.to_pandas(types_mapper=pandas.ArrowDtype)
    assert frame["seed"].array._pa_array.chunk(0).buffers()[1].address == address
    polars = pytest.importorskip("polars")
    assert polars.from_arrow(table, rechunk=False)["seed"].to_numpy().ctypes.data == address
    duckdb = pytest.importorskip("duckdb")
    counts = dict(duckdb.sql("select winner, count(*) from battles group by winner").fetchall())
    winners = table.column("winner").to_pylist()
    assert counts == {w: winners.count(w) for w in set(winners)}
    # A battle without a winner is a null, not a 0.
    assert table.column("winner").null_count == winners.count(None)


def test_a_long_simulation_stops_when_interrupted():
    """Ctrl-C (SIGINT) stops a long simulation within a few seconds, as KeyboardInterrupt."""
    import signal
    import sys
    import time

    code = "import volley; print('started', flush=True); volley.simulate('the-village', 10**7, jobs=1)"
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "started"
        time.sleep(1.5)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
    finally:
        p.kill()
    assert p.returncode != 0 and "KeyboardInterrupt" in err, err


def test_a_scenario_may_be_a_path_object():
    scenario = ROOT / "scenarios" / "itchy-scratchy" / "hochdorf-mill.toml"
    assert volley.summary_of(volley.simulate(scenario, runs=2)) == volley.summary_of(
        volley.simulate(str(scenario), runs=2))
    assert volley.load(scenario).state_hash == volley.load(str(scenario)).state_hash
