"""Each Blown Away check shown able to fail on a small made-up trace (and, where it can be, to
pass on a sound one). Standard library only."""

import copy
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import blown_away as ba  # noqa: E402
import common  # noqa: E402

MOVE = "the {} move or rally one unit, and move their commander"
FIRE = "the {} fire long-range artillery"
COMBAT = "the {} conduct combats"
SIDES = ["Prussians", "Austrians"]


def ev(tag, **fields):
    d = {"event": tag}
    d.update(fields)
    return {"text": tag, "data": d}


def turn_begins(n, side):
    return ev("turn_begins", turn=n, side=SIDES[side])


class Trace:
    """A made-up battle: units of men placed in ranks, then actions that change them."""

    def __init__(self, variant="chance", width=96.0, depth=60.0, terrain=(), objectives=()):
        self.table = {"ruleset": "blown-away", "variant": variant, "title": "test", "width": width,
                      "depth": depth, "unit": "inch", "sides": list(SIDES), "terrain": list(terrain)}
        self.pieces = []
        self.markers = [
            {"side": 0, "kind": "commander", "at": [1.0, 1.0], "label": "P"},
            {"side": 1, "kind": "commander", "at": [95.0, 59.0], "label": "A"},
        ]
        self.objectives = [dict(o) for o in objectives]
        self.lines = []
        self.turn = 0
        self.order = []

    def unit(self, name, side, arm, x, y, facing=0.0, n=6, cols=None, command=True):
        """Men in ranks: the front rank's middle at (x, y), 1" apart, ranks 1" behind."""
        cols = cols or max(1, (n + 1) // 2)
        fv = common.heading_vec(facing)
        rv = (fv[1], -fv[0])
        role = {"infantry": "soldier", "cavalry": "cavalryman", "artillery": "gunner"}[arm]
        labels = [role] * n
        if arm == "infantry" and command and n >= 4:
            labels[-3:] = ["officer", "drummer", "flag bearer"]
        for k in range(n):
            r, c = divmod(k, cols)
            off = c - (cols - 1) / 2.0
            at = [x + rv[0] * off - fv[0] * r, y + rv[1] * off - fv[1] * r]
            self.pieces.append({"side": side, "unit": name, "label": labels[k],
                                "footprint": {"shape": "circle", "at": at, "r": 0.4},
                                "facing": facing, "status": "in ranks", "counters": [], "arm": arm})
        if arm == "artillery":
            self.markers.append({"side": side, "kind": "gun", "at": [x + fv[0], y + fv[1]], "label": f"{name}: 4 balls",
                                 "facing": facing, "unit": name,
                                 "footprint": {"shape": "circle", "at": [x + fv[0], y + fv[1]], "r": 0.4}})
        self.order.append(name)
        return self

    def men(self, name):
        return [p for p in self.pieces if p["unit"] == name]

    def gun(self, name):
        return [m for m in self.markers if m.get("unit") == name][0]

    def shift(self, name, dx, dy):
        for p in self.men(name):
            p["footprint"]["at"] = [p["footprint"]["at"][0] + dx, p["footprint"]["at"][1] + dy]
        for m in self.markers:
            if m.get("unit") == name:
                m["at"] = [m["at"][0] + dx, m["at"][1] + dy]

    def run(self, name, k, back=6.0):
        """Send the man k of a unit 6" to his rear, facing the rear."""
        p = self.men(name)[k]
        fv = common.heading_vec(p["facing"])
        p["footprint"]["at"] = [p["footprint"]["at"][0] - fv[0] * back, p["footprint"]["at"][1] - fv[1] * back]
        p["facing"] = (p["facing"] + 180.0) % 360.0
        p["status"] = "running"

    def snapshot(self, n, phase, **extra):
        line = {"n": n, "turn": self.turn, "phase": phase, "pieces": copy.deepcopy(self.pieces),
                "markers": copy.deepcopy(self.markers), "objectives": copy.deepcopy(self.objectives)}
        line.update(extra)
        return line

    def start(self):
        first = self.snapshot(0, "deploy")
        first["table"] = self.table
        first["events"] = []
        self.lines = [first]
        return self

    def begin_turn(self, side, prev_phase=None):
        """An end_phase by the other side that begins the turn of `side`."""
        self.turn += 1
        return self.act("end_phase", by=1 - side, events=[turn_begins(self.turn, side)],
                        phase=MOVE.format(SIDES[side]))

    def act(self, action, by=0, events=(), phase=None, draws=None, outcome=None):
        n = len(self.lines)
        line = self.snapshot(n, phase or MOVE.format(SIDES[by]), by={"side": by}, action=action, events=list(events))
        if draws:
            line["draws"] = draws
        if outcome:
            line["outcome"] = outcome
        self.lines.append(line)
        return self

    def phase_of_next(self, phase):
        """Set the phase the last line ends in (the phase the next action is taken in)."""
        self.lines[-1]["phase"] = phase
        return self

    def check(self, cls):
        c = cls()
        common.run_trace(self.lines, [c], "test", 1, "a,b")
        return c


def chance_pair(variant="chance", gap=3.0):
    """A Prussian line facing north and an Austrian line facing south, fronts `gap` apart."""
    t = Trace(variant)
    t.unit("IR 1", 0, "infantry", 40, 20, 0.0, n=8)
    t.unit("IR A", 1, "infantry", 40, 20 + gap, 180.0, n=8)
    return t.start()


class Helpers(unittest.TestCase):
    def test_align_pairs_a_runner_and_leaves_out_the_dead(self):
        t = chance_pair()
        before = copy.deepcopy(t.men("IR 1"))
        t.run("IR 1", 1)
        after = [p for i, p in enumerate(t.men("IR 1")) if i != 0]  # man 0 killed and gone
        pairs = ba.align(before, after)
        self.assertEqual(len(pairs), len(after))
        self.assertEqual(pairs[0][0]["footprint"]["at"], before[1]["footprint"]["at"])

    def test_behind_works_sees_the_inside_of_a_lunette(self):
        works = ba.fortification_segments({"terrain": [{"kind": "redoubt", "points": [[0, 10], [0, 0], [10, 0], [10, 10]], "closed": False}]})
        inside = [{"footprint": {"at": [5, 2]}}]
        outside = [{"footprint": {"at": [5, -2]}}]
        self.assertEqual(ba.behind_works([(5, -2)], inside, works), "yes")
        self.assertEqual(ba.behind_works([(5, 2)], outside, works), "unclear")   # outside, the parapet between
        self.assertEqual(ba.behind_works([(5, 12)], inside, works), "no")

    def test_zone_and_relation(self):
        t = chance_pair()
        z = ba.Zone(t.men("IR A"))
        self.assertTrue(z.faces((40, 21)))
        self.assertFalse(z.faces((60, 21)))
        self.assertEqual(ba.relation(t.men("IR A"), t.men("IR 1")), "front")


class Setup(unittest.TestCase):
    def test_units_of_one_arm(self):
        t = chance_pair()
        self.assertEqual(t.check(ba.UnitsOfOneArm).violations, 0)
        t.lines[0]["pieces"][0]["label"] = "gunner"
        self.assertEqual(t.check(ba.UnitsOfOneArm).violations, 1)

    def test_men_stay_in_their_units(self):
        t = chance_pair().begin_turn(0)
        self.assertEqual(t.check(ba.MenStayInTheirUnits).violations, 0)
        t.pieces.append(copy.deepcopy(t.men("IR 1")[0]))
        t.act("end_phase")
        self.assertGreater(t.check(ba.MenStayInTheirUnits).violations, 0)

    def test_encounter_setup(self):
        obj = [{"name": f"o{i}", "points": [[i * 20, 28], [i * 20 + 4, 28], [i * 20 + 4, 32], [i * 20, 32]], "holder": None} for i in range(4)]
        t = Trace(objectives=obj)
        t.unit("IR 1", 0, "infantry", 40, 5, 0.0, n=8)
        t.unit("IR A", 1, "infantry", 40, 55, 180.0, n=8)
        t.start().begin_turn(0)
        self.assertEqual(t.check(ba.EncounterSetup).violations, 0)
        t2 = Trace(objectives=obj)
        t2.unit("IR 1", 0, "infantry", 40, 12, 0.0, n=8)
        t2.unit("IR A", 1, "infantry", 40, 55, 180.0, n=6)
        t2.start().begin_turn(0)
        c = t2.check(ba.EncounterSetup)
        self.assertEqual(c.violations, 2)  # unequal men, and a man 12" from his edge

    def test_guns_start_with_four_balls(self):
        t = Trace()
        t.unit("gun", 0, "artillery", 10, 5, n=4).start()
        self.assertEqual(t.check(ba.GunsStartWithFourBalls).violations, 0)
        t.lines[0]["markers"][-1]["label"] = "gun: 3 balls"
        self.assertEqual(t.check(ba.GunsStartWithFourBalls).violations, 1)

    def test_first_move_by_coin(self):
        t = chance_pair()
        t.act("end_phase", by=1, events=[ev("first_move", coin=1, side="Prussians"), turn_begins(1, 0)])
        t.lines[-1]["draws"] = [{"kind": "coin", "purpose": "coin", "value": 1}]
        self.assertEqual(t.check(ba.FirstMoveByCoin).violations, 0)
        t.lines[-1]["draws"] = []
        self.assertEqual(t.check(ba.FirstMoveByCoin).violations, 1)


class CourseOfPlay(unittest.TestCase):
    def test_turns_alternate(self):
        t = chance_pair().begin_turn(0).begin_turn(1)
        self.assertEqual(t.check(ba.TurnsAlternate).violations, 0)
        t.begin_turn(1)
        self.assertEqual(t.check(ba.TurnsAlternate).violations, 1)

    def test_one_thing_per_turn(self):
        t = chance_pair().begin_turn(0)
        t.act({"move": {"unit": 0, "pivot": None, "path": [[40, 20]]}}, events=[ev("moved", unit="IR 1", distance=0.0, stopped=None)])
        self.assertEqual(t.check(ba.OneThingPerTurn).violations, 0)
        t.act({"rally": {"unit": 0}}, events=[ev("rallied", unit="IR 1", men=0, why="", to_gun=0)])
        self.assertEqual(t.check(ba.OneThingPerTurn).violations, 1)

    def test_phase_order(self):
        t = Trace()
        t.unit("gun", 0, "artillery", 40, 10, n=4).unit("IR A", 1, "infantry", 40, 30, 180.0, n=8).start().begin_turn(0)
        t.act("end_phase").phase_of_next(FIRE.format("Prussians"))
        t.act({"fire": {"gun": 0, "target": 1}}, events=[ev("fired", gun="gun", target="IR A", cover="open", spent=1, left=3, on_field=False)])
        self.assertEqual(t.check(ba.PhaseOrder).violations, 0)
        t.lines[-2]["phase"] = MOVE.format("Prussians")
        self.assertEqual(t.check(ba.PhaseOrder).violations, 1)

    def test_each_gun_fires_once_a_turn(self):
        t = Trace()
        t.unit("gun", 0, "artillery", 40, 10, n=4).unit("IR A", 1, "infantry", 40, 30, 180.0, n=8).start().begin_turn(0)
        fire = ({"fire": {"gun": 0, "target": 1}}, [ev("fired", gun="gun", target="IR A", cover="open", spent=1, left=3, on_field=False)])
        t.act(fire[0], events=fire[1])
        self.assertEqual(t.check(ba.EachGunFiresOnceATurn).violations, 0)
        t.act(fire[0], events=fire[1])
        self.assertEqual(t.check(ba.EachGunFiresOnceATurn).violations, 1)

    def test_combat_once_per_unit(self):
        t = chance_pair().begin_turn(0)
        t.act({"combat": {"unit": 0, "target": 1}}, phase=COMBAT.format("Prussians"))
        self.assertEqual(t.check(ba.CombatOncePerUnit).violations, 0)
        t.act({"combat": {"unit": 0, "target": 1}}, phase=COMBAT.format("Prussians"))
        self.assertEqual(t.check(ba.CombatOncePerUnit).violations, 1)
        t2 = chance_pair().begin_turn(0)
        t2.act({"combat": {"unit": 1, "target": 0}}, by=1)
        self.assertEqual(t2.check(ba.CombatOncePerUnit).violations, 1)  # the other side's unit, chance version


def move(t, unit, dx, dy, distance=None, stopped=None, pivot=None):
    i = t.order.index(unit)
    t.shift(unit, dx, dy)
    d = math.hypot(dx, dy) if distance is None else distance
    men = t.men(unit)
    ref = [sum(p["footprint"]["at"][0] for p in men) / len(men), sum(p["footprint"]["at"][1] for p in men) / len(men)]
    t.act({"move": {"unit": i, "pivot": pivot, "path": [ref]}},
          by=men[0]["side"], events=[ev("moved", unit=unit, distance=d, stopped=stopped)])
    return t


class Moving(unittest.TestCase):
    def setUp(self):
        t = Trace()
        t.unit("IR 1", 0, "infantry", 40, 10, 0.0, n=8)
        t.unit("Cav", 0, "cavalry", 70, 10, 0.0, n=8)
        t.unit("IR A", 1, "infantry", 40, 40, 180.0, n=8)
        self.t = t.start().begin_turn(0)

    def test_move_only_with_all_in_ranks(self):
        t = self.t
        move(t, "IR 1", 0, 3)
        self.assertEqual(t.check(ba.MoveOnlyWithAllInRanks).violations, 0)
        t.run("IR 1", 0)
        t.act("end_phase")
        move(t, "IR 1", 0, 3)
        self.assertEqual(t.check(ba.MoveOnlyWithAllInRanks).violations, 1)

    def test_move_allowance(self):
        t = self.t
        move(t, "IR 1", 0, 6)
        move(t, "Cav", 0, 12)
        self.assertEqual(t.check(ba.MoveAllowance).violations, 0)
        move(t, "IR 1", 0, 7)
        self.assertEqual(t.check(ba.MoveAllowance).violations, 1)

    def test_a_line_pivots_about_the_centre_man(self):
        t = self.t
        # turn the line 90 degrees about its right-hand end and move 6": its centre man goes farther
        men = t.men("IR 1")
        c = list(men[3]["footprint"]["at"])
        for p in men:
            x, y = p["footprint"]["at"][0] - c[0], p["footprint"]["at"][1] - c[1]
            p["footprint"]["at"] = [c[0] + y + 6.0, c[1] - x]
            p["facing"] = 90.0
        t.act({"move": {"unit": 0, "pivot": 90.0, "path": [[c[0] + 6.0, c[1]]]}},
              events=[ev("moved", unit="IR 1", distance=6.0, stopped=None)])
        self.assertEqual(t.check(ba.MoveAllowance).violations, 1)

    def test_artillery_pivots_on_the_axle(self):
        t = Trace()
        t.unit("gun", 0, "artillery", 40, 10, 0.0, n=4).start().begin_turn(0)
        g = t.gun("gun")
        gx, gy = g["at"]
        for p in t.men("gun"):
            x, y = p["footprint"]["at"][0] - gx, p["footprint"]["at"][1] - gy
            p["footprint"]["at"] = [gx + y, gy - x]
            p["facing"] = 90.0
        g["facing"] = 90.0
        t.act({"move": {"unit": 0, "pivot": 90.0, "path": [[gx, gy]]}}, events=[ev("moved", unit="gun", distance=0.0, stopped=None)])
        self.assertEqual(t.check(ba.PivotOnCentreMan).violations, 0)
        t.lines[-1]["pieces"][0]["footprint"]["at"][1] += 3.0   # a gunner left 3" from his gun
        self.assertEqual(t.check(ba.PivotOnCentreMan).violations, 1)

    def test_oblique_limit(self):
        t = self.t
        move(t, "IR 1", 3, 3)
        self.assertEqual(t.check(ba.ObliqueLimit).violations, 0)
        move(t, "IR 1", 5, 0)
        self.assertEqual(t.check(ba.ObliqueLimit).violations, 1)

    def test_stop_within_four(self):
        t = self.t
        move(t, "IR 1", 0, 6)          # fronts 30" -> 24" apart
        move(t, "IR 1", 0, 6)          # 18"
        move(t, "IR 1", 0, 6)          # 12"
        move(t, "IR 1", 0, 6)          # 6"
        self.assertEqual(t.check(ba.StopWithinFour).violations, 0)
        move(t, "IR 1", 0, 4)          # 2": went on past 4"
        self.assertEqual(t.check(ba.StopWithinFour).violations, 1)

    def test_a_halt_for_enemy_troops_needs_them(self):
        t = self.t
        move(t, "IR 1", 0, 2, stopped='within 4" of enemy troops, facing or faced')
        self.assertEqual(t.check(ba.StopWithinFour).violations, 1)

    def test_no_move_ends_on_an_enemy_man(self):
        t = self.t
        move(t, "IR 1", 0, 5)
        self.assertEqual(t.check(ba.NoEnemyOverlap).violations, 0)
        t.shift("IR A", 0, -20)  # the enemy is now where IR 1 will go
        move(t, "IR 1", 0, 5)
        self.assertGreater(t.check(ba.NoEnemyOverlap).violations, 0)

    def test_engaged_units_do_not_move(self):
        t = chance_pair().begin_turn(0)
        t.act({"combat": {"unit": 0, "target": 1}}, phase=COMBAT.format("Prussians"),
              events=[ev("card_combat", attacker="IR 1", defender="IR A", result={}, applied=[[0, 0], [0, 0]])])
        t.begin_turn(1)
        move(t, "IR A", 0, 2)
        self.assertEqual(t.check(ba.EngagedUnitsDoNotMove).violations, 1)

    def test_mob_move(self):
        t = self.t
        for k in range(8):
            t.run("IR 1", k)
        t.act("end_phase")
        t.shift("IR 1", 0, -10)
        t.act({"mob": {"unit": 0, "path": []}}, events=[ev("mob_moved", unit="IR 1", distance=10.0)])
        self.assertEqual(t.check(ba.MobMove).violations, 0)
        t.shift("IR 1", 0, 20)
        t.act({"mob": {"unit": 0, "path": []}}, events=[ev("mob_moved", unit="IR 1", distance=20.0)])
        self.assertEqual(t.check(ba.MobMove).violations, 1)

    def test_a_mob_does_not_pass_by_the_enemy(self):
        t = Trace()
        t.unit("IR 1", 0, "infantry", 40, 10, 0.0, n=8)
        t.unit("Picket", 1, "infantry", 30, 7, 180.0, n=2, cols=2, command=False)
        t.start()
        for k in range(8):
            t.run("IR 1", k)          # runners at y 4 and 3, x 38.5-41.5
        t.begin_turn(0)
        t.shift("IR 1", -18, 0)       # flee 18" west, passing 3" below the picket, ending 6.7" from it
        t.act({"mob": {"unit": 0, "path": []}}, events=[ev("mob_moved", unit="IR 1", distance=18.0)])
        c = t.check(ba.MobMove)
        self.assertEqual(c.violations, 1)
        self.assertIn("flees past", c.examples[0])

    def test_running_enemy_pushed(self):
        t = self.t
        t.shift("IR A", 0, 18)
        move(t, "IR 1", 0, 5)
        t.lines[-1]["events"].append(ev("pushed", unit="IR A", by="IR 1", eliminated=False))
        self.assertEqual(t.check(ba.RunningEnemyPushed).violations, 1)  # it had men in ranks


class Rallying(unittest.TestCase):
    def broken(self, enemy_gap, commander=(1.0, 1.0)):
        t = Trace()
        t.unit("IR 1", 0, "infantry", 40, 10, 0.0, n=6)
        t.unit("IR A", 1, "infantry", 40, 10 + enemy_gap, 180.0, n=6)
        t.markers[0]["at"] = list(commander)
        t.start()
        for k in range(6):
            t.run("IR 1", k)
        t.begin_turn(0)
        return t

    def rally(self, t, men, why="1: no men in ranks, and the commander next to it"):
        ir = [p for p in t.men("IR 1") if p["status"] == "running"][:men]
        for p in ir:
            p["status"] = "in ranks"
            p["facing"] = 0.0
        t.act({"rally": {"unit": 0}}, events=[ev("rallied", unit="IR 1", men=men, why=why, to_gun=0)])

    def test_rally_conditions(self):
        t = self.broken(40, (40.0, 4.0))
        self.rally(t, 1)
        self.assertEqual(t.check(ba.RallyConditions).violations, 0)
        self.assertEqual(t.check(ba.RallyAmount).violations, 0)
        t2 = self.broken(12, (40.0, 4.0))   # runners 18" from the enemy
        self.rally(t2, 1)
        self.assertEqual(t2.check(ba.RallyConditions).violations, 1)

    def test_rally_facing_enemy_near_men_in_ranks_and_runners(self):
        t = Trace()
        t.unit("IR 1", 0, "infantry", 40, 10, 0.0, n=6)
        t.unit("IR A", 1, "infantry", 40, 13, 180.0, n=6)
        t.start()
        t.run("IR 1", 0, back=1.5)
        t.begin_turn(0)
        t.men("IR 1")[0]["status"] = "in ranks"
        t.act({"rally": {"unit": 0}}, events=[ev("rallied", unit="IR 1", men=1, why="", to_gun=0)])
        self.assertEqual(t.check(ba.RallyConditions).violations, 1)

    def test_rally_amount(self):
        t = self.broken(40)
        self.rally(t, 1)   # the commander is far away
        self.assertEqual(t.check(ba.RallyAmount).violations, 1)
        t2 = self.broken(40, (40.0, 4.0))
        self.rally(t2, 2)
        self.assertEqual(t2.check(ba.RallyAmount).violations, 1)

    def test_without_chance_rally_needs_the_commander(self):
        t = self.broken(40)
        t.table["variant"] = "without-chance"
        self.rally(t, 1, why="at most 6")
        self.assertEqual(t.check(ba.RallyAmount).violations, 1)

    def half_broken(self, enemy=(40.0, 50.0), variant="chance", ran=3):
        """IR 1, 6 men in ranks facing north, `ran` of them run 6" back; IR A (6 men, facing south) at `enemy`."""
        t = Trace(variant)
        t.unit("IR 1", 0, "infantry", 40, 10, 0.0, n=6)
        t.unit("IR A", 1, "infantry", enemy[0], enemy[1], 180.0, n=6)
        t.markers[0]["at"] = [40.0, 7.0]
        t.start()
        self.places = [list(p["footprint"]["at"]) for p in t.men("IR 1")]
        for k in range(6 - ran, 6):
            t.run("IR 1", k)
        t.begin_turn(0)
        return t

    def rally_back(self, t, men, why="at most as many as are already in ranks: 3", at=None):
        """Rally `men` runners to their places (or the first to `at`)."""
        ms = t.men("IR 1")
        back = [k for k, p in enumerate(ms) if p["status"] == "running"][:men]
        for j, k in enumerate(back):
            ms[k]["status"] = "in ranks"
            ms[k]["facing"] = 0.0
            ms[k]["footprint"]["at"] = list(at) if (at is not None and j == 0) else list(self.places[k])
        t.act({"rally": {"unit": 0}}, events=[ev("rallied", unit="IR 1", men=men, why=why, to_gun=0)])

    def test_rally_places_clear(self):
        t = self.half_broken()
        self.rally_back(t, 3)
        self.assertEqual(t.check(ba.RallyPlacesClear).violations, 0)
        t = self.half_broken(enemy=(45.0, 7.5))   # an enemy man at (44, 7.5)
        self.rally_back(t, 3, at=(44.3, 7.5))       # a rallied man set 0.3" from him
        self.assertEqual(t.check(ba.RallyPlacesClear).violations, 1)
        t = self.half_broken()
        self.rally_back(t, 3, at=(40.0, -0.5))      # off the table
        self.assertEqual(t.check(ba.RallyPlacesClear).violations, 1)

    def test_rally_allowance(self):
        t = self.half_broken()
        self.rally_back(t, 3)
        self.assertEqual(t.check(ba.RallyAllowance).violations, 0)
        t = self.half_broken()
        self.rally_back(t, 2)                        # fewer, for no reason
        self.assertEqual(t.check(ba.RallyAllowance).violations, 1)
        t = self.half_broken()
        self.rally_back(t, 2, why="at most as many as are already in ranks: 3; 2, as more would stand where the enemy stands")
        self.assertEqual(t.check(ba.RallyAllowance).violations, 1)   # no enemy anywhere near
        t = self.half_broken(enemy=(36.0, 11.0))     # an enemy man 2.2" from the front rank's end
        self.rally_back(t, 2, why="at most as many as are already in ranks: 3; 2, as more would stand where the enemy stands")
        self.assertEqual(t.check(ba.RallyAllowance).violations, 0)
        t = self.half_broken(ran=4)                  # 2 in ranks, 4 running: at most 2 rally
        self.rally_back(t, 3)
        self.assertEqual(t.check(ba.RallyAllowance).violations, 1)
        t = self.half_broken(variant="without-chance", ran=4)   # without chance: up to 6
        self.rally_back(t, 2, why="at most 6, with the commander next to it")
        self.assertEqual(t.check(ba.RallyAllowance).violations, 1)
        t = self.half_broken(variant="without-chance", ran=4)
        self.rally_back(t, 4, why="all that were running; at most 6, with the commander next to it")
        self.assertEqual(t.check(ba.RallyAllowance).violations, 0)

    def test_count_reform_facings(self):
        t = chance_pair(gap=30.0)
        t.begin_turn(0)
        t.act({"reform": {"unit": 0, "formation": "line", "facing": 30.0}}, events=[ev("reformed", unit="IR 1", formation="line", facing=30.0)])
        t.act({"reform": {"unit": 0, "formation": "line", "facing": 40.0}}, events=[ev("reformed", unit="IR 1", formation="line", facing=40.0)])
        c = t.check(ba.CountReformFacings)
        self.assertEqual(c.violations, 0)
        self.assertEqual(c.tally["a second reform of the unit in the same turn, within 15 degrees of the first"], 1)

    def test_gunners_return(self):
        t = Trace()
        t.unit("gun", 0, "artillery", 40, 10, 0.0, n=2).start()
        t.run("gun", 0, back=12.0)        # a gunner 13" from the gun
        t.begin_turn(0)
        p = t.men("gun")[0]
        p["footprint"]["at"][1] += 5.0    # walks back 5"
        t.act({"return_gunners": {"unit": 0}}, events=[ev("gunners_returned", unit="gun", at_gun=0, distance=5.0, stopped=None)])
        self.assertEqual(t.check(ba.GunnersReturn).violations, 0)
        p["footprint"]["at"][1] += 7.0    # then 7" in one turn, to his place at the gun:
        t.act({"return_gunners": {"unit": 0}}, events=[ev("gunners_returned", unit="gun", at_gun=1, distance=7.0, stopped=None)])
        self.assertEqual(t.check(ba.GunnersReturn).violations, 0)   # interpretation 26

        t = Trace()
        t.unit("gun", 0, "artillery", 40, 10, 0.0, n=2).start()
        t.run("gun", 0, back=12.0)        # a gunner 13" from the gun
        t.begin_turn(0)
        p = t.men("gun")[0]
        p["footprint"]["at"][1] += 6.5    # 6.5" in one turn, still far from the gun
        t.act({"return_gunners": {"unit": 0}}, events=[ev("gunners_returned", unit="gun", at_gun=0, distance=6.5, stopped=None)])
        self.assertEqual(t.check(ba.GunnersReturn).violations, 1)

    def test_a_rallied_gunner_near_the_gun_goes_back_to_it(self):
        t = Trace()
        t.unit("gun", 0, "artillery", 40, 10, 0.0, n=2).start()
        t.run("gun", 0, back=4.0)         # 5" from the gun
        t.begin_turn(0)
        t.men("gun")[0]["status"] = "in ranks"   # rallied where he stood
        t.act({"rally": {"unit": 0}}, events=[ev("rallied", unit="gun", men=1, why="", to_gun=0)])
        self.assertEqual(t.check(ba.GunnersReturn).violations, 1)


def fire(t, gun, target, cover="open", spent=1, left=3, on_field=False, kill=0):
    p = [m for m in t.men(target) if m["status"] == "in ranks"][kill]
    if on_field:
        p["status"] = "fallen"
    else:
        t.pieces.remove(p)
    g = t.gun(gun)
    g["label"] = f"{gun}: {left} balls"
    t.act({"fire": {"gun": t.order.index(gun), "target": t.order.index(target)}},
          events=[ev("fired", gun=gun, target=target, cover=cover, spent=spent, left=left, on_field=on_field)],
          phase=FIRE.format("Prussians"))


class LongRange(unittest.TestCase):
    def setUp(self):
        t = Trace()
        t.unit("gun", 0, "artillery", 40, 10, 0.0, n=4)
        t.unit("IR A", 1, "infantry", 40, 30, 180.0, n=8)
        t.unit("IR B", 1, "infantry", 80, 55, 180.0, n=8)
        self.t = t.start().begin_turn(0)

    def test_a_shot_as_the_text_has_it(self):
        fire(self.t, "gun", "IR A")
        for cls in (ba.GunNeedsAGunner, ba.FireTarget, ba.FireEffect, ba.BallsSpent, ba.Bookkeeping):
            self.assertEqual(self.t.check(cls).violations, 0, cls.__name__)

    def test_gun_needs_a_gunner(self):
        t = self.t
        for k in range(4):
            t.run("gun", k)
        t.act("end_phase")
        fire(t, "gun", "IR A")
        self.assertEqual(t.check(ba.GunNeedsAGunner).violations, 1)

    def test_fire_target(self):
        fire(self.t, "gun", "IR B")   # 53" away and 37 degrees off: too far
        self.assertEqual(self.t.check(ba.FireTarget).violations, 1)

    def test_fire_effect(self):
        fire(self.t, "gun", "IR A", on_field=True)  # the target is not engaged
        self.assertEqual(self.t.check(ba.FireEffect).violations, 1)

    def test_balls_spent(self):
        fire(self.t, "gun", "IR A", spent=2, left=2)
        self.assertEqual(self.t.check(ba.BallsSpent).violations, 2)   # 2 for 'open'; 2 with no works


def card_combat(t, att, dfd, cards, winner, losses, applied, additions=([], []), draws=True, phase=None):
    r = {"cards": list(cards), "totals": [c + sum(x["value"] for x in a) for c, a in zip(cards, additions)],
         "additions": [list(a) for a in additions], "winner": winner, "losses": losses}
    dr = None
    if draws:
        sa = SIDES[t.men(att)[0]["side"]]
        sd = SIDES[t.men(dfd)[0]["side"]]
        dr = [{"kind": "card", "purpose": f"{sa} card for {att} against {dfd}", "value": cards[0]},
              {"kind": "card", "purpose": f"{sd} card for {dfd} against {att}", "value": cards[1]}]
    side = t.men(att)[0]["side"]
    t.act({"combat": {"unit": t.order.index(att), "target": t.order.index(dfd)}}, by=side,
          phase=phase or COMBAT.format(SIDES[side]), draws=dr,
          events=[ev("card_combat", attacker=att, defender=dfd, result=r, applied=applied)])


def loss(run, *reasons, killed=1):
    return {"killed": killed, "run": run, "explanation": [{"rule": r, "value": v} for r, v in reasons] or
            [{"rule": "one runs for each man killed in this engagement so far", "value": run}]}


class Combat(unittest.TestCase):
    def fought(self, run=1, winner=0, cards=(9, 4), att_kill=False):
        """IR 1 attacks IR A (fronts 3" apart) and wins: one of IR A killed, `run` run."""
        t = chance_pair().begin_turn(0)
        men = t.men("IR A")
        men[0]["status"] = "fallen"
        for k in range(1, 1 + run):
            t.run("IR A", k)
        card_combat(t, "IR 1", "IR A", cards, winner, [None, loss(run)], [[0, 0], [1, run]])
        return t

    def test_a_combat_as_the_text_has_it(self):
        t = self.fought()
        for cls in (ba.CombatRange, ba.CombatFacing, ba.CombatantsHaveMenInRanks, ba.CardDraws, ba.CardTotals,
                    ba.CardWinner, ba.RunCountChance, ba.FlankBonus, ba.Bookkeeping, ba.RunnersSixToTheRear,
                    ba.CommandElementLast, ba.EngagementEnds, ba.CavalryNotAgainstCover):
            self.assertEqual(t.check(cls).violations, 0, cls.__name__)

    def test_combat_range(self):
        t = chance_pair(gap=12.0).begin_turn(0)
        card_combat(t, "IR 1", "IR A", (9, 4), 0, [None, loss(1)], [[0, 0], [1, 1]])
        self.assertEqual(t.check(ba.CombatRange).violations, 1)

    def test_combat_facing(self):
        t = Trace()
        t.unit("IR 1", 0, "infantry", 40, 20, 180.0, n=8)
        t.unit("IR A", 1, "infantry", 40, 24, 0.0, n=8)   # back to back, rear ranks 2" apart
        t.start().begin_turn(0)
        card_combat(t, "IR 1", "IR A", (9, 4), 0, [None, loss(1)], [[0, 0], [1, 1]])
        self.assertEqual(t.check(ba.CombatFacing).violations, 1)

    def test_combatants_have_men_in_ranks(self):
        t = chance_pair()
        for k in range(8):
            t.run("IR 1", k)
        t.begin_turn(0)
        card_combat(t, "IR 1", "IR A", (9, 4), 0, [None, loss(1)], [[0, 0], [1, 1]])
        self.assertEqual(t.check(ba.CombatantsHaveMenInRanks).violations, 1)

    def test_cavalry_not_against_woods(self):
        wood = {"kind": "woods", "name": "w", "points": [[30, 18], [50, 18], [50, 30], [30, 30]], "closed": True}
        t = Trace(terrain=[wood])
        t.unit("Cav", 0, "cavalry", 40, 15, 0.0, n=8)
        t.unit("IR A", 1, "infantry", 40, 20, 180.0, n=8)
        t.start().begin_turn(0)
        card_combat(t, "Cav", "IR A", (9, 4), 0, [None, loss(2)], [[0, 0], [1, 2]])
        self.assertEqual(t.check(ba.CavalryNotAgainstCover).violations, 1)

    def test_card_draws(self):
        t = self.fought()
        t.lines[-1]["draws"][1]["value"] = 14
        self.assertGreater(t.check(ba.CardDraws).violations, 0)
        t2 = self.fought()
        t2.lines[-1]["draws"][0]["left"] = [4] * 13
        t2.lines[-1]["draws"][0]["left"][8] = 0   # turns a 9 from a deck with no 9 left
        self.assertGreater(t2.check(ba.CardDraws).violations, 0)

    def test_card_totals(self):
        t = self.fought()
        t.lines[-1]["events"][0]["data"]["result"]["totals"] = [12, 4]
        self.assertEqual(t.check(ba.CardTotals).violations, 1)

    def test_card_totals_works(self):
        lunette = {"kind": "redoubt", "name": "r", "points": [[30, 30], [30, 22], [50, 22], [50, 30]], "closed": False}
        t = Trace(terrain=[lunette])
        t.unit("IR 1", 0, "infantry", 40, 20, 0.0, n=8)
        t.unit("IR A", 1, "infantry", 40, 23, 180.0, n=8)   # inside the lunette, its parapet between
        t.start().begin_turn(0)
        card_combat(t, "IR 1", "IR A", (9, 4), 0, [None, loss(1)], [[0, 0], [1, 1]])
        self.assertEqual(t.check(ba.CardTotals).violations, 1)   # no +3 for the defender

    def test_card_winner(self):
        t = self.fought()
        t.lines[-1]["events"][0]["data"]["result"]["winner"] = 1
        self.assertEqual(t.check(ba.CardWinner).violations, 1)

    def test_run_count_chance(self):
        t = chance_pair().begin_turn(0)
        card_combat(t, "IR 1", "IR A", (9, 4), 0, [None, loss(3)], [[0, 0], [1, 3]])   # 3 run for the first dead
        self.assertEqual(t.check(ba.RunCountChance).violations, 1)

    def test_artillery_winning_as_defender_uses_its_card(self):
        t = Trace()
        t.unit("Cav", 0, "cavalry", 40, 20, 0.0, n=8)
        t.unit("gun", 1, "artillery", 40, 23.5, 180.0, n=4)
        t.start().begin_turn(0)
        card_combat(t, "Cav", "gun", (3, 9), 1, [loss(1), None], [[1, 1], [0, 0]])
        self.assertEqual(t.check(ba.RunCountChance).violations, 1)

    def test_flank_bonus(self):
        t = chance_pair().begin_turn(0)
        card_combat(t, "IR 1", "IR A", (9, 4), 0, [None, loss(5, ("one runs for each man killed in this engagement so far", 1),
                                                               ("win on the flank or rear", 4))], [[0, 0], [1, 5]])
        self.assertEqual(t.check(ba.FlankBonus).violations, 1)   # IR 1 stands in IR A's front

    def test_flank_bonus_for_a_unit_wholly_in_the_front_off_centre(self):
        t = Trace()
        t.unit("IR 1", 0, "infantry", 40, 20, 0.0, n=16, cols=8)    # 8 wide
        t.unit("IR A", 1, "infantry", 43, 23, 180.0, n=4, cols=2)   # 2 wide, before IR 1's right end
        t.start().begin_turn(1)
        card_combat(t, "IR A", "IR 1", (9, 4), 0, [None, loss(5, ("one runs for each man killed in this engagement so far", 1),
                                                               ("win on the flank or rear", 4))], [[0, 0], [1, 5]])
        self.assertEqual(ba.relation(ba.in_ranks(t.men("IR A")), ba.in_ranks(t.men("IR 1"))), "front")
        self.assertEqual(t.check(ba.FlankBonus).violations, 1)

    def test_bookkeeping(self):
        t = self.fought(run=2)
        t.lines[-1]["events"][0]["data"]["applied"] = [[0, 0], [1, 1]]
        self.assertGreater(t.check(ba.Bookkeeping).violations, 0)

    def test_runners_six_to_the_rear(self):
        t = chance_pair().begin_turn(0)
        t.men("IR A")[0]["status"] = "fallen"
        t.run("IR A", 1, back=9.0)
        card_combat(t, "IR 1", "IR A", (9, 4), 0, [None, loss(1)], [[0, 0], [1, 1]])
        self.assertEqual(t.check(ba.RunnersSixToTheRear).violations, 1)

    def test_command_element_last(self):
        t = chance_pair().begin_turn(0)
        men = t.men("IR A")
        men[0]["status"] = "fallen"
        t.run("IR A", 7)   # the flag bearer runs with soldiers still in ranks
        card_combat(t, "IR 1", "IR A", (9, 4), 0, [None, loss(1)], [[0, 0], [1, 1]])
        self.assertGreater(t.check(ba.CommandElementLast).violations, 0)

    def test_engagement_ends(self):
        t = chance_pair().begin_turn(0)
        men = t.men("IR A")
        men[0]["status"] = "fallen"
        for k in range(1, 8):
            t.run("IR A", k)
        card_combat(t, "IR 1", "IR A", (9, 4), 0, [None, loss(7)], [[0, 0], [1, 7]])
        self.assertGreater(t.check(ba.EngagementEnds).violations, 0)   # no engagement_over, the dead stay
        t.lines[-1]["events"].append(ev("engagement_over", units=["IR 1", "IR A"]))
        t.lines[-1]["pieces"] = [p for p in t.lines[-1]["pieces"] if p["status"] != "fallen"]
        self.assertEqual(t.check(ba.EngagementEnds).violations, 0)

    def test_cavalry_weakness_is_not_in_the_chance_version(self):
        t = chance_pair().begin_turn(0)
        t.act({"combat": {"unit": 0, "target": 1}}, phase=COMBAT.format("Prussians"), events=[ev("cavalry_weakness", unit="IR 1", ran=0)])
        self.assertEqual(t.check(ba.CavalryWeakness).violations, 1)


def attack(t, att, target, killed, run, applied, reasons, by=None):
    side = t.men(att)[0]["side"] if by is None else by
    t.act({"combat": {"unit": t.order.index(att), "target": t.order.index(target)}}, by=side,
          phase=COMBAT.format(SIDES[side]),
          events=[ev("attack", attacker=att, target=target,
                     loss={"killed": killed, "run": run, "explanation": [{"rule": r, "value": v} for r, v in reasons]},
                     applied=applied)])


class WithoutChance(unittest.TestCase):
    def setUp(self):
        t = Trace("without-chance")
        t.unit("Cav", 0, "cavalry", 40, 20, 0.0, n=8)
        t.unit("IR A", 1, "infantry", 40, 23, 180.0, n=12)
        t.start().begin_turn(0)
        t.act("end_phase").phase_of_next(COMBAT.format("Prussians"))
        men = t.men("IR A")
        men[0]["status"] = "fallen"
        for k in range(1, 9):
            t.run("IR A", k)
        self.t = t

    def test_cavalry_attack_as_the_text_has_it(self):
        t = self.t
        attack(t, "Cav", "IR A", 1, 8, [1, 8], [("cavalry: one runs for each cavalryman in ranks when the combat began", 8)])
        for cls in (ba.RunCountWithoutChance, ba.WithoutChanceApplied, ba.Bookkeeping, ba.FlankBonus):
            self.assertEqual(t.check(cls).violations, 0, cls.__name__)
        # 3 of IR A stay in ranks facing the cavalry: its men must all run
        self.assertEqual(t.check(ba.CavalryWeakness).violations, 1)

    def test_cavalry_run_count(self):
        attack(self.t, "Cav", "IR A", 1, 8, [1, 8], [("cavalry: one runs for each cavalryman in ranks when the combat began", 7)])
        self.assertGreater(self.t.check(ba.RunCountWithoutChance).violations, 0)
        t = self.t
        t.lines[-1]["events"][0]["data"]["loss"]["run"] = 10
        t.lines[-1]["events"][0]["data"]["loss"]["explanation"][0]["value"] = 10
        self.assertGreater(t.check(ba.RunCountWithoutChance).violations, 0)

    def test_without_chance_applied(self):
        attack(self.t, "Cav", "IR A", 1, 8, [1, 7], [("cavalry: one runs for each cavalryman in ranks when the combat began", 8)])
        self.assertEqual(self.t.check(ba.WithoutChanceApplied).violations, 1)


class Winning(unittest.TestCase):
    def field(self):
        obj = [{"name": f"o{i}", "points": [[i * 20 + 5, 28], [i * 20 + 15, 28], [i * 20 + 15, 38], [i * 20 + 5, 38]], "holder": None}
               for i in range(4)]
        t = Trace(objectives=obj)
        t.unit("IR 1", 0, "infantry", 10, 30, 0.0, n=8)
        t.unit("IR A", 1, "infantry", 70, 55, 180.0, n=8)
        return t.start().begin_turn(0)

    def test_objective_holder(self):
        t = self.field()
        t.lines[-1]["objectives"][0]["holder"] = 0
        t.objectives[0]["holder"] = 0
        t.act("end_phase")
        self.assertEqual(t.check(ba.ObjectiveHolder).violations, 0)
        t.objectives[2]["holder"] = 0      # nobody there
        t.act("end_phase")
        self.assertEqual(t.check(ba.ObjectiveHolder).violations, 1)

    def test_sole_occupant_holds(self):
        t = self.field()
        self.assertEqual(t.check(ba.ObjectiveHolder).violations, 1)   # IR 1 alone in o0, held by nobody

    def test_victory_three_of_four(self):
        t = self.field()
        for o in t.objectives[:3]:
            o["holder"] = 0
        t.act("end_phase")
        self.assertEqual(t.check(ba.VictoryThreeOfFour).violations, 1)
        t.lines[-1]["outcome"] = {"winner": 0, "reason": "Prussians hold 3 of the 4 objectives"}
        self.assertEqual(t.check(ba.VictoryThreeOfFour).violations, 0)


class Counts(unittest.TestCase):
    def test_counts_count_and_never_report(self):
        t = chance_pair().begin_turn(0)
        card_combat(t, "IR 1", "IR A", (9, 9), None, [loss(1), loss(1)], [[1, 1], [1, 1]])
        checks = [ba.Tallies()] + [c() for c in ba.COUNTS]
        common.run_trace(t.lines, checks, "test", 1, "a,b")
        by_name = {c.name: c for c in checks}
        self.assertEqual(by_name["count: card combats with equal cards"].count, 1)
        self.assertTrue(all(c.violations == 0 for c in checks))

    def test_every_check_has_a_name_and_a_clause(self):
        for c in ba.CHECKS:
            self.assertTrue(c.name and c.clause, c)
        self.assertEqual(len({c.name for c in ba.CHECKS}), len(ba.CHECKS))


if __name__ == "__main__":
    unittest.main()
