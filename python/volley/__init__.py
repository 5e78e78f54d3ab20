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
import numbers
import os
import secrets
from typing import TYPE_CHECKING, Any, Iterable, Optional, Sequence, Union

if TYPE_CHECKING:
    import pyarrow

from . import _volley

__all__ = ["Game", "load", "scenarios", "resolve", "odds", "simulate", "sweep", "summary_of", "env"]

Viewer = Union[int, str]
ScenarioName = Union[str, "os.PathLike[str]"]
"""A bundled scenario's name, or a scenario file's path (text or a path object)."""


def scenarios() -> list[dict[str, Any]]:
    """The bundled scenarios: name, rule set, variant, title, description and the sides' names."""
    return json.loads(_volley.scenarios())


class Game:
    """A battle of any rule set: who acts, what they may do, what each side sees.

    A game keeps its scenario and every action with its draws: it is saved (``to_json``,
    pickling) as that log, and restored by replaying it — the same actions, the same dice.
    """

    __slots__ = ("_g", "_last")

    def __init__(self, inner: "_volley.Game") -> None:
        self._g = inner
        self._last: list[tuple[str, tuple[bool, bool]]] = []

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
        """Take ``action`` (one of ``legal_actions()``, or its ``"action"``) as ``by`` — 0 or 1 for a side,
        ``"umpire"``, or None for the one to act — drawing the game's dice. Returns the account's
        new lines that ``by`` may read (a side never reads the enemy's secrets or the umpire's
        notes); ``account(viewer)`` gives them for another reader."""
        actor = self.actor if by is None else _actor(by)
        # A choice as ``legal_actions`` gives it ({"action", "text"}) is taken as its action.
        if isinstance(action, dict) and "action" in action and set(action) <= {"action", "text", "points"}:
            action = action["action"]
        self._last = self._g.apply(json.dumps(action), json.dumps(actor))
        return self.account(_reader(actor))

    def account(self, viewer: Viewer = "spectator") -> list[str]:
        """The last action's account as ``viewer`` (0, 1, ``"spectator"`` or ``"umpire"``) may
        read it."""
        v = _viewer(viewer)
        if isinstance(v, int):
            return [line for line, seen in self._last if seen[v]]
        if v == "umpire":
            return [line for line, _ in self._last]
        return [line for line, seen in self._last if seen[0] and seen[1]]

    def view(self, viewer: Viewer = "spectator") -> dict[str, Any]:
        """What ``viewer`` (0, 1, ``"spectator"`` or ``"umpire"``) may see: terrain, pieces,
        markers, notes, where the battle stands."""
        return json.loads(self._g.view(_viewer(viewer)))

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
        copy = Game(self._g.clone())
        copy._last = list(self._last)
        return copy

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
        self._last = []

    def __copy__(self) -> "Game":
        return self.clone()

    def __deepcopy__(self, memo: dict) -> "Game":
        return self.clone()

    def __repr__(self) -> str:
        return f"<volley.Game {self.ruleset} after {self.actions} actions>"


def load(name_or_path: ScenarioName, seed: int = 0) -> Game:
    """A bundled scenario by name (see ``scenarios()``) or a scenario file's path, its dice
    seeded by ``seed``."""
    return Game(_volley.Game.load(_text("name_or_path", name_or_path), _whole("seed", seed)))


def _viewer(v: Any) -> Viewer:
    """A viewer checked: 0, 1, "spectator" or "umpire"."""
    if isinstance(v, str) and v in ("spectator", "umpire"):
        return v
    if isinstance(v, numbers.Integral) and not isinstance(v, bool) and int(v) in (0, 1):
        return int(v)
    raise ValueError(f"viewer: 0 or 1 (a side), \"spectator\" or \"umpire\", not {v!r}")


def _actor(by: Any) -> Any:
    """``by`` as the engine's actor: a side (0, 1 or {"side": n}) or "umpire"."""
    if isinstance(by, dict) and set(by) == {"side"}:
        by = by["side"]
    if by == "umpire" and isinstance(by, str):
        return "umpire"
    if isinstance(by, numbers.Integral) and not isinstance(by, bool):
        if int(by) in (0, 1):
            return {"side": int(by)}
        raise ValueError(f"by: there is no side {int(by)}: 0 or 1")
    raise ValueError(f"by: 0 or 1 (a side), \"umpire\", or None for the one to act, not {by!r}")


def _reader(actor: Any) -> Viewer:
    return actor["side"] if isinstance(actor, dict) and "side" in actor else "umpire"


def _whole(name: str, v: Any, least: int = 0) -> int:
    """``v`` checked as a whole number from ``least`` to 2**64 - 1 (the engine's numbers)."""
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError(f"{name}: a whole number, not {v!r}")
    if int(v) < least:
        raise ValueError(f"{name}: at least {least}, not {int(v)}")
    if int(v) >= 2**64:
        raise ValueError(f"{name}: at most 2**64 - 1, not {int(v)}")
    return int(v)


def _text(name: str, v: Any) -> str:
    """A scenario's name or path (text or a path object), checked."""
    if isinstance(v, os.PathLike):
        v = os.fspath(v)
    if not isinstance(v, str):
        raise TypeError(f"{name}: text or a path (a bundled scenario's name or a file's path), not {v!r}")
    if not v.strip():
        raise ValueError(f"{name}: give a bundled scenario's name (see scenarios()) or a scenario file's path")
    return v


def resolve(ruleset: str, situation: dict[str, Any], draws: Union[str, Sequence[Any], None] = None,
            seed: Optional[int] = None) -> dict[str, Any]:
    """One combat at the umpire's desk: with ``draws`` as rolled on the table — text as typed
    ("7 3", "Q 7"), or a list of values (or of a result's ``draws``) — else with the dice seeded
    by ``seed`` (None: fresh dice, as a throw on the table). Returns ``{"text", "resolution",
    "draws"}``; the result's ``draws``, given back as ``draws``, give the same result."""
    seed = secrets.randbits(63) if seed is None else _whole("seed", seed)
    if draws is not None and not isinstance(draws, str):
        if not isinstance(draws, Sequence):
            raise TypeError(f"draws: text as typed (\"7 3\") or a list of values, not {draws!r}")
        draws = " ".join(str(d["value"] if isinstance(d, dict) and "value" in d else d) for d in draws)
    return json.loads(_volley.resolve(ruleset, json.dumps(situation), draws, seed))


def odds(ruleset: str, situation: dict[str, Any]) -> list[dict[str, Any]]:
    """The exact probability of every outcome of one combat, most likely first: each
    ``{"outcome", "detail", "probability"}``."""
    return json.loads(_volley.odds(ruleset, json.dumps(situation)))["outcomes"]


def simulate(
    scenario: ScenarioName,
    runs: int,
    agents: tuple[str, str] = ("heuristic", "heuristic"),
    seed: int = 1,
    jobs: int = 0,
) -> "pyarrow.Table":
    """Play ``runs`` battles of ``scenario`` (a bundled name or a file's path) as
    ``volley simulate`` does, on ``jobs`` threads (0: every core), the interpreter released.

    Returns a ``pyarrow.Table``, a row a battle: ``index``, ``seed`` (``volley play --seed``
    plays it again), ``winner`` (0, 1 or null), ``turns``, ``actions``, and each side's
    ``side{0,1}_start``, ``_lost`` and ``_running`` in the rule set's measure and
    ``_casualty_pct`` (lost of start, as battles.csv has them). The columns are
    built in Rust in the memory Arrow uses, so pandas (``to_pandas``), polars
    (``polars.from_arrow``) and DuckDB read them without a copy. The summary — the same figures as
    ``volley simulate``'s summary.json for the same seed, whatever ``jobs`` — is in the table's
    metadata: ``summary_of(table)``.
    """
    runs, seed, jobs = _whole("runs", runs, 1), _whole("seed", seed), _whole("jobs", jobs)
    columns, summary = _volley.simulate(_volley.source(_text("scenario", scenario)), runs, _two(agents), seed, jobs)
    return _table(columns, {"volley.summary": summary})


SweepValue = Union[int, float, str, bool]


def sweep(
    scenario: ScenarioName,
    path: str,
    values: Sequence[SweepValue],
    runs: int = 100,
    agents: tuple[str, str] = ("heuristic", "heuristic"),
    seed: int = 1,
    jobs: int = 0,
    battles: bool = False,
) -> "pyarrow.Table":
    """``volley sweep``: the value at ``path`` of ``scenario`` (keys and list indices separated
    by dots, such as ``turn_limit`` or ``sides.0.units.2.figures``; a table the file leaves out
    is made, as ``rules.rules_hidden``) set to each of ``values`` in turn, and ``runs`` battles
    played at each from the same master ``seed``.

    ``values`` are numbers (numpy's too), booleans or text (a text is read as TOML: ``"20"`` is
    the number 20, ``'"20"'`` the text; a bare word such as ``dragoons`` is text). Every value is
    checked before any battle is played.

    Returns a ``pyarrow.Table`` a row a value, with ``volley sweep``'s columns (as its
    sweep.csv): ``value`` (typed as the values given: whole numbers, numbers, booleans or text),
    each side's ``side{0,1}_wins``, ``_rate`` and its 95% interval ``_lo``/``_hi``, ``draws``, and
    each side's mean ``side{0,1}_casualty_pct``; with ``battles=True``, a row a battle
    (``simulate``'s columns after ``value``). Either way the summaries, as ``volley sweep``'s
    sweep.json, are ``summary_of(table)``: a list of ``{"value", "summary"}``.
    """
    plan = _sweep_plan(scenario, path, values, runs, agents, seed)
    jobs = _whole("jobs", jobs)
    points = []
    for text, changed in plan.points:
        columns, summary = _volley.simulate(changed, plan.runs, plan.agents, plan.seed, jobs)
        points.append((text, columns, summary))
    return _sweep_table(points, plan.values, battles)


class _SweepPlan:
    """A sweep checked: every value's changed scenario loads, the agents exist."""

    def __init__(self, runs: int, agents: tuple[str, str], seed: int, values: list[SweepValue],
                 points: list[tuple[str, tuple[str, str]]]) -> None:
        self.runs, self.agents, self.seed, self.values, self.points = runs, agents, seed, values, points


def _sweep_plan(scenario: ScenarioName, path: str, values: Sequence[SweepValue], runs: int,
                agents: Sequence[str], seed: int) -> _SweepPlan:
    runs, seed, agents = _whole("runs", runs, 1), _whole("seed", seed), _two(agents)
    if not isinstance(path, str) or not path:
        raise TypeError(f"path: the value's path as text, such as 'turn_limit', not {path!r}")
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"values: a list of values, such as [20, 30, 40], not {values!r}")
    values = list(values)
    if not values:
        raise ValueError("values: give at least one value to try")
    texts = [_value_text(v) for v in values]
    source = _volley.source(_text("scenario", scenario))
    _volley.check(source, agents)  # the file as written, and the agents
    points: list[tuple[str, tuple[str, str]]] = []
    for t, edited in zip(texts, _volley.edit_each(source[1], path, texts)):
        changed = (f"{source[0]} ({path} = {t})", edited)
        try:
            _volley.check(changed)
        except ValueError as e:
            raise ValueError(f"with {path} = {t}: {e}") from None
        points.append((t, changed))
    return _SweepPlan(runs, agents, seed, values, points)


def _is_bool(v: Any) -> bool:
    """A boolean, Python's or numpy's (``numpy.bool_``, whose name differs between versions)."""
    return isinstance(v, bool) or (type(v).__module__ == "numpy" and type(v).__name__ in ("bool", "bool_"))


def _value_text(v: Any) -> str:
    """A value as ``--set`` takes it (TOML; a bare word is text)."""
    if _is_bool(v):
        return "true" if v else "false"
    if isinstance(v, numbers.Integral):
        if not -(2**63) <= int(v) < 2**63:
            raise ValueError(f"values: {int(v)} is beyond TOML's whole numbers (64 bits)")
        return str(int(v))
    if isinstance(v, numbers.Real):
        f = float(v)
        if f != f or f in (float("inf"), float("-inf")):
            raise ValueError(f"values: {v!r} is not a number a scenario can hold")
        return repr(f)
    if isinstance(v, str):
        if not v.strip():
            raise ValueError("values: an empty text is not a value")
        return v
    raise TypeError(f"values: numbers, booleans or text, not {v!r}")


def _sweep_table(points: list[tuple[str, list, str]], values: list[SweepValue], battles: bool) -> "pyarrow.Table":
    """A sweep's table from its points (value's text, columns, summary text) and the values as
    given (for the typed ``value`` column)."""
    import pyarrow as pa

    summaries = [{"value": v, "summary": json.loads(s)} for v, _, s in points]
    metadata = {"volley.sweep": json.dumps(summaries)}
    value_type, typed = _value_column(values)
    if battles:
        parts = []
        for v, (_, columns, _) in zip(typed, points):
            t = _table(columns, {})
            parts.append(t.add_column(0, "value", pa.array([v] * t.num_rows, value_type)))
        return pa.concat_tables(parts).replace_schema_metadata(metadata)
    rows: dict[str, list] = {k: [] for k in _SWEEP_COLUMNS}
    for v, point in zip(typed, summaries):
        s = point["summary"]
        rows["value"].append(v)
        for i, side in enumerate(s["sides"]):
            rows[f"side{i}_wins"].append(side["wins"])
            rows[f"side{i}_rate"].append(side["win_rate"])
            rows[f"side{i}_lo"].append(side["win_rate_95"][0])
            rows[f"side{i}_hi"].append(side["win_rate_95"][1])
            rows[f"side{i}_casualty_pct"].append(side["casualty_pct"]["mean"])
        rows["draws"].append(s["draws"])
    types = {k: (value_type if k == "value" else pa.uint64() if k.endswith(("wins", "draws")) else pa.float64())
             for k in _SWEEP_COLUMNS}
    return pa.table({k: pa.array(rows[k], types[k]) for k in _SWEEP_COLUMNS}, metadata=metadata)


def _value_column(values: list[SweepValue]) -> tuple[Any, list[Any]]:
    """The ``value`` column's type and values: booleans, whole numbers or numbers when every
    value is one, else the values' texts."""
    import pyarrow as pa

    if all(_is_bool(v) for v in values):
        return pa.bool_(), [bool(v) for v in values]
    if all(isinstance(v, numbers.Integral) and not _is_bool(v) for v in values):
        return pa.int64(), [int(v) for v in values]
    if all(isinstance(v, numbers.Real) and not _is_bool(v) for v in values):
        return pa.float64(), [float(v) for v in values]
    return pa.string(), [_value_text(v) for v in values]


_SWEEP_COLUMNS = ("value", "side0_wins", "side0_rate", "side0_lo", "side0_hi", "side1_wins", "side1_rate",
                  "side1_lo", "side1_hi", "draws", "side0_casualty_pct", "side1_casualty_pct")


def _two(agents: Sequence[str]) -> tuple[str, str]:
    if isinstance(agents, str) or not isinstance(agents, Sequence) or len(agents) != 2:
        raise ValueError(f"agents: two names, one a side, such as ('heuristic', 'random'), not {agents!r}")
    if not all(isinstance(a, str) for a in agents):
        raise TypeError(f"agents: two names as text, such as ('heuristic', 'random'), not {agents!r}")
    return (agents[0], agents[1])


def _table(columns: list, metadata: dict[str, str]) -> "pyarrow.Table":
    """The battles' columns (from Rust: name, type, data, validity) as an Arrow table, using the
    buffers as they are."""
    import pyarrow as pa

    kinds = {"u64": pa.uint64(), "u32": pa.uint32(), "u8": pa.uint8(), "f64": pa.float64()}
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
    schema = getattr(table, "schema", None)
    if schema is None or not hasattr(schema, "metadata"):
        raise TypeError(f"summary_of: a pyarrow.Table from volley.simulate or volley.sweep, not {type(table).__name__}")
    metadata = schema.metadata or {}
    for key in (b"volley.summary", b"volley.sweep"):
        if key in metadata:
            return json.loads(metadata[key])
    raise ValueError("this table carries no volley summary (it is not from volley.simulate or volley.sweep)")


def env(scenario: ScenarioName, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment playing ``scenario`` (needs the ``rl`` extra): see
    ``volley.rl.VolleyEnv``."""
    from .rl import VolleyEnv

    return VolleyEnv(scenario, **kwargs)
