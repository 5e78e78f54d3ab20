"""Simulations on a Ray cluster: the battles split into shares of consecutive numbers, each
share a Ray task playing its battles in Rust on its own threads, the records gathered into one
Arrow table. The same master seed gives the same battles and the same summary on one machine
(``volley.simulate``), on a local Ray, or on a cluster: a battle's seed depends only on the
master seed and its number.

Needs the ``ray`` extra (``pip install './python[ray]'``) on the driver and on every worker, and a
Ray runtime: ``ray.init()`` for a local one, ``ray.init(address="ray://head:10001")`` for a
cluster (each worker needs this package installed; Ray's ``runtime_env={"pip": [...]}`` can do
it). If Ray is not initialised, a local one is started.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence, Union

if TYPE_CHECKING:
    import pyarrow

import ray as _ray

from . import _point_source, _sweep_table, _table, _two, _value_text, _volley

__all__ = ["simulate", "sweep"]


@_ray.remote
def _share(scenario: tuple[str, str], first: int, count: int, agents: tuple[str, str], seed: int, jobs: int) -> str:
    return _volley.simulate_share(scenario, first, count, agents, seed, jobs)


def _start(runs: int, share: Optional[int], points: int) -> int:
    """Ray started if need be; the share size (default: four shares per CPU of the cluster)."""
    if runs < 1:
        raise ValueError("runs: at least 1 battle")
    if share is not None and share < 1:
        raise ValueError("share: at least 1 battle")
    if not _ray.is_initialized():
        _ray.init()
    if share is None:
        cpus = max(1, int(_ray.cluster_resources().get("CPU", 1)))
        share = max(1, -(-runs * points // (cpus * 4)))
        share = min(share, runs)
    return share


def _submit(scenario: tuple[str, str], runs: int, agents: tuple[str, str], seed: int, share: int,
            jobs_per_task: int) -> list:
    task = _share.options(num_cpus=jobs_per_task)
    return [task.remote(scenario, first, min(share, runs - first), agents, seed, jobs_per_task)
            for first in range(0, runs, share)]


def simulate(
    scenario: str,
    runs: int,
    agents: tuple[str, str] = ("heuristic", "heuristic"),
    seed: int = 1,
    share: Optional[int] = None,
    jobs_per_task: int = 1,
) -> "pyarrow.Table":
    """``volley.simulate`` on Ray: ``runs`` battles in shares of ``share`` battles (default: four
    shares per CPU of the cluster), each a task asking ``jobs_per_task`` CPUs and running that
    many threads. Returns the same table and summary as ``volley.simulate`` for the same
    ``seed``. The scenario's text travels with the tasks: a file need not exist on the workers."""
    agents = _two(agents)
    share = _start(runs, share, 1)
    source = _volley.source(scenario)
    parts = _ray.get(_submit(source, runs, agents, seed, share, jobs_per_task))
    columns, summary = _volley.gather(source, runs, agents, seed, parts)
    return _table(columns, {"volley.summary": summary})


def sweep(
    scenario: str,
    path: str,
    values: Sequence[Union[int, float, str, bool]],
    runs: int = 100,
    agents: tuple[str, str] = ("heuristic", "heuristic"),
    seed: int = 1,
    share: Optional[int] = None,
    jobs_per_task: int = 1,
    battles: bool = False,
) -> "pyarrow.Table":
    """``volley.sweep`` on Ray: every value's battles in shares, all the values' shares in the
    cluster at once. Returns the same table and summaries as ``volley.sweep`` for the same
    ``seed``."""
    agents = _two(agents)
    share = _start(runs, share, max(1, len(values)))
    scenario_path, text = _volley.source(scenario)
    submitted = []
    for v in values:
        value = _value_text(v)
        try:
            changed = _point_source(scenario_path, text, path, value)
            _volley.check(changed)
        except ValueError as e:
            raise ValueError(f"with {path} = {value}: {e}") from None
        submitted.append((value, changed, _submit(changed, runs, agents, seed, share, jobs_per_task)))
    points = []
    for value, changed, pending in submitted:
        columns, summary = _volley.gather(changed, runs, agents, seed, _ray.get(pending))
        points.append((value, columns, summary))
    return _sweep_table(points, battles)
