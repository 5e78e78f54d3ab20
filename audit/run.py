#!/usr/bin/env python3
"""Play bundled battles, trace them and check the rule texts' clauses over the traces.

See audit/README.md. Standard library only."""

import argparse
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import common  # noqa: E402

RULESETS = ["blown-away", "old-fritz", "der-alte-fritz", "en-avant", "itchy-scratchy"]
PAIRINGS = ["heuristic,heuristic", "heuristic,random", "random,heuristic", "random,random"]


def module_of(ruleset):
    """The rule set's checks' module, or None if it has none yet."""
    try:
        return importlib.import_module(ruleset.replace("-", "_"))
    except ModuleNotFoundError as e:
        if e.name != ruleset.replace("-", "_"):
            raise
        return None


def bundled(volley):
    """(scenario, ruleset) of every bundled battle, from `volley scenarios`."""
    out = subprocess.run([volley, "scenarios"], check=True, capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 2 and words[1] in RULESETS:
            found.append((words[0], words[1]))
    return found


def play(volley, scenario, seed, agents, work):
    log = os.path.join(work, "battle.jsonl")
    trace = os.path.join(work, "trace.jsonl")
    subprocess.run([volley, "play", scenario, "--seed", str(seed), "--agents", agents, "--log", log],
                   check=True, capture_output=True)
    subprocess.run([volley, "replay", log, "--trace", trace], check=True, capture_output=True)
    return trace


def report(checks_by_ruleset, out):
    bad = 0
    for ruleset, checks in checks_by_ruleset.items():
        print(f"\n{ruleset}", file=out)
        for c in checks:
            mark = "ok " if c.violations == 0 else "BAD"
            print(f"  {mark} {c.violations:>6} of {c.count:>9}  {c.name}", file=out)
            for e in c.examples:
                print(f"          {e}", file=out)
            bad += c.violations
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--volley", default=os.environ.get("VOLLEY_BIN", "target/release/volley"),
                    help="the volley binary (default: $VOLLEY_BIN or target/release/volley)")
    ap.add_argument("--ruleset", action="append", choices=RULESETS, help="only this rule set (repeatable)")
    ap.add_argument("--scenario", action="append", help="only this bundled scenario (repeatable)")
    ap.add_argument("--battles", type=int, default=2, help="battles per scenario and pairing (default 2)")
    ap.add_argument("--agents", action="append", help="a pairing such as heuristic,random (repeatable; default all four)")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--trace", help="check this trace file instead of playing battles")
    ap.add_argument("--keep", help="keep the traces in this directory")
    args = ap.parse_args(argv)

    if args.trace:
        first = next(common.read_trace(args.trace))
        ruleset = first["table"]["ruleset"]
        mod = module_of(ruleset)
        if mod is None:
            ap.error(f"no checks for {ruleset} yet (audit/{ruleset.replace('-', '_')}.py)")
        checks = [c() for c in mod.CHECKS]
        common.run_trace(common.read_trace(args.trace), checks, scenario=args.trace)
        return 1 if report({ruleset: checks}, sys.stdout) else 0

    if not shutil.which(args.volley) and not os.path.exists(args.volley):
        ap.error(f"no volley binary at {args.volley}: build it (cargo build --release -p volley-cli) or give --volley")
    battles = bundled(args.volley)
    if args.ruleset:
        battles = [b for b in battles if b[1] in args.ruleset]
    if args.scenario:
        battles = [b for b in battles if b[0] in args.scenario]
        missing = set(args.scenario) - {b[0] for b in battles}
        if missing:
            ap.error(f"not a bundled scenario: {sorted(missing)}")
    pairings = args.agents or PAIRINGS
    checks = {}
    work = tempfile.mkdtemp(prefix="volley-audit-")
    started = time.time()
    played = 0
    try:
        for scenario, ruleset in battles:
            mod = module_of(ruleset)
            if mod is None:
                print(f"{scenario}: no checks for {ruleset} yet", file=sys.stderr)
                continue
            kinds = mod.CHECKS
            mine = checks.setdefault(ruleset, [k() for k in kinds])
            for agents in pairings:
                for seed in range(args.first_seed, args.first_seed + args.battles):
                    trace = play(args.volley, scenario, seed, agents, work)
                    common.run_trace(common.read_trace(trace), mine, scenario, seed, agents)
                    if args.keep:
                        os.makedirs(args.keep, exist_ok=True)
                        shutil.copy(trace, os.path.join(args.keep, f"{scenario}-{agents.replace(',', '-')}-{seed}.trace.jsonl"))
                    played += 1
                print(f"{scenario} {agents}: {args.battles} battles ({time.time() - started:.0f} s)", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{played} battles checked", file=sys.stdout)
    return 1 if report(checks, sys.stdout) else 0


if __name__ == "__main__":
    sys.exit(main())
