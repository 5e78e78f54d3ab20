"""volley: horse-and-musket wargame rules engines, from Python.

Five published rule sets (Old Fritz, Der Alte Fritz, En Avant, Itchy and Scratchy, Blown Away),
every rule enforced and every die explained, in Rust; this package gives them to Python::

    import volley
    game = volley.load("mittelhof", seed=7)
    while game.outcome is None:
        choice = game.legal_actions()[0]
        game.apply(choice["action"])
    print(game.outcome)

    volley.odds("old-fritz", {"attacker": {...}, "defender": {...}})

Actions, views and outcomes are plain Python values (dicts and lists, as the rule sets' JSON).
Errors are ``ValueError`` with the engine's message (``file:line:col`` for a scenario).
"""

from __future__ import annotations

import json
from typing import Any, Optional, Union

from . import _volley

__all__ = ["Game", "load", "scenarios", "resolve", "odds", "simulate", "summary_of"]

Viewer = Union[int, str]


def scenarios() -> list[dict[str, Any]]:
    """The bundled scenarios: name, rule set, variant, title, description and the sides' names."""
    return json.loads(_volley.scenarios())


class Game:
    """A battle of any rule set: who acts, what they may do, what each side sees.

    A game keeps its scenario and every action with its draws: it is saved (``to_json``,
    pickling) as that log, and restored by replaying it — the same actions, the same dice.
    """

    __slots__ = ("_g",)

    def __init__(self, inner: "_volley.Game") -> None:
        self._g = inner

    @property
    def ruleset(self) -> str:
        """The rule set's id, such as ``old-fritz``."""
        return self._g.ruleset

    @property
    def actor(self) -> Any:
        """Who must act now: ``{"side": 0}``, ``{"side": 1}``, ``"umpire"`` or ``"terminal"``."""
        return json.loads(self._g.actor())

    def legal_actions(self) -> list[dict[str, Any]]:
        """The actions the actor may take now: each ``{"action": ..., "text": ...}``."""
        return json.loads(self._g.legal_actions())

    def apply(self, action: Any, by: Any = None) -> list[str]:
        """Take ``action`` (as ``legal_actions`` gives it) as ``by`` (the one to act if None),
        drawing the game's dice; returns the account's new lines."""
        return self._g.apply(json.dumps(action), None if by is None else json.dumps(by))

    def view(self, viewer: Viewer = "spectator") -> dict[str, Any]:
        """What ``viewer`` (0, 1, ``"spectator"`` or ``"umpire"``) may see: terrain, pieces,
        markers, notes, where the battle stands."""
        return json.loads(self._g.view(viewer))

    @property
    def outcome(self) -> Optional[dict[str, Any]]:
        """``{"winner": 0 | 1 | None, "reason": ...}`` once the battle is over, else None."""
        o = self._g.outcome()
        return None if o is None else json.loads(o)

    @property
    def state_hash(self) -> int:
        """The state's hash (the same state, the same hash, on every machine)."""
        return self._g.state_hash

    @property
    def actions(self) -> int:
        """How many actions were taken."""
        return self._g.actions

    def clone(self) -> "Game":
        """A copy, to try actions on."""
        return Game(self._g.clone())

    def to_json(self) -> str:
        """The game as JSON text: the scenario, the seed, every action with its draws."""
        return self._g.to_json()

    @staticmethod
    def from_json(text: str) -> "Game":
        """A game from ``to_json``'s text, replayed."""
        return Game(_volley.Game.from_json(text))

    def __getstate__(self) -> str:
        return self.to_json()

    def __setstate__(self, state: str) -> None:
        self._g = _volley.Game.from_json(state)

    def __copy__(self) -> "Game":
        return self.clone()

    def __deepcopy__(self, memo: dict) -> "Game":
        return self.clone()

    def __repr__(self) -> str:
        return f"<volley.Game {self.ruleset} after {self.actions} actions>"


def load(name_or_path: str, seed: int = 0) -> Game:
    """A bundled scenario by name (see ``scenarios()``) or a scenario file's path, its dice
    seeded by ``seed``."""
    return Game(_volley.Game.load(name_or_path, seed))


def resolve(ruleset: str, situation: dict[str, Any], draws: Optional[str] = None, seed: int = 0) -> dict[str, Any]:
    """One combat at the umpire's desk: with ``draws`` as rolled on the table ("7 3", "Q 7"),
    else with the dice seeded by ``seed``. Returns ``{"text", "resolution", "draws"}``."""
    return json.loads(_volley.resolve(ruleset, json.dumps(situation), draws, seed))


def odds(ruleset: str, situation: dict[str, Any]) -> list[dict[str, Any]]:
    """The exact probability of every outcome of one combat, most likely first: each
    ``{"outcome", "detail", "probability"}``."""
    return json.loads(_volley.odds(ruleset, json.dumps(situation)))["outcomes"]


def simulate(
    scenario: str,
    runs: int,
    agents: tuple[str, str] = ("heuristic", "heuristic"),
    seed: int = 1,
    jobs: int = 0,
) -> "pyarrow.Table":
    """Play ``runs`` battles of ``scenario`` (a bundled name or a file's path) as
    ``volley simulate`` does, on ``jobs`` threads (0: every core), the interpreter released.

    Returns a ``pyarrow.Table``, a row a battle: ``index``, ``seed`` (``volley play --seed``
    plays it again), ``winner`` (0, 1 or null), ``turns``, ``actions``, and each side's
    ``side{0,1}_start``, ``_lost`` and ``_running`` in the rule set's measure. pandas
    (``to_pandas``), polars (``polars.from_arrow``) and DuckDB read it as it is. The summary —
    the same figures as ``volley simulate``'s summary.json for the same seed, whatever ``jobs`` —
    is in the table's metadata: ``summary_of(table)``.
    """
    records, summary = _volley.simulate(scenario, runs, (agents[0], agents[1]), seed, jobs)
    return _table(json.loads(records), summary)


def _table(rows: list[dict[str, Any]], summary: str) -> "pyarrow.Table":
    """The battles' records as an Arrow table, the summary (JSON text) in its metadata."""
    import pyarrow as pa

    columns: dict[str, Any] = {
        "index": pa.array([r["index"] for r in rows], pa.uint64()),
        "seed": pa.array([r["seed"] for r in rows], pa.uint64()),
        "winner": pa.array([r["winner"] for r in rows], pa.uint8()),
        "turns": pa.array([r["turns"] for r in rows], pa.uint32()),
        "actions": pa.array([r["actions"] for r in rows], pa.uint64()),
    }
    for side in (0, 1):
        for key in ("start", "lost", "running"):
            columns[f"side{side}_{key}"] = pa.array([r["sides"][side][key] for r in rows], pa.uint64())
    return pa.table(columns, metadata={"volley.summary": summary})


def summary_of(table: "pyarrow.Table") -> dict[str, Any]:
    """The summary ``simulate`` keeps in its table's metadata (as ``volley simulate``'s
    summary.json)."""
    return json.loads(table.schema.metadata[b"volley.summary"])
