"""Ray with two local workers against one: the same simulation, timed (BENCHMARKS.md).

    python python/benches/ray_workers.py [--scenario the-village] [--runs 2000] [--repeat 3]

Each configuration runs in a fresh Ray (``ray.init(num_cpus=N)``); a warm-up simulation first
starts the workers, then the best of ``--repeat`` timings is kept. Also times ``volley.simulate``
on one machine (threads) for comparison.
"""

from __future__ import annotations

import argparse
import time

import ray

import volley
import volley.ray


def best(f, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scenario", default="the-village")
    p.add_argument("--runs", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    figures = {}
    for cpus in (1, 2):
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        volley.ray.simulate(args.scenario, runs=4 * cpus, share=1)  # start the workers
        figures[cpus] = best(lambda: volley.ray.simulate(args.scenario, runs=args.runs), args.repeat)
        ray.shutdown()
        print(f"Ray, {cpus} worker{'s' if cpus > 1 else ''}: {figures[cpus]:.2f} s for {args.runs} battles")
    print(f"two workers against one: {figures[1] / figures[2]:.2f}x")
    for jobs in (1, 2):
        t = best(lambda: volley.simulate(args.scenario, runs=args.runs, jobs=jobs), args.repeat)
        print(f"volley.simulate, {jobs} thread{'s' if jobs > 1 else ''}: {t:.2f} s")


if __name__ == "__main__":
    main()
