"""A PettingZoo AEC environment for any volley scenario, for reinforcement learning.

Needs the ``rl`` extra (``pip install './python[rl]'``: PettingZoo and Gymnasium)::

    import volley
    env = volley.env("hochdorf-mill")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

The agents are ``side_0`` and ``side_1``, the scenario's two sides. The one to act is the side the
rules say must act (a side may act several times running). Its actions are the candidate actions
of ``Game.legal_actions()`` — for rule sets played on a measured table, the rule set's menu of
moves, not every point of the table — numbered in that order: action ``k`` takes the ``k``-th, and
the action mask marks the ``k`` that exist now (the other side's mask is all zeros).

An observation is built from the side's own view only (``Game.view(side)``), so it never holds
what that side may not know (a hidden deployment, an enemy's orders or cards): a row a piece of
the battle, in a fixed order (the pieces at the start, unit by unit), each row::

    present, own, enemy, x, y, sin(facing), cos(facing), infantry, cavalry, artillery, general,
    transport, counters

``x`` and ``y`` are fractions of the table's width and depth; ``facing`` is clockwise from north
(0 and 0 for a piece without one); the arms are 1 or 0; ``counters`` is the total of the numbers
on the piece (figures, strength points, hits: the rule set's own). A piece gone, or not seen by
the side, is a row of zeros.

The reward is +1 to the winner and -1 to the loser when the battle ends (0 each for a draw);
``max_steps`` truncates a battle after that many actions.
"""

from __future__ import annotations

import math
import numbers
import random
import secrets
from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import Game, ScenarioName, _whole, load

__all__ = ["VolleyEnv", "FEATURES"]

FEATURES = ("present", "own", "enemy", "x", "y", "facing_sin", "facing_cos", "infantry", "cavalry", "artillery",
            "general", "transport", "counters")
"""The columns of an observation's rows."""

_ARMS = {"infantry": 7, "cavalry": 8, "artillery": 9, "general": 10, "transport": 11}
AGENTS = ("side_0", "side_1")


def _keys(pieces: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Each piece's place in the observation: its unit (else its label) and which of that
    unit's pieces it is, in the view's order."""
    seen: dict[tuple[Any, ...], int] = {}
    out = []
    for p in pieces:
        who = (p.get("side"), p.get("unit") or p.get("label"))
        n = seen.get(who, 0)
        seen[who] = n + 1
        out.append(who + (n,))
    return out


def _centre(footprint: dict[str, Any]) -> tuple[float, float]:
    if footprint.get("shape") == "circle":
        return footprint["at"][0], footprint["at"][1]
    points = footprint.get("points") or [[0.0, 0.0]]
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


class VolleyEnv(AECEnv):
    """A battle of a volley scenario as a PettingZoo AEC environment (see the module's text)."""

    metadata = {"render_modes": ["ansi"], "name": "volley_v0", "is_parallelizable": False}

    def __init__(self, scenario: ScenarioName, max_actions: int = 256, max_steps: Optional[int] = None,
                 render_mode: Optional[str] = None) -> None:
        """``scenario``: a bundled name or a scenario file's path. ``max_actions``: the size of
        the action space (a position offering more candidates is an error that says so).
        ``max_steps``: truncate after this many actions (None: the battle's own end)."""
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: None or 'ansi', not {render_mode!r}")
        max_actions = _whole("max_actions", max_actions, 2)
        if max_steps is not None:
            max_steps = _whole("max_steps", max_steps, 1)
        self.scenario = scenario
        self.max_actions = max_actions
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        first = load(scenario)
        self._slots = {k: i for i, k in enumerate(_keys(first.view("umpire")["pieces"]))}
        self._rows = max(1, len(self._slots))
        observation = spaces.Box(-np.inf, np.inf, (self._rows, len(FEATURES)), np.float32)
        mask = spaces.Box(0, 1, (max_actions,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": observation, "action_mask": mask})
                                   for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(max_actions) for a in AGENTS}
        self.game: Game = first
        self._seeds = random.Random(secrets.randbits(64))
        self._choices: Optional[list[dict[str, Any]]] = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """A new battle. With a ``seed``, the battle ``volley.load(scenario, seed)`` plays, and
        the stream the later resets without one draw their seeds from starts again from it
        (Gymnasium's way); without, the next seed of that stream (at first, from the system's
        entropy)."""
        if seed is None:
            seed = self._seeds.getrandbits(63)
        else:
            seed = _whole("seed", seed)
            self._seeds = random.Random(seed)
        self.game = load(self.scenario, seed=seed)
        self._choices = None
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()
        if self.game.outcome is not None:
            self._finish()

    def _select(self) -> None:
        actor = self.game.actor
        if isinstance(actor, dict) and "side" in actor:
            self.agent_selection = AGENTS[actor["side"]]
            self.infos[self.agent_selection] = {"legal_actions": [c["text"] for c in self._candidates()]}

    def _candidates(self) -> list[dict[str, Any]]:
        if self._choices is None:
            self._choices = self.game.legal_actions()
            if len(self._choices) > self.max_actions:
                raise ValueError(f"{self.scenario}: {len(self._choices)} choices at action {self.game.actions + 1}, "
                                 f"more than max_actions ({self.max_actions}): make the environment with "
                                 f"max_actions={len(self._choices)} or more")
        return self._choices

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        side = AGENTS.index(agent)
        view = self.game.view(side)
        rows = np.zeros((self._rows, len(FEATURES)), np.float32)
        width = float(view.get("width") or 1.0) or 1.0
        depth = float(view.get("depth") or 1.0) or 1.0
        for key, p in zip(_keys(view["pieces"]), view["pieces"]):
            i = self._slots.get(key)
            if i is None:
                continue
            row = rows[i]
            row[0] = 1.0
            owner = p.get("side")
            row[1] = 1.0 if owner == side else 0.0
            row[2] = 1.0 if owner is not None and owner != side else 0.0
            x, y = _centre(p["footprint"])
            row[3], row[4] = x / width, y / depth
            facing = p.get("facing")
            if facing is not None:
                row[5], row[6] = math.sin(math.radians(facing)), math.cos(math.radians(facing))
            arm = _ARMS.get(p.get("arm") or "")
            if arm is not None:
                row[arm] = 1.0
            row[12] = float(sum(c.get("n", 0) for c in p.get("counters") or []))
        mask = np.zeros(self.max_actions, np.int8)
        if self.game.outcome is None and agent == self.agent_selection and agent in self.agents \
                and not (self.terminations[agent] or self.truncations[agent]):
            mask[: len(self._candidates())] = 1
        return {"observation": rows, "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        """The acting side takes its ``action``-th candidate (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        choices = self._candidates()
        if isinstance(action, bool) or not isinstance(action, numbers.Integral) \
                or not 0 <= int(action) < len(choices):
            raise ValueError(f"{agent}: action {action!r} is not one of the {len(choices)} offered (0 to "
                             f"{len(choices) - 1}): take one the action mask marks")
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.game.apply(choices[int(action)]["action"])
        self._choices = None
        self.infos = {a: {} for a in self.agents}
        if self.game.outcome is not None:
            self._finish()
        elif self.max_steps is not None and self.game.actions >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        else:
            self._select()
        self._accumulate_rewards()

    def _finish(self) -> None:
        winner = (self.game.outcome or {}).get("winner")
        for i, a in enumerate(AGENTS):
            self.rewards[a] = 0.0 if winner is None else (1.0 if winner == i else -1.0)
        self.terminations = {a: True for a in self.agents}

    def render(self) -> Optional[str]:
        """The last action's account as a spectator reads it (no side's secrets) and where the
        battle stands, as text (``ansi``)."""
        if self.render_mode is None:
            return None
        view = self.game.view("spectator")
        state = f"turn {view.get('turn')}, {view.get('phase') or ''}".rstrip(", ")
        outcome = self.game.outcome
        if outcome is not None:
            state += f" - over: {outcome.get('reason', '')}"
        return "\n".join(self.game.account("spectator") + [state])

    def close(self) -> None:
        pass

