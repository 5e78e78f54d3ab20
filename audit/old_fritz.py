"""Old Fritz (Jim Wallman, One Brain Cell rules for the Seven Years War, 1992): checks of the rule
text's clauses over battle traces.

Written from the rule text (/work/shared/rules/old-fritz-one-brain-cell.txt, read as
/work/shared/rules/README.md says) and the trace format (docs/trace.md) only. Where the text is
unclear a check holds what every sensible reading agrees on and leaves the rest to a count
(`keep = 0`, never a violation). Standard library only.

The trace: an order given is one action; a whole bound (orders arriving, bombardment, movement,
close combats, withdrawals and runs of the bound before) is one action, its `events` in order.
The pieces are where everything stood at the bound's end; `close_combat.fighters` and each
`path` give where a unit stood when it mattered.
"""

import math
import re
from collections import Counter, defaultdict

from common import (Check, centre, dist, heading_to, heading_vec, overlap_depth, polygon_distance,
                    turn)

EPS = 1e-6
# "within 2½\"": measuring error allowed (a hundredth of an inch is 0.5 mm on the table)
GAP_TOL = 0.005
# an about turn: a turn of 180° (within a degree)
ABOUT_TOL = 1.0

# ----- the text's numbers -----

GRADES = "ABCDEFG"

# 3. MOVEMENT (inches a bound): walk / trot.
NORMAL = {"line infantry": 12.0, "grenz": 14.0, "medium guns": 12.0, "heavy guns": 10.0}
WALK = 18.0
TROT = {"hussars": 45.0, "light dragoons": 45.0, "cuirassiers": 36.0, "gensdarmes": 36.0,
        "dragoons": 36.0}
RUN_INFANTRY = 20.0
# weight of a cavalry type, for "cavalry fighting a heavier type of cavalry"
WEIGHT = {"hussars": 0, "light dragoons": 0, "dragoons": 1, "cuirassiers": 2, "gensdarmes": 2}
LIGHT_CAV = {"hussars", "light dragoons"}

# 7. CASUALTY TEST: troop quality against the enemy's state (withdrawing, routing, standing).
CT_QUALITY = {"A": (3, 1, 4), "B": (2, 0, 3), "C": (1, -1, 2), "D": (1, -1, 2),
              "E": (0, -2, 1), "F": (0, -2, 1), "G": (-1, -3, 0)}
CT_STATE = {"withdrawing": 0, "routing": 1, "standing": 2}

# 7. PURSUIT TEST: quality additions (A none).
PT_QUALITY = {"A": 0, "B": -1, "C": -2, "D": -3, "E": -3, "F": -4, "G": -4}

# 8. ARTILLERY: points; close and long range (inches).
GUN_POINTS = {"medium guns": 1, "heavy guns": 2}
GUN_CLOSE = {"medium guns": 6.0, "heavy guns": 8.0}
GUN_LONG = {"medium guns": 12.0, "heavy guns": 18.0}

# 2. COMMAND AND CONTROL: the general's share of the time.
GENERAL_PCT = {"exceptional": 60, "good": 80, "average": 100, "poor": 150, "useless": 200}

# 6. ADDITIONS TO DIE ROLLS, as the trace names them.
RULES = {
    "outnumbered or overlapped frontage", "outnumbered 2 to 1 or more", "outnumbered 3 to 1 or more",
    "enemy to the rear and engaging", "each 10% casualties in the battle so far", "each green counter",
    "tactical advantage", "cavalry against a heavier type of cavalry",
    "each quality grade higher than the enemy", "hussars or light dragoons against infantry",
    "dragoons and others against infantry",
}
OUTNUMBER = {"outnumbered or overlapped frontage": -1, "outnumbered 2 to 1 or more": -3,
             "outnumbered 3 to 1 or more": -5}

LABEL = re.compile(r"\(([^()]*), quality ([A-G])\)\s*:\s*(\d+) of (\d+) figures")


# ----- reading pieces -----


class Unit:
    __slots__ = ("name", "side", "arm", "kind", "quality", "figures", "start", "greens", "status",
                 "poly", "centre", "facing", "group", "limbered")

    def __init__(self, p):
        self.name = p.get("unit")
        self.side = p.get("side")
        self.arm = p.get("arm")
        lab = p.get("label", "")
        m = None
        for m in LABEL.finditer(lab):
            pass
        if m:
            self.kind = m.group(1).strip().lower()
            self.quality = m.group(2)
            self.start = int(m.group(4))
        else:
            self.kind, self.quality, self.start = None, None, None
        self.figures = self.greens = None
        for c in p.get("counters") or []:
            if c.get("kind") == "figures":
                self.figures = c.get("n")
            elif c.get("kind") == "green":
                self.greens = c.get("n")
        self.status = p.get("status")
        fp = p.get("footprint") or {}
        self.poly = [tuple(q) for q in fp.get("points") or []]
        self.centre = centre(fp) if self.poly else None
        self.facing = p.get("facing")
        self.group = p.get("group")
        self.limbered = None
        tail = lab.rsplit(",", 1)[-1].strip()
        if tail == "limbered":
            self.limbered = True
        elif tail == "unlimbered":
            self.limbered = False


_CACHE = {}


def units(line):
    """{name: Unit} of a line's pieces (cached by the line's identity)."""
    k = id(line)
    c = _CACHE.get(k)
    if c is not None and c[0] is line:
        return c[1]
    us = {p.get("unit"): Unit(p) for p in line.get("pieces", []) if p.get("arm") != "transport"}
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[k] = (line, us)
    return us


def evs(line, tag=None):
    out = []
    for e in line.get("events", []):
        d = e.get("data") or {}
        if tag is None or d.get("event") == tag:
            out.append(d)
    return out


def bound_of(line):
    for d in evs(line, "bound_begins"):
        return d.get("bound")
    return None


def normal_rate(kind):
    if kind in NORMAL:
        return NORMAL[kind]
    return None


def path_time(p):
    """The part of the bound a path used: its turns, an obstacle, a change of formation, and the
    distance at its rate (half speed across wagons)."""
    t = sum(x.get("cost", 0) for x in p.get("turns") or [])
    if p.get("obstacle"):
        t += 0.5
    if p.get("formation_from") and p.get("formation") and p["formation_from"] != p["formation"]:
        t += 0.5
    r = p.get("rate") or 0
    if r > 0:
        t += p.get("distance", 0) / r * (2 if p.get("wagons") else 1)
    return t


def fnum(x):
    return f"{x:.2f}" if isinstance(x, float) else str(x)


# ----- the results tables (section 7), per table, band and the unit's arm -----

BANDS = ["plus4", "plus1_to3", "zero", "minus1_to7", "minus8_to15", "minus16"]


def band_of(score, table):
    if score >= 4:
        return "plus4"
    if table == "cavalry_vs_infantry" and score >= 0:
        return "zero_to3"
    if score >= 1:
        return "plus1_to3"
    if score == 0:
        return "zero"
    if score >= -7:
        return "minus1_to7"
    if score >= -15:
        return "minus8_to15"
    return "minus16"


# names the engine may give the cavalry-against-infantry table's "0 to +3"
ZERO_TO3 = {"plus1_to3", "zero", "zero_to3", "0_to3", "plus0_to3"}

# (table, arm-column, band) -> (reactions, greens set, casualties set, casualty test: True/False/None=either)
# "arm-column": "inf" (infantry and guns, which fight as infantry) or "cav".
RESULTS = {
    ("infantry_vs_infantry", "inf", "plus4"): ({"unaffected"}, {0}, {0}, None),
    ("infantry_vs_infantry", "inf", "plus1_to3"): ({"halt"}, {1}, {0}, True),
    ("infantry_vs_infantry", "inf", "zero"): ({"stand"}, {1}, {0}, True),
    ("infantry_vs_infantry", "inf", "minus1_to7"): ({"withdraw"}, {1}, {0}, True),
    ("infantry_vs_infantry", "inf", "minus8_to15"): ({"run_away"}, {2}, {0}, None),
    ("infantry_vs_infantry", "inf", "minus16"): ({"disintegrate", "surrender", "change_sides"}, {0, 2}, {0, 1}, None),
    ("cavalry_vs_cavalry", "cav", "plus4"): ({"pursue", "unaffected"}, {0, 2}, {0, 1}, False),
    ("cavalry_vs_cavalry", "cav", "plus1_to3"): ({"halt"}, {1}, {0}, False),
    ("cavalry_vs_cavalry", "cav", "zero"): ({"stand"}, {1}, {0}, False),
    ("cavalry_vs_cavalry", "cav", "minus1_to7"): ({"withdraw"}, {2, 3}, {0, 1}, False),
    ("cavalry_vs_cavalry", "cav", "minus8_to15"): ({"run_away"}, {4}, {0, 1, 2}, False),
    ("cavalry_vs_cavalry", "cav", "minus16"): ({"disintegrate", "disperse", "surrender"}, {0}, {0}, False),
    ("cavalry_vs_infantry", "cav", "plus4"): ({"pursue", "unaffected"}, {2}, {0}, False),
    ("cavalry_vs_infantry", "cav", "zero_to3"): ({"halt"}, {2}, {0}, True),
    ("cavalry_vs_infantry", "cav", "minus1_to7"): ({"withdraw"}, {3}, {1}, False),
    ("cavalry_vs_infantry", "cav", "minus8_to15"): ({"run_away"}, {4}, {0}, True),
    ("cavalry_vs_infantry", "cav", "minus16"): ({"disintegrate", "disperse"}, {0}, {0}, False),
    ("cavalry_vs_infantry", "inf", "plus4"): ({"unaffected"}, {0}, {0}, False),
    ("cavalry_vs_infantry", "inf", "zero_to3"): ({"halt"}, {1}, {0}, False),
    ("cavalry_vs_infantry", "inf", "minus1_to7"): ({"withdraw", "run_away"}, {1, 2, 3}, {0, 1, 2}, False),
    ("cavalry_vs_infantry", "inf", "minus8_to15"): ({"run_away"}, {2, 3}, {1, 2}, False),
    ("cavalry_vs_infantry", "inf", "minus16"): ({"disintegrate", "disperse"}, {0}, {0}, False),
}


def norm_band(b, table):
    return "zero_to3" if table == "cavalry_vs_infantry" and b in ZERO_TO3 else b


def ct_casualties(score):
    if score < 5:
        return 0
    if score <= 14:
        return 1
    if score <= 24:
        return 2
    return 3


def dice_for(figures):
    """Readings of "1d10 per 6 figures firing": floor, round, ceiling (at least one die for any
    firing unit is the ceiling's reading)."""
    f = figures / 6.0
    return {math.floor(f), int(f + 0.5), math.ceil(f)}


# ----- a combat read -----


class Combat:
    def __init__(self, d):
        self.d = d
        self.res = d.get("resolution") or {}
        self.table = self.res.get("table")
        self.fighters = d.get("fighters") or []
        self.att = [f for f in self.fighters if f.get("attacker")]
        self.dfn = [f for f in self.fighters if not f.get("attacker")]

    def side(self, s):
        return self.att if s == "attacker" else self.dfn

    def enemy(self, s):
        return self.dfn if s == "attacker" else self.att

    @staticmethod
    def other(s):
        return "defender" if s == "attacker" else "attacker"


def column(arm):
    return "cav" if arm == "cavalry" else "inf"


def kind_of(units_now, units_before, name):
    u = units_now.get(name) or units_before.get(name)
    return u.kind if u else None


class Tally(Check):
    keep = 0

    def __init__(self):
        super().__init__()
        self.n = Counter()

    def end(self, ctx, last):
        self.examples = [f"{k}: {v}" for k, v in sorted(self.n.items(), key=lambda kv: str(kv[0]))]


# =====================================================================================
# Close combat: the calculation and the results tables (sections 5, 6, 7)
# =====================================================================================


class CombatDice(Check):
    name = "close combat: one d10 a side, drawn, the totals and the scores as the difference"
    clause = "5b; 6 (one d10 per side, the difference in the scores); 6 additions summed"

    def line(self, prev, cur, ctx):
        ccs = evs(cur, "close_combat")
        if not ccs:
            return
        d10 = Counter(x.get("value") for x in cur.get("draws") or [] if x.get("sides") == 10)
        for d in ccs:
            r = d.get("resolution") or {}
            a, b = r.get("attacker") or {}, r.get("defender") or {}
            for s, x in (("attacker", a), ("defender", b)):
                self.checked()
                die = x.get("die")
                if not isinstance(die, int) or not 1 <= die <= 10:
                    self.violation(cur, f"{s} of {d.get('defender')}: die {die} is no d10")
                elif d10[die] <= 0:
                    self.violation(cur, f"{s} of {d.get('defender')}: die {die} not among the line's d10 draws")
                else:
                    d10[die] -= 1
                tot = (die or 0) + sum(y.get("value", 0) for y in x.get("additions") or [])
                if tot != x.get("total"):
                    self.violation(cur, f"{s} of {d.get('defender')}: total {x.get('total')} but die {die} + additions = {tot}")
            self.checked()
            if a.get("score") != a.get("total", 0) - b.get("total", 0) or b.get("score") != -a.get("score", 0):
                self.violation(cur, f"combat at {d.get('defender')}: scores {a.get('score')}/{b.get('score')} "
                                    f"but totals {a.get('total')} and {b.get('total')}")


class CombatBand(Check):
    name = "close combat: the band of the results table from the score"
    clause = "7 results tables: +4 or over, +1 to +3, zero, -1 to -7, -8 to -15, -16 or under (cavalry vs infantry: 0 to +3)"

    def line(self, prev, cur, ctx):
        for d in evs(cur, "close_combat"):
            r = d.get("resolution") or {}
            t = r.get("table")
            for s in ("attacker", "defender"):
                x = r.get(s) or {}
                self.checked()
                want = band_of(x.get("score", 0), t)
                got = x.get("band")
                ok = (got == want) or (want == "zero_to3" and got in ZERO_TO3)
                if not ok:
                    self.violation(cur, f"{d.get('defender')} combat ({t}): {s} score {x.get('score')} "
                                        f"in band {got}, the text's is {want}")


class CombatTable(Check):
    name = "close combat: which table (infantry/cavalry; guns fight as infantry)"
    clause = "7 (three sets of results); 8 (guns take the combat test as if infantry)"

    def line(self, prev, cur, ctx):
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            self.checked()
            arms = {column(f.get("arm")) for f in c.fighters}
            want = {"inf": "infantry_vs_infantry", "cav": "cavalry_vs_cavalry"}.get(arms.pop()) if len(arms) == 1 \
                else "cavalry_vs_infantry"
            if c.table != want:
                self.violation(cur, f"{d.get('defender')}: fighters' arms {sorted(f.get('arm') for f in c.fighters)} "
                                    f"but table {c.table}")


class CombatResults(Check):
    name = "close combat: each side's reaction, green counters and casualties from its band"
    clause = "7 results tables (infantry vs infantry, cavalry vs cavalry, cavalry vs infantry: each unit its own column)"

    def line(self, prev, cur, ctx):
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            gf = c.res.get("guns_first")
            for s in ("attacker", "defender"):
                x = c.res.get(s) or {}
                col = column(x.get("arm"))
                band = norm_band(x.get("band"), c.table)
                row = RESULTS.get((c.table, col, band))
                self.checked()
                if row is None:
                    self.violation(cur, f"{d.get('defender')}: no row of {c.table} for {s} ({x.get('arm')}) band {x.get('band')}")
                    continue
                reactions, greens, cas, test = row
                g_add = c_add = 0
                if gf and s == "attacker":
                    c_add, g_add = gf[2], gf[3]
                what = f"{d.get('defender')} ({c.table}): {s} ({x.get('arm')}), score {x.get('score')}"
                if x.get("reaction") not in reactions:
                    self.violation(cur, f"{what}: reaction {x.get('reaction')}, the table's {sorted(reactions)}")
                if x.get("greens", 0) - g_add not in greens:
                    self.violation(cur, f"{what}: {x.get('greens')} greens ({g_add} from the guns), the table's {sorted(greens)}")
                if x.get("casualties", 0) - c_add not in cas:
                    self.violation(cur, f"{what}: {x.get('casualties')} casualties ({c_add} from the guns), the table's {sorted(cas)}")
                has = x.get("casualty_test") is not None
                if test is not None and has != test:
                    self.violation(cur, f"{what}: casualty test {'taken' if has else 'not taken'}; the table "
                                        f"{'gives one' if test else 'gives none'}")


class CasualtyTest(Check):
    name = "casualty test: 1d10 per 6 figures firing, additions, the score's casualties"
    clause = "7 CASUALTY TEST (dice, quality against enemy state, -2 per green on firer, -2 cover, <5/5-14/15-24/25+)"

    def _one(self, cur, where, shares, total, casualties, firers, state_word, lost=0):
        qualities = {f.get("quality") for f in firers}
        figs = {f.get("figures", 0) - k for f in firers for k in range(lost + 1)}
        s = 0
        for sh in shares:
            self.checked()
            n = len(sh.get("dice") or [])
            if sh.get("figures") is not None and n not in dice_for(sh["figures"]):
                self.violation(cur, f"{where}: {n} d10 for {sh['figures']} figures firing")
            if any(not 1 <= v <= 10 for v in sh.get("dice") or []):
                self.violation(cur, f"{where}: a die out of 1-10 {sh.get('dice')}")
            if firers and sh.get("figures") not in figs:
                self.violation(cur, f"{where}: {sh.get('figures')} figures firing, the firers have {sorted(figs)}")
            s += sum(sh.get("dice") or [])
            for a in sh.get("additions") or []:
                s += a.get("value", 0)
                w = a.get("why", "")
                m = re.match(r"quality ([A-G]), enemy (withdrawing|routing|standing)", w)
                if m:
                    q, st = m.group(1), m.group(2)
                    if CT_QUALITY[q][CT_STATE[st]] != a.get("value"):
                        self.violation(cur, f"{where}: {w} gives {a.get('value')}, the table {CT_QUALITY[q][CT_STATE[st]]}")
                    if firers and q not in qualities:
                        self.violation(cur, f"{where}: firer quality {q}, the firers are {sorted(qualities)}")
                    if state_word and st != state_word:
                        self.violation(cur, f"{where}: read in the '{st}' column, the target is {state_word}")
                    continue
                m = re.match(r"(\d+) green counters? on the firer", w)
                if m:
                    if a.get("value") != -2 * int(m.group(1)):
                        self.violation(cur, f"{where}: {w} gives {a.get('value')}")
                    continue
                if "cover" in w:
                    if a.get("value") != -2:
                        self.violation(cur, f"{where}: {w} gives {a.get('value')}")
                    continue
                self.violation(cur, f"{where}: addition not in the text: {w} {a.get('value')}")
        if total is not None:
            self.checked()
            if s != total:
                self.violation(cur, f"{where}: score {total}, dice and additions sum to {s}")
            if casualties != ct_casualties(total):
                self.violation(cur, f"{where}: score {total} gives {casualties} casualties, the text {ct_casualties(total)}")

    def line(self, prev, cur, ctx):
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            for s in ("attacker", "defender"):
                x = c.res.get(s) or {}
                ct = x.get("casualty_test")
                if ct is None:
                    continue
                other = c.res.get(Combat.other(s)) or {}
                # the firers' enemy is this side: its state by its reaction
                st = {"withdraw": "withdrawing", "run_away": "routing"}.get(x.get("reaction"), "standing")
                gf = c.res.get("guns_first")
                lost = gf[2] if gf and s == "defender" else 0
                self._one(cur, f"{d.get('defender')} combat, test against the {s}", x.get("casualty_test_shares") or [],
                          ct[1], x.get("test_casualties"), c.enemy(s), st, lost)
        for d in evs(cur, "pursuit_losses"):
            if d.get("test"):
                self._one(cur, f"pursuit losses of {d.get('unit')}", d["test"], None, None, [], None)


class CombatAdditions(Check):
    name = "close combat additions: only the text's; greens -3, 10% casualties -2, quality +2, cavalry types"
    clause = "6 ADDITIONS TO DIE ROLLS"

    def line(self, prev, cur, ctx):
        us0, us1 = units(prev), units(cur)
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            gf = c.res.get("guns_first")
            for s in ("attacker", "defender"):
                x = c.res.get(s) or {}
                mine, theirs = c.side(s), c.enemy(s)
                where = f"{d.get('defender')} combat, {s}"
                adds = defaultdict(int)
                for a in x.get("additions") or []:
                    self.checked()
                    r = a.get("rule")
                    adds[r] += a.get("value", 0)
                    if r not in RULES:
                        self.violation(cur, f"{where}: addition not in the text: {r} {a.get('value')}")
                if r_ta := adds.get("tactical advantage"):
                    if not 1 <= r_ta <= 3:
                        self.violation(cur, f"{where}: tactical advantage {r_ta}, the text +1 to +3")
                if len(mine) != 1 or len(theirs) < 1:
                    continue
                u = mine[0]
                g_guns = gf[3] if gf and s == "attacker" else 0
                c_guns = gf[2] if gf and s == "attacker" else 0
                # each green counter -3
                self.checked()
                g = adds.get("each green counter", 0)
                if g not in {-3 * u.get("greens", 0), -3 * (u.get("greens", 0) + g_guns)}:
                    self.violation(cur, f"{where}: {u['unit']} has {u.get('greens')} greens"
                                        f"{f' (+{g_guns} from the guns)' if g_guns else ''}, addition {g}")
                # each 10% casualties -2
                self.checked()
                st = u.get("figures_start") or 0
                want = set()
                for lost in {st - u.get("figures", 0), st - u.get("figures", 0) + c_guns}:
                    if st:
                        want.add(-2 * math.floor(10 * lost / st + 1e-9))
                v = adds.get("each 10% casualties in the battle so far", 0)
                if want and v not in want:
                    self.violation(cur, f"{where}: {u['unit']} {u.get('figures')} of {st} figures, addition {v}, the text's {sorted(want)}")
                # quality: +2 per grade higher than the enemy (one enemy)
                if len(theirs) == 1:
                    self.checked()
                    qa, qb = u.get("quality"), theirs[0].get("quality")
                    if qa in GRADES and qb in GRADES:
                        want = 2 * max(0, GRADES.index(qb) - GRADES.index(qa))
                        v = adds.get("each quality grade higher than the enemy", 0)
                        if v != want:
                            self.violation(cur, f"{where}: quality {qa} against {qb}, addition {v}, the text {want}")
                # cavalry types
                k = kind_of(us1, us0, u["unit"])
                enemy_arms = {column(f.get("arm")) for f in theirs}
                if u.get("arm") == "cavalry" and k:
                    self.checked()
                    vs_inf = "inf" in enemy_arms and "cav" not in enemy_arms
                    h = adds.get("hussars or light dragoons against infantry", 0)
                    dr = adds.get("dragoons and others against infantry", 0)
                    if vs_inf and k in LIGHT_CAV and (h != -3 or dr):
                        self.violation(cur, f"{where}: {k} against infantry: hussars {h}, dragoons {dr}")
                    if vs_inf and k not in LIGHT_CAV and (dr != -2 or h):
                        self.violation(cur, f"{where}: {k} against infantry: hussars {h}, dragoons {dr}")
                    if not vs_inf and (h or dr):
                        self.violation(cur, f"{where}: {k} against cavalry given an against-infantry addition")
                    if enemy_arms == {"cav"} and len(theirs) == 1:
                        ek = kind_of(us1, us0, theirs[0]["unit"])
                        hv = adds.get("cavalry against a heavier type of cavalry", 0)
                        if ek in WEIGHT and k in WEIGHT:
                            want = -2 if WEIGHT[ek] > WEIGHT[k] else 0
                            if hv != want:
                                self.violation(cur, f"{where}: {k} against {ek}: heavier-type addition {hv}, the text {want}")
                else:
                    self.checked()
                    for r in ("hussars or light dragoons against infantry", "dragoons and others against infantry",
                              "cavalry against a heavier type of cavalry"):
                        if adds.get(r):
                            self.violation(cur, f"{where}: {u.get('arm')} {u['unit']} given '{r}'")


def figures_of(side):
    return sum(f.get("figures", 0) for f in side)


class Outnumbered(Check):
    name = "close combat: outnumbered -1 / 2 to 1 -3 / 3 to 1 -5 (where figures and units agree)"
    clause = "6 ADDITIONS: outnumbered or overlapped frontage -1, by 2-1 or more -3, by 3-1 or more -5"

    def line(self, prev, cur, ctx):
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            for s in ("attacker", "defender"):
                x = c.res.get(s) or {}
                mine, theirs = c.side(s), c.enemy(s)
                v = sum(a.get("value", 0) for a in x.get("additions") or [] if a.get("rule") in OUTNUMBER)
                n_out = sum(1 for a in x.get("additions") or [] if a.get("rule") in OUTNUMBER)
                self.checked()
                where = f"{d.get('defender')} combat, {s}"
                if n_out > 1:
                    self.violation(cur, f"{where}: {n_out} outnumbering additions together ({v})")
                fm, ft = figures_of(mine), figures_of(theirs)
                um, ut = len(mine), len(theirs)
                if not fm or not um:
                    continue
                gf = c.res.get("guns_first")
                # the guns fire first: their casualties on the attacker may count before the fight
                fms = {fm, fm - gf[2]} if gf and s == "attacker" else {fm}
                fts = {ft, ft - gf[2]} if gf and s == "defender" else {ft}

                def want(r):
                    return -5 if r >= 3 - EPS else (-3 if r >= 2 - EPS else (-1 if r > 1 + EPS else 0))
                wu = want(ut / um)
                wfs = {want(b / a) for a in fms for b in fts if a > 0}
                if wfs == {wu} and wu in (-3, -5) and v != wu:
                    self.violation(cur, f"{where}: outnumbered {ft} figures to {fm}, {ut} units to {um}: addition {v}, the text {wu}")
                if v in (-3, -5) and all(w > v for w in wfs) and wu > v:
                    self.violation(cur, f"{where}: addition {v} but {ft} figures to {fm}, {ut} units to {um}")


def behind(body_of_me, facing, point, edge="rear"):
    """Whether `point` lies behind the line of my rear edge (edge 'rear') or my front edge."""
    fx, fy = heading_vec(facing)
    if edge == "rear":
        a, b = body_of_me[2], body_of_me[3]
    else:
        a, b = body_of_me[0], body_of_me[1]
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    return (point[0] - mx) * fx + (point[1] - my) * fy < -EPS


class EnemyToRear(Check):
    name = "close combat: -6 only with an engaging enemy behind the unit; given when one is wholly behind it"
    clause = "6 ADDITIONS: enemy to rear of unit and engaging -6"

    def line(self, prev, cur, ctx):
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            for s in ("attacker", "defender"):
                x = c.res.get(s) or {}
                mine, theirs = c.side(s), c.enemy(s)
                v = sum(a.get("value", 0) for a in x.get("additions") or [] if a.get("rule") == "enemy to the rear and engaging")
                if not mine or not theirs or any(len(f.get("body") or []) != 4 for f in mine + theirs):
                    continue
                self.checked()
                where = f"{d.get('defender')} combat, {s}"
                some_behind_front = any(behind(m["body"], m["facing"], t["at"], "front") for m in mine for t in theirs)
                wholly_behind = [(m["unit"], t["unit"]) for m in mine for t in theirs
                                 if all(behind(m["body"], m["facing"], q, "rear") for q in t["body"])]
                if v and not some_behind_front:
                    self.violation(cur, f"{where}: -6 for an enemy to the rear, but every enemy fighter's centre is ahead of its front")
                if not v and wholly_behind and len(mine) == 1:
                    self.violation(cur, f"{where}: {wholly_behind[0][1]} stands wholly behind {wholly_behind[0][0]}'s rear, no -6")


class CombatGap(Check):
    name = "close combat fought within 2½\" (the fighters' gaps, measured again from their bodies)"
    clause = "5a: the forces involved are moved to within 2½\" (120 metres) of each other"

    def line(self, prev, cur, ctx):
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            if len(c.dfn) != 1:
                continue
            db = c.dfn[0].get("body")
            for f in c.att:
                self.checked()
                g = f.get("gap")
                m = None
                if db and f.get("body"):
                    m = polygon_distance([tuple(p) for p in f["body"]], [tuple(p) for p in db])
                if g is None or g > 2.5 + GAP_TOL:
                    self.violation(cur, f"{f.get('unit')} fought {d.get('defender')} at a gap of {fnum(g)}\"")
                    if g is not None and g > getattr(self, "worst", (0, ""))[0]:
                        self.worst = (g, f"summary: widest gap {g:.3f}\": {ctx.scenario} seed {ctx.seed} {ctx.agents}, "
                                         f"action {cur.get('n')}: {f.get('unit')} fought {d.get('defender')}")
                elif m is not None and (m > 2.5 + GAP_TOL or abs(m - g) > 0.02):
                    self.violation(cur, f"{f.get('unit')} fought {d.get('defender')}: bodies {m:.2f}\" apart, gap given {fnum(g)}")

    def end(self, ctx, last):
        if getattr(self, "worst", None):
            self.examples = [e for e in self.examples if not e.startswith("summary:")] + [self.worst[1]]


class CombatAfterWholeMove(Check):
    name = "no close combat in a bound whose move used more than half of it (combat takes half a bound)"
    clause = "4: it takes half a bound to engage in a close combat; 5c: an attack that took its entire move fights the following bound"

    def line(self, prev, cur, ctx):
        used = defaultdict(float)
        for e in cur.get("events", []):
            d = e.get("data") or {}
            t = d.get("event")
            if t == "moved" and d.get("path") and (d.get("what") or {}).get("kind") != "finish":
                used[d.get("unit")] += path_time(d["path"])
            elif t == "close_combat":
                for f in (d.get("fighters") or []):
                    if not f.get("attacker"):
                        continue
                    self.checked()
                    if used[f.get("unit")] > 0.5 + 1e-6:
                        self.violation(cur, f"{f.get('unit')} attacked {d.get('defender')} after using "
                                            f"{used[f.get('unit')]:.2f} of the bound moving")


class BeatenMoveNextBound(Check):
    name = "a beaten unit withdraws or runs on the following bound, not in the bound of its combat"
    clause = "5c: should a unit be beaten and instructed to withdraw or run away, this is carried out on the following bound"

    def line(self, prev, cur, ctx):
        beaten = set()
        for e in cur.get("events", []):
            d = e.get("data") or {}
            t = d.get("event")
            if t == "close_combat":
                c = Combat(d)
                for s in ("attacker", "defender"):
                    if (c.res.get(s) or {}).get("reaction") in ("withdraw", "run_away"):
                        beaten.update(f.get("unit") for f in c.side(s))
            elif t in ("withdrew", "ran") and d.get("unit") in beaten:
                self.checked()
                p = d.get("path") or {}
                if p.get("distance", 0) > 1e-6:
                    self.violation(cur, f"{d.get('unit')} {t} {p.get('distance', 0):.2f}\" in the bound it was beaten")
            elif t == "moved" and d.get("unit") in beaten:
                self.checked()
                p = d.get("path") or {}
                if p.get("distance", 0) > 1e-6:
                    self.violation(cur, f"{d.get('unit')} moved ({(d.get('what') or {}).get('kind')}) after being beaten in the same bound")


class HaltedNoFurther(Check):
    name = "a unit halted or standing in a firefight, or kept under control, goes no further that bound"
    clause = "7: +1 to +3 'will not proceed further this bound'; zero 'stand'; cav v inf 'no advance'; pursuit test 'cannot advance further'"

    def line(self, prev, cur, ctx):
        held = {}
        for e in cur.get("events", []):
            d = e.get("data") or {}
            t = d.get("event")
            if t == "close_combat":
                c = Combat(d)
                for s in ("attacker", "defender"):
                    r = (c.res.get(s) or {}).get("reaction")
                    if r in ("halt", "stand"):
                        for f in c.side(s):
                            held[f.get("unit")] = r
            elif t == "pursuit_test" and d.get("under_control"):
                held[d.get("unit")] = "under control"
            elif t == "moved" and d.get("unit") in held:
                self.checked()
                p = d.get("path") or {}
                if p.get("distance", 0) > 1e-6:
                    self.violation(cur, f"{d.get('unit')} ({held[d.get('unit')]}) then moves "
                                        f"{p['distance']:.2f}\" ({(d.get('what') or {}).get('kind')}) in the same bound")


class DisintegrateGone(Check):
    name = "a unit that disintegrates (-16 or under) leaves the table (or changes sides)"
    clause = "7: -16 or under: disintegrates and deserts / disperses / surrenders; may not regroup"

    def line(self, prev, cur, ctx):
        us1 = units(cur)
        changed = {d.get("unit") for d in evs(cur, "changed_sides")}
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            for s in ("attacker", "defender"):
                x = c.res.get(s) or {}
                if x.get("band") != "minus16":
                    continue
                for f in c.side(s):
                    self.checked()
                    n = f.get("unit")
                    u = us1.get(n)
                    u0 = units(prev).get(n)
                    if u is not None and n not in changed and (u0 is None or u0.side == u.side):
                        self.violation(cur, f"{n} scored {x.get('score')} ({x.get('reaction')}) and still stands, {u.status}")


def convex_hull(pts):
    pts = sorted(set(pts))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lo, hi = [], []
    for p in pts:
        while len(lo) >= 2 and cross(lo[-2], lo[-1], p) <= 0:
            lo.pop()
        lo.append(p)
    for p in reversed(pts):
        while len(hi) >= 2 and cross(hi[-2], hi[-1], p) <= 0:
            hi.pop()
        hi.append(p)
    return lo[:-1] + hi[:-1]


def placed(poly, c0, f0, at, facing):
    """The body `poly` (centred at c0, facing f0) moved to centre `at`, facing `facing`."""
    a = math.radians(-(facing - f0))  # clockwise headings: rotate by -(change) in maths angle
    ca, sa = math.cos(a), math.sin(a)
    out = []
    for x, y in poly:
        dx, dy = x - c0[0], y - c0[1]
        out.append((at[0] + dx * ca - dy * sa, at[1] + dx * sa + dy * ca))
    return out


class NoMoveThrough(Check):
    name = "a straight move does not pass through an enemy that stood still (swept body)"
    clause = "5a (forces moved to within 2½\" of each other); 1 (bodies on the table)"
    friends = False

    def line(self, prev, cur, ctx):
        if bound_of(cur) is None:
            return
        us0, us1 = units(prev), units(cur)
        paths = defaultdict(list)
        for d in evs(cur):
            if d.get("event") in ("moved", "withdrew", "ran") and d.get("path"):
                paths[d.get("unit")].append(d)
        still = [u for n, u in us1.items() if n not in paths and n in us0 and u.poly
                 and all(dist(a, b) < 1e-6 for a, b in zip(u.poly, us0[n].poly))]
        for n, ds in paths.items():
            u0 = us0.get(n)
            if not u0 or not u0.poly or u0.centre is None:
                continue
            for d in ds:
                p = d["path"]
                if p.get("distance", 0) < 0.05 or p.get("formation_from") != p.get("formation"):
                    continue
                straight = not any(abs(x.get("degrees", 0)) >= 1 for x in p.get("turns") or [])
                a = placed(u0.poly, u0.centre, u0.facing or 0, p["from"], p.get("facing_from", u0.facing or 0))
                b = placed(u0.poly, u0.centre, u0.facing or 0, p["to"], p.get("facing", u0.facing or 0))
                hull = convex_hull(a + b)
                for o in still:
                    if (o.side != u0.side) == self.friends:
                        continue
                    self.checked()
                    if overlap_depth(hull, o.poly) > 0.05 and overlap_depth(b, o.poly) <= 0.05 \
                            and overlap_depth(a, o.poly) <= 0.05:
                        what = f"{n} ({d.get('event')}, {(d.get('what') or {}).get('kind', '')}) " \
                               f"goes {p['distance']:.2f}\" through {o.name}, which stood still"
                        if straight and not self.friends:
                            self.violation(cur, what)
                        elif straight:
                            self.straight = getattr(self, "straight", 0) + 1
                            if len(self.examples) < 3:
                                self.examples.append(f"e.g. {ctx.scenario} seed {ctx.seed} {ctx.agents}, action {cur.get('n')}: {what}")
                        else:
                            self.through_turning = getattr(self, "through_turning", 0) + 1

    def end(self, ctx, last):
        self.examples = [e for e in self.examples if not e.startswith("summary:")]
        if self.friends:
            self.examples.append(f"summary: {getattr(self, 'straight', 0)} straight moves through a friend")
        self.examples.append(f"summary: {getattr(self, 'through_turning', 0)} more sweeps with a turn "
                             f"(hull of the start and end bodies, not counted as violations)")


class NoMoveThroughFriends(NoMoveThrough):
    name = "count: moves through a friend that stood still (swept body; the text has no rule on passing through friends)"
    clause = "1, 3 (distribution)"
    friends = True
    keep = 0


class WithdrawAway(Check):
    """A withdrawal ends no nearer (body to body) the enemies the unit last fought (section 7,
    interpretation 12); a run is counted, not judged (interpretation 9: runners make for their
    own rear edge)."""
    name = "a withdrawal or run goes away from the enemies it fought, not nearer"
    clause = "7: withdraw in good order / run away"

    def start(self, ctx, first):
        self.foes = {}

    def line(self, prev, cur, ctx):
        us0 = units(prev)
        for e in cur.get("events", []):
            d = e.get("data") or {}
            t = d.get("event")
            if t == "close_combat":
                c = Combat(d)
                for s in ("attacker", "defender"):
                    for f in c.side(s):
                        self.foes[f.get("unit")] = [g.get("unit") for g in c.enemy(s)]
            elif t in ("withdrew", "ran") and d.get("path"):
                p = d["path"]
                if p.get("distance", 0) < 0.1:
                    continue
                foes = [us0[n].poly for n in self.foes.get(d.get("unit"), []) if n in us0 and us0[n].poly]
                me0, me1 = us0.get(d.get("unit")), units(cur).get(d.get("unit"))
                if not foes or not me0 or not me1 or not me0.poly or not me1.poly:
                    continue
                self.checked()
                # Body to body, as the register measures every distance between units (section
                # 4 interpretation 6): a unit backing off beside an enemy may bring its centre
                # nearer and its body no nearer.
                before = min(polygon_distance(me0.poly, q) for q in foes)
                after = min(polygon_distance(me1.poly, q) for q in foes)
                if t == "ran":
                    # Section 7 interpretation 9: a runner makes for its own rear edge, veering
                    # round what blocks it; one that comes nearer is counted, not judged.
                    continue
                if after < before - 0.01:
                    self.violation(cur, f"{d.get('unit')} {t} from {before:.2f}\" to {after:.2f}\" of the enemy it fought")


class GunsFirst(Check):
    name = "guns attacked fire first at close range (a bombardment's points and close-range effect)"
    clause = "8: in the close combat sequence guns always fire first (at close range effect) when attacked"

    def line(self, prev, cur, ctx):
        us0 = units(prev)
        limbering = {d.get("unit") for d in evs(cur, "limbering")} | \
                    {d.get("unit") for d in evs(cur, "withdrew") if d.get("path") is None}
        d6s = Counter(x.get("value") for x in cur.get("draws") or [] if x.get("sides") == 6)
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            if len(c.dfn) != 1:
                continue
            f = c.dfn[0]
            gf = c.res.get("guns_first")
            self.checked()
            where = f"{d.get('attackers')} against {f.get('unit')}"
            u0 = us0.get(f.get("unit"))
            if f.get("arm") != "artillery":
                if gf:
                    self.violation(cur, f"{where}: the guns fire first, but the defender is {f.get('arm')}")
                continue
            if not gf:
                if u0 and u0.limbered is False and f.get("unit") not in limbering:
                    self.violation(cur, f"{where}: an unlimbered battery, not limbering, does not fire first")
                continue
            die, score, cas, greens = gf[:4]
            kind = u0.kind if u0 and u0.kind in GUN_POINTS else None
            if not isinstance(die, int) or not 1 <= die <= 6 or d6s[die] <= 0:
                self.violation(cur, f"{where}: guns' d6 {die} not among the line's d6 draws")
            else:
                d6s[die] -= 1
            if kind:
                lost = (f.get("figures_start") or 0) - (f.get("figures") or 0)
                want = GUN_POINTS[kind] - lost - 2 * (f.get("greens") or 0) - die
                if score != want:
                    self.violation(cur, f"{where}: guns first score {score}, the text {GUN_POINTS[kind]} -{lost} gunners "
                                        f"-2x{f.get('greens')} greens -{die} = {want}")
            w = (2, 1) if score >= 0 else ((1, 1) if score >= -3 else (0, 0))
            if (cas, greens) != w:
                self.violation(cur, f"{where}: guns first score {score}: {cas} casualties {greens} greens, the text {w}")


class PursuitTestTaken(Check):
    name = "the winner takes a pursuit test where the table says (inf +4 v a runner; cav +4 v infantry; cav +4 with none to pursue)"
    clause = "7: infantry +4 'if the enemy is running away take a pursuit test'; cavalry v infantry +4; cavalry v cavalry +4"

    def line(self, prev, cur, ctx):
        tested = {d.get("unit") for d in evs(cur, "pursuit_test")}
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            for s in ("attacker", "defender"):
                x = c.res.get(s) or {}
                if x.get("band") != "plus4":
                    continue
                o = (c.res.get(Combat.other(s)) or {}).get("reaction")
                for f in c.side(s):
                    arm = f.get("arm")
                    need = None
                    if c.table == "infantry_vs_infantry" and arm == "infantry" and o == "run_away":
                        need = "a pursuit test"
                    elif c.table == "cavalry_vs_infantry" and arm == "cavalry":
                        need = "a pursuit test"
                    elif c.table == "cavalry_vs_cavalry":
                        need = "a pursuit" if o in ("withdraw", "run_away") else "a pursuit test"
                    if need is None:
                        continue
                    self.checked()
                    if need == "a pursuit test" and f.get("unit") not in tested:
                        self.violation(cur, f"{f.get('unit')} ({c.table}, +4, enemy {o}) takes no pursuit test")
                    if need == "a pursuit" and x.get("reaction") != "pursue":
                        self.violation(cur, f"{f.get('unit')} ({c.table}, +4, enemy {o}) does not pursue ({x.get('reaction')})")


# =====================================================================================
# Pursuit test (section 7)
# =====================================================================================


class PursuitTest(Check):
    name = "pursuit test: d10 + additions, 2 or more cavalry / 0 or more infantry to stay under control"
    clause = "7 PURSUIT TEST"

    def line(self, prev, cur, ctx):
        us0, us1 = units(prev), units(cur)
        for d in evs(cur, "pursuit_test"):
            self.checked()
            u = us0.get(d.get("unit")) or us1.get(d.get("unit"))
            where = f"pursuit test of {d.get('unit')}"
            die = d.get("die")
            if not isinstance(die, int) or not 1 <= die <= 10:
                self.violation(cur, f"{where}: die {die}")
                continue
            adds = d.get("additions") or []
            tot = sum(a.get("value", 0) for a in adds)
            if tot != d.get("addition"):
                self.violation(cur, f"{where}: addition {d.get('addition')}, its parts sum to {tot}")
            if u:
                want = 2 if u.arm == "cavalry" else 0
                if d.get("needs") != want:
                    self.violation(cur, f"{where}: {u.arm} needs {d.get('needs')}, the text {want}")
                q = [a for a in adds if (a.get("why") or "").startswith("quality")]
                qv = sum(a.get("value", 0) for a in q)
                if u.quality and qv != PT_QUALITY[u.quality]:
                    self.violation(cur, f"{where}: quality {u.quality} gives {qv}, the text {PT_QUALITY[u.quality]}")
                for a in adds:
                    w = a.get("why") or ""
                    if w.startswith("quality"):
                        continue
                    if ("rash" in w or "unreliable" in w) and a.get("value") == -3:
                        continue
                    if "routing cavalry" in w and a.get("value") == -2 and u.arm == "cavalry":
                        continue
                    self.violation(cur, f"{where}: addition not in the text: {w} {a.get('value')}")
            if d.get("under_control") != (die + (d.get("addition") or 0) >= (d.get("needs") or 0)):
                self.violation(cur, f"{where}: {die} {d.get('addition'):+d} against {d.get('needs')}: under control {d.get('under_control')}")


# the extra losses of a pursued (or following-up) unit, as the results tables give them:
# (greens, casualties) over the result already taken
PURSUIT_EXTRA = {
    ("following up a withdrawing enemy", "cavalry against cavalry"): {(0, 1), (2, 1)},
    ("pursued while withdrawing", "cavalry against cavalry"): {(1, 1), (3, 1)},
    ("pursued while running away", "cavalry against infantry"): {(1, 1), (3, 2)},
    ("pursued while withdrawing: runs away instead", "cavalry against infantry"): {(2, 2), (3, 2)},
}


class PursuitLosses(Check):
    name = "losses of a pursued or following-up unit (cavalry tables; infantry: a casualty test)"
    clause = "7: cav v cav +4 follow-up a casualty and two greens; -1 to -7 if pursued a casualty and three greens; cav v inf infantry if pursued; inf v inf -8 to -15 if pursued a casualty test"

    def line(self, prev, cur, ctx):
        for d in evs(cur, "pursuit_losses"):
            self.checked()
            why = d.get("why") or ""
            m = re.match(r"(.*) \((infantry against infantry|cavalry against cavalry|cavalry against infantry)\)$", why)
            if not m:
                continue
            key = (m.group(1), m.group(2))
            got = (d.get("greens", 0), d.get("casualties", 0))
            if key in PURSUIT_EXTRA:
                if got not in PURSUIT_EXTRA[key]:
                    self.violation(cur, f"{d.get('unit')}, {why}: {got[0]} greens and {got[1]} casualties, the table's {sorted(PURSUIT_EXTRA[key])}")
            elif key == ("pursued while running away", "infantry against infantry"):
                t = d.get("test")
                if not t:
                    self.violation(cur, f"{d.get('unit')}, {why}: no casualty test")
                    continue
                score = sum(sum(sh.get("dice") or []) + sum(a.get("value", 0) for a in sh.get("additions") or []) for sh in t)
                if got[1] != ct_casualties(score) or got[0] != 0:
                    self.violation(cur, f"{d.get('unit')}, {why}: test score {score}: {got[1]} casualties {got[0]} greens, "
                                        f"the text {ct_casualties(score)} and 0")


# =====================================================================================
# Movement (sections 3, 4) and the results' moves
# =====================================================================================


def allowed_rates(kind, arm):
    if arm == "cavalry":
        return {WALK, TROT.get(kind, 36.0)}
    n = normal_rate(kind)
    return {n} if n else set()


class MoveRates(Check):
    name = "a move's rate is its kind's (walk or trot for cavalry), its distance within rate and bound"
    clause = "3 MOVEMENT; 4 LIMITS TO MOVEMENT (turns, formation, obstacle take part of the bound)"

    def line(self, prev, cur, ctx):
        us0, us1 = units(prev), units(cur)
        for d in evs(cur, "moved"):
            p = d.get("path")
            if not p:
                continue
            k = (d.get("what") or {}).get("kind")
            u = us0.get(d.get("unit")) or us1.get(d.get("unit"))
            self.checked()
            where = f"{d.get('unit')} ({k})"
            if u and p.get("distance", 0) > EPS and k not in ("changed_sides",):
                rates = allowed_rates(u.kind, u.arm)
                if rates and p.get("rate") not in rates:
                    self.violation(cur, f"{where}: {u.kind} moves at {p.get('rate')}\" a bound, the text {sorted(rates)}")
            if p.get("distance", 0) > (p.get("ordered") or 0) + 1e-6:
                self.violation(cur, f"{where}: went {p['distance']:.2f}\", set out to go {fnum(p.get('ordered'))}\"")
            if abs(dist(p["from"], p["to"]) - p.get("distance", 0)) > 1e-3:
                self.violation(cur, f"{where}: from {p['from']} to {p['to']} is {dist(p['from'], p['to']):.2f}\", distance {p.get('distance'):.2f}")
            t = path_time(p)
            if t > (p.get("budget") or 0) + 1e-6:
                self.violation(cur, f"{where}: turns, obstacles and {p.get('distance', 0):.2f}\" at {p.get('rate')}\" take {t:.2f} of the bound, it had {p.get('budget')}")


class TurnCosts(Check):
    name = "a wheel or pivot: up to 45° half a bound, more a whole bound (an about turn half)"
    clause = "4 LIMITS TO MOVEMENT: wheel or pivot over 45° one bound, up to 45° half a bound, about turn half"

    RESULT_MOVES = {"pursue", "changed_sides"}

    def line(self, prev, cur, ctx):
        for d in evs(cur):
            t = d.get("event")
            if t not in ("moved", "withdrew"):
                continue
            p = d.get("path")
            if not p:
                continue
            k = (d.get("what") or {}).get("kind") if t == "moved" else "withdrew"
            for x in p.get("turns") or []:
                self.checked()
                deg, cost = abs(x.get("degrees", 0)), x.get("cost")
                where = f"{d.get('unit')} ({k}) turns {x.get('degrees', 0):.1f}°"
                if k in self.RESULT_MOVES and cost == 0:
                    continue
                if deg < 1 - EPS:
                    if cost not in (0, 0.5):
                        self.violation(cur, f"{where} at a cost of {cost}")
                elif deg <= 45 + 1e-6:
                    if cost != 0.5:
                        self.violation(cur, f"{where} at a cost of {cost}, the text half a bound")
                elif abs(deg - 180) <= ABOUT_TOL:
                    if cost not in (0.5, 1):
                        self.violation(cur, f"{where} (about turn) at a cost of {cost}")
                elif cost != 1:
                    self.violation(cur, f"{where} at a cost of {cost}, the text a complete bound")


class TrotStraight(Check):
    name = "trotting cavalry does not change direction"
    clause = "4: trotting cavalry may not change direction at all"

    def line(self, prev, cur, ctx):
        us0, us1 = units(prev), units(cur)
        for d in evs(cur, "moved"):
            p = d.get("path")
            u = us0.get(d.get("unit")) or us1.get(d.get("unit"))
            if not p or not u or u.arm != "cavalry" or p.get("rate") != TROT.get(u.kind):
                continue
            if p.get("distance", 0) <= 1e-3:
                continue
            self.checked()
            turned = [x for x in p.get("turns") or [] if abs(x.get("degrees", 0)) >= 1]
            head = heading_to(p["from"], p["to"])
            off = abs(turn(p.get("facing_from", 0), head))
            if turned or off > 1.0:
                self.violation(cur, f"{d.get('unit')} ({(d.get('what') or {}).get('kind')}) trots at {p.get('rate')}\" "
                                    f"turning {[round(x['degrees'], 1) for x in turned]}°, "
                                    f"{off:.1f}° off its starting facing")


class ResultMoves(Check):
    name = "withdrawals at half speed; running infantry 20\", cavalry a trot; desertion while running"
    clause = "7 results: withdraw at half normal speed / half trot or walk / half a walk; run 20\" a bound or full trot; one casualty a move running"

    def __init__(self):
        super().__init__()
        self.table = {}

    def start(self, ctx, first):
        self.table = {}

    def line(self, prev, cur, ctx):
        us0, us1 = units(prev), units(cur)
        for e in cur.get("events", []):
            d = e.get("data") or {}
            t = d.get("event")
            if t == "close_combat":
                c = Combat(d)
                for f in c.fighters:
                    self.table[f.get("unit")] = c.table
                continue
            if t not in ("withdrew", "ran"):
                continue
            p = d.get("path")
            u = us0.get(d.get("unit")) or us1.get(d.get("unit"))
            if not p or not u:
                continue
            self.checked()
            rate = p.get("rate")
            where = f"{d.get('unit')} ({u.kind}) {t}"
            tb = self.table.get(d.get("unit"))
            if t == "withdrew":
                if u.arm == "cavalry":
                    ok = {TROT.get(u.kind, 36.0) / 2, WALK / 2, WALK}
                else:
                    n = normal_rate(u.kind)
                    ok = {n / 2} if n else set()
                if ok and rate not in ok:
                    self.violation(cur, f"{where} at {rate}\" a bound, the text {sorted(ok)}")
            else:
                ok = {TROT.get(u.kind, 36.0)} if u.arm == "cavalry" else {RUN_INFANTRY}
                if rate not in ok:
                    self.violation(cur, f"{where} at {rate}\" a bound, the text {sorted(ok)}")
                de = d.get("deserted", 0)
                if tb in ("infantry_vs_infantry", "cavalry_vs_cavalry") and de not in (1, 2):
                    self.violation(cur, f"{where}: {de} deserted (its run from the {tb} table: one a move, two if unreliable/pursued)")
                if de not in (0, 1, 2):
                    self.violation(cur, f"{where}: {de} deserted")
            if p.get("distance", 0) > rate * (p.get("budget") or 0) + 1e-6:
                self.violation(cur, f"{where}: went {p['distance']:.2f}\" at {rate}\" a bound with {p.get('budget')} of it")


class Limbering(Check):
    name = "limbering: medium guns a bound, heavy two; no move while limbering; fire only unlimbered"
    clause = "4: one complete bound to limber or unlimber medium guns; two bounds heavy guns; 8"

    def line(self, prev, cur, ctx):
        us0, us1 = units(prev), units(cur)
        limb = set()
        for d in evs(cur, "limbering"):
            u = us0.get(d.get("unit")) or us1.get(d.get("unit"))
            self.checked()
            limb.add(d.get("unit"))
            if u and u.kind in ("medium guns", "heavy guns"):
                want = 1 if u.kind == "medium guns" else 2
                if d.get("bounds") != want:
                    self.violation(cur, f"{d.get('unit')} ({u.kind}) limbers in {d.get('bounds')} bounds, the text {want}")
        for d in evs(cur):
            if d.get("event") not in ("moved", "withdrew", "ran") or (d.get("path") or {}).get("distance", 0) <= 1e-6:
                continue
            n = d.get("unit")
            if n in limb:
                self.checked()
                self.violation(cur, f"{n} moves {d['path']['distance']:.2f}\" in a bound it limbers")
            elif n in us0 and us0[n].arm == "artillery" and us0[n].limbered is False:
                self.checked()
                self.violation(cur, f"{n} ({d.get('event')}) moves {d['path']['distance']:.2f}\" unlimbered at the bound's start")
        for d in evs(cur, "bombardment"):
            b = d.get("battery")
            u0, u1 = us0.get(b), us1.get(b)
            self.checked()
            if u0 and u0.limbered and (u1 is None or u1.limbered):
                self.violation(cur, f"{b} fires limbered")


LINEAR = {"hedge", "wall", "fence", "stream", "ditch", "river"}


class LinearObstacle(Check):
    name = "a move whose centre crosses a hedge or wall is marked as crossing a linear obstacle (half a bound)"
    clause = "4: it takes half a bound to cross a linear obstacle"

    def start(self, ctx, first):
        self.lines_ = []
        for t in ctx.table.get("terrain", []):
            if t.get("kind") in LINEAR and not t.get("closed"):
                pts = [tuple(p) for p in t.get("points") or []]
                self.lines_ += [(t.get("name"), pts[i], pts[i + 1]) for i in range(len(pts) - 1)]

    def line(self, prev, cur, ctx):
        if not self.lines_:
            return
        for d in evs(cur):
            if d.get("event") not in ("moved", "withdrew", "ran") or not d.get("path"):
                continue
            p = d["path"]
            if p.get("distance", 0) < 1e-6:
                continue
            a, b = tuple(p["from"]), tuple(p["to"])
            crossed = [n for n, q, r in self.lines_ if common_cross(a, b, q, r)]
            self.checked()
            if crossed and not p.get("obstacle"):
                self.violation(cur, f"{d.get('unit')} ({d.get('event')}) crosses {crossed[0]} from {fmt_pt(a)} to {fmt_pt(b)} "
                                    f"without the half bound for a linear obstacle")


def common_cross(a, b, c, d):
    from common import segments_cross
    return segments_cross(a, b, c, d)


def fmt_pt(p):
    return f"({p[0]:.1f}, {p[1]:.1f})"


class CountAttackOrders(Tally):
    name = "count: attackers in close combat by their wing's order at the time"
    clause = "2, 5a: one side attacks if the unit's or wing's orders insist upon it (distribution)"

    def line(self, prev, cur, ctx):
        ccs = evs(cur, "close_combat")
        if not ccs:
            return
        orders = {}
        for m in cur.get("markers") or []:
            if m.get("kind") == "order":
                mm = re.match(r"the (.+)'s order: (\w+)", m.get("label") or "")
                if mm:
                    orders[(m.get("side"), mm.group(1))] = mm.group(2)
        us0, us1 = units(prev), units(cur)
        for d in ccs:
            for f in d.get("fighters") or []:
                if not f.get("attacker"):
                    continue
                self.checked()
                u = us0.get(f.get("unit")) or us1.get(f.get("unit"))
                o = orders.get((u.side, u.group), "?") if u else "?"
                self.n[f"attacker's wing order: {o}"] += 1


# 1. SCALES: 1 mm = 2 m; 50-60 men a figure; men a metre of frontage
MEN_PER_METRE = {"infantry": 4.0, "battle cavalry": 3.0, "light cavalry": 1.0}
MM_PER_INCH = 25.4


class Frontage(Check):
    name = "frontages to scale: 50-60 men a figure, infantry 4 men a metre, battle cavalry 3, light cavalry 1; batteries of six guns or less"
    clause = "1 SCALES (1 mm = 2 m; 50-60 men a figure; frontages); 8 (groups of six guns or less)"

    def start(self, ctx, first):
        self.seen = set()
        self.formation = {}
        self.line(None, first, ctx)

    def line(self, prev, cur, ctx):
        if prev is not None and bound_of(cur) is None:
            return
        for d in evs(cur):
            if d.get("event") in ("moved", "withdrew", "ran") and d.get("path"):
                self.formation[d.get("unit")] = d["path"].get("formation") or "line"
        for n, u in units(cur).items():
            if self.formation.get(n, "line") != "line":
                continue
            if u.arm == "artillery":
                if n not in self.seen and u.start is not None:
                    self.seen.add(n)
                    self.checked()
                    if u.start > 6:
                        self.violation(cur, f"{n}: a battery of {u.start} guns (the text groups six or less)")
                continue
            if u.arm == "infantry":
                mpm = MEN_PER_METRE["infantry"]
            elif u.arm == "cavalry":
                mpm = MEN_PER_METRE["light cavalry" if u.kind in LIGHT_CAV else "battle cavalry"]
            else:
                continue
            if len(u.poly) != 4 or not u.figures:
                continue
            self.checked()
            w = dist(u.poly[0], u.poly[1])
            lo = min(u.figures, u.start or u.figures) * 50 / mpm / 2 / MM_PER_INCH
            hi = max(u.figures, u.start or u.figures) * 60 / mpm / 2 / MM_PER_INCH
            if not lo - 0.01 <= w <= hi + 0.01:
                self.violation(cur, f"{n} ({u.kind}, {u.figures} of {u.start} figures): frontage {w:.2f}\", "
                                    f"the scale gives {lo:.2f}\" to {hi:.2f}\"")


class WagonCount(Check):
    name = "wagon models: one a battalion or battery, two a cavalry regiment, one more for every three major units"
    clause = "10 SUPPLY AND LOGISTICS"

    def start(self, ctx, first):
        us = units(first)
        for m in first.get("markers") or []:
            if m.get("kind") != "wagons":
                continue
            mm = re.match(r"(\d+) wagon models", m.get("label") or "")
            if not mm:
                continue
            self.checked()
            side = [u for u in us.values() if u.side == m.get("side")]
            bn = sum(1 for u in side if u.arm == "infantry")
            bt = sum(1 for u in side if u.arm == "artillery")
            cav = sum(1 for u in side if u.arm == "cavalry")
            base = bn + bt + 2 * cav
            ok = set()
            for major in (bn + bt + cav, bn + cav):
                ok |= {base + major // 3, base + -(-major // 3), base + int(major / 3 + 0.5)}
            got = int(mm.group(1))
            if got not in ok:
                self.violation(first, f"side {m.get('side')}: {got} wagon models for {bn} battalions, {bt} batteries, "
                                      f"{cav} regiments: the text {sorted(ok)}")


class WagonsSlow(Check):
    name = "a move across a wagon park is slowed (marked as across the wagons)"
    clause = "10: the wagons' one significance is getting in the way and slowing up the army's movement"

    def line(self, prev, cur, ctx):
        parks = [[tuple(p) for p in (m.get("footprint") or {}).get("points") or []]
                 for m in prev.get("markers") or [] if m.get("kind") == "wagons" and m.get("footprint")]
        if not parks:
            return
        from common import point_in_polygon, segments_cross
        for d in evs(cur):
            if d.get("event") not in ("moved", "withdrew", "ran") or not d.get("path"):
                continue
            p = d["path"]
            if p.get("distance", 0) < 1e-6:
                continue
            a, b = tuple(p["from"]), tuple(p["to"])
            for pk in parks:
                if len(pk) < 3:
                    continue
                inside = point_in_polygon(a, pk) or point_in_polygon(b, pk) or any(
                    segments_cross(a, b, pk[i], pk[(i + 1) % len(pk)]) for i in range(len(pk)))
                if inside:
                    self.checked()
                    if not p.get("wagons"):
                        what = (f"{d.get('unit')} ({d.get('event')}) crosses a wagon park from {fmt_pt(a)} "
                                f"to {fmt_pt(b)} at full speed")
                        if d.get("event") == "ran":
                            # a rout through the baggage: the text speaks of the army's movement; counted
                            self.runners = getattr(self, "runners", 0) + 1
                        else:
                            self.violation(cur, what)
                    break

    def end(self, ctx, last):
        self.examples = [e for e in self.examples if not e.startswith("summary:")]
        self.examples.append(f"summary: {getattr(self, 'runners', 0)} runs across a wagon park at full speed (counted, not violations)")


# =====================================================================================
# Artillery (section 8)
# =====================================================================================


class Bombardment(Check):
    name = "bombardment: points (1 medium, 2 heavy, -1 a gunner lost, -2 a green, -d6), ranges, effects"
    clause = "8 THE EFFECT OF ARTILLERY"

    def __init__(self):
        super().__init__()
        self.first = {}

    def start(self, ctx, first):
        self.first = {n: u.start for n, u in units(first).items()}

    def line(self, prev, cur, ctx):
        us0, us1 = units(prev), units(cur)
        hit = Counter()  # greens a battery took from fire earlier in the bound
        for d in evs(cur, "bombardment"):
            self.checked()
            b = d.get("battery")
            u = us0.get(b) or us1.get(b)
            where = f"{b} at {d.get('target')}"
            heavy = bool((d.get("guns") or {}).get("heavy"))
            kind = "heavy guns" if heavy else "medium guns"
            if u and u.kind in GUN_POINTS and u.kind != kind:
                self.violation(cur, f"{where}: a {u.kind} battery fires as {kind}")
            d6 = d.get("d6")
            if not isinstance(d6, int) or not 1 <= d6 <= 6:
                self.violation(cur, f"{where}: d6 {d6}")
                continue
            lost = (d.get("guns") or {}).get("gunners_lost", 0)
            sc = GUN_POINTS[kind] - lost - 2 * (d.get("battery_greens") or 0) - d6
            if sc != d.get("score"):
                self.violation(cur, f"{where}: score {d.get('score')}, the text {GUN_POINTS[kind]} -{lost} gunners "
                                    f"-2x{d.get('battery_greens')} greens -{d6} = {sc}")
            if u0 := us0.get(b):
                if u0.start is not None and u0.figures is not None:
                    ok = {u0.start - u0.figures}
                    if b in us1 and us1[b].figures is not None:
                        ok.add(u0.start - us1[b].figures)
                    if lost not in ok:
                        self.violation(cur, f"{where}: {lost} gunners lost, the battery had lost {sorted(ok)}")
                if u0.greens is not None:
                    g1 = us1[b].greens if b in us1 else u0.greens
                    if not (u0.greens - 1 <= (d.get("battery_greens") or 0) <= max(u0.greens, g1 or 0) + hit[b]):
                        self.violation(cur, f"{where}: {d.get('battery_greens')} battery greens, it had {u0.greens} (then {g1})")
            rng, close = d.get("range"), d.get("close")
            if rng is not None:
                if rng > GUN_LONG[kind] + 1e-6:
                    self.violation(cur, f"{where}: fires at {rng:.2f}\", beyond long range {GUN_LONG[kind]}\"")
                if bool(close) != (rng <= GUN_CLOSE[kind] + 1e-6):
                    self.violation(cur, f"{where}: at {rng:.2f}\" as {'close' if close else 'long'} range (close up to {GUN_CLOSE[kind]}\")")
            s = d.get("score", 0)
            if close:
                want = (2, 1) if s >= 0 else ((1, 1) if s >= -3 else (0, 0))
            else:
                want = (0, 1) if s >= -1 else (0, 0)
            if (d.get("casualties"), d.get("greens")) != want:
                self.violation(cur, f"{where}: score {s} at {'close' if close else 'long'} range gives "
                                    f"{d.get('casualties')} casualties {d.get('greens')} greens, the text {want[0]} and {want[1]}")
            if close and d.get("through"):
                self.violation(cur, f"{where}: canister at close range passes through to {d.get('through')}")
            for n in [d.get("target")] + list(d.get("through") or []):
                hit[n] += d.get("greens", 0)


class BallThrough(Check):
    """Section 8 interpretation 1 (docs/rules/old-fritz.md): "within 5\" of the front unit" is
    measured along the ball's flight — a unit behind is hit when its centre lies up to 5\" beyond
    the target's centre along the line from the battery (and within the two frontages'
    half-widths of it). So a unit a little off the line may be hit with its body a little over
    5\" from the target's; the check measures as the interpretation does."""

    name = "a ball passes on only within 5\" behind the front unit, not off a hill nor into soft ground"
    clause = "8: ball can penetrate two ranks within 5\" of the front unit; not off a hill, not into soft ground"

    def start(self, ctx, first):
        self.hills = [[tuple(p) for p in t["points"]] for t in ctx.table.get("terrain", [])
                      if t.get("kind") == "hill" and t.get("closed")]
        self.soft = [[tuple(p) for p in t["points"]] for t in ctx.table.get("terrain", [])
                     if t.get("kind") in ("soft_ground", "softground", "marsh", "bog") and t.get("closed")]

    def line(self, prev, cur, ctx):
        from common import point_in_polygon
        us0, us1 = units(prev), units(cur)
        for d in evs(cur, "bombardment"):
            th = d.get("through") or []
            if not th:
                continue
            self.checked()
            b = us1.get(d.get("battery")) or us0.get(d.get("battery"))
            tg = us1.get(d.get("target")) or us0.get(d.get("target"))
            where = f"{d.get('battery')} at {d.get('target')} through {th}"
            if b and b.centre and any(point_in_polygon(b.centre, h) for h in self.hills):
                self.violation(cur, f"{where}: the battery fires off a hill")
            if tg and tg.centre and any(point_in_polygon(tg.centre, s) for s in self.soft):
                self.violation(cur, f"{where}: the target stands in soft ground")
            if tg and tg.poly:
                for n in th:
                    o = us1.get(n) or us0.get(n)
                    if o and o.poly and b and b.centre and tg.centre:
                        fly = heading_vec(heading_to(b.centre, tg.centre))
                        g = (o.centre[0] - tg.centre[0]) * fly[0] + (o.centre[1] - tg.centre[1]) * fly[1]
                        if g > 5 + 1e-3:
                            self.violation(cur, f"{where}: {n} is {g:.2f}\" beyond the front unit along the ball's flight")


# =====================================================================================
# Counters: green counters, figures (sections 6, 7)
# =====================================================================================


def active_units(line):
    """Units that did something this bound (moved, turned, withdrew, ran, fought, fired, limbered)."""
    act = set()
    for d in evs(line):
        t = d.get("event")
        if t in ("moved", "withdrew", "ran"):
            p = d.get("path")
            if p is None or p.get("distance", 0) > 1e-6 or p.get("turns") or t == "ran":
                act.add(d.get("unit"))
        elif t == "close_combat":
            act.update(f.get("unit") for f in d.get("fighters") or [])
        elif t == "bombardment":
            act.add(d.get("battery"))
        elif t in ("limbering", "stopped_running", "pursues", "pursuit_test"):
            act.add(d.get("unit"))
    return act


def gains(line):
    """Green counters and casualties each unit took by the line's events: {unit: [greens, casualties]},
    and the units in a grouping (their side's results shared out in a way the trace does not give)."""
    g = defaultdict(lambda: [0, 0])
    shared = set()
    for d in evs(line):
        t = d.get("event")
        if t == "close_combat":
            c = Combat(d)
            for s in ("attacker", "defender"):
                x = c.res.get(s) or {}
                side = c.side(s)
                if len(side) != 1:
                    shared.update(f.get("unit") for f in side)
                    continue
                n = side[0].get("unit")
                g[n][0] += x.get("greens", 0)
                g[n][1] += x.get("casualties", 0) + (x.get("test_casualties") or 0)
        elif t == "bombardment":
            for n in [d.get("target")] + list(d.get("through") or []):
                g[n][0] += d.get("greens", 0)
                g[n][1] += d.get("casualties", 0)
        elif t == "pursuit_losses":
            g[d.get("unit")][0] += d.get("greens", 0)
            g[d.get("unit")][1] += d.get("casualties", 0)
        elif t == "ran":
            g[d.get("unit")][1] += d.get("deserted", 0)
        elif t in ("changed_sides",):
            shared.add(d.get("unit"))
    return g, shared


class GreensRest(Check):
    name = "green counters come off only by resting: one a bound, for a unit that did nothing at all"
    clause = "6: the green counters are accumulated and can only be removed while resting, one every turn the unit does nothing"

    def line(self, prev, cur, ctx):
        if bound_of(cur) is None:
            return
        us0, us1 = units(prev), units(cur)
        act = None
        g, shared = None, None
        for n, u1 in us1.items():
            u0 = us0.get(n)
            if not u0 or u0.greens is None or u1.greens is None:
                continue
            self.checked()
            if g is None:
                g, shared = gains(cur)
            drop = u0.greens + g[n][0] - u1.greens
            if n in shared:
                if u1.greens < u0.greens - 1:
                    self.violation(cur, f"{n}: {u0.greens} greens to {u1.greens} in a bound")
                continue
            if drop < 0:
                self.violation(cur, f"{n}: {u0.greens} greens + {g[n][0]} taken = {u0.greens + g[n][0]}, has {u1.greens}")
            elif drop > 1:
                self.violation(cur, f"{n}: {u0.greens} greens + {g[n][0]} taken, has {u1.greens}: {drop} removed in a bound")
            elif drop == 1:
                if act is None:
                    act = active_units(cur)
                if n in act:
                    self.violation(cur, f"{n}: a green counter removed in a bound it was not resting")


class FiguresBook(Check):
    name = "figures lost only as the events give them (combat, tests, bombardment, desertion, pursuit)"
    clause = "6 b (casualties: figures removed); 7; 8"

    def line(self, prev, cur, ctx):
        if not cur.get("events"):
            return
        us0, us1 = units(prev), units(cur)
        g, shared = None, None
        for n, u1 in us1.items():
            u0 = us0.get(n)
            if not u0 or u0.figures is None or u1.figures is None:
                continue
            self.checked()
            if u1.figures > u0.figures:
                self.violation(cur, f"{n}: figures rise from {u0.figures} to {u1.figures}")
                continue
            if u1.figures == u0.figures and (g is None or not g[n][1]):
                if g is None:
                    g, shared = gains(cur)
                if not g[n][1]:
                    continue
            if g is None:
                g, shared = gains(cur)
            lost = u0.figures - u1.figures
            if n in shared:
                continue
            if lost != g[n][1] and not (u1.figures == 0):
                self.violation(cur, f"{n}: {u0.figures} to {u1.figures} figures, the events give {g[n][1]} casualties")


class StatusAfterCombat(Check):
    name = "a beaten unit's state at the bound's end: withdrawing or running"
    clause = "7 results (withdraw in good order, run away in disorder)"

    def line(self, prev, cur, ctx):
        us1 = units(cur)
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            for s in ("attacker", "defender"):
                r = (c.res.get(s) or {}).get("reaction")
                want = {"withdraw": {"withdrawing", "running"}, "run_away": {"running"}}.get(r)
                if not want:
                    continue
                for f in c.side(s):
                    u = us1.get(f.get("unit"))
                    if not u:
                        continue
                    self.checked()
                    if u.status not in want:
                        self.violation(cur, f"{f.get('unit')} ({r} against {d.get('defender') if s == 'attacker' else d.get('attackers')}) "
                                            f"ends the bound {u.status}")


# =====================================================================================
# Orders (section 2)
# =====================================================================================


class OrderTimes(Check):
    name = "an order takes 10 + 10 + 2 a unit minutes (by the general's quality), arrives that many bounds on"
    clause = "2 COMMAND AND CONTROL (times; general's percentage; 48 minutes = 5 bounds)"

    def start(self, ctx, first):
        self.pending = defaultdict(list)
        self.waited = set()

    def line(self, prev, cur, ctx):
        b = bound_of(cur)
        for d in evs(cur):
            t = d.get("event")
            key = (d.get("side"), d.get("wing"))
            if t == "order_sent":
                self.checked()
                where = f"{d.get('side')}'s order to the {d.get('wing')}"
                pct = GENERAL_PCT.get(d.get("general"))
                raw = 20 + 2 * (d.get("units") or 0)
                if pct is not None:
                    x = raw * pct / 100.0
                    ok = {math.floor(x + 1e-9), math.ceil(x - 1e-9), int(x + 0.5)}
                    if d.get("minutes") not in ok:
                        self.violation(cur, f"{where}: {d.get('minutes')} minutes, the text (20 + 2x{d.get('units')}) x {pct}% = {x:g}")
                m = d.get("minutes") or 0
                steps = {math.ceil(m / 10 - 1e-9), int(m / 10 + 0.5)}
                sent = d.get("sent")
                if sent is not None and d.get("arrives") is not None and d["arrives"] - sent not in steps:
                    self.violation(cur, f"{where}: sent in bound {sent}, {m} minutes, arrives in bound {d['arrives']}")
                self.pending[key].append(d.get("arrives"))
            elif t == "order_waits":
                self.waited.add(key)
            elif t == "order_arrives":
                self.checked()
                q = self.pending.get(key) or []
                if not q:
                    self.violation(cur, f"{d.get('side')}'s {d.get('wing')} receives an order never sent")
                    continue
                due = q.pop(0)
                if b is not None and due is not None:
                    if b < due or (b > due and key not in self.waited):
                        self.violation(cur, f"{d.get('side')}'s {d.get('wing')} receives in bound {b} an order due in bound {due}")
                self.waited.discard(key)


def wing_orders(line):
    """{(side, wing): the order's first word} from the line's order markers."""
    out = {}
    for m in line.get("markers") or []:
        if m.get("kind") == "order":
            mm = re.match(r"the (.+)'s order: (\w+)", m.get("label") or "")
            if mm:
                out[(m.get("side"), mm.group(1))] = mm.group(2)
    return out


class ContactOrders(Check):
    """Section 2 interpretation 5 (docs/rules/old-fritz.md; the text's "units in close combat
    may not accept new orders"): a unit that fought a close combat in the bound before, or was
    not in good order at its end (withdrawing, running, rallying, pursuing), keeps its old order
    this bound and takes up its wing's latest the first bound it is free. So such a unit may
    still have no orders to attack in the bound its wing's order to attack arrives; any other
    unit of a wing under orders to attack may not."""

    name = "enemies left within 2½\" for want of orders: the unit's wing is not under orders to attack"
    clause = "5a: one side attacks if the unit's or wing's orders insist upon it; 2: units in close combat may not accept new orders"

    def start(self, ctx, first):
        self.fought_last = set()
        self.fought_now = set()

    def line(self, prev, cur, ctx):
        if bound_of(cur) is not None:
            self.fought_last = self.fought_now
            self.fought_now = {f.get("unit") for d in evs(cur, "close_combat") for f in d.get("fighters") or []}
        cs = evs(cur, "contact")
        if not cs:
            return
        orders = wing_orders(cur)
        us0, us1 = units(prev), units(cur)
        for d in cs:
            for n, w in zip(d.get("units") or [], d.get("why") or []):
                if w.get("reason") != "not_ordered":
                    continue
                u = us1.get(n) or us0.get(n)
                if not u:
                    continue
                self.checked()
                u0 = us0.get(n)
                not_free = n in self.fought_last or (u0 is not None and u0.status not in (None, "steady"))
                if orders.get((u.side, u.group)) == "attack" and not not_free:
                    side_name = (ctx.table.get("sides") or ["?", "?"])[u.side] if u.side in (0, 1) else "?"
                    just = any(a.get("wing") == u.group and a.get("side") == side_name for a in evs(cur, "order_arrives"))
                    self.violation(cur, f"{n} stands 2½\" from {[x for x in d.get('units') if x != n]} 'with no orders to attack', "
                                        f"its wing ({u.group}) ordered to attack"
                                        f"{' (the order arrived at the start of this bound)' if just else ''}")


# =====================================================================================
# The table: bodies (sections 1, 5)
# =====================================================================================


class NoOverlap(Check):
    name = "no two enemy units' bodies overlap at a bound's end"
    clause = "1 (units as frontages on the table); 5a (forces moved to within 2½\" of each other, not into each other)"
    enemies = True

    def line(self, prev, cur, ctx):
        if bound_of(cur) is None:
            return
        us = [u for u in units(cur).values() if u.poly and len(u.poly) >= 3]
        boxes = []
        for u in us:
            xs = [p[0] for p in u.poly]
            ys = [p[1] for p in u.poly]
            boxes.append((min(xs), max(xs), min(ys), max(ys)))
        for i in range(len(us)):
            for j in range(i + 1, len(us)):
                if (us[i].side != us[j].side) != self.enemies:
                    continue
                self.checked()
                a, b = boxes[i], boxes[j]
                if a[1] < b[0] or b[1] < a[0] or a[3] < b[2] or b[3] < a[2]:
                    continue
                dep = overlap_depth(us[i].poly, us[j].poly)
                if dep > 0.01:
                    if dep > getattr(self, "deepest", 0.0):
                        self.deepest_at = f"{ctx.scenario} seed {ctx.seed} {ctx.agents}, action {cur.get('n')}: {us[i].name} and {us[j].name}"
                    self.deepest = max(getattr(self, "deepest", 0.0), dep)
                    if dep > 0.2:
                        self.deep = getattr(self, "deep", 0) + 1
                    self.found(cur, f"{us[i].name} and {us[j].name} overlap by {dep:.2f}\"")

    def found(self, cur, what):
        self.violation(cur, what)


    def end(self, ctx, last):
        if getattr(self, "deepest", 0):
            self.examples = [e for e in self.examples if not e.startswith("summary:")]
            self.examples.append(f"summary: deepest overlap {self.deepest:.2f}\" ({self.deepest_at}), "
                                 f"{getattr(self, 'deep', 0)} overlaps deeper than 0.2\"")


class NoFriendOverlap(NoOverlap):
    """No two friendly bodies overlap at a bound's end: a unit may pass through a friend (the
    passage of lines, section 4 interpretation 6) but not end a move or a turn on one. (Counted
    and listed as not implemented until the defensibility reading of issue 28 found that entry
    wanting: 2,834 pair-bounds in 200 battles before.)"""

    name = "no two friendly units' bodies overlap at a bound's end"
    clause = "1 (units as frontages on the table: two bodies cannot stand on the same ground)"
    enemies = False


class PathContinuity(Check):
    name = "a unit's paths start where it stood and it ends the bound where its last path ends"
    clause = "(the trace's consistency: moves as the text measures them)"

    def line(self, prev, cur, ctx):
        us0, us1 = units(prev), units(cur)
        last = {}
        for d in evs(cur):
            if d.get("event") not in ("moved", "withdrew", "ran") or not d.get("path"):
                continue
            n = d.get("unit")
            p = d["path"]
            if n not in last and n in us0 and us0[n].centre:
                self.checked()
                if dist(us0[n].centre, p["from"]) > 0.01:
                    self.violation(cur, f"{n}: its first path starts {dist(us0[n].centre, p['from']):.2f}\" from where it stood")
            elif n in last and dist(last[n], p["from"]) > 0.01:
                self.checked()
                self.violation(cur, f"{n}: a path starts {dist(last[n], p['from']):.2f}\" from where its previous one ended")
            last[n] = p["to"]
        for n, at in last.items():
            if n in us1 and us1[n].centre and us1[n].side == (us0[n].side if n in us0 else us1[n].side):
                self.checked()
                if dist(us1[n].centre, at) > 0.01:
                    self.violation(cur, f"{n}: its last path ends {dist(us1[n].centre, at):.2f}\" from where it stands")


class DiceDrawn(Check):
    name = "every draw is a d6 or d10 with a face of that die"
    clause = "6 (d10 per side), 7 (d10 casualty and pursuit tests), 8 (d6 per battery)"

    def line(self, prev, cur, ctx):
        for x in cur.get("draws") or []:
            self.checked()
            if x.get("kind") != "die" or x.get("sides") not in (6, 10) or not 1 <= (x.get("value") or 0) <= x.get("sides", 0):
                self.violation(cur, f"draw {x}")


# =====================================================================================
# Counts (keep = 0)
# =====================================================================================


class CountRest(Tally):
    name = "count: resting units with green counters: one removed or not"
    clause = "6: one counter can be removed every turn the unit does nothing (distribution)"

    def line(self, prev, cur, ctx):
        if bound_of(cur) is None:
            return
        us0, us1 = units(prev), units(cur)
        act = active_units(cur)
        g, shared = gains(cur)
        for n, u1 in us1.items():
            u0 = us0.get(n)
            if not u0 or not u0.greens or n in act or n in shared or g[n][0]:
                continue
            self.checked()
            self.n["idle with greens: one removed" if u1.greens == u0.greens - 1 else
                   ("idle with greens: kept" if u1.greens == u0.greens else "idle with greens: other")] += 1
            if u1.greens == u0.greens and u0.status != "steady":
                self.n[f"kept while {u0.status}"] += 1


class CountCombats(Tally):
    name = "count: combats by table, band, grouping, guns first; additions; +4 winner's casualty test"
    clause = "5-7 (distribution)"

    def line(self, prev, cur, ctx):
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            self.checked()
            self.n[f"table {c.table}"] += 1
            self.n[f"attackers {len(c.att)}"] += 1
            if c.res.get("guns_first"):
                self.n["guns fire first"] += 1
            for s in ("attacker", "defender"):
                x = c.res.get(s) or {}
                self.n[f"{s} band {x.get('band')}"] += 1
                for a in x.get("additions") or []:
                    self.n[f"addition {a.get('rule')}"] += 1
                if x.get("band") == "plus4" and c.table == "infantry_vs_infantry":
                    o = (c.res.get(Combat.other(s)) or {}).get("reaction")
                    self.n[f"inf +4 winner, enemy {o}: test against the winner {'yes' if x.get('casualty_test') else 'no'}"
                           f", pursuit test {x.get('pursuit_test')}"] += 1
                for sh in x.get("casualty_test_shares") or []:
                    for a in sh.get("additions") or []:
                        if "cover" in (a.get("why") or ""):
                            self.n["casualty test share with cover"] += 1


class CountMoveAndFight(Tally):
    name = "count: part of the bound an attacker spent moving before its combat; attackers' gaps"
    clause = "4, 5c (distribution)"

    def line(self, prev, cur, ctx):
        used = defaultdict(float)
        for e in cur.get("events", []):
            d = e.get("data") or {}
            t = d.get("event")
            if t == "moved" and d.get("path") and (d.get("what") or {}).get("kind") != "finish":
                used[d.get("unit")] += path_time(d["path"])
            elif t == "close_combat":
                for f in d.get("fighters") or []:
                    if f.get("attacker"):
                        self.checked()
                        u = used[f.get("unit")]
                        self.n["moved 0 (did not move)" if u < 1e-9 else ("moved <= 0.5" if u <= 0.5 + 1e-6 else "moved > 0.5")] += 1
                        g = f.get("gap") or 0
                        self.n["gap <= 2.505" if g <= 2.505 else ("gap 2.505-2.52" if g <= 2.52 else
                                ("gap 2.52-2.55" if g <= 2.55 else ("gap 2.55-2.6" if g <= 2.6 else "gap > 2.6")))] += 1
                        self.n["max gap"] = max(self.n.get("max gap", 0), round(g, 3))


class CountContact(Tally):
    name = "count: enemies left within 2½\" without combat: runs of bounds, reasons"
    clause = "5 (no rule forces a close combat; the engine's contact events)"

    def start(self, ctx, first):
        self.run = {}

    def line(self, prev, cur, ctx):
        if bound_of(cur) is None:
            return
        now = {}
        for d in evs(cur, "contact"):
            self.checked()
            k = tuple(sorted(d.get("units") or []))
            now[k] = self.run.get(k, 0) + 1
            for w in d.get("why") or []:
                self.n[f"reason {w.get('reason')}"] += 1
        for k, r in self.run.items():
            if k not in now:
                self.n[f"run of {min(r, 10)}{'+' if r >= 10 else ''} bounds"] += 1
        for k, r in now.items():
            if r > getattr(self, "longest", (0, ""))[0]:
                why = "; ".join(w.get("reason", "?") for d in evs(cur, "contact") if tuple(sorted(d.get("units") or [])) == k
                                for w in d.get("why") or [])
                self.longest = (r, f"longest: {r} bounds, {ctx.scenario} seed {ctx.seed} {ctx.agents}, to action "
                                   f"{cur.get('n')}: {' and '.join(k)} ({why})")
        self.run = now

    def end(self, ctx, last):
        for k, r in self.run.items():
            self.n[f"run of {min(r, 10)}{'+' if r >= 10 else ''} bounds"] += 1
        self.run = {}
        super().end(ctx, last)
        if getattr(self, "longest", None):
            self.examples.append(self.longest[1])


class CountResultMoves(Tally):
    name = "count: withdrawals and runs: cut short and why; rates; a beaten unit's next bound"
    clause = "5c, 7 (distribution)"

    def start(self, ctx, first):
        self.beaten = {}

    def line(self, prev, cur, ctx):
        if bound_of(cur) is None:
            return
        us1 = units(cur)
        done = {}
        for d in evs(cur):
            t = d.get("event")
            if t in ("withdrew", "ran"):
                self.checked()
                p = d.get("path")
                if p is None:
                    self.n[f"{t} with no path"] += 1
                    done[d.get("unit")] = t
                    continue
                done[d.get("unit")] = t
                short = p.get("distance", 0) < (p.get("ordered") or 0) - 1e-3
                self.n[f"{t} {'cut short: ' + p['stop'].get('cause', '?') if short else 'whole way'}"] += 1
                self.n[f"{t} rate {p.get('rate')}"] += 1
        for n, r in self.beaten.items():
            if n in us1:
                self.n[f"beaten ({r}) then next bound: {done.get(n, 'neither withdrew nor ran')}"] += 1
        self.beaten = {}
        for d in evs(cur, "close_combat"):
            c = Combat(d)
            for s in ("attacker", "defender"):
                r = (c.res.get(s) or {}).get("reaction")
                if r in ("withdraw", "run_away"):
                    for f in c.side(s):
                        self.beaten[f.get("unit")] = r


class CountPursuit(Tally):
    name = "count: pursuit tests and their outcome"
    clause = "7 PURSUIT TEST (distribution)"

    def line(self, prev, cur, ctx):
        for d in evs(cur, "pursuit_test"):
            self.checked()
            self.n[f"under control {d.get('under_control')}"] += 1
            for a in d.get("additions") or []:
                if not (a.get("why") or "").startswith("quality"):
                    self.n[f"addition {a.get('why')}"] += 1
        for d in evs(cur, "pursues"):
            self.n["pursues"] += 1
        for d in evs(cur, "pursuit_losses"):
            self.n[f"pursuit losses: {d.get('why')}"] += 1


class CountBombardment(Tally):
    name = "count: bombardments by range and effect; balls passing on"
    clause = "8 (distribution)"

    def line(self, prev, cur, ctx):
        for d in evs(cur, "bombardment"):
            self.checked()
            self.n[f"{'close' if d.get('close') else 'long'}: {d.get('casualties')} cas {d.get('greens')} green"] += 1
            if d.get("through"):
                self.n[f"through {len(d['through'])} unit(s)"] += 1


class CountOrders(Tally):
    name = "count: orders sent, waits (general in close combat), bounds to arrive; units counted vs the wing's pieces"
    clause = "2 (distribution)"

    def line(self, prev, cur, ctx):
        us0 = units(prev)
        for d in evs(cur):
            t = d.get("event")
            if t == "order_sent":
                self.checked()
                self.n[f"bounds to arrive {(d.get('arrives') or 0) - (d.get('sent') or 0)}"] += 1
                wing = [u for u in us0.values() if u.group == d.get("wing") and u.side == ctx.table.get("sides", []).index(d.get("side"))] \
                    if d.get("side") in ctx.table.get("sides", []) else []
                nb = sum(1 for u in wing if u.arm != "artillery")
                self.n["units counted = the wing's pieces" if d.get("units") == len(wing) else
                       ("units counted = its battalions and regiments (no batteries)" if d.get("units") == nb
                        else "units counted differ from the wing's pieces")] += 1
            elif t == "order_waits":
                self.n["order waits"] += 1


class CountOutcome(Tally):
    name = "count: how battles end"
    clause = "(distribution)"

    def line(self, prev, cur, ctx):
        o = cur.get("outcome")
        if o:
            self.checked()
            r = o.get("reason") or ""
            self.n[re.sub(r"\d+", "N", r)[:60]] += 1


# =====================================================================================
# A wing told to hold: a unit near its place holds where it stands (docs/rules/old-fritz.md,
# "A unit's place in its wing"; the hold order of section 2)
# =====================================================================================


def wing_order_words(line):
    """{(side, wing): the order's words} from the line's `order` markers (the orders in force)."""
    out = {}
    for m in line.get("markers") or []:
        if m.get("kind") == "order":
            mm = re.match(r"the (.+)'s order: (.*)$", m.get("label") or "")
            if mm:
                out[(m.get("side"), mm.group(1))] = mm.group(2)
    return out


HOLD_WHEEL = 45.0  # degrees: a wheel this big in one bound ...
HOLD_BACK = 20.0  # ... undone to within this many degrees ...
HOLD_WITHIN = 3  # ... within so many bounds after
HOLD_ENEMY = 24.0  # inches: with no enemy this near
HOLD_SHIFT = 2.0  # inches: ... and standing, at the end, less than this from where it began (a shuffle)


class HoldBound:
    __slots__ = ("bound", "n", "hold", "steady", "f0", "f1", "turned", "cost", "distance", "kinds", "near_unit",
                 "near_wing", "arm", "order", "c0", "c1", "stops")


def _enemy_gaps(us, side):
    return [(n, u) for n, u in us.items() if u.side not in (None, side) and u.poly]


def _radius(u):
    return max(dist(u.centre, q) for q in u.poly)


def _near(u, enemies, within):
    """Whether some enemy's body is within `within` of u's (body to body; centres first)."""
    ru = _radius(u)
    for _, e in enemies:
        d = dist(u.centre, e.centre)
        if d - ru - _radius(e) > within:
            continue
        if d <= within or polygon_distance(u.poly, e.poly) <= within:
            return True
    return False


class HoldBounds:
    """Bound by bound, each unit of a wing: its order, facing before and after, its wheels (the
    path's turns), their cost, the distance gone, and whether an enemy stood within 24" of it or of
    its wing at the bound's start or end."""

    def __init__(self):
        self.rec = defaultdict(list)  # unit -> [HoldBound]

    _shared = {}

    def line(self, prev, cur, ctx):
        """The bounds' records, worked out once a battle for every check that keeps them."""
        key = (id(ctx), ctx.scenario, ctx.seed, ctx.agents)
        mine = HoldBounds._shared.get(key)
        if mine is None or mine[0] is not ctx:
            HoldBounds._shared.clear()
            HoldBounds._shared[key] = (ctx, self)
            mine = (ctx, self)
        if mine[1] is not self:
            self.rec = mine[1].rec
            return
        self._line(prev, cur, ctx)

    def _line(self, prev, cur, ctx):
        b = bound_of(cur)
        if b is None:
            return
        orders = wing_order_words(cur)
        us0, us1 = units(prev), units(cur)
        paths = defaultdict(list)
        for d in evs(cur):
            if d.get("event") in ("moved", "ran", "withdrew") and d.get("path"):
                paths[d.get("unit")].append((d.get("event"), (d.get("what") or {}).get("kind"), d["path"]))
        wing_near = {}
        for n, u1 in us1.items():
            u0 = us0.get(n)
            if u0 is None or u1.facing is None or u0.facing is None:
                continue
            key = (u1.side, u1.group)
            if key not in wing_near:
                members = [x for x in list(us0.values()) + list(us1.values()) if (x.side, x.group) == key]
                en = _enemy_gaps(us0, u1.side) + _enemy_gaps(us1, u1.side)
                wing_near[key] = any(_near(m, en, HOLD_ENEMY) for m in members)
            r = HoldBound()
            r.bound, r.n = b, cur.get("n")
            r.order = orders.get(key, "")
            r.hold = r.order.startswith("hold")
            r.steady = u0.status == "steady" and u1.status == "steady"
            r.f0, r.f1 = u0.facing, u1.facing
            r.c0, r.c1 = u0.centre, u1.centre
            ps = paths.get(n, [])
            r.turned = sum(t.get("degrees", 0.0) for _, _, p in ps for t in p.get("turns") or [])
            r.cost = sum(t.get("cost", 0.0) for _, _, p in ps for t in p.get("turns") or [])
            r.distance = sum(p.get("distance", 0.0) for _, _, p in ps)
            r.kinds = [k or e for e, k, _ in ps]
            r.stops = [(p.get("stop") or {}).get("cause") for _, _, p in ps]
            r.near_unit = _near(u0, _enemy_gaps(us0, u1.side), HOLD_ENEMY) or _near(u1, _enemy_gaps(us1, u1.side), HOLD_ENEMY)
            r.near_wing = wing_near[key]
            r.arm = u1.arm
            self.rec[n].append(r)


class HoldNoWheelBack(Check):
    """The register's "A unit's place in its wing" (HOLD_NEAR): a unit told to hold within 2" of
    its place that would have to wheel to get there holds where it stands. So no unit of a wing
    holding should wheel more than 45 degrees in a bound and wheel back (net under 20 degrees from
    where it faced before) within the next three bounds with no enemy within 24" of it (body to
    body, at the bounds' starts and ends) — the shuffle the change removed. A unit that meanwhile
    marched 2" or more to a new place (its centre 2" or more from where it began: a wing sent to
    hold somewhere else turns to march there and faces the enemy again on arriving) is counted, not
    judged. Steady units under a
    hold order throughout, moving by their order (march, guns) or not at all. Each found is a
    violation, with its bounds; whether an enemy was within 24" of another unit of its wing (which
    the wing faces as one line) is said."""
    name = "a unit of a wing told to hold does not wheel over 45 degrees in a bound and back (net under 20) within three bounds, ending under 2\" from where it began, with no enemy within 24\""
    clause = "2 COMMAND AND CONTROL (hold); register: a unit's place in its wing (HOLD_NEAR, 2026-11-28)"
    keep = 20

    def start(self, ctx, first):
        self.hb = HoldBounds()
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        self.hb.line(prev, cur, ctx)

    @staticmethod
    def ok(r):
        return r.hold and r.steady and all(k in ("march", "guns") for k in r.kinds)

    def end(self, ctx, last):
        for n, rs in self.hb.rec.items():
            for i, r in enumerate(rs):
                if not self.ok(r):
                    continue
                self.checked()
                w = abs(turn(r.f0, r.f1))
                if w <= HOLD_WHEEL:
                    continue
                self.tally[f"hold: a wheel over 45 degrees in a bound ({r.arm}, {'an enemy within 24 inches of it' if r.near_unit else 'of its wing only' if r.near_wing else 'no enemy within 24 inches of the wing'})"] += 1
                for j in range(i + 1, min(len(rs), i + 1 + HOLD_WITHIN)):
                    run_ = rs[i:j + 1]
                    if any(not self.ok(x) for x in run_) or any(x.bound != r.bound + k for k, x in enumerate(run_)):
                        break
                    if abs(turn(r.f0, rs[j].f1)) < HOLD_BACK:
                        shift = dist(r.c0, rs[j].c1)
                        if shift >= HOLD_SHIFT:
                            self.tally[f"wheeled back, having marched {'under 5' if shift < 5 else '5 or more'} inches to a new place meanwhile (not a shuffle)"] += 1
                        elif any(x.near_unit for x in run_):
                            self.tally["wheeled back, an enemy within 24 inches of it meanwhile"] += 1
                        else:
                            wing = any(x.near_wing for x in run_)
                            self.tally[f"wheeled back, no enemy within 24 inches of it ({'one within 24 inches of its wing' if wing else 'none of its wing'})"] += 1
                            self.violation({"n": r.n}, f"{n} ({r.arm}, {r.order}) wheels {turn(r.f0, r.f1):+.0f} degrees in bound {r.bound} "
                                                       f"({r.f0:.0f} -> {r.f1:.0f}, {r.distance:.1f}\" gone) and back to {rs[j].f1:.0f} by bound {rs[j].bound} "
                                                       f"(net {turn(r.f0, rs[j].f1):+.0f}), no enemy within 24\" of it"
                                                       f"{' (one within 24 inches of its wing)' if wing else ''}")
                        break


class CountHoldShuffle(Tally):
    """Hold-order units that go under 2" in a bound while spending the whole bound wheeling (the
    turns' cost 1): the shuffle the HOLD_NEAR reading removes, or a wheel to face the enemy as one
    line (counted apart, by whether an enemy is within 24" of the wing)."""
    name = "count: hold-order units going under 2\" in a bound spent wholly on wheeling"
    clause = "2 (hold); register: a unit's place in its wing (HOLD_NEAR)"

    def start(self, ctx, first):
        self.hb = HoldBounds()

    def line(self, prev, cur, ctx):
        self.hb.line(prev, cur, ctx)

    def end(self, ctx, last):
        for n, rs in self.hb.rec.items():
            for i, r in enumerate(rs):
                if not (r.hold and r.steady):
                    continue
                self.checked()
                if r.cost >= 1.0 - 1e-9 and r.distance < 2.0:
                    self.n[f"{r.arm}: whole bound wheeling, {'no move' if r.distance < 1e-6 else 'under 2 inches'}, "
                           f"{'an enemy within 24 inches of the wing' if r.near_wing else 'no enemy within 24 inches of the wing'}"] += 1
                    # what follows: the shuffle HOLD_NEAR removes is a wheel and then under 2" to arrive
                    nx = rs[i + 1] if i + 1 < len(rs) and rs[i + 1].bound == r.bound + 1 else None
                    if nx is None or not (nx.hold and nx.steady):
                        after = "the order or state changes next bound"
                    elif nx.distance < 1e-6:
                        after = "next bound it stays"
                    elif nx.distance < 2.0 and "arrived" in nx.stops:
                        after = "next bound it goes under 2 inches and arrives (a shuffle)"
                        self.n[f"  shuffle e.g. {ctx.scenario} seed {ctx.seed} {ctx.agents} bound {r.bound}: {n} "
                               f"{turn(r.f0, r.f1):+.0f} deg, then {nx.distance:.2f}\""] += 1
                    elif nx.distance < 2.0:
                        after = f"next bound it goes under 2 inches, stopped: {', '.join(sorted(set(str(c) for c in nx.stops)))}"
                    else:
                        after = "next bound it goes 2 or more inches"
                    self.n[f"{r.arm}: whole bound wheeling: {after}"] += 1
        super().end(ctx, last)


CHECKS = [
    CombatDice, CombatBand, CombatTable, CombatResults, CasualtyTest, CombatAdditions, Outnumbered,
    EnemyToRear, CombatGap, CombatAfterWholeMove, BeatenMoveNextBound, StatusAfterCombat, HaltedNoFurther,
    DisintegrateGone, WithdrawAway, NoMoveThrough, GunsFirst, PursuitTestTaken, PursuitTest, PursuitLosses,
    MoveRates, TurnCosts, TrotStraight, ResultMoves, LinearObstacle, WagonsSlow, Limbering, Bombardment, BallThrough,
    GreensRest, FiguresBook, OrderTimes, ContactOrders, Frontage, WagonCount, NoOverlap, NoFriendOverlap, PathContinuity, DiceDrawn,
    CountCombats, CountMoveAndFight, CountContact, CountResultMoves, CountPursuit, CountBombardment,
    CountOrders, CountOutcome, CountRest, NoMoveThroughFriends, CountAttackOrders, HoldNoWheelBack, CountHoldShuffle,
]
