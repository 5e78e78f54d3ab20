"""How much does a general matter? Mittelhof, 1758 (Old Fritz), with the Austrian right wing's
general (FML Graf Arberg, "poor" in the scenario) made each quality in turn, the battles played on
Ray, and each side's win rate plotted with its 95% interval. (An order to a wing of four takes 28
minutes under an average general and 23 under a good one: three bounds either way, so those two
qualities play the same battles.)

    python python/examples/mittelhof_generals.py                         # a local Ray, 400 battles a quality
    python python/examples/mittelhof_generals.py --address ray://head:10001 --runs 5000
    python python/examples/mittelhof_generals.py --runs 20 --out generals.png

Needs the ``ray`` and ``examples`` extras (``pip install './python[ray,examples]'``).
"""

from __future__ import annotations

import argparse
import pathlib

import ray

import volley
import volley.ray

# The sixth wing of the scenario's [[rules.wings]]: the Austrian right wing.
PATH = "rules.wings.5.quality"
QUALITIES = ["poor", "average", "good", "exceptional"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=400, help="battles at each quality (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="the master seed (default 1)")
    parser.add_argument("--address", help="a Ray cluster's address (default: start a local Ray)")
    parser.add_argument("--cpus", type=int, help="CPUs of the local Ray (default: every core)")
    parser.add_argument("--out", default="mittelhof-generals.png", help="the plot to write (PNG or SVG)")
    args = parser.parse_args()

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    try:
        table = volley.ray.sweep("mittelhof", PATH, QUALITIES, runs=args.runs, seed=args.seed)
    finally:
        ray.shutdown()

    frame = table.to_pandas()
    print(frame[["value", "side0_wins", "side1_wins", "draws", "side0_casualty_pct", "side1_casualty_pct"]]
          .to_string(index=False))
    plot(frame, table, args.out, args.runs)
    print(f"written: {args.out}")


def plot(frame, table, out: str, runs: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [side["name"] for side in volley.summary_of(table)[0]["summary"]["sides"]]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    x = range(len(frame))
    for side, (name, shift) in enumerate(zip(names, (-0.08, 0.08))):
        rate = frame[f"side{side}_rate"]
        err = [rate - frame[f"side{side}_lo"], frame[f"side{side}_hi"] - rate]
        ax.errorbar([i + shift for i in x], rate, yerr=err, fmt="o-", capsize=4, label=f"{name} win")
    ax.set_xticks(list(x), frame["value"])
    ax.set_xlabel("the Austrian right wing's general (FML Graf Arberg)")
    ax.set_ylabel("win rate (95% interval)")
    ax.set_ylim(0, 1)
    ax.set_title(f"Mittelhof, 1758: {runs} battles at each quality")
    ax.legend()
    fig.tight_layout()
    pathlib.Path(out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)


if __name__ == "__main__":
    main()
