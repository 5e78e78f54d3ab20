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
import secrets
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

if TYPE_CHECKING:
    import pyarrow

from . import _volley

__all__ = ["Game", "load", "scenarios", "resolve", "odds", "simulate", "sweep", "summary_of", "env"]

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


def resolve(ruleset: str, situation: dict[str, Any], draws: Optional[str] = None,
            seed: Optional[int] = None) -> dict[str, Any]:
    """One combat at the umpire's desk: with ``draws`` as rolled on the table ("7 3", "Q 7"),
    else with the dice seeded by ``seed`` (None: fresh dice, as a throw on the table; the
    result's ``draws`` say what they were, and typed back as ``draws`` give the same result).
    Returns ``{"text", "resolution", "draws"}``."""
    if seed is None:
        seed = secrets.randbits(63)
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
    ``side{0,1}_start``, ``_lost`` and ``_running`` in the rule set's measure. The columns are
    built in Rust in the memory Arrow uses, so pandas (``to_pandas``), polars
    (``polars.from_arrow``) and DuckDB read them without a copy. The summary — the same figures as
    ``volley simulate``'s summary.json for the same seed, whatever ``jobs`` — is in the table's
    metadata: ``summary_of(table)``.
    """
    columns, summary = _volley.simulate(_volley.source(scenario), runs, _two(agents), seed, jobs)
    return _table(columns, {"volley.summary": summary})


def sweep(
    scenario: str,
    path: str,
    values: Sequence[Union[int, float, str, bool]],
    runs: int = 100,
    agents: tuple[str, str] = ("heuristic", "heuristic"),
    seed: int = 1,
    jobs: int = 0,
    battles: bool = False,
) -> "pyarrow.Table":
    """``volley sweep``: the value at ``path`` of ``scenario`` (keys and list indices separated
    by dots, such as ``turn_limit`` or ``sides.0.units.2.figures``) set to each of ``values`` in
    turn, and ``runs`` battles played at each from the same master ``seed``.

    Returns a ``pyarrow.Table`` a row a value, with ``volley sweep``'s columns (as its
    sweep.csv): ``value``, each side's ``side{0,1}_wins``, ``_rate`` and its 95% interval
    ``_lo``/``_hi``, ``draws``, and each side's mean ``side{0,1}_casualty_pct``; with
    ``battles=True``, a row a battle (``simulate``'s columns after ``value``). Either way the
    summaries, as ``volley sweep``'s sweep.json, are ``summary_of(table)``: a list of
    ``{"value", "summary"}``.
    """
    scenario_path, text = _volley.source(scenario)
    points = []
    for v in values:
        columns, summary = _sweep_point(scenario_path, text, path, _value_text(v), runs, agents, seed, jobs)
        points.append((_value_text(v), columns, summary))
    return _sweep_table(points, battles)


def _value_text(v: Union[int, float, str, bool]) -> str:
    """A value as ``--set`` takes it (TOML; a bare word is text)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return v if isinstance(v, str) else repr(v)


def _point_source(scenario_path: str, text: str, path: str, value: str) -> tuple[str, str]:
    """The scenario with ``path`` set to ``value``, named as ``volley sweep`` names it."""
    return f"{scenario_path} ({path} = {value})", _volley.edit(text, path, value)


def _sweep_point(scenario_path: str, text: str, path: str, value: str, runs: int,
                 agents: tuple[str, str], seed: int, jobs: int) -> tuple[list, str]:
    try:
        changed = _point_source(scenario_path, text, path, value)
        return _volley.simulate(changed, runs, _two(agents), seed, jobs)
    except ValueError as e:
        raise ValueError(f"with {path} = {value}: {e}") from None


def _sweep_table(points: list[tuple[str, list, str]], battles: bool) -> "pyarrow.Table":
    """A sweep's table from its points (value, columns, summary text)."""
    import pyarrow as pa

    summaries = [{"value": v, "summary": json.loads(s)} for v, _, s in points]
    metadata = {"volley.sweep": json.dumps(summaries)}
    if battles:
        parts = []
        for v, columns, _ in points:
            t = _table(columns, {})
            parts.append(t.add_column(0, "value", pa.array([v] * t.num_rows, pa.string())))
        return pa.concat_tables(parts).replace_schema_metadata(metadata)
    rows: dict[str, list] = {k: [] for k in _SWEEP_COLUMNS}
    for point in summaries:
        s = point["summary"]
        rows["value"].append(point["value"])
        for i, side in enumerate(s["sides"]):
            rows[f"side{i}_wins"].append(side["wins"])
            rows[f"side{i}_rate"].append(side["win_rate"])
            rows[f"side{i}_lo"].append(side["win_rate_95"][0])
            rows[f"side{i}_hi"].append(side["win_rate_95"][1])
            rows[f"side{i}_casualty_pct"].append(side["casualty_pct"]["mean"])
        rows["draws"].append(s["draws"])
    types = {k: (pa.string() if k == "value" else pa.uint64() if k.endswith(("wins", "draws")) else pa.float64())
             for k in _SWEEP_COLUMNS}
    return pa.table({k: pa.array(rows[k], types[k]) for k in _SWEEP_COLUMNS}, metadata=metadata)


_SWEEP_COLUMNS = ("value", "side0_wins", "side0_rate", "side0_lo", "side0_hi", "side1_wins", "side1_rate",
                  "side1_lo", "side1_hi", "draws", "side0_casualty_pct", "side1_casualty_pct")


def _two(agents: Sequence[str]) -> tuple[str, str]:
    if isinstance(agents, str) or len(agents) != 2:
        raise ValueError(f"agents: two names, one a side, such as ('heuristic', 'random'), not {agents!r}")
    return (str(agents[0]), str(agents[1]))


def _table(columns: list, metadata: dict[str, str]) -> "pyarrow.Table":
    """The battles' columns (from Rust: name, type, data, validity) as an Arrow table, using the
    buffers as they are."""
    import pyarrow as pa

    kinds = {"u64": pa.uint64(), "u32": pa.uint32(), "u8": pa.uint8()}
    arrays = {}
    for name, kind, data, valid in columns:
        t = kinds[kind]
        n = len(data) // t.byte_width
        buffers = [None if valid is None else pa.py_buffer(valid), pa.py_buffer(data)]
        arrays[name] = pa.Array.from_buffers(t, n, buffers)
    return pa.table(arrays, metadata=metadata or None)


def summary_of(table: "pyarrow.Table") -> Any:
    """The summary a table carries in its metadata: for ``simulate``'s, a dict as ``volley
    simulate``'s summary.json; for ``sweep``'s, a list of ``{"value", "summary"}`` as ``volley
    sweep``'s sweep.json."""
    metadata = table.schema.metadata or {}
    for key in (b"volley.summary", b"volley.sweep"):
        if key in metadata:
            return json.loads(metadata[key])
    raise ValueError("this table carries no volley summary (it is not from volley.simulate or volley.sweep)")


def env(scenario: str, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment playing ``scenario`` (needs the ``rl`` extra): see
    ``volley.rl.VolleyEnv``."""
    from .rl import VolleyEnv

    return VolleyEnv(scenario, **kwargs)
