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

import json
from typing import Optional

import ray as _ray

from . import _table, _volley

__all__ = ["simulate"]


@_ray.remote
def _share(scenario: str, first: int, count: int, agents: tuple[str, str], seed: int, jobs: int) -> str:
    return _volley.simulate_share(scenario, first, count, agents, seed, jobs)


def simulate(
    scenario: str,
    runs: int,
    agents: tuple[str, str] = ("heuristic", "heuristic"),
    seed: int = 1,
    share: Optional[int] = None,
    jobs_per_task: int = 1,
) -> "pyarrow.Table":
    """``volley.simulate`` on Ray: ``runs`` battles in shares of ``share`` (default: runs split
    into four shares per CPU of the cluster), each a task asking ``jobs_per_task`` CPUs and
    running that many threads. Returns the same table and summary as ``volley.simulate`` for the
    same ``seed``. ``scenario`` is a bundled name (a file's path must exist on every worker)."""
    if runs < 1:
        raise ValueError("runs: at least 1 battle")
    if not _ray.is_initialized():
        _ray.init()
    if share is None:
        cpus = max(1, int(_ray.cluster_resources().get("CPU", 1)))
        share = max(1, -(-runs // (cpus * 4)))
    task = _share.options(num_cpus=jobs_per_task)
    agents = (agents[0], agents[1])
    pending = [task.remote(scenario, first, min(share, runs - first), agents, seed, jobs_per_task)
               for first in range(0, runs, share)]
    rows = [r for part in _ray.get(pending) for r in json.loads(part)]
    summary = _volley.summarize(scenario, runs, agents, seed, json.dumps(rows))
    return _table(rows, summary)
