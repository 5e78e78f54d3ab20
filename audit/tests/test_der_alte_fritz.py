"""Der Alte Fritz's checks, each shown able to fail on a small made-up trace (and, where it can,
passing the same trace undoctored)."""

import copy
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402
import der_alte_fritz as daf  # noqa: E402

MUSK = "Musketeers & Fusiliers"
GREN = "Grenadiers/Guards"
JAG = "Jagers/Croats & Irregulars"
CUIR = "Cuirassiers"
DRAG = "Dragoons"
MART = "Medium Artillery (6-8 lbs.)"
ARMS = {MUSK: "infantry", GREN: "infantry", JAG: "infantry", CUIR: "cavalry", DRAG: "cavalry", MART: "artillery"}


def rect(cx, cy, w, d, facing=0.0):
    """A body centred at (cx, cy), `w` wide and `d` deep, facing `facing`."""
    f = common.heading_vec(facing)
    s = common.heading_vec(facing + 90)
    pts = []
    for a, b in ((-w / 2, d / 2), (w / 2, d / 2), (w / 2, -d / 2), (-w / 2, -d / 2)):
        pts.append([cx + a * s[0] + b * f[0], cy + a * s[1] + b * f[1]])
    return pts


def piece(name, side, typ, form, cx, cy, w=6.0, d=1.0, facing=0.0, status="good order", figures=24, hits=0,
          leader=False):
    label = f"{name} ({typ}, {form}): {figures} of {figures + hits} figures, {hits} hits, {status}" + (", leader attached" if leader else "")
    return {"side": side, "unit": name, "label": label, "footprint": {"shape": "polygon", "points": rect(cx, cy, w, d, facing)},
            "facing": facing, "status": status, "counters": [{"kind": "figures", "n": figures}, {"kind": "hits", "n": hits}],
            "arm": ARMS[typ]}


def officer(side, unit, at, kind="general", label="an officer"):
    return {"side": side, "kind": kind, "at": list(at), "label": label, "footprint": {"shape": "circle", "at": list(at), "r": 0.5},
            "unit": unit}


def line0(pieces, markers=(), terrain=(), sides=("Prussians", "Austrians")):
    return {"n": 0, "turn": 0, "phase": "opening",
            "table": {"ruleset": "der-alte-fritz", "title": "test", "width": 72, "depth": 48, "unit": "inch",
                      "sides": list(sides), "terrain": list(terrain)},
            "events": [], "pieces": pieces, "markers": list(markers), "objectives": []}


def ev(kind, text="", **data):
    d = {"kind": kind}
    d.update(data)
    d["text"] = text
    return {"text": text, "data": d}


def step(prev, events=(), pieces=None, markers=None, phase=None, turn=None, by=0, action=None, draws=()):
    return {"n": prev["n"] + 1, "turn": prev["turn"] if turn is None else turn, "phase": phase or prev["phase"],
            "by": {"side": by}, "action": action or {"kind": "done"}, "draws": list(draws), "events": list(events),
            "pieces": copy.deepcopy(prev["pieces"] if pieces is None else pieces),
            "markers": copy.deepcopy(prev["markers"] if markers is None else markers), "objectives": []}


def draws(*values, purpose="a die"):
    return [{"kind": "die", "sides": 10, "purpose": purpose, "value": v} for v in values]


def run(cls, lines):
    c = cls()
    common.run_trace(lines, [c], "test", 1, "a,b")
    return c


def with_piece(line, name, **changes):
    """A copy of `line`'s pieces with unit `name` changed."""
    ps = copy.deepcopy(line["pieces"])
    for p in ps:
        if p["unit"] == name:
            for k, v in changes.items():
                if k == "at":
                    cx, cy, w, d, f = v
                    p["footprint"]["points"] = rect(cx, cy, w, d, f)
                    p["facing"] = f
                elif k == "status":
                    p["status"] = v
                    p["label"] = p["label"].replace("good order", v)
                elif k == "figures":
                    p["counters"][0]["n"] = v
                elif k == "hits":
                    p["counters"][1]["n"] = v
                elif k == "formation":
                    p["label"] = p["label"].replace(", line)", f", {v})").replace(", limbered)", f", {v})")
                else:
                    p[k] = v
    return ps


def test_dict(chart, number, dice, result=None):
    kept = sorted(dice)[:2]
    fails = sum(1 for k in kept if k > number)
    return {"chart": chart, "number": number, "dice": list(dice), "kept": kept,
            "result": result or ["passed", "shaken", "rout"][fails]}


class Base(unittest.TestCase):
    def assertPasses(self, c):
        self.assertGreater(c.count, 0, f"{c.name}: nothing checked")
        self.assertEqual(c.violations, 0, f"{c.name}: {c.examples}")

    def assertFails(self, c):
        self.assertGreater(c.violations, 0, f"{c.name}: should have failed")


def two_lines():
    """A Prussian line facing north and an Austrian line facing south, 8\" apart."""
    return line0([piece("P1", 0, MUSK, "line", 20, 10), piece("A1", 1, MUSK, "line", 20, 19, facing=180.0)])


# ----------------------------------------------------------------------


class TurnSequence(Base):
    def begin(self, p, a, text=None, winner=None):
        txt = text or f"initiative: Prussians {p}, Austrians {a}: " + ("a tie, rolled again" if p == a else
                                                                        ("Prussians" if p > a else "Austrians") + " win and choose")
        if winner is None and p != a:
            winner = 0 if p > a else 1
        return ev("initiative", txt, dice=[p, a], winner=winner)

    def test_initiative(self):
        l0 = two_lines()
        good = step(l0, [ev("turn", turn=1), self.begin(7, 3)], phase="initiative", turn=1, draws=draws(7, 3, purpose="an initiative die"))
        self.assertPasses(run(daf.InitiativeRoll, [l0, good]))
        bad = step(l0, [ev("turn", turn=1), self.begin(7, 3, winner=1)], phase="initiative", turn=1, draws=draws(7, 3, purpose="an initiative die"))
        self.assertFails(run(daf.InitiativeRoll, [l0, bad]))
        plus2 = step(l0, [ev("turn", turn=1), ev("initiative", "initiative: Prussians 3 +2 (an exceptional commander) = 5, Austrians 4: Prussians win and choose",
                                                 dice=[3, 4], winner=0)], phase="initiative", turn=1, draws=draws(3, 4, purpose="an initiative die"))
        self.assertFails(run(daf.InitiativeRoll, [l0, plus2]))

    def test_choice(self):
        l0 = two_lines()
        l1 = step(l0, [ev("turn", turn=1), self.begin(7, 3)], phase="initiative", turn=1, draws=draws(7, 3, purpose="an initiative die"))
        good = step(l1, [ev("chose", first=1)], phase="movement", by=0, action={"kind": "initiative", "move_first": False})
        self.assertPasses(run(daf.ChoiceOfFirst, [l0, l1, good]))
        bad = step(l1, [ev("chose", first=0)], phase="movement", by=0, action={"kind": "initiative", "move_first": False})
        self.assertFails(run(daf.ChoiceOfFirst, [l0, l1, bad]))

    def test_phase_order(self):
        l0 = two_lines()
        l1 = step(l0, [ev("turn", turn=1), self.begin(7, 3)], phase="initiative", turn=1)
        l2 = step(l1, [ev("chose", first=0)], phase="movement", by=0, action={"kind": "initiative", "move_first": True})
        m0 = step(l2, phase="movement", by=0, action={"kind": "move", "unit": 0})
        m1 = step(m0, phase="firing", by=1, action={"kind": "move", "unit": 1})
        f1 = step(m1, phase="firing", by=1, action={"kind": "fire", "unit": 1, "target": 0})
        f0 = step(f1, phase="firing", by=0, action={"kind": "fire", "unit": 0, "target": 1})
        self.assertPasses(run(daf.PhaseOrder, [l0, l1, l2, m0, m1, f1, f0]))
        # side A (0) fires first: wrong
        g0 = step(m1, phase="firing", by=0, action={"kind": "fire", "unit": 0, "target": 1})
        g1 = step(g0, phase="firing", by=1, action={"kind": "fire", "unit": 1, "target": 0})
        self.assertFails(run(daf.PhaseOrder, [l0, l1, l2, m0, m1, g0, g1]))


# ----------------------------------------------------------------------


def moved(unit, frm, to, facing, formation, distance=None, cost=None, allowance=10.0, text=""):
    d = math.dist(frm, to) if distance is None else distance
    return ev("moved", text, unit=unit, **{"from": list(frm), "to": list(to)}, facing=facing, formation=formation,
              distance=d, cost=d if cost is None else cost, allowance=allowance)


class Movement(Base):
    def test_within_allowance(self):
        l0 = two_lines()
        good = step(l0, [moved(0, (20, 10), (20, 18), 0.0, "line", allowance=8.0)], phase="movement")
        self.assertPasses(run(daf.MoveWithinAllowance, [l0, good]))
        bad = step(l0, [moved(0, (20, 10), (20, 19), 0.0, "line", allowance=8.0)], phase="movement")
        self.assertFails(run(daf.MoveWithinAllowance, [l0, bad]))

    def test_allowance_from_text(self):
        l0 = two_lines()
        good = step(l0, [moved(0, (20, 10), (20, 18), 0.0, "line", allowance=8.0)], phase="movement")
        self.assertPasses(run(daf.MoveAllowanceFromText, [l0, good]))
        # musketeers in line: 8"; moving backwards is at half: 4"
        back = step(l0, [moved(0, (20, 10), (20, 4), 0.0, "line", allowance=8.0)], phase="movement")
        self.assertFails(run(daf.MoveAllowanceFromText, [l0, back]))
        # an Austrian obliquely at full rate
        obl = step(l0, [moved(1, (20, 19), (16, 12.1), 180.0, "line", allowance=8.0)], phase="movement")
        self.assertFails(run(daf.MoveAllowanceFromText, [l0, obl]))
        # shaken at full rate
        l0s = line0(with_piece(l0, "P1", status="shaken"))
        sh = step(l0s, [moved(0, (20, 10), (20, 14), 0.0, "line", allowance=8.0)], phase="movement")
        self.assertFails(run(daf.MoveAllowanceFromText, [l0s, sh]))

    def test_formation_or_facing(self):
        l0 = two_lines()
        a = step(l0, [moved(0, (20, 10), (20, 10), 0.0, "march_column", allowance=6.0)], phase="movement")
        b = step(a, [moved(0, (20, 10), (20, 10), 45.0, "line", allowance=4.0)], phase="leader and reserve")
        c = run(daf.FormationOrFacing, [l0, a, b])
        self.assertFails(c)
        self.assertPasses(run(daf.FormationOrFacing, [l0, a]))

    def test_terrain_cost(self):
        woods = {"kind": "woods", "name": "w", "points": [[0, 0], [40, 0], [40, 8], [0, 8]], "closed": True}
        l0 = line0([piece("P1", 0, MUSK, "line", 20, 3), piece("A1", 1, MUSK, "line", 20, 30, facing=180.0)], terrain=[woods])
        end = with_piece(l0, "P1", at=(20, 5, 6, 1, 0.0))
        good = step(l0, [moved(0, (20, 3), (20, 5), 0.0, "line", cost=4.0, allowance=8.0)], pieces=end, phase="movement")
        self.assertPasses(run(daf.TerrainCost, [l0, good]))
        bad = step(l0, [moved(0, (20, 3), (20, 5), 0.0, "line", cost=2.0, allowance=8.0)], pieces=end, phase="movement")
        self.assertFails(run(daf.TerrainCost, [l0, bad]))
        open_ = step(l0, [moved(1, (20, 30), (20, 25), 180.0, "line", cost=7.0, allowance=8.0)],
                     pieces=with_piece(l0, "A1", at=(20, 25, 6, 1, 180.0)), phase="movement")
        self.assertFails(run(daf.TerrainCost, [l0, open_]))

    def test_impassable(self):
        brook = {"kind": "impassable", "name": "brook", "points": [[30, 0], [33, 0], [33, 40], [30, 40]], "closed": True}
        l0 = line0([piece("P1", 0, MUSK, "line", 20, 10), piece("A1", 1, MUSK, "line", 20, 19, facing=180.0)], terrain=[brook])
        good = step(l0, pieces=with_piece(l0, "P1", at=(25, 10, 6, 1, 0.0)))
        self.assertPasses(run(daf.NotIntoImpassable, [l0, good]))
        bad = step(l0, pieces=with_piece(l0, "P1", at=(29, 10, 6, 1, 0.0)))
        self.assertFails(run(daf.NotIntoImpassable, [l0, bad]))

    def rout(self, ordered):
        l0 = two_lines()
        return [l0, step(l0, [ev("forced", unit=0, why="rout", **{"from": [20, 10], "to": [20, -2]}, heading=180.0, facing=0.0,
                                 ordered=ordered, done=12.0, terrain=[], stopped=None, off_table=False)],
                         pieces=with_piece(l0, "P1", status="running", at=(20, -2, 6, 1, 0.0)))]

    def test_rout(self):
        self.assertPasses(run(daf.RoutMove, self.rout(12.0)))
        self.assertFails(run(daf.RoutMove, self.rout(24.0)))

    def test_frontage(self):
        l0 = two_lines()
        good = step(l0, pieces=with_piece(l0, "P1", at=(20, 10, 1, 6, 0.0), formation="march column"))
        self.assertPasses(run(daf.Frontage, [l0, good]))
        bad = step(l0, pieces=with_piece(l0, "P1", at=(20, 10, 2, 3, 0.0), formation="march column"))
        self.assertFails(run(daf.Frontage, [l0, bad]))

    def test_formation_in_table(self):
        l0 = line0([piece("J", 1, JAG, "skirmish order", 20, 19, w=9, figures=12, facing=180.0), piece("P1", 0, MUSK, "line", 20, 10)])
        self.assertPasses(run(daf.FormationInTable, [l0, step(l0)]))
        bad = step(l0, pieces=with_piece(l0, "J", label="J (Jagers/Croats & Irregulars, attack column): 12 of 12 figures, 0 hits, good order"))
        self.assertFails(run(daf.FormationInTable, [l0, bad]))


# ----------------------------------------------------------------------


def volley(unit, target, frm, distance, firing, chart, why, number, dice, rng="short", flank=False, test=None, officer_die=None):
    return ev("volley", "", unit=unit, target=target, **{"from": list(frm)}, distance=distance, range=rng, firing=firing,
              chart=chart, why=why, flank=flank, number=number, dice=list(dice), hits=sum(1 for d in dice if d <= number),
              officer_die=officer_die, test=test)


class Firing(Base):
    def fire(self, **kw):
        l0 = two_lines()
        args = dict(unit=0, target=1, frm=(20, 10.5), distance=8.0, firing=24, chart="C", why=["a line: target C"], number=5,
                    dice=[1, 2, 6, 7, 8, 9], test=test_dict("A", 8, [3, 4]))
        args.update(kw)
        return [l0, step(l0, [volley(**args)], phase="firing", action={"kind": "fire", "unit": 0, "target": 1})]

    def test_range(self):
        self.assertPasses(run(daf.FireRange, self.fire()))
        self.assertFails(run(daf.FireRange, self.fire(distance=9.0)))

    def test_front_rank(self):
        self.assertPasses(run(daf.FiringFrontRank, self.fire()))
        l0 = line0([piece("P1", 0, MUSK, "march column", 20, 7.5, w=1, d=6), piece("A1", 1, MUSK, "line", 20, 19, facing=180.0)])
        bad = step(l0, [volley(0, 1, (20, 10.5), 8.0, 24, "B", ["a line: target C"], 6, [9] * 6)], phase="firing")
        self.assertFails(run(daf.FiringFrontRank, [l0, bad]))

    def test_arc(self):
        self.assertPasses(run(daf.FireArc, self.fire()))
        l0 = line0([piece("P1", 0, MUSK, "line", 20, 10), piece("A1", 1, MUSK, "line", 40, 11, facing=180.0)])
        bad = step(l0, [volley(0, 1, (20, 10.5), 8.0, 24, "C", ["a line: target C"], 5, [9] * 6)], phase="firing")
        self.assertFails(run(daf.FireArc, [l0, bad]))

    def test_dice(self):
        self.assertPasses(run(daf.FireDice, self.fire()))
        self.assertFails(run(daf.FireDice, self.fire(dice=[1, 2, 3, 4, 5])))  # 5 dice for 24 figures
        self.assertFails(run(daf.FireDice, self.fire(number=6)))  # musketeers on C hit on 5

    def test_chart(self):
        self.assertPasses(run(daf.FireChart, self.fire()))
        self.assertFails(run(daf.FireChart, self.fire(chart="B")))
        self.assertFails(run(daf.FireChart, self.fire(why=["a column: target B"], chart="B")))

    def test_flank(self):
        self.assertPasses(run(daf.FireFlank, self.fire()))
        self.assertFails(run(daf.FireFlank, self.fire(flank=True)))

    def test_artillery(self):
        l0 = line0([piece("G", 0, MART, "limbered", 20, 10, w=1.5, d=1.5, figures=4), piece("A1", 1, MUSK, "line", 20, 19, facing=180.0)])
        f = volley(0, 1, (20, 10.75), 8.0, 4, "C", ["a line: target C"], 5, [1, 2, 3, 4, 5, 6, 7, 8])
        self.assertFails(run(daf.ArtilleryFire, [l0, step(l0, [f], phase="firing")]))
        l0u = line0(with_piece(l0, "G", formation="unlimbered"))
        self.assertPasses(run(daf.ArtilleryFire, [l0u, step(l0u, [f], phase="firing")]))

    def test_one_volley(self):
        lines = self.fire()
        self.assertPasses(run(daf.OneVolley, lines))
        again = step(lines[1], [volley(0, 1, (20, 10.5), 8.0, 24, "C", ["a line: target C"], 5, [9] * 6)], phase="firing",
                     action={"kind": "fire", "unit": 0, "target": 1})
        self.assertFails(run(daf.OneVolley, lines + [again]))

    def test_fire_test(self):
        self.assertPasses(run(daf.FireTest, self.fire()))
        self.assertFails(run(daf.FireTest, self.fire(test=None)))


# ----------------------------------------------------------------------


class Morale(Base):
    def shot(self, test, text, hits_after=2, pieces=None, markers=(), officer_die=None):
        l0 = line0(pieces or two_lines()["pieces"], markers=markers)
        v = volley(0, 1, (20, 10.5), 8.0, 24, "C", ["a line: target C"], 5, [1, 2, 9, 9, 9, 9], test=test, officer_die=officer_die)
        v["text"] = text
        v["data"]["text"] = text
        cur = step(l0, [v], phase="firing", pieces=with_piece(l0, "A1", hits=hits_after, figures=22))
        return [l0, cur]

    def test_arithmetic(self):
        t = "A1 tests morale on chart A (2 hits in all), passes on 8 or under, 2 dice (2 in the open): 3 4"
        self.assertPasses(run(daf.MoraleArithmetic, self.shot(test_dict("A", 8, [3, 4]), t)))
        self.assertFails(run(daf.MoraleArithmetic, self.shot(test_dict("A", 8, [3, 9], result="passed"), t)))
        self.assertFails(run(daf.MoraleArithmetic, self.shot(test_dict("A", 9, [3, 4]), t)))  # musketeers A: 8

    def test_chart(self):
        t = "2 dice (2 in the open)"
        self.assertPasses(run(daf.MoraleChart, self.shot(test_dict("A", 8, [3, 4]), t)))
        self.assertFails(run(daf.MoraleChart, self.shot(test_dict("B", 7, [3, 4]), t)))

    def test_dice_count(self):
        t = "A1 tests morale on chart A (2 hits in all), passes on 8 or under, 2 dice (2 in the open): 3 4"
        self.assertPasses(run(daf.MoraleDiceCount, self.shot(test_dict("A", 8, [3, 4]), t)))
        led = two_lines()["pieces"]
        lines = self.shot(test_dict("A", 8, [3, 4]), t, pieces=led, markers=[officer(1, "A1", (20, 19))])
        self.assertFails(run(daf.MoraleDiceCount, lines))  # a leader attached and no +1
        t3 = "A1 tests morale on chart A (2 hits in all), passes on 8 or under, 3 dice (2 in the open, +1 for its leader; the two lowest count): 3 4 5"
        self.assertPasses(run(daf.MoraleDiceCount, self.shot(test_dict("A", 8, [3, 4, 5]), t3, pieces=led,
                                                              markers=[officer(1, "A1", (20, 19))])))

    def test_dice_count_officer_killed(self):
        """Interpretation 8: the volley whose officer's die kills the leader tests without his die,
        unless another leader is with the unit."""
        led = two_lines()["pieces"]
        one = [officer(1, "A1", (20, 19))]
        two = one + [officer(1, "A1", (21, 19), label="another officer")]
        t2 = "A1 tests morale on chart A (2 hits in all), passes on 8 or under, 2 dice (2 in the open): 3 4"
        t3 = "A1 tests morale on chart A (2 hits in all), passes on 8 or under, 3 dice (2 in the open, +1 for its leader; the two lowest count): 3 4 5"
        for die in (9, 10):
            self.assertPasses(run(daf.MoraleDiceCount, self.shot(test_dict("A", 8, [3, 4]), t2, pieces=led, markers=one, officer_die=die)))
            self.assertFails(run(daf.MoraleDiceCount, self.shot(test_dict("A", 8, [3, 4, 5]), t3, pieces=led, markers=one, officer_die=die)))
            self.assertFails(run(daf.MoraleDiceCount, self.shot(test_dict("A", 8, [3, 4]), t2, pieces=led, markers=two, officer_die=die)))
            self.assertPasses(run(daf.MoraleDiceCount, self.shot(test_dict("A", 8, [3, 4, 5]), t3, pieces=led, markers=two, officer_die=die)))
        # a wound leaves him leading
        self.assertFails(run(daf.MoraleDiceCount, self.shot(test_dict("A", 8, [3, 4]), t2, pieces=led, markers=one, officer_die=8)))

    def test_cover(self):
        self.assertFails(run(daf.CoverClaim, self.shot(test_dict("A", 8, [3, 4, 5]), "3 dice (3 in cover; the two lowest count)")))
        self.assertPasses(run(daf.CoverClaim, self.shot(test_dict("A", 8, [3, 4]), "2 dice (2 in the open)")))

    def test_secure_flanks(self):
        alone = "4 dice (4 with secure flanks; the two lowest count)"
        self.assertFails(run(daf.SecureFlanksClaim, self.shot(test_dict("A", 8, [3, 4, 5, 6]), alone)))
        friends = two_lines()["pieces"] + [piece("A2", 1, MUSK, "line", 28, 19, facing=180.0), piece("A3", 1, MUSK, "line", 12, 19, facing=180.0)]
        self.assertPasses(run(daf.SecureFlanksClaim, self.shot(test_dict("A", 8, [3, 4, 5, 6]), alone, pieces=friends)))

    def test_secure_flanks_after_losses(self):
        """A unit that lost figures earlier in the action tests for its commander's death as it
        stands then, narrower: a friend 2.8\" ahead of its new flanks secures them."""
        l0 = line0(two_lines()["pieces"] + [piece("A2", 1, MUSK, "line", 20, 22.8, w=1.0, facing=180.0)])
        txt = "A1 tests for the army commander's death on chart A, passes on 8 or under, 4 dice (4 with secure flanks; the two lowest count): 1 2 3 4 — passed"

        def death(after_figures):
            pieces = with_piece(l0, "A1", figures=after_figures, at=(20, 19, 2.0 if after_figures == 8 else 6.0, 1.0, 180.0))
            return [l0, step(l0, [ev("morale", txt, unit=1, test=test_dict("A", 8, [1, 2, 3, 4]))], pieces=pieces, phase="firing")]
        self.assertPasses(run(daf.SecureFlanksClaim, death(8)))
        self.assertFails(run(daf.SecureFlanksClaim, death(24)))

    def test_outcome(self):
        l0 = line0(with_piece(two_lines(), "A1", status="shaken"))
        v = volley(0, 1, (20, 10.5), 8.0, 24, "C", ["a line: target C", "target shaken D"], 4, [1, 2, 9, 9, 9, 9],
                   test=test_dict("A", 8, [9, 10]))
        self.assertFails(run(daf.TestOutcome, [l0, step(l0, [v], phase="firing")]))
        gone = step(l0, [v, ev("removed", unit=1)], phase="firing", pieces=[p for p in l0["pieces"] if p["unit"] != "A1"])
        self.assertPasses(run(daf.TestOutcome, [l0, gone]))

    def test_outcome_after_a_rally_on_the_spot(self):
        """A shaken unit that won a melee and rallied on the spot (pursuit die 6+) and then fails
        both dice of its test to charge in the same action routs; it is not removed."""
        l0 = line0(with_piece(two_lines(), "P1", status="shaken"))
        fought = [side(rect(20, 11, 6, 1, 180.0), 180.0, "C", 5, [9] * 6, test_dict("A", 8, [1, 9])),
                  side(rect(20, 10, 6, 1, 0.0), 0.0, "C", 5, [9] * 6, test_dict("A", 8, [1, 2]))]
        first = melee_ev(1, 0, fought=fought, winner=0, pursuit_die=None)
        second = melee_ev(0, 1, charge_test=test_dict("A", 8, [9, 10]), defence_test=None)
        pieces = with_piece(line0(with_piece(l0, "P1", status="running")), "A1", status="shaken")

        def action(die):
            f = copy.deepcopy(first)
            (f.get("data") or f)["pursuit_die"] = die
            return [l0, step(l0, [f, second], phase="leader and reserve", pieces=pieces)]
        self.assertPasses(run(daf.TestOutcome, action(7)))
        self.assertFails(run(daf.TestOutcome, action(None)))  # still shaken: its rout removes it

    def rally(self, status, result, removed):
        l0 = line0(with_piece(two_lines(), "A1", status=status), markers=[officer(1, "A1", (20, 19))])
        txt = "A1 tries to rally (its one attempt to rally from rout): 2 dice on chart C, pass on 5 or under"
        evs = [ev("morale", txt, unit=1, test=test_dict("C", 5, [9, 9] if result == "rout" else [1, 2]))]
        if removed:
            evs.append(ev("removed", unit=1))
        return [l0, step(l0, evs, phase="movement")]

    def test_rally_from_rout(self):
        self.assertPasses(run(daf.RallyFromRout, self.rally("running", "rout", True)))
        self.assertFails(run(daf.RallyFromRout, self.rally("running", "rout", False)))

    def test_last_stands(self):
        l0 = two_lines()
        self.assertPasses(run(daf.LastStands, [l0, step(l0, pieces=with_piece(l0, "A1", figures=8))]))
        self.assertFails(run(daf.LastStands, [l0, step(l0, pieces=with_piece(l0, "A1", figures=4))]))

    def test_restore(self):
        l0 = line0(with_piece(two_lines(), "A1", status="shaken"))
        mv = step(l0, [moved(1, (20, 19), (20, 22), 180.0, "line", allowance=2.0)], phase="movement", by=1)
        restore = step(mv, [ev("morale", "A1 has stood a whole turn without moving: its order is restored", unit=1, test=None),
                            ev("turn", turn=2)], phase="initiative", pieces=with_piece(mv, "A1", status="good order"))
        self.assertFails(run(daf.ShakenRestore, [l0, mv, restore]))
        still = step(l0, phase="movement", by=1)
        restore2 = step(still, [ev("morale", "A1 has stood a whole turn without moving: its order is restored", unit=1, test=None),
                                ev("turn", turn=2)], phase="initiative")
        self.assertPasses(run(daf.ShakenRestore, [l0, still, restore2]))

    def test_rally_by_leader(self):
        l0 = line0(with_piece(two_lines(), "A1", status="shaken"))
        r = ev("morale", "A1 tries to rally (its leader rallies it): 2 dice on chart C", unit=1, test=test_dict("C", 5, [1, 2]))
        self.assertFails(run(daf.RallyByLeader, [l0, step(l0, [r], phase="movement")]))
        l0b = line0(l0["pieces"], markers=[officer(1, "A1", (20, 19))])
        self.assertPasses(run(daf.RallyByLeader, [l0b, step(l0b, [r], phase="movement")]))


# ----------------------------------------------------------------------


def melee_ev(charger, defender, **kw):
    text = kw.pop("text", "")
    d = dict(charger=charger, defender=defender, flank=False, turned=0.0, reach=10.0, cost=7.0, went=None, why=[],
             charge_test=test_dict("A", 8, [1, 2]), defence_test=test_dict("A", 8, [1, 2]), counter_test=None, at_halt=False,
             fought=None, winner=None, pursuit_die=None)
    d.update(kw)
    return ev("melee", text, **d)


def side(body, facing, chart, number, dice, post):
    return {"body": body, "facing": facing, "chart": chart, "number": number, "dice": list(dice),
            "hits": sum(1 for x in dice if x <= number), "post": post}


class Melee(Base):
    def foot_fight(self, **kw):
        """P1 (musketeers, line) charges A1 head on: they meet at y 14.5."""
        l0 = two_lines()
        fought = [side(rect(20, 14, 6, 1, 0.0), 0.0, "C", 5, [1, 2, 9, 9, 9, 9], test_dict("A", 8, [1, 2])),
                  side(rect(20, 15, 6, 1, 180.0), 180.0, "C", 5, [1, 9, 9, 9, 9, 9], test_dict("A", 8, [1, 2]))]
        text = ("P1 charges A1. Test to charge: chart A, pass on 8 or under, 2 dice (2 in the open): 1 2; "
                "A1's test to stand: chart A, pass on 8 or under, 2 dice (2 in the open): 1 2; "
                "P1 fights on chart C, hits on 5 or under, 6 d10 (1 per 4 of its 24 figures): 1 2 9 9 9 9 — 2 hits; "
                "A1 fights on chart C, hits on 5 or under, 6 d10 (1 per 4 of its 24 figures): 1 9 9 9 9 9 — 1 hit; "
                "after the melee P1: chart A, pass on 8 or under, 2 dice (2 in the open): 1 2, A1: chart A, pass on 8 or under, 2 dice (2 in the open): 1 2")
        after = kw.pop("after", None)
        args = dict(went=[[20, 14], 0.0], fought=fought, text=text)
        args.update(kw)
        m = melee_ev(0, 1, **args)
        evs = [m] + (after if after is not None else [
            ev("forced", unit=0, why="retire", **{"from": [20, 14], "to": [20, 4]}, heading=180.0, facing=0.0, ordered=10.0,
               done=10.0, terrain=[], stopped=None, off_table=False)])
        cur = step(l0, evs, phase="leader and reserve",
                   pieces=with_piece(l0, "P1", status="shaken", at=(20, 4, 6, 1, 0.0), hits=1, figures=23))
        for p in cur["pieces"]:
            if p["unit"] == "A1":
                p["status"] = "shaken"
                p["counters"][1]["n"] = 2
        return [l0, cur]

    def test_declaration(self):
        l0 = two_lines()
        good = step(l0, [ev("declared", unit=0, target=1, cost=8.0, reach=10.0, turned=0.0, flank=False)], phase="movement")
        self.assertPasses(run(daf.ChargeDeclaration, [l0, good]))
        bad = step(l0, [ev("declared", unit=0, target=1, cost=8.0, reach=12.0, turned=0.0, flank=False)], phase="movement")
        self.assertFails(run(daf.ChargeDeclaration, [l0, bad]))
        obl = step(l0, [ev("declared", unit=1, target=0, cost=8.0, reach=10.0, turned=0.0, oblique=30.0, flank=False)], phase="movement")
        self.assertFails(run(daf.ChargeDeclaration, [l0, obl]))  # an Austrian charging obliquely
        l0j = line0([piece("J", 0, JAG, "skirmish order", 20, 10, w=9, figures=12), piece("A1", 1, MUSK, "line", 20, 19, facing=180.0)])
        jag = step(l0j, [ev("declared", unit=0, target=1, cost=8.0, reach=8.0, turned=0.0, flank=False)], phase="movement")
        self.assertFails(run(daf.ChargeDeclaration, [l0j, jag]))

    def test_sequence(self):
        self.assertPasses(run(daf.MeleeSequence, self.foot_fight()))
        self.assertFails(run(daf.MeleeSequence, self.foot_fight(fought=None)))
        self.assertFails(run(daf.MeleeSequence, self.foot_fight(charge_test=test_dict("A", 8, [1, 9]))))

    def horse_fight(self, **kw):
        l0 = line0([piece("C1", 0, CUIR, "line", 20, 10, w=9, d=1.5, figures=12), piece("C2", 1, DRAG, "line", 20, 19, w=9, d=1.5, facing=180.0, figures=12)])
        args = dict(counter_test=test_dict("A", 9, [1, 2]), at_halt=False)
        args.update(kw)
        return [l0, step(l0, [melee_ev(0, 1, **args)], phase="leader and reserve")]

    def test_counter_charge(self):
        self.assertPasses(run(daf.CounterCharge, self.horse_fight()))
        self.assertFails(run(daf.CounterCharge, self.horse_fight(counter_test=test_dict("A", 9, [1, 10]))))  # failed, not at the halt
        l0 = self.horse_fight()[0]
        l0s = line0(with_piece(l0, "C2", status="shaken"))
        bad = step(l0s, [melee_ev(0, 1, counter_test=test_dict("A", 9, [1, 2]), at_halt=False)], phase="leader and reserve")
        self.assertFails(run(daf.CounterCharge, [l0s, bad]))

    def test_dice(self):
        self.assertPasses(run(daf.MeleeDice, self.foot_fight()))
        f = self.foot_fight()[1]["events"][0]["data"]["fought"]
        f[0]["number"] = 6
        self.assertFails(run(daf.MeleeDice, self.foot_fight(fought=f)))

    def test_chart(self):
        self.assertPasses(run(daf.MeleeChart, self.foot_fight()))
        f = self.foot_fight()[1]["events"][0]["data"]["fought"]
        f[0]["chart"], f[0]["number"] = "B", 6
        self.assertFails(run(daf.MeleeChart, self.foot_fight(fought=f)))
        self.assertFails(run(daf.MeleeChart, self.foot_fight(why=["A1 shaken: D; P1 against a shaken enemy: B"])))

    def test_flank(self):
        self.assertPasses(run(daf.MeleeFlank, self.foot_fight()))
        self.assertFails(run(daf.MeleeFlank, self.foot_fight(flank=True, why=["a flank or rear attack: A for the charger, E for the defender"])))

    def test_contact(self):
        self.assertPasses(run(daf.MeleeContact, self.foot_fight()))
        f = self.foot_fight()[1]["events"][0]["data"]["fought"]
        f[0]["body"] = rect(20, 12, 6, 1, 0.0)
        self.assertFails(run(daf.MeleeContact, self.foot_fight(fought=f)))
        self.assertFails(run(daf.MeleeContact, self.foot_fight(went=[[20, 22], 0.0])))

    def test_outcome(self):
        self.assertPasses(run(daf.MeleeOutcome, self.foot_fight()))
        self.assertFails(run(daf.MeleeOutcome, self.foot_fight(after=[])))
        self.assertFails(run(daf.MeleeOutcome, self.foot_fight(winner=0)))

    def test_outcome_rallied_by_a_later_melee(self):
        """The charger that retired shaken may be rallied on the spot by winning a later melee of
        the same action (pursuit die 6+): good order at the end is then right."""
        def later(rally):
            lines = self.foot_fight()
            for p in lines[1]["pieces"]:
                if p["unit"] == "P1":
                    p["status"] = "good order"
            if rally:
                fought = [side(rect(20, 5, 6, 1, 180.0), 180.0, "C", 5, [9] * 6, test_dict("A", 8, [9, 9])),
                          side(rect(20, 4, 6, 1, 0.0), 0.0, "C", 5, [9] * 6, test_dict("A", 8, [1, 2]))]
                lines[1]["events"].append(melee_ev(1, 0, fought=fought, winner=0, pursuit_die=7))
            return lines
        self.assertFails(run(daf.MeleeOutcome, later(False)))
        self.assertPasses(run(daf.MeleeOutcome, later(True)))

    def test_post_shaken(self):
        self.assertPasses(run(daf.PostMeleeShaken, self.foot_fight()))
        lines = self.foot_fight()
        for p in lines[1]["pieces"]:
            p["status"] = "good order"
        self.assertFails(run(daf.PostMeleeShaken, lines))

    def test_pursuit(self):
        l0 = line0([piece("C1", 0, CUIR, "line", 20, 10, w=9, d=1.5, figures=12), piece("A1", 1, MUSK, "line", 20, 19, facing=180.0)])
        fought = [side(rect(20, 17.75, 9, 1.5, 0.0), 0.0, "B", 8, [1, 2, 3], test_dict("A", 9, [1, 2])),
                  side(rect(20, 19, 6, 1, 180.0), 180.0, "D", 4, [9] * 6, test_dict("A", 8, [1, 9]))]
        back = ev("forced", unit=1, why="fall_back", **{"from": [20, 19], "to": [20, 29]}, heading=0.0, facing=180.0, ordered=10.0,
                  done=10.0, terrain=[], stopped=None, off_table=False)
        pursue = ev("forced", unit=0, why="pursue", **{"from": [20, 17.75], "to": [20, 40]}, heading=0.0, facing=0.0, ordered=38.0,
                    done=22.0, terrain=[], stopped=None, off_table=False)
        pieces = with_piece(l0, "C1", status="shaken")
        good = step(l0, [melee_ev(0, 1, fought=fought, winner=0, pursuit_die=1), back, pursue], pieces=pieces, phase="leader and reserve")
        self.assertPasses(run(daf.CavalryPursuit, [l0, good]))
        bad = step(l0, [melee_ev(0, 1, fought=fought, winner=0, pursuit_die=1), back], pieces=pieces, phase="leader and reserve")
        self.assertFails(run(daf.CavalryPursuit, [l0, bad]))
        nodie = step(l0, [melee_ev(0, 1, fought=fought, winner=0, pursuit_die=None), back], pieces=pieces, phase="leader and reserve")
        self.assertFails(run(daf.CavalryPursuit, [l0, nodie]))

    def test_shaken_retires(self):
        fought = self.foot_fight()[1]["events"][0]["data"]["fought"]
        fought[1]["post"] = test_dict("A", 8, [1, 9])
        back = ev("forced", unit=1, why="fall_back", **{"from": [20, 15], "to": [20, 25]}, heading=0.0, facing=180.0, ordered=10.0,
                  done=10.0, terrain=[], stopped=None, off_table=False)
        self.assertPasses(run(daf.ShakenInMeleeRetires, self.foot_fight(fought=fought, winner=0, after=[back])))
        short = dict(back["data"], ordered=8.0)
        self.assertFails(run(daf.ShakenInMeleeRetires, self.foot_fight(fought=fought, winner=0, after=[{"text": "", "data": short}])))
        self.assertFails(run(daf.ShakenInMeleeRetires, self.foot_fight(fought=fought, winner=0, after=[])))

    def test_shaken_retires_router(self):
        """Interpretation 38: a unit routing before the charge that fails by one die makes a rout move."""
        fought = self.foot_fight()[1]["events"][0]["data"]["fought"]
        fought[1]["post"] = test_dict("A", 8, [1, 9])
        rout = ev("forced", unit=1, why="rout", **{"from": [20, 15], "to": [20, 27]}, heading=0.0, facing=0.0, ordered=12.0,
                  done=12.0, terrain=[], stopped=None, off_table=False)
        back = ev("forced", unit=1, why="fall_back", **{"from": [20, 15], "to": [20, 25]}, heading=0.0, facing=180.0, ordered=10.0,
                  done=10.0, terrain=[], stopped=None, off_table=False)

        def routing(lines, after_status):
            for p in lines[0]["pieces"]:
                if p["unit"] == "A1":
                    p["status"] = "running"
            for p in lines[1]["pieces"]:
                if p["unit"] == "A1":
                    p["status"] = after_status
            return lines
        self.assertPasses(run(daf.ShakenInMeleeRetires, routing(self.foot_fight(fought=fought, winner=0, after=[rout]), "running")))
        self.assertFails(run(daf.ShakenInMeleeRetires, routing(self.foot_fight(fought=fought, winner=0, after=[back]), "shaken")))
        self.assertFails(run(daf.ShakenInMeleeRetires, routing(self.foot_fight(fought=fought, winner=0, after=[rout]), "shaken")))
        # routed by an earlier melee of the same action: a router too
        first = melee_ev(0, 1, defence_test=test_dict("A", 8, [9, 9]))
        first_rout = ev("forced", unit=1, why="rout", **{"from": [20, 15], "to": [20, 15]}, heading=0.0, facing=0.0, ordered=12.0,
                        done=0.0, terrain=[], stopped="B1 in the way", off_table=False)

        def earlier(after, status):
            lines = self.foot_fight(fought=fought, winner=0, after=after)
            lines[1]["events"][:0] = [first, first_rout]
            for p in lines[1]["pieces"]:
                if p["unit"] == "A1":
                    p["status"] = status
            return lines
        self.assertPasses(run(daf.ShakenInMeleeRetires, earlier([rout], "running")))
        self.assertFails(run(daf.ShakenInMeleeRetires, earlier([back], "shaken")))

    def test_shaken_retires_hemmed_in(self):
        """Interpretation 27: a unit with no room to turn where it stood or where it stopped keeps its facing."""
        fought = self.foot_fight()[1]["events"][0]["data"]["fought"]
        fought[1]["post"] = test_dict("A", 8, [1, 9])

        def away(stopped, blocker):
            back = ev("forced", unit=1, why="fall_back", **{"from": [20, 15], "to": [20, 15.1]}, heading=0.0, facing=0.0,
                      ordered=10.0, done=0.1, terrain=[], stopped=stopped, off_table=False)
            lines = self.foot_fight(fought=fought, winner=0, after=[back])
            if blocker:
                lines[1]["pieces"].append(piece("B1", 1, MUSK, "line", 20, 15.8, w=8, d=1.0, facing=180.0))
            return lines
        self.assertPasses(run(daf.ShakenInMeleeRetires, away("B1 in the way", True)))
        self.assertFails(run(daf.ShakenInMeleeRetires, away("B1 in the way", False)))  # room to turn: it should have
        self.assertFails(run(daf.ShakenInMeleeRetires, away(None, True)))

    def back(self, heading=0.0, facing=180.0, to=(20, 25), done=10.0, ordered=10.0, stopped=None, extra=(), a1_facing=None):
        """A1 (charged head on by P1, shaken after the melee) falls back; `a1_facing` turns A1 before the melee."""
        fought = self.foot_fight()[1]["events"][0]["data"]["fought"]
        fought[1]["post"] = test_dict("A", 8, [1, 9])
        if a1_facing is not None:
            fought[1]["body"] = rect(20, 15, 6, 1, a1_facing)
            fought[1]["facing"] = a1_facing
        mv = ev("forced", unit=1, why="fall_back", **{"from": [20, 15], "to": list(to)}, heading=heading, facing=facing,
                ordered=ordered, done=done, terrain=[], stopped=stopped, off_table=False)
        lines = self.foot_fight(fought=fought, winner=0, after=[mv])
        for p in lines[1]["pieces"]:
            if p["unit"] == "A1":
                p["footprint"]["points"] = rect(to[0], to[1], 6, 1, facing)
                p["facing"] = facing
        lines[0]["pieces"].extend(copy.deepcopy(list(extra)))
        lines[1]["pieces"].extend(copy.deepcopy(list(extra)))
        return lines

    def test_back_to_rear(self):
        """Interpretation 52: facing its enemy, straight back with its facing kept; taken in the flank, turned to face
        the enemy and straight away from its centre."""
        self.assertPasses(run(daf.BackToRear, self.back()))
        self.assertFails(run(daf.BackToRear, self.back(facing=0.0)))  # turned its back
        self.assertFails(run(daf.BackToRear, self.back(heading=30.0, to=(25, 23.66))))  # not straight back
        # A1 facing 60 degrees, P1's centre 120 degrees off it (south): turn to face south, go north
        self.assertPasses(run(daf.BackToRear, self.back(a1_facing=60.0)))
        self.assertFails(run(daf.BackToRear, self.back(a1_facing=60.0, facing=60.0, heading=240.0, to=(11.34, 10))))

    def test_back_distance(self):
        self.assertPasses(run(daf.BackDistance, self.back()))
        self.assertFails(run(daf.BackDistance, self.back(ordered=8.0, done=8.0, to=(20, 23))))  # musketeers' column is 10"
        self.assertFails(run(daf.BackDistance, self.back(done=4.0, to=(20, 19))))  # short, nothing said
        self.assertFails(run(daf.BackDistance, self.back(done=4.0, to=(20, 19), stopped="the table's edge")))
        friend = piece("A2", 1, MUSK, "line", 20, 20.0, facing=180.0)
        self.assertPasses(run(daf.BackDistance, self.back(done=4.0, to=(20, 19), stopped="A2 in the way", extra=[friend])))
        far = piece("A2", 1, MUSK, "line", 20, 24.5, facing=180.0)
        self.assertFails(run(daf.BackDistance, self.back(done=4.0, to=(20, 19), stopped="A2 in the way", extra=[far])))

    def test_back_not_nearer(self):
        self.assertPasses(run(daf.BackNotNearer, self.back()))
        self.assertFails(run(daf.BackNotNearer, self.back(heading=180.0, to=(20, 13), done=2.0)))  # into the enemy
        other = piece("P2", 0, MUSK, "line", 20, 26, facing=0.0)  # an enemy where it ends
        self.assertFails(run(daf.BackNotNearer, self.back(extra=[other])))

    def test_one_round(self):
        lines = self.foot_fight()
        self.assertPasses(run(daf.OneRound, lines))
        again = step(lines[1], [lines[1]["events"][0]], phase="leader and reserve")
        self.assertFails(run(daf.OneRound, lines + [again]))

    def test_agrees_with_tests(self):
        l0 = line0([piece("C1", 0, CUIR, "line", 20, 10, w=9, d=1.5, figures=12), piece("A1", 1, MUSK, "line", 20, 19, facing=180.0)])
        fought = [side(rect(20, 17.75, 9, 1.5, 0.0), 0.0, "C", 7, [1, 2, 3], test_dict("A", 9, [1, 2])),
                  side(rect(20, 19, 6, 1, 180.0), 180.0, "C", 5, [9] * 6, test_dict("A", 8, [1, 2]))]
        txt = ("C1 charges A1. Test to charge: chart A, pass on 9 or under, 2 dice (2 in the open): 1 2; "
               "A1's test to stand: chart A, pass on 8 or under, 4 dice (4 with secure flanks; the two lowest count): 1 2 3 4")
        good = step(l0, [melee_ev(0, 1, fought=fought, text=txt)], phase="leader and reserve")
        self.assertPasses(run(daf.MeleeAgreesWithTests, [l0, good]))
        bad = step(l0, [melee_ev(0, 1, fought=fought, text=txt, why=["cavalry against infantry without secure flanks: B; the infantry: D"])],
                   phase="leader and reserve")
        self.assertFails(run(daf.MeleeAgreesWithTests, [l0, bad]))


# ----------------------------------------------------------------------


class ReserveAndOfficers(Base):
    def test_reserve(self):
        l0 = line0([piece("P1", 0, MUSK, "line", 20, 5), piece("A1", 1, MUSK, "line", 20, 45, facing=180.0)])
        far = step(l0, [moved(0, (20, 5), (20, 10), 0.0, "line", allowance=8.0)], phase="leader and reserve",
                   pieces=with_piece(l0, "P1", at=(20, 10, 6, 1, 0.0)))
        l0["phase"] = "leader and reserve"
        self.assertPasses(run(daf.ReserveMove, [l0, far]))
        l1 = line0(two_lines()["pieces"])
        l1["phase"] = "leader and reserve"
        near = step(l1, [moved(0, (20, 10), (20, 12), 0.0, "line", allowance=8.0)], phase="leader and reserve")
        self.assertFails(run(daf.ReserveMove, [l1, near]))

    def test_fate(self):
        l0 = line0(two_lines()["pieces"], markers=[officer(1, "A1", (20, 19))])
        good = step(l0, [ev("officer", officer=0, die=7, fate="severe_wound", ride=None)])
        self.assertPasses(run(daf.OfficerFate, [l0, good]))
        bad = step(l0, [ev("officer", officer=0, die=7, fate="light_wound", ride=None)])
        self.assertFails(run(daf.OfficerFate, [l0, bad]))

    def test_die_only_attached(self):
        l0 = two_lines()
        v = volley(0, 1, (20, 10.5), 8.0, 24, "C", ["a line: target C"], 5, [1, 9, 9, 9, 9, 9], test=test_dict("A", 8, [1, 2]), officer_die=4)
        self.assertFails(run(daf.OfficerDieOnlyAttached, [l0, step(l0, [v], phase="firing")]))
        l0b = line0(l0["pieces"], markers=[officer(1, "A1", (20, 19))])
        self.assertPasses(run(daf.OfficerDieOnlyAttached, [l0b, step(l0b, [v, ev("officer", officer=0, die=4, fate="missed", ride=None)],
                                                                     phase="firing")]))

    def test_army_commander(self):
        ps = two_lines()["pieces"] + [piece("A2", 1, MUSK, "line", 30, 19, facing=180.0)]
        l0 = line0(ps, markers=[officer(1, "A1", (20, 19), kind="commander")])
        v = volley(0, 1, (20, 10.5), 8.0, 24, "C", ["a line: target C"], 5, [1, 9, 9, 9, 9, 9], test=test_dict("A", 8, [1, 2]), officer_die=10)
        death = ev("officer", officer=0, die=10, fate="killed_by_round_shot", ride=None)
        t2 = ev("morale", "A2 tests for the army commander's death on chart A", unit=2, test=test_dict("A", 8, [1, 2]))
        self.assertPasses(run(daf.ArmyCommanderDeath, [l0, step(l0, [v, death, t2], phase="firing")]))
        self.assertFails(run(daf.ArmyCommanderDeath, [l0, step(l0, [v, death], phase="firing")]))

    def test_wounded(self):
        l0 = line0(two_lines()["pieces"], markers=[officer(1, "A1", (20, 19))])
        l0["turn"] = 3
        w = step(l0, [ev("officer", officer=0, die=7, fate="severe_wound", ride=None)], phase="firing", turn=3)
        ride = step(w, [ev("officer", officer=0, die=None, fate=None, ride={"from": [20, 19], "unit": 1, "distance": 3.0, "most": 24.0})],
                    phase="leader and reserve", turn=4)
        self.assertFails(run(daf.WoundedOfficer, [l0, w, ride]))
        later = step(w, [ev("officer", officer=0, die=None, fate=None, ride={"from": [20, 19], "unit": 1, "distance": 3.0, "most": 24.0})],
                     phase="leader and reserve", turn=6)
        self.assertPasses(run(daf.WoundedOfficer, [l0, w, later]))

    def test_no_overlap(self):
        l0 = two_lines()
        self.assertPasses(run(daf.NoOverlap, [l0, step(l0, pieces=with_piece(l0, "P1", at=(20, 18, 6, 1, 0.0)))]))
        self.assertFails(run(daf.NoOverlap, [l0, step(l0, pieces=with_piece(l0, "P1", at=(20, 18.5, 6, 1, 0.0)))]))

    def test_dice_drawn(self):
        l0 = two_lines()
        v = volley(0, 1, (20, 10.5), 8.0, 24, "C", ["a line: target C"], 5, [1, 9, 9, 9, 9, 9], test=test_dict("A", 8, [1, 2]))
        self.assertPasses(run(daf.DiceDrawn, [l0, step(l0, [v], draws=draws(1, 9, 9, 9, 9, 9, 1, 2))]))
        self.assertFails(run(daf.DiceDrawn, [l0, step(l0, [v], draws=draws(1, 9, 9, 9, 9, 8, 1, 2))]))


class Counts(Base):
    def test_counts_never_violate(self):
        lines = Melee().foot_fight()
        for cls in daf.CHECKS:
            c = run(cls, lines)
            if cls.keep == 0:
                self.assertEqual(c.violations, 0, cls.name)

    def test_counts_count(self):
        c = run(daf.CountFlanks, Firing().fire())
        self.assertEqual(c.tally["volley frontal"], 1)
        c = run(daf.CountHitsFigures, Morale().shot(test_dict("A", 8, [3, 4]), "2 dice (2 in the open)"))
        self.assertEqual(sum(c.tally.values()), 1)
        c = run(daf.CountRemovals, [two_lines(), step(two_lines(), [ev("removed", "A1 is removed: down to its last stands", unit=1)])])
        self.assertEqual(c.tally["down to its last stands"], 1)

    def test_every_check_has_a_test(self):
        src = open(os.path.abspath(__file__), encoding="utf-8").read()
        for cls in daf.CHECKS:
            if cls.keep != 0:
                self.assertIn("daf." + cls.__name__ + ",", src, f"no test runs {cls.__name__}")

    def test_every_check_listed_once(self):
        self.assertEqual(len(daf.CHECKS), len(set(daf.CHECKS)))
        for cls in daf.CHECKS:
            self.assertTrue(cls.name and cls.clause, cls)


if __name__ == "__main__":
    unittest.main()
