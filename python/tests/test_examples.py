"""The examples run (small)."""

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("ray", reason="the ray extra is not installed")
pytest.importorskip("matplotlib", reason="the examples extra is not installed")

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def test_the_mittelhof_generals_sweep_plots_its_win_rates(tmp_path):
    out = tmp_path / "plots" / "generals.png"
    done = subprocess.run([sys.executable, str(EXAMPLES / "mittelhof_generals.py"), "--runs", "6", "--cpus", "2",
                           "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = done.stdout.splitlines()
    assert lines[0].split()[:3] == ["value", "side0_wins", "side1_wins"]
    rows = [line.split() for line in lines[1:5]]
    assert [r[0] for r in rows] == ["poor", "average", "good", "exceptional"]
    assert all(int(r[1]) + int(r[2]) + int(r[3]) == 6 for r in rows), "wins and draws make the battles"
