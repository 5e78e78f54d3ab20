"""Each Itchy and Scratchy check shown able to fail on a small made-up trace (and, where it can,
to pass one it must pass)."""

import copy
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402
import itchy_scratchy as isc  # noqa: E402

FACING = {0: "north", 90: "east", 180: "south", 270: "west"}
WORD = {"woods": "woods", "builtup": "built_up", "fortification": "fortification"}
SIDES = ["Reds", "Blues"]


def sq(c, r):
    return [[float(c), float(r)], [c + 1.0, float(r)], [c + 1.0, r + 1.0], [float(c), r + 1.0]]


def piece(name, side, kind, area, facing=0, sp=None, weapon=None):
    sp = isc.START_SP[kind] if sp is None else sp
    label = ("General" if kind == "general" else kind) + f" {sp} SP" + (f", {weapon}" if weapon else "")
    arm = {"general": "general", "horse-drawn transport": "transport", "artillery": "artillery",
           "mounted cavalry": "cavalry"}.get(kind, "infantry")
    return {"side": side, "unit": name, "label": label, "footprint": {"shape": "polygon", "points": sq(*area)},
            "facing": float(facing), "status": "ready", "counters": [{"kind": "strength", "n": sp}],
            "ranges": [], "arm": arm}


def area(p):
    return tuple(int(v) for v in p["footprint"]["points"][0])


class Battle:
    """A small battle written action by action, its data worked out as the trace gives it and
    the results as the text gives them (each can be doctored afterwards)."""

    def __init__(self, pieces, terrain=(), width=8, depth=8):
        self.terrain = {tuple(a): k for a, k in terrain}
        self.pieces = [copy.deepcopy(p) for p in pieces]
        self.index = [p["unit"] for p in self.pieces]
        t = [{"kind": k, "name": f"[{a[0]}, {a[1]}]", "points": sq(*a), "closed": True}
             for a, k in self.terrain.items()]
        self.lines = [{"n": 0, "turn": 1, "phase": "both sides throw a D6 for the initiative",
                       "table": {"ruleset": "itchy-scratchy", "title": "test", "width": float(width),
                                 "depth": float(depth), "unit": "area", "sides": SIDES, "terrain": t},
                       "events": [], "pieces": copy.deepcopy(self.pieces), "markers": [], "objectives": []}]
        self.turn_no = 0
        self.half = 0
        self.first = None
        self.attacked = set()
        self.moved = {}
        self.exhausted = set()
        self.start = {s: sum(int(p["label"].split(" SP")[0].split()[-1]) for p in self.pieces if p["side"] == s)
                      for s in (0, 1)}

    # ----- helpers -----
    def p(self, name):
        return next(p for p in self.pieces if p["unit"] == name)

    def sp(self, p):
        return p["counters"][0]["n"]

    def set_sp(self, p, n):
        p["counters"][0]["n"] = n
        head, _, tail = p["label"].partition(" SP")
        words = head.split()
        words[-1] = str(n)
        p["label"] = " ".join(words) + " SP" + tail

    def kind(self, p):
        return "general" if p["label"].startswith("General") else p["label"].split(" SP")[0].rsplit(" ", 1)[0]

    def push(self, action, by, events, draws=None, outcome=None):
        line = {"n": len(self.lines), "turn": self.turn_no, "phase": "test", "by": by, "action": action,
                "events": [{"text": e.get("event", ""), "data": e} for e in events],
                "pieces": copy.deepcopy(self.pieces), "markers": [], "objectives": []}
        if draws is not None:
            line["draws"] = draws
        if outcome is not None:
            line["outcome"] = outcome
        self.lines.append(line)
        return line

    # ----- the turn -----
    def begin(self, throws=((5, 2),), first=True):
        self.turn_no += 1
        self.attacked, self.moved = set(), {}
        a, b = throws[-1]
        win = 0 if a > b else 1
        draws = [{"kind": "die", "sides": 6, "purpose": "initiative", "value": v} for th in throws for v in th]
        self.push("throw", {"side": 0},
                  [{"event": "turn_begins", "turn": self.turn_no},
                   {"event": "initiative", "sides": SIDES, "throws": [list(t) for t in throws],
                    "winner": SIDES[win]}], draws)
        self.first = win if first else 1 - win
        self.half = 1
        self.push({"go_first": {"first": first}}, {"side": win}, [{"event": "order", "side": SIDES[self.first]}])

    def end_half(self, outcome=None):
        if self.half == 1:
            self.half = 2
            return self.push("end_half", {"side": self.first},
                             [{"event": "second_half", "side": SIDES[1 - self.first]}])
        evs = []
        for s in (0, 1):
            now = sum(self.sp(p) for p in self.pieces if p["side"] == s)
            lost = self.start[s] - now
            point = (self.start[s] + 1) // 2
            if s not in self.exhausted and lost >= point:
                self.exhausted.add(s)
                evs.append({"event": "exhausted", "side": SIDES[s], "lost": lost, "point": point,
                            "start": self.start[s], "turn": self.turn_no})
        if len(self.exhausted) == 2 and outcome is None:
            outcome = {"winner": None, "reason": "both sides are exhausted"}
        if outcome:
            evs.append({"event": "battle_over", "outcome": outcome})
        self.half = 0
        return self.push("end_half", {"side": 1 - self.first}, evs, outcome=outcome)

    # ----- actions -----
    def move(self, name, path, facing):
        p = self.p(name)
        frm = area(p)
        others = [q for q in self.pieces if q["side"] != p["side"]]
        faced = [q["unit"] for q in others if isc.adjacent(area(q), frm)
                 and isc.add(area(q), isc.VEC[int(q["facing"])]) == frm]
        to = tuple(path[-1]) if path else frm
        kind = self.kind(p)
        allowance = isc.RATE[kind] - (1 if name in self.attacked else 0)
        near = [q["unit"] for q in others if isc.adjacent(area(q), to)]
        if not path:
            stop = {"cause": "turned"}
        elif near:
            stop = {"cause": "enemy", "units": near, "faces": near[0]}
        elif len(path) == allowance:
            stop = {"cause": "allowance"}
        else:
            stop = {"cause": "short"}
        p["footprint"]["points"] = sq(*to)
        p["facing"] = float(facing)
        self.moved[name] = self.moved.get(name, 0) + len(path)
        ev = {"event": "moved", "unit": name, "areas": len(path), "from": list(frm),
              "path": [list(a) for a in path], "to": list(to), "facing": FACING[facing],
              "allowance": allowance, "stop": stop, "way": "", "withdrew": bool(faced and path),
              "exhausted": p["side"] in self.exhausted}
        if faced and path:
            ev["withdrew_from"] = faced
        return self.push({"move": {"unit": self.index.index(name), "path": [list(a) for a in path],
                                   "facing": FACING[facing]}}, {"side": p["side"]}, [ev])

    def attack(self, name, target, dice):
        a, t = self.p(name), self.p(target)
        fa, ta = area(a), area(t)
        g = self.terrain.get(ta, "open")
        cover = g in isc.COVER
        gen_a = [q["unit"] for q in self.pieces if q["side"] == a["side"] and area(q) == fa
                 and q is not a and q["label"].startswith("General")]
        gen_t = [q for q in self.pieces if q["side"] == t["side"] and area(q) == ta
                 and q is not t and q["label"].startswith("General")]
        tk = self.kind(t)
        if tk == "general":
            hit = isc.general_hit(dice, cover)
        else:
            hit = isc.unit_hit(dice, isc.DOUBLE_FACES[tk][0], cover)
        evs = []
        killed = None
        for gq in gen_t:
            if isc.general_hit(dice, cover):
                killed = gq["unit"]
                self.pieces.remove(gq)
        if hit:
            left = self.sp(t) - 1
            if left <= 0:
                self.pieces.remove(t)
            else:
                self.set_sp(t, left)
        left = self.sp(t) if t in self.pieces else 0
        cells, corners = isc.sight(fa, ta)
        ev = {"event": "attack", "attacker": name, "target": target, "from": list(fa),
              "facing": FACING[int(a["facing"])], "at": list(ta),
              "off_facing": round(isc.off_facing(isc.VEC[int(a["facing"])], fa, ta), 1),
              "through": [list(c) for c in cells], "ground": WORD.get(self.terrain.get(fa, "open"),
                                                                         self.terrain.get(fa, "open")),
              "target_ground": WORD.get(g, g), "moved": self.moved.get(name),
              "allowance": isc.RATE[self.kind(a)] - 1,
              "general_with_attacker": gen_a[0] if gen_a else None,
              "general_with_target": gen_t[0]["unit"] if gen_t else None,
              "resolution": {"situation": {"range": isc.manhattan(fa, ta), "target_in_cover": cover},
                             "dice": list(dice)},
              "target_left": left, "general_killed": killed}
        if corners:
            ev["corners"] = [[list(x), list(y)] for x, y in corners]
        evs.append(ev)
        if hit:
            evs.append({"event": "lost_sp", "unit": target, "left": left} if left else
                       {"event": "destroyed", "unit": target})
        self.attacked.add(name)
        draws = [{"kind": "die", "sides": 6, "purpose": f"{name} attacking {target}", "value": v} for v in dice]
        return self.push({"attack": {"unit": self.index.index(name), "target": self.index.index(target)}},
                         {"side": a["side"]}, evs, draws)


def run(check, lines, agents="?"):
    c = check()
    common.run_trace(iter(copy.deepcopy(lines)), [c], scenario="test", seed=1, agents=agents)
    return c


# Reds in the south, Blues in the north; woods in the east; a sangar row.
TERRAIN = [((6, 3), "woods"), ((6, 4), "woods"), ((6, 5), "woods"), ((7, 4), "woods"),
           ((2, 6), "fortification"), ((1, 6), "fortification")]


def pieces():
    return [
        piece("Red General", 0, "general", (3, 0)),
        piece("Red foot", 0, "infantry", (3, 1), 0, weapon="muskets"),
        piece("Red guns", 0, "artillery", (5, 1), 0, weapon="smooth-bore field artillery"),
        piece("Red horse", 0, "mounted cavalry", (1, 1), 0, weapon="hand-held weapons"),
        piece("Blue foot", 1, "infantry", (3, 5), 180, weapon="muskets"),
        piece("Blue General", 1, "general", (4, 7), 180),
        piece("Blue wagons", 1, "horse-drawn transport", (0, 7), 180),
    ]


def good_battle():
    """Two turns every check must pass. Turn 1: Reds win the initiative after a tie and go first;
    moves, a move then an attack at range 5, Blues reply at range 2, a General joins a unit.
    Turn 2: Blues win and choose to go second; an attack then a move of one area that stops next
    to the enemy and faces it; the unit faced withdraws away."""
    b = Battle(pieces(), TERRAIN)
    b.begin(((3, 3), (5, 2)))
    b.move("Red foot", [(3, 2), (3, 3)], 0)
    b.move("Red guns", [(5, 2)], 0)
    b.attack("Red guns", "Blue foot", [4, 4])                    # range 5: 2 dice; double 4 hits
    b.move("Red General", [(3, 1), (3, 2)], 0)
    b.move("Red horse", [(1, 2), (1, 3), (1, 4)], 0)
    b.end_half()
    b.move("Blue wagons", [(0, 6)], 180)
    b.attack("Blue foot", "Red foot", [6, 6])                    # range 2: 2 dice
    b.move("Blue General", [(4, 6), (4, 5), (3, 5)], 180)       # joins Blue foot
    b.end_half()
    b.begin(((2, 6),), first=False)
    b.attack("Red foot", "Blue foot", [1, 1])                    # no double 4-6, no treble 1
    b.move("Red foot", [(3, 4)], 0)                              # stops next to Blue foot, faces it
    b.move("Red General", [(3, 3)], 0)
    b.end_half()
    b.move("Blue foot", [(2, 5)], 180)                           # faced by Red foot: withdraws
    b.end_half()
    return b


def only(check_cls):
    return [c for c in isc.CHECKS if c is check_cls]


def find(b, pred):
    """The index of the first line whose first event satisfies pred."""
    for i, ln in enumerate(b.lines):
        for e in ln.get("events", []):
            if pred(e["data"]):
                return i
    raise AssertionError("no such line")


def piece_in(line, name):
    return next(p for p in line["pieces"] if p["unit"] == name)


def move_piece(line, name, a, facing=None):
    p = piece_in(line, name)
    p["footprint"]["points"] = sq(*a)
    if facing is not None:
        p["facing"] = float(facing)


def exhaustion_battle(blue_general_path=((0, 6), (0, 7))):
    """Blues (4 SP: point 2) lose their 2-SP foot in turn 1 and are told exhausted at its end;
    in turn 2 their General moves (by default away from the enemy)."""
    ps = [piece("Red General", 0, "general", (3, 0)),
          piece("Red foot", 0, "infantry", (3, 1), 0, weapon="muskets"),
          piece("Red guns", 0, "artillery", (5, 1), 0, weapon="smooth-bore field artillery"),
          piece("Blue foot", 1, "infantry", (3, 4), 180, sp=2, weapon="muskets"),
          piece("Blue General", 1, "general", (0, 5), 180),
          piece("Blue wagons", 1, "horse-drawn transport", (7, 7), 180)]
    b = Battle(ps, TERRAIN)
    b.begin(((5, 2),))
    b.move("Red foot", [(3, 2)], 0)
    b.attack("Red foot", "Blue foot", [5, 5])
    b.attack("Red guns", "Blue foot", [6, 6])                    # range 5, destroyed
    b.end_half()
    b.end_half()                                                 # Blues exhausted (lost 2 of 4)
    b.begin(((1, 4),), first=False)                              # Blues win, go second
    b.end_half()
    b.move("Blue General", list(blue_general_path), 0)
    b.end_half()
    return b


def standoff_battle(turns=3):
    ps = [piece("Red General", 0, "general", (0, 0)),
          piece("Red foot", 0, "infantry", (3, 3), 0, weapon="muskets"),
          piece("Blue foot", 1, "infantry", (3, 4), 180, weapon="muskets"),
          piece("Blue General", 1, "general", (7, 7), 180)]
    b = Battle(ps, TERRAIN)
    for _ in range(turns):
        b.begin(((5, 2),))
        b.end_half()
        b.end_half()
    return b


class Passes(unittest.TestCase):
    def test_good_battle_passes_every_check(self):
        for c in isc.CHECKS:
            r = run(c, good_battle().lines, "heuristic,random")
            self.assertEqual(r.violations, 0, (c.name, r.examples))
        self.assertGreater(run(isc.Withdrawal, good_battle().lines).count, 0)
        self.assertGreater(run(isc.FaceEnemyOnStop, good_battle().lines).count, 0)

    def test_exhaustion_battle_passes(self):
        for c in isc.CHECKS:
            r = run(c, exhaustion_battle().lines)
            self.assertEqual(r.violations, 0, (c.name, r.examples))
        self.assertEqual(run(isc.ExhaustedNoAdvance, exhaustion_battle().lines).count, 1)

    def test_counts_never_violate_and_report(self):
        for b in (good_battle(), exhaustion_battle(), standoff_battle()):
            for c in isc.CHECKS:
                if issubclass(c, isc.Tally):
                    r = run(c, b.lines, "heuristic,random")
                    self.assertEqual(r.violations, 0)
                    self.assertEqual(c.keep, 0)
        r = run(isc.CountAttacks, good_battle().lines, "heuristic,random")
        self.assertTrue(any(x.startswith("attacks: 3") for x in r.examples), r.examples)
        r = run(isc.CountExhausted, exhaustion_battle().lines)
        self.assertTrue(any("moves by an exhausted side: 1" in x for x in r.examples), r.examples)
        r = run(isc.CountStandoffs, standoff_battle().lines)
        self.assertTrue(any("run of 3+" in x for x in r.examples), r.examples)


class Bodies(unittest.TestCase):
    def test_off_grid_and_not_a_square(self):
        b = good_battle()
        move_piece(b.lines[5], "Red horse", (8, 1))
        self.assertEqual(run(isc.OnTheGrid, b.lines).violations, 1)
        b = good_battle()
        piece_in(b.lines[5], "Red horse")["footprint"]["points"][2] = [2.5, 2.5]
        self.assertGreaterEqual(run(isc.OnTheGrid, b.lines).violations, 1)

    def test_facing_a_corner(self):
        b = good_battle()
        piece_in(b.lines[4], "Red foot")["facing"] = 45.0
        self.assertEqual(run(isc.FacingEdge, b.lines).violations, 1)

    def test_enemies_share(self):
        b = good_battle()
        move_piece(b.lines[-1], "Blue wagons", (1, 4))           # onto Red horse
        self.assertEqual(run(isc.NoEnemyShare, b.lines).violations, 1)

    def test_friends_share(self):
        b = good_battle()
        move_piece(b.lines[-1], "Red horse", (3, 4))             # onto Red foot
        self.assertEqual(run(isc.NoFriendShare, b.lines).violations, 1)
        # a General with a unit is no violation (the good battle has Blue General join Blue foot)
        self.assertEqual(run(isc.NoFriendShare, good_battle().lines).violations, 0)

    def test_strength_lost_without_attack(self):
        b = good_battle()
        i = find(b, lambda e: e.get("event") == "moved" and e.get("unit") == "Blue wagons")
        for ln in b.lines[i:]:
            p = next((p for p in ln["pieces"] if p["unit"] == "Red horse"), None)
            p["counters"][0]["n"] = 2
            p["label"] = p["label"].replace("3 SP", "2 SP")
        self.assertEqual(run(isc.StrengthBook, b.lines).violations, 1)

    def test_strength_counter_disagrees(self):
        b = good_battle()
        piece_in(b.lines[-1], "Red horse")["counters"][0]["n"] = 2
        self.assertGreaterEqual(run(isc.StrengthBook, b.lines).violations, 1)

    def test_unit_vanishes(self):
        b = good_battle()
        b.lines[-1]["pieces"] = [p for p in b.lines[-1]["pieces"] if p["unit"] != "Blue wagons"]
        self.assertEqual(run(isc.StrengthBook, b.lines).violations, 1)

    def test_bystander_moves(self):
        b = good_battle()
        i = find(b, lambda e: e.get("event") == "moved" and e.get("unit") == "Red guns")
        for ln in b.lines[i:]:
            move_piece(ln, "Blue wagons", (0, 6))
        self.assertEqual(run(isc.OnlyActorChanges, b.lines).violations, 1)


class TurnSequence(unittest.TestCase):
    def test_wrong_winner(self):
        b = good_battle()
        i = find(b, lambda e: e.get("event") == "initiative")
        b.lines[i]["events"][1]["data"]["winner"] = "Blues"
        self.assertEqual(run(isc.Initiative, b.lines).violations, 1)

    def test_tie_wins(self):
        b = Battle(pieces(), TERRAIN)
        b.begin(((4, 4),))
        self.assertGreaterEqual(run(isc.Initiative, b.lines).violations, 1)

    def test_draws_differ(self):
        b = good_battle()
        b.lines[1]["draws"][0]["value"] = 6
        self.assertGreaterEqual(run(isc.Initiative, b.lines).violations, 1)

    def test_loser_chooses(self):
        b = good_battle()
        b.lines[2]["by"] = {"side": 1}
        self.assertEqual(run(isc.Initiative, b.lines).violations, 1)

    def test_order_not_the_choice(self):
        b = good_battle()
        b.lines[2]["events"][0]["data"]["side"] = "Blues"
        self.assertEqual(run(isc.Initiative, b.lines).violations, 1)

    def test_wrong_half(self):
        b = Battle(pieces(), TERRAIN)
        b.begin(((5, 2),))
        b.move("Red foot", [(3, 2), (3, 3)], 0)
        b.attack("Blue foot", "Red foot", [1, 2])                # in the Reds' half
        self.assertEqual(run(isc.Halves, b.lines).violations, 1)

    def test_unit_acts_again_after_another(self):
        b = Battle(pieces(), TERRAIN)
        b.begin(((5, 2),))
        b.move("Red guns", [(5, 2)], 0)
        b.move("Red foot", [(3, 2)], 0)
        b.attack("Red guns", "Blue foot", [1, 2])
        self.assertEqual(run(isc.EachUnitInTurn, b.lines).violations, 1)
        # its move then its attack, with no one in between, is fine
        self.assertEqual(run(isc.EachUnitInTurn, good_battle().lines).violations, 0)

    def test_two_moves(self):
        b = Battle(pieces(), TERRAIN)
        b.begin(((5, 2),))
        b.move("Red horse", [(1, 2)], 0)
        b.move("Red horse", [(1, 3)], 0)
        self.assertEqual(run(isc.OneMove, b.lines).violations, 1)

    def test_two_attacks(self):
        b = Battle(pieces(), TERRAIN)
        b.begin(((5, 2),))
        b.move("Red guns", [(5, 2)], 0)
        b.attack("Red guns", "Blue foot", [1, 2])
        b.attack("Red guns", "Blue foot", [1, 3])
        self.assertEqual(run(isc.OneAttack, b.lines).violations, 1)


class Moves(unittest.TestCase):
    def test_diagonal_step(self):
        b = Battle(pieces(), TERRAIN)
        b.begin(((5, 2),))
        b.move("Red foot", [(4, 2)], 0)
        self.assertEqual(run(isc.EdgeSteps, b.lines).violations, 1)

    def test_path_not_where_it_stands(self):
        b = good_battle()
        move_piece(b.lines[3], "Red foot", (3, 2))
        self.assertGreaterEqual(run(isc.EdgeSteps, b.lines).violations, 1)

    def test_too_far(self):
        b = Battle(pieces(), TERRAIN)
        b.begin(((5, 2),))
        b.move("Red foot", [(3, 2), (2, 2), (2, 3)], 0)
        self.assertEqual(run(isc.MoveRate, b.lines).violations, 1)

    def test_attack_then_full_move(self):
        b = Battle(pieces(), TERRAIN)
        b.begin(((5, 2),))
        b.move("Red foot", [(3, 2)], 0)
        b.end_half()
        b.attack("Blue foot", "Red foot", [1, 2])
        b.move("Blue foot", [(3, 6), (2, 6)], 180)               # 2 areas after attacking
        self.assertEqual(run(isc.MoveRate, b.lines).violations, 1)

    def test_full_move_then_attack(self):
        b = Battle(pieces(), TERRAIN)
        b.begin(((5, 2),))
        b.move("Red guns", [(5, 2), (5, 3)], 0)
        b.attack("Red guns", "Blue foot", [1, 2, 3, 4])
        self.assertEqual(run(isc.MoveRate, b.lines).violations, 1)

    def stop_battle(self, path, facing):
        ps = [piece("Red General", 0, "general", (3, 0)),
              piece("Red horse", 0, "mounted cavalry", (1, 1), 0, weapon="hand-held weapons"),
              piece("Blue foot", 1, "infantry", (2, 3), 180, weapon="muskets"),
              piece("Blue General", 1, "general", (7, 7), 180)]
        b = Battle(ps, TERRAIN)
        b.begin(((5, 2),))
        b.move("Red horse", path, facing)
        return b

    def test_goes_on_past_an_enemy(self):
        b = self.stop_battle([(1, 2), (1, 3), (1, 4)], 0)
        self.assertEqual(run(isc.StopNextToEnemy, b.lines).violations, 1)
        b = self.stop_battle([(1, 2), (1, 3)], 90)
        self.assertEqual(run(isc.StopNextToEnemy, b.lines).violations, 0)
        self.assertEqual(run(isc.FaceEnemyOnStop, b.lines).violations, 0)

    def test_does_not_face_the_enemy(self):
        b = self.stop_battle([(1, 2), (1, 3)], 0)
        self.assertEqual(run(isc.FaceEnemyOnStop, b.lines).violations, 1)

    def withdraw(self, path):
        b = good_battle()
        b.lines.pop()                                            # the turn's end
        b.lines.pop()                                            # Blue foot's withdrawal
        b.pieces = copy.deepcopy(b.lines[-1]["pieces"])
        b.half = 2
        b.move("Blue foot", path, 180)
        b.end_half()
        return b

    def test_withdrawal_not_away(self):
        b = self.withdraw([(2, 5), (2, 4)])                      # ends next to Red foot again
        self.assertEqual(run(isc.Withdrawal, b.lines).violations, 1)

    def test_withdrawal_in_front_of_another(self):
        b = self.withdraw([(2, 5), (1, 5)])                      # (1, 5) is in front of Red horse
        self.assertEqual(run(isc.Withdrawal, b.lines).violations, 1)

    def test_exhausted_moves_nearer(self):
        b = exhaustion_battle(((1, 5), (2, 5)))
        self.assertEqual(run(isc.ExhaustedNoAdvance, b.lines).violations, 1)


def attack_battle(ps, attacker, target, dice, terrain=TERRAIN, width=8, depth=8):
    b = Battle(ps, terrain, width, depth)
    b.begin(((5, 2),))
    b.attack(attacker, target, dice)
    return b


def two(red, blue, rk="infantry", bk="infantry", rw="muskets", bw="muskets", extra=()):
    return [piece("Red unit", 0, rk, red[0], red[1], weapon=rw if rk not in isc.EXEMPT else None),
            piece("Blue unit", 1, bk, blue[0], blue[1], weapon=bw if bk not in isc.EXEMPT else None)] + list(extra)


class Attacks(unittest.TestCase):
    def test_general_attacks(self):
        b = attack_battle(two(((3, 3), 0), ((3, 4), 180), rk="general"), "Red unit", "Blue unit", [1, 2])
        self.assertEqual(run(isc.AttackWeaponRange, b.lines).violations, 1)

    def test_out_of_range(self):
        b = attack_battle(two(((3, 1), 0), ((3, 4), 180)), "Red unit", "Blue unit", [1, 2])
        self.assertEqual(run(isc.AttackWeaponRange, b.lines).violations, 1)
        b = attack_battle(two(((3, 2), 0), ((3, 4), 180)), "Red unit", "Blue unit", [1, 2])
        self.assertEqual(run(isc.AttackWeaponRange, b.lines).violations, 0)

    def test_out_of_arc(self):
        b = attack_battle(two(((3, 2), 90), ((3, 4), 180)), "Red unit", "Blue unit", [1, 2])
        self.assertEqual(run(isc.AttackArc, b.lines).violations, 1)
        # range 2, 45 degrees off: inside; range 3 at (2, 1) off: 63 degrees, outside
        ps = two(((2, 2), 0), ((3, 3), 180), rw="rifles and carbines")
        self.assertEqual(run(isc.AttackArc, attack_battle(ps, "Red unit", "Blue unit", [1, 2, 3, 4]).lines).violations, 0)
        ps = two(((1, 2), 0), ((3, 3), 180), rw="rifles and carbines")
        self.assertEqual(run(isc.AttackArc, attack_battle(ps, "Red unit", "Blue unit", [1, 2]).lines).violations, 1)

    def test_range_one_not_ahead(self):
        b = attack_battle(two(((3, 3), 0), ((4, 3), 270)), "Red unit", "Blue unit", [1, 2, 3, 4])
        self.assertEqual(run(isc.AttackArc, b.lines).violations, 1)

    def test_through_woods(self):
        # (6, 5) is 3 areas into the wood from the south: (6, 3) and (6, 4) are woods
        b = attack_battle(two(((6, 1), 0), ((6, 5), 180), rw="rifled field artillery"), "Red unit", "Blue unit",
                          [1, 2])
        self.assertEqual(run(isc.AttackSight, b.lines).violations, 1)
        b = attack_battle(two(((6, 1), 0), ((6, 3), 180), rw="rifled field artillery"), "Red unit", "Blue unit",
                          [1, 2, 3, 4])
        self.assertEqual(run(isc.AttackSight, b.lines).violations, 0)

    def test_out_of_woods_not_from_the_edge(self):
        b = attack_battle(two(((6, 4), 0), ((6, 6), 180), rw="rifles and carbines"), "Red unit", "Blue unit",
                          [1, 2, 3, 4])
        self.assertEqual(run(isc.AttackSight, b.lines).violations, 1)
        b = attack_battle(two(((6, 4), 270), ((4, 4), 90), rw="rifles and carbines"), "Red unit", "Blue unit",
                          [1, 2, 3, 4])
        self.assertEqual(run(isc.AttackSight, b.lines).violations, 0)

    def test_between_two_woods_at_a_corner(self):
        terrain = [((1, 0), "woods"), ((0, 1), "woods")]
        b = attack_battle(two(((0, 0), 0), ((1, 1), 180), rw="rifles and carbines"), "Red unit", "Blue unit",
                          [1, 2, 3, 4], terrain)
        self.assertEqual(run(isc.AttackSight, b.lines).violations, 1)
        terrain = [((1, 0), "woods")]
        b = attack_battle(two(((0, 0), 0), ((1, 1), 180), rw="rifles and carbines"), "Red unit", "Blue unit",
                          [1, 2, 3, 4], terrain)
        self.assertEqual(run(isc.AttackSight, b.lines).violations, 0)

    def test_dice_count(self):
        b = attack_battle(two(((3, 2), 0), ((3, 4), 180)), "Red unit", "Blue unit", [1, 2, 3])
        self.assertEqual(run(isc.AttackDice, b.lines).violations, 1)
        gen = [piece("Red General", 0, "general", (3, 2))]
        b = attack_battle(two(((3, 2), 0), ((3, 4), 180), extra=gen), "Red unit", "Blue unit", [1, 2])
        self.assertEqual(run(isc.AttackDice, b.lines).violations, 1)
        b = attack_battle(two(((3, 2), 0), ((3, 4), 180), extra=gen), "Red unit", "Blue unit", [1, 2, 3, 4])
        self.assertEqual(run(isc.AttackDice, b.lines).violations, 0)

    def test_resolution_dice_not_the_draws(self):
        b = attack_battle(two(((3, 2), 0), ((3, 4), 180)), "Red unit", "Blue unit", [1, 2])
        b.lines[-1]["events"][0]["data"]["resolution"]["dice"] = [6, 6]
        self.assertEqual(run(isc.AttackDice, b.lines).violations, 1)

    def doctor_hit(self, b, name, sp):
        p = piece_in(b.lines[-1], name)
        p["counters"][0]["n"] = sp
        p["label"] = p["label"].replace(p["label"].split(" SP")[0].split()[-1] + " SP", f"{sp} SP", 1)

    def test_hit_without_a_double(self):
        b = attack_battle(two(((3, 2), 0), ((3, 4), 180)), "Red unit", "Blue unit", [4, 5])
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 0)
        self.doctor_hit(b, "Blue unit", 3)
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 1)

    def test_double_missed(self):
        b = attack_battle(two(((3, 2), 0), ((3, 4), 180)), "Red unit", "Blue unit", [6, 6])
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 0)
        self.doctor_hit(b, "Blue unit", 4)
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 1)

    def test_cover_needs_another_double(self):
        # Blue in the sangar (2, 6): double 4 alone does not hit; 4 4 1 1 does
        b = attack_battle(two(((2, 2), 0), ((2, 6), 180), rk="artillery", rw="rifled field artillery"),
                          "Red unit", "Blue unit", [4, 4, 2, 3])
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 0)
        self.doctor_hit(b, "Blue unit", 3)
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 1)
        b = attack_battle(two(((2, 2), 0), ((2, 6), 180), rk="artillery", rw="rifled field artillery"),
                          "Red unit", "Blue unit", [4, 4, 1, 1])
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 0)
        self.assertEqual(piece_in(b.lines[-1], "Blue unit")["counters"][0]["n"], 3)

    def test_wrong_face_for_the_target(self):
        # a double 4 does not hit cavalry; a double 2 does
        b = attack_battle(two(((3, 2), 0), ((3, 4), 180), bk="mounted cavalry", bw="hand-held weapons"),
                          "Red unit", "Blue unit", [4, 4])
        self.doctor_hit(b, "Blue unit", 2)
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 1)

    def test_dismounted_cavalry_either_reading(self):
        for dice in ([2, 2], [5, 5]):
            b = attack_battle(two(((3, 2), 0), ((3, 4), 180), bk="dismounted cavalry",
                                  bw="rifles and carbines"), "Red unit", "Blue unit", dice)
            self.doctor_hit(b, "Blue unit", 2)
            self.assertEqual(run(isc.AttackResult, b.lines).violations, 0)
        b = attack_battle(two(((3, 2), 0), ((3, 4), 180), bk="dismounted cavalry", bw="rifles and carbines"),
                          "Red unit", "Blue unit", [1, 1])
        self.doctor_hit(b, "Blue unit", 2)
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 1)

    def test_general_with_the_target(self):
        gen = [piece("Blue General", 1, "general", (3, 4))]
        b = attack_battle(two(((3, 2), 0), ((3, 4), 180), rw="rifles and carbines", extra=gen),
                          "Red unit", "Blue unit", [1, 1, 1, 5])
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 0)
        self.assertFalse(any(p["unit"] == "Blue General" for p in b.lines[-1]["pieces"]))
        b.lines[-1]["pieces"].append(piece("Blue General", 1, "general", (3, 4)))
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 1)

    def test_lone_general_in_cover(self):
        ps = [piece("Red unit", 0, "infantry", (2, 3), 0, weapon="rifles and carbines"),
              piece("Blue General", 1, "general", (2, 6), 180)]
        b = attack_battle(ps, "Red unit", "Blue General", [1, 1, 1])     # treble 1, no other double
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 0)
        b.lines[-1]["pieces"] = b.lines[-1]["pieces"][:1]
        self.assertEqual(run(isc.AttackResult, b.lines).violations, 1)


class Exhaustion(unittest.TestCase):
    def test_not_told(self):
        b = exhaustion_battle()
        i = find(b, lambda e: e.get("event") == "exhausted")
        b.lines[i]["events"] = []
        self.assertEqual(run(isc.ExhaustionPoint, b.lines).violations, 1)

    def test_told_mid_turn(self):
        b = exhaustion_battle()
        i = find(b, lambda e: e.get("event") == "exhausted")
        ev = b.lines[i]["events"].pop()
        b.lines[i - 1]["events"].append(ev)                      # the end of the first half
        self.assertGreaterEqual(run(isc.ExhaustionPoint, b.lines).violations, 1)

    def test_wrong_point(self):
        b = exhaustion_battle()
        i = find(b, lambda e: e.get("event") == "exhausted")
        b.lines[i]["events"][0]["data"]["point"] = 3
        self.assertEqual(run(isc.ExhaustionPoint, b.lines).violations, 1)

    def test_both_exhausted_battle_goes_on(self):
        b = exhaustion_battle()
        i = find(b, lambda e: e.get("event") == "exhausted")
        b.lines[i]["events"].append({"text": "", "data": {"event": "exhausted", "side": "Reds"}})
        self.assertEqual(run(isc.BothExhaustedEnd, b.lines).violations, 1)

    def test_action_after_the_end(self):
        b = exhaustion_battle()
        b.lines[5]["outcome"] = {"winner": 0, "reason": "test"}
        self.assertGreaterEqual(run(isc.BothExhaustedEnd, b.lines).violations, 1)


class Data(unittest.TestCase):
    def test_move_data(self):
        b = good_battle()
        b.lines[3]["events"][0]["data"]["allowance"] = 3
        self.assertEqual(run(isc.MoveData, b.lines).violations, 1)
        b = good_battle()
        i = find(b, lambda e: e.get("event") == "moved" and e.get("withdrew"))
        b.lines[i]["events"][0]["data"]["withdrew"] = False
        self.assertEqual(run(isc.MoveData, b.lines).violations, 1)

    def test_attack_data(self):
        b = good_battle()
        i = find(b, lambda e: e.get("event") == "attack")
        b.lines[i]["events"][0]["data"]["resolution"]["situation"]["range"] = 4
        self.assertEqual(run(isc.AttackData, b.lines).violations, 1)
        b = good_battle()
        b.lines[i]["events"][0]["data"]["through"] = []
        self.assertEqual(run(isc.AttackData, b.lines).violations, 1)

    def test_standoff_told(self):
        b = standoff_battle()
        self.assertEqual(run(isc.StandoffTold, b.lines).violations, 1)
        b.lines[-1]["events"].append({"text": "", "data": {"event": "standoff", "units": ["Red foot", "Blue foot"],
                                                           "turns": 3, "why": []}})
        self.assertEqual(run(isc.StandoffTold, b.lines).violations, 0)
        b = standoff_battle(2)
        self.assertEqual(run(isc.StandoffTold, b.lines).violations, 0)


class Builder(unittest.TestCase):
    """The made-up battles are what they claim (the checks' own helpers are tested here too)."""

    def test_sight_and_arc(self):
        self.assertEqual(isc.sight((0, 0), (0, 3)), ([(0, 1), (0, 2)], []))
        cells, corners = isc.sight((0, 0), (2, 2))
        self.assertEqual(cells, [(1, 1)])
        self.assertEqual(len(corners), 2)
        cells, corners = isc.sight((0, 0), (1, 1))
        self.assertEqual(cells, [])
        self.assertEqual(len(corners), 1)
        self.assertEqual({frozenset(corners[0])}, {frozenset([(1, 0), (0, 1)])})
        self.assertTrue(isc.in_arc((0, 1), (0, 0), (1, 1)))
        self.assertFalse(isc.in_arc((0, 1), (0, 0), (2, 1)))
        self.assertFalse(isc.in_arc((0, 1), (0, 0), (1, 0)))
        self.assertTrue(isc.in_arc((0, 1), (0, 0), (0, 1)))

    def test_dice(self):
        self.assertTrue(isc.unit_hit([1, 1, 3], (1,), False))
        self.assertFalse(isc.unit_hit([1, 1, 3], (1,), True))
        self.assertTrue(isc.unit_hit([1, 1, 2, 2], (1,), True))
        self.assertTrue(isc.unit_hit([1, 1, 1, 1], (1,), True))       # the author: any other double
        self.assertFalse(isc.unit_hit([1, 1, 1], (1,), True))
        self.assertTrue(isc.general_hit([1, 1, 1], False))
        self.assertFalse(isc.general_hit([1, 1, 1, 4], True))
        self.assertTrue(isc.general_hit([1, 1, 1, 4, 4, 5], True))     # the author's example
        self.assertTrue(isc.unit_hit([1, 1, 1, 4, 4, 5], (4, 5, 6), True))
        self.assertAlmostEqual(isc.chance(2, lambda d: isc.unit_hit(d, (4, 5, 6), False)), 3 / 36)


if __name__ == "__main__":
    unittest.main()
