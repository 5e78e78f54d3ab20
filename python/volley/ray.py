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

from typing import TYPE_CHECKING, Optional, Sequence

import ray as _ray

from . import ScenarioName, SweepValue, _sweep_plan, _sweep_table, _table, _text, _two, _volley, _whole

if TYPE_CHECKING:
    import pyarrow

__all__ = ["simulate", "sweep"]


@_ray.remote
def _share(scenario: tuple[str, str], first: int, count: int, agents: tuple[str, str], seed: int, jobs: int) -> str:
    return _volley.simulate_share(scenario, first, count, agents, seed, jobs)


def _start(runs: int, share: Optional[int], points: int, jobs_per_task: int) -> int:
    """Ray started if need be, the task's CPUs checked against the cluster's; the share size
    (default: four shares per CPU of the cluster)."""
    jobs_per_task = _whole("jobs_per_task", jobs_per_task, 1)
    if share is not None:
        share = _whole("share", share, 1)
    if not _ray.is_initialized():
        _ray.init()
    cpus = int(_ray.cluster_resources().get("CPU", 1))
    if jobs_per_task > cpus:
        raise ValueError(f"jobs_per_task: {jobs_per_task} CPUs a task, but the cluster has {cpus}: "
                         "no task could ever start")
    if share is None:
        share = min(runs, max(1, -(-runs * points // (max(1, cpus) * 4))))
    return share


def _submit(scenario: tuple[str, str], runs: int, agents: tuple[str, str], seed: int, share: int,
            jobs_per_task: int) -> list:
    task = _share.options(num_cpus=jobs_per_task)
    return [task.remote(scenario, first, min(share, runs - first), agents, seed, jobs_per_task)
            for first in range(0, runs, share)]


def simulate(
    scenario: ScenarioName,
    runs: int,
    agents: tuple[str, str] = ("heuristic", "heuristic"),
    seed: int = 1,
    share: Optional[int] = None,
    jobs_per_task: int = 1,
) -> "pyarrow.Table":
    """``volley.simulate`` on Ray: ``runs`` battles in shares of ``share`` battles (default: four
    shares per CPU of the cluster), each a task asking ``jobs_per_task`` CPUs and running that
    many threads. Returns the same table and summary as ``volley.simulate`` for the same
    ``seed``. The scenario and the agents are checked before any task is sent; the scenario's
    text travels with the tasks, so a file need not exist on the workers."""
    runs, seed, agents = _whole("runs", runs, 1), _whole("seed", seed), _two(agents)
    source = _volley.source(_text("scenario", scenario))
    _volley.check(source, agents)
    share = _start(runs, share, 1, jobs_per_task)
    parts = _ray.get(_submit(source, runs, agents, seed, share, jobs_per_task))
    columns, summary = _volley.gather(source, runs, agents, seed, parts)
    return _table(columns, {"volley.summary": summary})


def sweep(
    scenario: ScenarioName,
    path: str,
    values: Sequence[SweepValue],
    runs: int = 100,
    agents: tuple[str, str] = ("heuristic", "heuristic"),
    seed: int = 1,
    share: Optional[int] = None,
    jobs_per_task: int = 1,
    battles: bool = False,
) -> "pyarrow.Table":
    """``volley.sweep`` on Ray: every value's battles in shares, all the values' shares in the
    cluster at once. Every value is checked before any task is sent. Returns the same table and
    summaries as ``volley.sweep`` for the same ``seed``."""
    plan = _sweep_plan(scenario, path, values, runs, agents, seed)
    share = _start(plan.runs, share, len(plan.points), jobs_per_task)
    submitted = [(text, changed, _submit(changed, plan.runs, plan.agents, plan.seed, share, jobs_per_task))
                 for text, changed in plan.points]
    points = []
    for text, changed, pending in submitted:
        columns, summary = _volley.gather(changed, plan.runs, plan.agents, plan.seed, _ray.get(pending))
        points.append((text, columns, summary))
    return _sweep_table(points, plan.values, battles)
