"""Each Old Fritz check shown able to fail on a small made-up trace (and, where it can, to pass one
it must pass)."""

import copy
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402
import old_fritz as of  # noqa: E402

SIDES = ["Prussians", "Austrians"]
ARM = {"line infantry": "infantry", "grenz": "infantry", "medium guns": "artillery", "heavy guns": "artillery",
       "hussars": "cavalry", "dragoons": "cavalry", "cuirassiers": "cavalry", "gensdarmes": "cavalry"}


def body(x, y, facing=0.0, w=3.0, d=0.5):
    """Corners: front left, front right, rear right, rear left."""
    fx, fy = math.sin(math.radians(facing)), math.cos(math.radians(facing))
    rx, ry = fy, -fx  # to the right
    pts = []
    for a, b in ((-1, 1), (1, 1), (1, -1), (-1, -1)):
        pts.append([x + a * rx * w / 2 + b * fx * d / 2, y + a * ry * w / 2 + b * fy * d / 2])
    return pts


def piece(name, side, kind, at, facing=0.0, quality="C", figs=12, start=12, greens=0, status="steady",
          limbered=None, w=3.0, d=0.5, group="centre"):
    lab = f"{name} ({kind}, quality {quality}): {figs} of {start} figures, {greens} greens"
    if limbered is not None:
        lab += ", limbered" if limbered else ", unlimbered"
    return {"side": side, "unit": name, "label": lab,
            "footprint": {"shape": "polygon", "points": body(at[0], at[1], facing, w, d)},
            "facing": facing, "status": status,
            "counters": [{"kind": "figures", "n": figs}, {"kind": "green", "n": greens}],
            "arm": ARM[kind], "group": group}


def first(pieces, terrain=()):
    return {"n": 0, "turn": 1, "phase": "orders",
            "table": {"ruleset": "old-fritz", "title": "test", "width": 72.0, "depth": 48.0, "unit": "inch",
                      "sides": SIDES, "terrain": list(terrain)},
            "events": [], "pieces": copy.deepcopy(pieces), "markers": [], "objectives": []}


def bound(n, pieces, events, draws=(), b=None):
    evs = [{"event": "bound_begins", "bound": b or n}] + list(events)
    return {"n": n, "turn": n, "phase": "orders", "by": {"side": 1}, "action": "end_orders",
            "draws": list(draws), "events": [{"text": e.get("event", ""), "data": e} for e in evs],
            "pieces": copy.deepcopy(pieces), "markers": [], "objectives": []}


def run(check, lines):
    c = check()
    common.run_trace(lines, [c], scenario="test")
    return c


def fighter(p, attacker, gap=None):
    u = of.Unit(p)
    return {"unit": p["unit"], "attacker": attacker, "arm": p["arm"], "quality": u.quality, "figures": u.figures,
            "figures_start": u.start, "greens": u.greens, "frontage": 3.0, "at": list(u.centre),
            "facing": p["facing"], "body": [list(q) for q in p["footprint"]["points"]],
            "gap": gap if gap is not None else (0.0 if not attacker else
                                                 common.polygon_distance(u.poly, of.Unit(DEF[0]).poly))}


def side(die, adds=(), band=None, reaction=None, greens=0, cas=0, test=None, shares=(), tcas=0, arm="infantry",
         total=None):
    t = die + sum(v for _, v in adds)
    return {"additions": [{"rule": r, "value": v} for r, v in adds], "die": die, "total": t if total is None else total,
            "score": 0, "band": band, "reaction": reaction, "greens": greens, "casualties": cas,
            "casualty_test": test, "casualty_test_shares": list(shares), "arm": arm, "test_casualties": tcas,
            "pursuit_test": False, "note": ""}


def combat(att, dfn, table, a, d, guns_first=None):
    a = copy.deepcopy(a)
    d = copy.deepcopy(d)
    a["score"] = a["total"] - d["total"]
    d["score"] = -a["score"]
    return {"event": "close_combat", "attackers": [f["unit"] for f in att], "defender": dfn[0]["unit"],
            "resolution": {"table": table, "guns_first": guns_first, "attacker": a, "defender": d},
            "fighters": att + dfn}


A = piece("IR 1", 0, "line infantry", (10, 10), 0.0)
B = piece("IR 2", 1, "line infantry", (10, 13.0), 180.0)
DEF = [B]


def dice_for(*vals):
    return [{"kind": "die", "sides": 10, "purpose": "d10", "value": v} for v in vals]


def simple_combat(adie=7, ddie=3, **kw):
    """IR 1 (C) attacks IR 2 (C): +4 against -4: the defender withdraws."""
    a = side(adie, band="plus4", reaction="unaffected", test=[[4, 1], 7],
             shares=[{"figures": 12, "dice": [4, 1], "additions": [{"value": 2, "why": "quality C, enemy standing"}]}],
             tcas=1)
    d = side(ddie, band="minus1_to7", reaction="withdraw", greens=1, test=[[6, 6], 13],
             shares=[{"figures": 12, "dice": [6, 6], "additions": [{"value": 1, "why": "quality C, enemy withdrawing"}]}],
             tcas=1)
    a.update(kw.get("a", {}))
    d.update(kw.get("d", {}))
    return combat([fighter(A, True)], [fighter(B, False)], "infantry_vs_infantry", a, d)


def combat_lines(cc, draws=None, after=None):
    pieces = after or [A, B]
    return [first([A, B]), bound(1, pieces, [cc], draws if draws is not None else dice_for(7, 3, 4, 1, 6, 6))]


class TestCombat(unittest.TestCase):
    def test_dice_pass_and_fail(self):
        self.assertEqual(run(of.CombatDice, combat_lines(simple_combat())).violations, 0)
        cc = simple_combat()
        cc["resolution"]["attacker"]["total"] = 9
        self.assertGreater(run(of.CombatDice, combat_lines(cc)).violations, 0)
        self.assertGreater(run(of.CombatDice, combat_lines(simple_combat(), draws=dice_for(1, 2))).violations, 0)

    def test_band(self):
        self.assertEqual(run(of.CombatBand, combat_lines(simple_combat())).violations, 0)
        cc = simple_combat(a={"band": "plus1_to3"})
        self.assertEqual(run(of.CombatBand, combat_lines(cc)).violations, 1)

    def test_table(self):
        cc = simple_combat()
        cc["resolution"]["table"] = "cavalry_vs_infantry"
        self.assertEqual(run(of.CombatTable, combat_lines(cc)).violations, 1)

    def test_results(self):
        self.assertEqual(run(of.CombatResults, combat_lines(simple_combat())).violations, 0)
        cc = simple_combat(d={"greens": 2})
        self.assertEqual(run(of.CombatResults, combat_lines(cc)).violations, 1)
        cc = simple_combat(d={"reaction": "run_away"})
        self.assertEqual(run(of.CombatResults, combat_lines(cc)).violations, 1)
        cc = simple_combat(d={"casualty_test": None})
        self.assertEqual(run(of.CombatResults, combat_lines(cc)).violations, 1)

    def test_casualty_test(self):
        self.assertEqual(run(of.CasualtyTest, combat_lines(simple_combat())).violations, 0)
        # a wrong quality column: C against a withdrawing enemy is +1, not +2
        cc = simple_combat()
        cc["resolution"]["defender"]["casualty_test_shares"][0]["additions"][0] = {"value": 2, "why": "quality C, enemy withdrawing"}
        self.assertGreater(run(of.CasualtyTest, combat_lines(cc)).violations, 0)
        # three dice for 12 figures
        cc = simple_combat()
        cc["resolution"]["defender"]["casualty_test_shares"][0]["dice"] = [6, 6, 1]
        self.assertGreater(run(of.CasualtyTest, combat_lines(cc)).violations, 0)
        # a score of 13 gives one casualty, not two
        cc = simple_combat(d={"test_casualties": 2})
        self.assertEqual(run(of.CasualtyTest, combat_lines(cc)).violations, 1)

    def test_additions(self):
        self.assertEqual(run(of.CombatAdditions, combat_lines(simple_combat())).violations, 0)
        cc = simple_combat(a={"additions": [{"rule": "flank attack", "value": 2}], "total": 9})
        self.assertGreater(run(of.CombatAdditions, combat_lines(cc)).violations, 0)
        cc = simple_combat(a={"additions": [{"rule": "each quality grade higher than the enemy", "value": 2}], "total": 9})
        self.assertEqual(run(of.CombatAdditions, combat_lines(cc)).violations, 1)
        # greens: the attacker has 2 greens, the addition must be -6
        global A
        keep = A
        try:
            A = piece("IR 1", 0, "line infantry", (10, 10), 0.0, greens=2)
            cc = simple_combat(a={"additions": [{"rule": "each green counter", "value": -3}], "total": 4})
            self.assertEqual(run(of.CombatAdditions, combat_lines(cc)).violations, 1)
            cc = simple_combat(a={"additions": [{"rule": "each green counter", "value": -6}], "total": 1})
            self.assertEqual(run(of.CombatAdditions, combat_lines(cc)).violations, 0)
        finally:
            A = keep

    def test_cavalry_additions(self):
        h = piece("Hussars", 0, "hussars", (10, 10), 0.0, figs=8, start=8, w=8)
        a = side(6, adds=[("dragoons and others against infantry", -2)], band="plus4", reaction="pursue", greens=2,
                 arm="cavalry")
        d = side(1, band="minus1_to7", reaction="withdraw", greens=1)
        cc = combat([fighter(h, True)], [fighter(B, False)], "cavalry_vs_infantry", a, d)
        self.assertGreater(run(of.CombatAdditions, [first([h, B]), bound(1, [h, B], [cc])]).violations, 0)
        a = side(6, adds=[("hussars or light dragoons against infantry", -3)], band="plus4", reaction="pursue",
                 greens=2, arm="cavalry")
        cc = combat([fighter(h, True)], [fighter(B, False)], "cavalry_vs_infantry", a, d)
        self.assertEqual(run(of.CombatAdditions, [first([h, B]), bound(1, [h, B], [cc])]).violations, 0)

    def test_outnumbered(self):
        # two battalions of 12 against one of 12: the defender is outnumbered 2 to 1
        c2 = piece("IR 3", 0, "line infantry", (13.5, 10), 0.0)
        d = side(3, adds=[("outnumbered or overlapped frontage", -1)], band="minus1_to7", reaction="withdraw", greens=1)
        a = side(7, band="plus4", reaction="unaffected")
        cc = combat([fighter(A, True), fighter(c2, True)], [fighter(B, False)], "infantry_vs_infantry", a, d)
        self.assertEqual(run(of.Outnumbered, [first([A, c2, B]), bound(1, [A, c2, B], [cc])]).violations, 1)
        d = side(3, adds=[("outnumbered 2 to 1 or more", -3)], band="minus1_to7", reaction="withdraw", greens=1)
        cc = combat([fighter(A, True), fighter(c2, True)], [fighter(B, False)], "infantry_vs_infantry", a, d)
        self.assertEqual(run(of.Outnumbered, [first([A, c2, B]), bound(1, [A, c2, B], [cc])]).violations, 0)

    def test_enemy_to_rear(self):
        # the -6 given though the enemy stands in the defender's front
        d = side(3, adds=[("enemy to the rear and engaging", -6)], band="minus8_to15", reaction="run_away", greens=2)
        a = side(7, band="plus4", reaction="unaffected")
        cc = combat([fighter(A, True)], [fighter(B, False)], "infantry_vs_infantry", a, d)
        self.assertEqual(run(of.EnemyToRear, combat_lines(cc)).violations, 1)
        # an attacker wholly behind the defender (B faces south; A north of it), no -6
        behind = piece("IR 1", 0, "line infantry", (10, 16), 180.0)
        d = side(3, band="minus1_to7", reaction="withdraw", greens=1)
        cc = combat([fighter(behind, True, gap=2.5)], [fighter(B, False)], "infantry_vs_infantry", a, d)
        self.assertEqual(run(of.EnemyToRear, [first([behind, B]), bound(1, [behind, B], [cc])]).violations, 1)

    def test_gap(self):
        self.assertEqual(run(of.CombatGap, combat_lines(simple_combat())).violations, 0)
        far = piece("IR 1", 0, "line infantry", (10, 9), 0.0)
        cc = simple_combat()
        cc["fighters"][0] = fighter(far, True)
        self.assertGreater(run(of.CombatGap, [first([far, B]), bound(1, [far, B], [cc])]).violations, 0)

    def test_combat_after_whole_move(self):
        mv = {"event": "moved", "unit": "IR 1", "what": {"kind": "attack", "target": "IR 2"},
              "path": {"from": [10, 2], "to": [10, 10], "facing_from": 0, "facing": 0, "formation_from": "line",
                       "formation": "line", "turns": [], "moving": 0, "budget": 1.0, "rate": 12.0, "ordered": 12.0,
                       "distance": 8.0, "obstacle": False, "wagons": False, "stop": {"cause": "reached"}}}
        lines = [first([A, B]), bound(1, [A, B], [mv, simple_combat()], dice_for(7, 3, 4, 1, 6, 6))]
        self.assertEqual(run(of.CombatAfterWholeMove, lines).violations, 1)
        mv["path"]["distance"] = 5.0
        mv["path"]["from"] = [10, 5]
        lines = [first([A, B]), bound(1, [A, B], [mv, simple_combat()], dice_for(7, 3, 4, 1, 6, 6))]
        self.assertEqual(run(of.CombatAfterWholeMove, lines).violations, 0)

    def test_beaten_moves_next_bound(self):
        wd = {"event": "withdrew", "unit": "IR 2",
              "path": {"from": [10, 13], "to": [10, 16], "distance": 3.0, "turns": [], "rate": 6.0, "budget": 1.0,
                       "ordered": 6.0, "stop": {"cause": "room"}}}
        lines = [first([A, B]), bound(1, [A, B], [simple_combat(), wd], dice_for(7, 3, 4, 1, 6, 6))]
        self.assertEqual(run(of.BeatenMoveNextBound, lines).violations, 1)
        lines = [first([A, B]), bound(1, [A, B], [wd, simple_combat()], dice_for(7, 3, 4, 1, 6, 6))]
        self.assertEqual(run(of.BeatenMoveNextBound, lines).violations, 0)

    def test_status_after(self):
        after = [A, dict(B, status="withdrawing")]
        self.assertEqual(run(of.StatusAfterCombat, combat_lines(simple_combat(), after=after)).violations, 0)
        self.assertEqual(run(of.StatusAfterCombat, combat_lines(simple_combat())).violations, 1)


class TestPursuit(unittest.TestCase):
    def pt(self, **kw):
        d = {"event": "pursuit_test", "unit": "IR 1", "die": 3, "addition": -2,
             "additions": [{"value": -2, "why": "quality C"}], "needs": 0, "under_control": True}
        d.update(kw)
        return [first([A, B]), bound(1, [A, B], [d])]

    def test_pass(self):
        self.assertEqual(run(of.PursuitTest, self.pt()).violations, 0)

    def test_fail(self):
        self.assertEqual(run(of.PursuitTest, self.pt(under_control=False)).violations, 1)
        self.assertEqual(run(of.PursuitTest, self.pt(needs=2, under_control=False)).violations, 1)
        self.assertEqual(run(of.PursuitTest, self.pt(addition=-1, additions=[{"value": -1, "why": "quality C"}])).violations, 1)


    def test_pursuit_losses(self):
        d = {"event": "pursuit_losses", "unit": "IR 2", "why": "pursued while withdrawing (cavalry against cavalry)",
             "greens": 1, "casualties": 1}
        self.assertEqual(run(of.PursuitLosses, [first([A, B]), bound(1, [A, B], [d])]).violations, 0)
        d["casualties"] = 0
        self.assertEqual(run(of.PursuitLosses, [first([A, B]), bound(1, [A, B], [d])]).violations, 1)
        d = {"event": "pursuit_losses", "unit": "IR 2", "why": "pursued while running away (infantry against infantry)",
             "greens": 0, "casualties": 2, "test": [{"figures": 12, "dice": [3, 4], "additions": [{"value": -1, "why": "quality C, enemy routing"}]}]}
        self.assertEqual(run(of.PursuitLosses, [first([A, B]), bound(1, [A, B], [d])]).violations, 1)

def mv(unit, frm, to, rate, kind="march", turns=(), budget=1.0, ordered=None, facing_from=0.0, facing=None, ev="moved"):
    dd = common.dist(frm, to)
    d = {"event": ev, "unit": unit,
         "path": {"from": list(frm), "to": list(to), "facing_from": facing_from,
                  "facing": facing_from if facing is None else facing, "formation_from": "line", "formation": "line",
                  "turns": [dict(t) for t in turns], "moving": facing_from, "budget": budget, "rate": rate,
                  "ordered": dd if ordered is None else ordered, "distance": dd, "obstacle": False, "wagons": False,
                  "stop": {"cause": "arrived"}}}
    if ev == "moved":
        d["what"] = {"kind": kind}
    return d


class TestMovement(unittest.TestCase):
    def test_rates(self):
        ok = [first([A]), bound(1, [A], [mv("IR 1", (10, 10), (10, 16), 12.0)])]
        self.assertEqual(run(of.MoveRates, ok).violations, 0)
        bad = [first([A]), bound(1, [A], [mv("IR 1", (10, 10), (10, 24), 14.0)])]
        self.assertGreater(run(of.MoveRates, bad).violations, 0)
        # 10" at 12" a bound after a 45° wheel (half a bound) is too far
        t = [{"from": 0, "to": 30, "degrees": 30, "cost": 0.5}]
        bad = [first([A]), bound(1, [A], [mv("IR 1", (10, 10), (10, 20), 12.0, turns=t)])]
        self.assertEqual(run(of.MoveRates, bad).violations, 1)

    def test_turn_costs(self):
        t = [{"from": 0, "to": 90, "degrees": 90, "cost": 0.5}]
        self.assertEqual(run(of.TurnCosts, [first([A]), bound(1, [A], [mv("IR 1", (10, 10), (10, 10), 0.0, turns=t)])]).violations, 1)
        t = [{"from": 0, "to": 180, "degrees": 180, "cost": 0.5}]
        self.assertEqual(run(of.TurnCosts, [first([A]), bound(1, [A], [mv("IR 1", (10, 10), (10, 10), 0.0, turns=t)])]).violations, 0)
        t = [{"from": 0, "to": 20, "degrees": 20, "cost": 0.0}]
        self.assertEqual(run(of.TurnCosts, [first([A]), bound(1, [A], [mv("IR 1", (10, 10), (10, 10), 0.0, turns=t)])]).violations, 1)

    def test_trot_straight(self):
        h = piece("Hussars", 0, "hussars", (10, 10), 0.0, figs=8, start=8, w=8)
        ok = [first([h]), bound(1, [h], [mv("Hussars", (10, 10), (10, 30), 45.0)])]
        self.assertEqual(run(of.TrotStraight, ok).violations, 0)
        t = [{"from": 0, "to": 30, "degrees": 30, "cost": 0.0}]
        bad = [first([h]), bound(1, [h], [mv("Hussars", (10, 10), (20, 27.3), 45.0, kind="pursue", turns=t)])]
        self.assertEqual(run(of.TrotStraight, bad).violations, 1)

    def test_result_moves(self):
        ok = [first([A, B]), bound(1, [A, B], [mv("IR 2", (10, 13), (10, 19), 6.0, ev="withdrew")])]
        self.assertEqual(run(of.ResultMoves, ok).violations, 0)
        bad = [first([A, B]), bound(1, [A, B], [mv("IR 2", (10, 13), (10, 25), 12.0, ev="withdrew")])]
        self.assertEqual(run(of.ResultMoves, bad).violations, 1)
        r = mv("IR 2", (10, 13), (10, 33), 20.0, ev="ran")
        r["deserted"] = 0
        cc = simple_combat(d={"reaction": "run_away", "band": "minus8_to15"})
        bad = [first([A, B]), bound(1, [A, B], [cc]), bound(2, [A, B], [r], b=2)]
        self.assertEqual(run(of.ResultMoves, bad).violations, 1)
        r["deserted"] = 1
        self.assertEqual(run(of.ResultMoves, bad).violations, 0)

    def test_limbering(self):
        g = piece("Battery", 0, "heavy guns", (10, 10), 0.0, figs=6, start=6, limbered=False, w=2)
        lim = {"event": "limbering", "unit": "Battery", "up": True, "bounds": 1.0, "done": True, "why": "to move"}
        self.assertEqual(run(of.Limbering, [first([g]), bound(1, [g], [lim])]).violations, 1)
        lim["bounds"] = 2.0
        self.assertEqual(run(of.Limbering, [first([g]), bound(1, [g], [lim])]).violations, 0)
        self.assertEqual(run(of.Limbering, [first([g]), bound(1, [g], [lim, mv("Battery", (10, 10), (10, 15), 10.0)])]).violations, 1)


    def test_unlimbered_move(self):
        g = piece("Battery", 0, "medium guns", (10, 10), 0.0, figs=6, start=6, limbered=False, w=2)
        self.assertEqual(run(of.Limbering, [first([g]), bound(1, [g], [mv("Battery", (10, 10), (10, 15), 12.0)])]).violations, 1)
        g2 = piece("Battery", 0, "medium guns", (10, 10), 0.0, figs=6, start=6, limbered=True, w=2)
        self.assertEqual(run(of.Limbering, [first([g2]), bound(1, [g2], [mv("Battery", (10, 10), (10, 15), 12.0)])]).violations, 0)

    def test_linear_obstacle(self):
        hedge = {"kind": "hedge", "name": "h", "points": [[0, 12], [20, 12]], "closed": False}
        m = mv("IR 1", (10, 10), (10, 14), 12.0)
        lines = [first([A], [hedge]), bound(1, [A], [m])]
        self.assertEqual(run(of.LinearObstacle, lines).violations, 1)
        m["path"]["obstacle"] = True
        self.assertEqual(run(of.LinearObstacle, lines).violations, 0)

    def test_frontage(self):
        # 12 figures of infantry: 600-720 men at 4 a metre is 150-180 m, 75-90 mm: 2.95"-3.54"
        ok = piece("IR 1", 0, "line infantry", (10, 10), w=2.9528)
        self.assertEqual(run(of.Frontage, [first([ok])]).violations, 0)
        bad = piece("IR 1", 0, "line infantry", (10, 10), w=5.0)
        self.assertEqual(run(of.Frontage, [first([bad])]).violations, 1)
        big = piece("Battery", 0, "medium guns", (10, 3), figs=8, start=8, limbered=False, w=2)
        self.assertEqual(run(of.Frontage, [first([big])]).violations, 1)

    def test_wagon_count(self):
        f = first([A, piece("IR 3", 0, "line infantry", (14, 10)), piece("Hussars", 0, "hussars", (20, 10), w=7.87)])
        f["markers"] = [{"side": 0, "kind": "wagons", "at": [10, 2], "label": "5 wagon models",
                         "footprint": {"shape": "polygon", "points": [[8, 1], [12, 1], [12, 3], [8, 3]]}}]
        self.assertEqual(run(of.WagonCount, [f]).violations, 0)  # 2 + 2 + 1 (three major units)
        f["markers"][0]["label"] = "9 wagon models"
        self.assertEqual(run(of.WagonCount, [f]).violations, 1)

    def test_wagons_slow(self):
        park = {"side": 0, "kind": "wagons", "at": [10, 14], "label": "5 wagon models",
                "footprint": {"shape": "polygon", "points": [[5, 13], [15, 13], [15, 15], [5, 15]]}}
        f = first([A])
        f["markers"] = [park]
        m = mv("IR 1", (10, 10), (10, 16), 12.0)
        line = bound(1, [A], [m])
        line["markers"] = [park]
        self.assertEqual(run(of.WagonsSlow, [f, line]).violations, 1)
        m["path"]["wagons"] = True
        self.assertEqual(run(of.WagonsSlow, [f, line]).violations, 0)

def bomb(**kw):
    d = {"event": "bombardment", "battery": "Battery", "target": "IR 2", "close": False, "range": 10.0,
         "guns": {"heavy": False, "gunners_lost": 0}, "battery_greens": 0, "d6": 2, "score": -1, "casualties": 0,
         "greens": 1, "through": []}
    d.update(kw)
    return d


G = piece("Battery", 0, "medium guns", (10, 3), 0.0, figs=6, start=6, limbered=False, w=2)


class TestArtillery(unittest.TestCase):
    def lines(self, d, terrain=()):
        return [first([G, B], terrain), bound(1, [G, B], [d])]

    def test_bombardment(self):
        self.assertEqual(run(of.Bombardment, self.lines(bomb())).violations, 0)
        self.assertEqual(run(of.Bombardment, self.lines(bomb(score=0))).violations, 1)  # 1 -2 (d6) is -1, not 0
        self.assertEqual(run(of.Bombardment, self.lines(bomb(range=5.0))).violations, 1)  # close range as long
        self.assertEqual(run(of.Bombardment, self.lines(bomb(range=13.0))).violations, 1)  # beyond 12"
        self.assertEqual(run(of.Bombardment, self.lines(bomb(close=True, range=5.0, d6=4, score=-3,
                                                             casualties=1, greens=1, through=["IR 3"]))).violations, 1)

    def test_ball_through(self):
        c = piece("IR 3", 1, "line infantry", (10, 20), 180.0)
        lines = [first([G, B, c]), bound(1, [G, B, c], [bomb(through=["IR 3"])])]
        self.assertEqual(run(of.BallThrough, lines).violations, 1)  # 6.5" behind
        c = piece("IR 3", 1, "line infantry", (10, 16), 180.0)
        lines = [first([G, B, c]), bound(1, [G, B, c], [bomb(through=["IR 3"])])]
        self.assertEqual(run(of.BallThrough, lines).violations, 0)
        hill = {"kind": "hill", "name": "h", "points": [[0, 0], [20, 0], [20, 6], [0, 6]], "closed": True}
        lines = [first([G, B, c], [hill]), bound(1, [G, B, c], [bomb(through=["IR 3"])])]
        lines[0]["table"]["terrain"] = [hill]
        self.assertEqual(run(of.BallThrough, lines).violations, 1)


class TestCounters(unittest.TestCase):
    def test_greens_rest(self):
        a1 = piece("IR 1", 0, "line infantry", (10, 10), greens=2)
        a2 = piece("IR 1", 0, "line infantry", (10, 10), greens=1)
        a0 = piece("IR 1", 0, "line infantry", (10, 10), greens=0)
        self.assertEqual(run(of.GreensRest, [first([a1]), bound(1, [a2], [])]).violations, 0)
        self.assertEqual(run(of.GreensRest, [first([a1]), bound(1, [a0], [])]).violations, 1)
        m = mv("IR 1", (10, 10), (10, 10.5), 12.0)
        self.assertEqual(run(of.GreensRest, [first([a1]), bound(1, [a2], [m])]).violations, 1)

    def test_figures_book(self):
        a2 = piece("IR 1", 0, "line infantry", (10, 10), figs=10)
        self.assertEqual(run(of.FiguresBook, [first([A]), bound(1, [a2], [])]).violations, 1)
        self.assertEqual(run(of.FiguresBook, [first([A]), bound(1, [a2], [bomb(target="IR 1", close=True, range=5,
                                                                              casualties=2, score=0, d6=1)])]).violations, 0)


class TestOrders(unittest.TestCase):
    def test_order_times(self):
        sent = {"event": "order_sent", "side": "Prussians", "wing": "right wing", "minutes": 48, "units": 14,
                "general": "average", "arrives": 6, "sent": 1}
        arr = {"event": "order_arrives", "side": "Prussians", "wing": "right wing"}
        ok = [first([A]), bound(1, [A], [sent]), bound(2, [A], [arr], b=6)]
        self.assertEqual(run(of.OrderTimes, ok).violations, 0)
        bad = [first([A]), bound(1, [A], [dict(sent, minutes=40)]), bound(2, [A], [arr], b=6)]
        self.assertGreater(run(of.OrderTimes, bad).violations, 0)
        early = [first([A]), bound(1, [A], [sent]), bound(2, [A], [arr], b=4)]
        self.assertEqual(run(of.OrderTimes, early).violations, 1)

    def test_contact_orders(self):
        c = {"event": "contact", "units": ["IR 1", "IR 2"], "why": [{"reason": "not_ordered"}, {"reason": "not_ordered"}],
             "gap": 2.5}
        line = bound(1, [A, B], [c])
        line["markers"] = [{"side": 0, "kind": "order", "at": [0, 0], "label": "the centre's order: attack the enemy at X"},
                           {"side": 1, "kind": "order", "at": [0, 0], "label": "the centre's order: hold X"}]
        self.assertEqual(run(of.ContactOrders, [first([A, B]), line]).violations, 1)
        line["markers"][0]["label"] = "the centre's order: hold X"
        self.assertEqual(run(of.ContactOrders, [first([A, B]), line]).violations, 0)
        # interpretation 5 of section 2: a unit that fought last bound keeps its old order
        line["markers"][0]["label"] = "the centre's order: attack the enemy at X"
        fought = bound(1, [A, B], [simple_combat()])
        self.assertEqual(run(of.ContactOrders, [first([A, B]), fought, line]).violations, 0)
        # but not two bounds on
        quiet = bound(2, [A, B], [])
        self.assertEqual(run(of.ContactOrders, [first([A, B]), fought, quiet, line]).violations, 1)


class TestTable(unittest.TestCase):
    def test_overlap(self):
        c = piece("IR 3", 1, "line infantry", (11, 10.2), 0.0)
        self.assertEqual(run(of.NoOverlap, [first([A, c]), bound(1, [A, c], [])]).violations, 1)
        self.assertEqual(run(of.NoOverlap, [first([A, B]), bound(1, [A, B], [])]).violations, 0)
        # friends overlapping at a bound's end: a violation too (section 4, interpretation 6)
        f = piece("IR 3", 0, "line infantry", (11, 10.2), 0.0)
        self.assertEqual(run(of.NoFriendOverlap, [first([A, f]), bound(1, [A, f], [])]).violations, 1)
        self.assertEqual(run(of.NoFriendOverlap, [first([A, f]), bound(1, [A, B], [])]).violations, 0)

    def test_path_continuity(self):
        a2 = piece("IR 1", 0, "line infantry", (10, 16), 0.0)
        ok = [first([A]), bound(1, [a2], [mv("IR 1", (10, 10), (10, 16), 12.0)])]
        self.assertEqual(run(of.PathContinuity, ok).violations, 0)
        bad = [first([A]), bound(1, [a2], [mv("IR 1", (10, 11), (10, 15), 12.0)])]
        self.assertEqual(run(of.PathContinuity, bad).violations, 2)

    def test_dice(self):
        lines = [first([A]), bound(1, [A], [], draws=[{"kind": "die", "sides": 10, "value": 11}])]
        self.assertEqual(run(of.DiceDrawn, lines).violations, 1)


class TestMore(unittest.TestCase):
    def test_halted_no_further(self):
        cc = simple_combat(a={"band": "plus1_to3", "reaction": "halt"})
        m = mv("IR 1", (10, 10), (10, 10.5), 12.0, kind="finish")
        lines = [first([A, B]), bound(1, [A, B], [cc, m])]
        self.assertEqual(run(of.HaltedNoFurther, lines).violations, 1)
        lines = [first([A, B]), bound(1, [A, B], [simple_combat(), m])]
        self.assertEqual(run(of.HaltedNoFurther, lines).violations, 0)

    def test_disintegrate_gone(self):
        cc = simple_combat(d={"band": "minus16", "reaction": "disintegrate"})
        self.assertEqual(run(of.DisintegrateGone, combat_lines(cc)).violations, 1)
        self.assertEqual(run(of.DisintegrateGone, combat_lines(cc, after=[A])).violations, 0)

    def test_withdraw_away(self):
        toward = mv("IR 2", (10, 13), (10, 11), 6.0, ev="withdrew")
        away = mv("IR 2", (10, 13), (10, 16), 6.0, ev="withdrew")
        # Body to body (interpretation 12): the pieces after the bound stand where it went.
        b_toward = piece("IR 2", 1, "line infantry", (10, 11), 180.0)
        b_away = piece("IR 2", 1, "line infantry", (10, 16), 180.0)
        lines = [first([A, B]), bound(1, [A, B], [simple_combat()]), bound(2, [A, b_toward], [toward], b=2)]
        self.assertEqual(run(of.WithdrawAway, lines).violations, 1)
        lines = [first([A, B]), bound(1, [A, B], [simple_combat()]), bound(2, [A, b_away], [away], b=2)]
        self.assertEqual(run(of.WithdrawAway, lines).violations, 0)

    def test_move_through(self):
        far = piece("IR 3", 1, "line infantry", (10, 16), 180.0)
        a2 = piece("IR 1", 0, "line infantry", (10, 20), 0.0)
        lines = [first([A, far]), bound(1, [a2, far], [mv("IR 1", (10, 10), (10, 20), 12.0, ordered=12.0)])]
        self.assertEqual(run(of.NoMoveThrough, lines).violations, 1)
        a3 = piece("IR 1", 0, "line infantry", (10, 13), 0.0)
        lines = [first([A, far]), bound(1, [a3, far], [mv("IR 1", (10, 10), (10, 13), 12.0)])]
        self.assertEqual(run(of.NoMoveThrough, lines).violations, 0)
        # through a friend: counted, never a violation
        fr = piece("IR 3", 0, "line infantry", (10, 16), 0.0)
        lines = [first([A, fr]), bound(1, [a2, fr], [mv("IR 1", (10, 10), (10, 20), 12.0)])]
        c = run(of.NoMoveThroughFriends, lines)
        self.assertEqual(c.violations, 0)
        self.assertEqual(getattr(c, "straight", 0), 1)

    def test_guns_first(self):
        g = piece("Battery", 1, "medium guns", (10, 13), 180.0, figs=6, start=6, limbered=False, w=2)
        a = side(7, band="plus4", reaction="unaffected")
        d = side(3, band="minus1_to7", reaction="withdraw", greens=1)
        d6 = [{"kind": "die", "sides": 6, "value": 2}]
        cc = combat([fighter(A, True, gap=2.5)], [fighter(g, False)], "infantry_vs_infantry", a, d)
        lines = [first([A, g]), bound(1, [A, g], [cc], d6)]
        self.assertEqual(run(of.GunsFirst, lines).violations, 1)  # no fire first
        cc = combat([fighter(A, True, gap=2.5)], [fighter(g, False)], "infantry_vs_infantry", a, d,
                    guns_first=[2, -1, 1, 1])
        lines = [first([A, g]), bound(1, [A, g], [cc], d6)]
        self.assertEqual(run(of.GunsFirst, lines).violations, 0)
        cc["resolution"]["guns_first"] = [2, 0, 2, 1]
        self.assertEqual(run(of.GunsFirst, lines).violations, 1)

    def test_pursuit_test_taken(self):
        cc = simple_combat(d={"band": "minus8_to15", "reaction": "run_away"})
        self.assertEqual(run(of.PursuitTestTaken, combat_lines(cc)).violations, 1)
        pt = {"event": "pursuit_test", "unit": "IR 1", "die": 3, "addition": -2, "additions": [], "needs": 0,
              "under_control": True}
        lines = [first([A, B]), bound(1, [A, B], [cc, pt])]
        self.assertEqual(run(of.PursuitTestTaken, lines).violations, 0)


class TestHold(unittest.TestCase):
    """A wing told to hold: no wheel over 45 degrees and back within three bounds, in place, with no enemy within 24"."""

    def lines(self, facings, enemy_at=(36.0, 5.0), shift=0.0, order="hold the ridge"):
        H = piece("IR Hold", 1, "line infantry", (36.0, 36.0), facing=180.0, group="ridge")
        E = piece("IR Far", 0, "line infantry", enemy_at, facing=0.0, group="right wing")
        mark = [{"side": 1, "kind": "order", "at": [36.0, 35.0], "label": f"the ridge's order: {order}"}]
        out = [first([H, E])]
        f0 = 180.0
        for k, f in enumerate(facings, start=1):
            h = piece("IR Hold", 1, "line infantry", (36.0, 36.0 + shift * k), facing=f, group="ridge")
            mv = {"event": "moved", "unit": "IR Hold", "what": {"kind": "march"},
                  "path": {"from": [36.0, 36.0 + shift * (k - 1)], "to": [36.0, 36.0 + shift * k], "facing_from": f0, "facing": f,
                           "formation_from": "line", "formation": "line",
                           "turns": [{"from": f0, "to": f, "degrees": common.turn(f0, f), "cost": 1.0}] if f != f0 else [],
                           "moving": f, "budget": 1.0, "rate": 12.0, "ordered": shift, "distance": shift, "obstacle": False,
                           "wagons": False, "stop": {"cause": "arrived"}}}
            ln = bound(k, [h, E], [mv])
            ln["markers"] = mark
            out.append(ln)
            f0 = f
        return out

    def test_hold_no_wheel_back(self):
        self.assertEqual(run(of.HoldNoWheelBack, self.lines([180.0, 180.0, 180.0])).violations, 0)
        self.assertEqual(run(of.HoldNoWheelBack, self.lines([250.0, 185.0])).violations, 1)  # 70 degrees and back, nobody near
        self.assertEqual(run(of.HoldNoWheelBack, self.lines([250.0, 250.0, 250.0, 185.0])).violations, 1)  # back in the third bound
        self.assertEqual(run(of.HoldNoWheelBack, self.lines([250.0, 250.0, 250.0, 250.0, 185.0])).violations, 0)  # too late
        self.assertEqual(run(of.HoldNoWheelBack, self.lines([250.0, 185.0], enemy_at=(36.0, 20.0))).violations, 0)  # an enemy near
        self.assertEqual(run(of.HoldNoWheelBack, self.lines([250.0, 185.0], shift=3.0)).violations, 0)  # marched to a new place
        self.assertEqual(run(of.HoldNoWheelBack, self.lines([250.0, 185.0], order="attack the ridge")).violations, 0)

    def test_count_hold_shuffle(self):
        c = run(of.CountHoldShuffle, self.lines([250.0, 250.0]))
        self.assertEqual(c.violations, 0)
        self.assertEqual(c.n["infantry: whole bound wheeling: next bound it stays"], 1)


class TestCounts(unittest.TestCase):
    def test_counts_never_violate(self):
        lines = combat_lines(simple_combat())
        for k in of.CHECKS:
            if k.keep == 0:
                c = run(k, lines)
                self.assertEqual(c.violations, 0, k.name)


if __name__ == "__main__":
    unittest.main()
