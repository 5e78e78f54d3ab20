"""Each En Avant check shown able to fail on a small made-up trace (and, where it can, to pass
one it must pass)."""

import copy
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402
import en_avant as ea  # noqa: E402

WORD = {6: "Pugnacious", 5: "Determined", 4: "Steady", 3: "Nervous", 2: "Wavering",
        1: "Frightened", 0: "Running away"}
SIZE = {("battalion", "line"): (36, 2), ("battalion", "assault column"): (12, 6),
        ("battalion", "march column"): (6, 12), ("battalion", "square"): (6, 6),
        ("light battalion", "line"): (36, 2), ("light battalion", "assault column"): (12, 6),
        ("rifle company", "line"): (6, 2),
        ("cavalry regiment", "line"): (32, 4), ("cavalry regiment", "column"): (16, 28),
        ("battery", "deployed"): (12, 4), ("battery", "limbered"): (12, 4)}
ARM = {"battalion": "infantry", "light battalion": "infantry", "rifle company": "infantry",
       "cavalry regiment": "cavalry", "battery": "artillery"}


def corners(at, facing, w, d):
    u, r = common.heading_vec(facing), common.heading_vec(facing + 90)
    fl = (at[0] - r[0] * w / 2, at[1] - r[1] * w / 2)
    fr = (at[0] + r[0] * w / 2, at[1] + r[1] * w / 2)
    return [list(fl), list(fr), [fr[0] - u[0] * d, fr[1] - u[1] * d],
            [fl[0] - u[0] * d, fl[1] - u[1] * d]]


def P(name, side, kind="battalion", formation="line", status=4, at=(50, 50), facing=0.0,
      dis=False, second=None, size=None, extra=""):
    """A piece: its front centre `at`, its facing, its status."""
    w, d = size or SIZE[(kind, formation)]
    lab = f"{name} ({kind}, {formation}): {WORD[status]} ({status}), "
    counters = [{"kind": "status", "n": status}]
    if kind == "cavalry regiment":
        s2 = status if second is None else second
        lab += f"second line {WORD[s2]} ({s2}), "
        counters += [{"kind": "first line", "n": status}, {"kind": "second line", "n": s2},
                     {"kind": "first line disordered", "n": int(dis)},
                     {"kind": "second line disordered", "n": 0}]
    lab += ("DISORDERED" if dis else "ordered") + extra + ", card: halt"
    return {"side": side, "unit": name, "label": lab, "arm": ARM[kind], "facing": facing,
            "status": ea.WORDS[status], "counters": counters,
            "footprint": {"shape": "polygon", "points": corners(at, facing, w, d)}}


def body(p):
    pts = p["footprint"]["points"]
    return {"at": [(pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2],
            "facing": p["facing"], "corners": pts}


def moved(p, at=None, facing=None, **kw):
    """The piece somewhere else, or changed."""
    q = copy.deepcopy(p)
    b = body(p)
    at = at if at is not None else b["at"]
    facing = p["facing"] if facing is None else facing
    kind, formation = p["label"].split(" (")[1].split("):")[0].split(", ")
    status = kw.get("status")
    dis = kw.get("dis")
    w, d = SIZE[(kind, kw.get("formation", formation))]
    r = P(p["unit"], p["side"], kind, kw.get("formation", formation),
          status if status is not None else p["counters"][0]["n"], at, facing,
          dis if dis is not None else ("DISORDERED" in p["label"]), kw.get("second"), (w, d),
          kw.get("extra", ""))
    q.update(r)
    return q


HQ = [{"side": 0, "kind": "headquarters", "at": [90.0, 4.0], "label": "HQ 0"},
      {"side": 1, "kind": "headquarters", "at": [90.0, 116.0], "label": "HQ 1"},
      {"side": 0, "kind": "commander", "at": [90.0, 4.0], "label": "C0"},
      {"side": 1, "kind": "commander", "at": [90.0, 116.0], "label": "C1"}]


def battle(first, *turns, terrain=None, markers=None):
    """A trace: line 0 with `first` pieces, then one 'done' line per turn, each (facts, pieces)
    or (facts, pieces, markers, orders)."""
    lines = [{"n": 0, "turn": 1, "phase": "orders",
              "table": {"ruleset": "en-avant", "width": 180, "depth": 120, "unit": "cm",
                        "terrain": terrain or []},
              "events": [], "pieces": first, "markers": markers or HQ}]
    prev_markers = markers or HQ
    for k, tn in enumerate(turns):
        facts, pieces = tn[0], tn[1]
        mk = tn[2] if len(tn) > 2 and tn[2] is not None else prev_markers
        orders = tn[3] if len(tn) > 3 else []
        for o in orders:
            lines.append({"n": len(lines), "turn": k + 1, "phase": "orders", "by": {"side": 0},
                          "action": o, "events": [], "pieces": lines[-1]["pieces"],
                          "markers": lines[-1]["markers"]})
        ev = [{"text": "", "data": {"kind": "explained", "text": "", "fact": f}} for f in facts]
        ev.append({"text": "turn", "data": {"kind": "turn", "turn": k + 2}})
        lines.append({"n": len(lines), "turn": k + 2, "phase": "orders", "by": {"side": 1},
                      "action": {"kind": "done"}, "events": ev, "pieces": pieces, "markers": mk})
        prev_markers = mk
    return lines


def run(cls, lines):
    c = cls()
    c.keep = 50
    common.run_trace(lines, [c], "test", 1, "a,b")
    return c


def fire(firer, target, row, fs, frm, to, density="dense", rng=5.0, defence=False, line=1,
         disordered=None):
    return {"fact": "fire", "firer": firer, "target": target, "row": row, "firer_status": fs,
            "density": density, "range": rng, "in_defence": defence,
            "lines": [{"line": line, "from": frm, "to": to}],
            "disordered": disordered if disordered is not None else to < frm}


def move(p, to_piece, what="advance", done=None, ordered=None, target=None, stop="full"):
    a, z = body(p), body(to_piece)
    d = common.dist(a["at"], z["at"]) if done is None else done
    st = {"cause": stop} if isinstance(stop, str) else stop
    return {"fact": "move", "unit": p["unit"], "what": what, "target": target, "from": a,
            "to": z, "ordered": ordered if ordered is not None else d, "done": d, "stop": st}


def assault(att, dfd, a_fig, d_fig, closed=True, direction="front", won=True, results=None,
            step_two=None, outnumbering=False):
    s2 = step_two
    if s2 is None and closed:
        s2 = [dict(a_fig), dict(d_fig)]
        for f in s2:
            f["modifiers"] = [m for m in f["modifiers"] if m[0] in ea.STEP_TWO]
            f["total"] = f["status"] + sum(v for _, v in f["modifiers"])
    return {"fact": "assault", "defender": dfd["unit"], "body": body(dfd),
            "attackers": [{"unit": att["unit"], "body": body(att), "direction": direction,
                           "gap": 0.0, "step_one": [a_fig, d_fig], "closed": closed,
                           "stood_off": None if closed else 5.0}],
            "outnumbering": outnumbering, "step_two": s2 if closed else None,
            "best": att["unit"] if closed else None,
            "attackers_won": (won if closed else None), "results": results or []}


def fig(status, *mods):
    mods = [list(m) for m in mods]
    return {"status": status, "modifiers": mods, "total": status + sum(v for _, v in mods)}


def res(unit, won, frm, to, nxt, **kw):
    n = {"next": nxt}
    n.update(kw)
    return {"unit": unit, "won": won, "lines": [{"line": 1, "from": frm, "to": to}], "next": n}


class Base(unittest.TestCase):
    def bad(self, cls, lines, n=1):
        c = run(cls, lines)
        self.assertGreaterEqual(c.violations, n, f"{cls.__name__} should report: {c.examples}")
        self.assertGreater(c.count, 0)
        return c

    def good(self, cls, lines):
        c = run(cls, lines)
        self.assertEqual(c.violations, 0, f"{cls.__name__} should pass: {c.examples}")
        self.assertGreater(c.count, 0, f"{cls.__name__} checked nothing")
        return c


# two infantry battalions facing each other 20 cm apart, a battery behind
A = P("A", 0, at=(90, 40), facing=0.0)
B = P("B", 1, kind="battalion", formation="assault column", status=5, at=(90, 60), facing=180.0)


class TestTables(Base):
    def test_fire_table(self):
        self.assertEqual(ea.fire_results("first_line_volley", 4, 5, "dense"), {3})
        self.assertEqual(ea.fire_results("later_line_volley", 4, 5, "dense"), {5})
        self.assertEqual(ea.fire_results("later_line_volley", 4, 4, "dense"), {3})
        self.assertEqual(ea.fire_results("later_other_volley", 2, 1, "loose"), {1})
        self.assertEqual(ea.fire_results("ball", 4, 1, "dense"), {1})
        self.assertEqual(ea.fire_results("rifles", 4, 2, "loose"), {2})
        self.assertEqual(ea.fire_results("canister", 4, 4, "loose"), {3, 2})

    def test_results_table(self):
        self.assertEqual(ea.RESULTS[("infantry", "1-2")], (("pursue", 0), (15, -1)))
        self.assertEqual(ea.RESULTS[("cavalry", "5-6")], (("pursue", -1), (10, -2)))


class TestStatus(Base):
    def test_words(self):
        bad = copy.deepcopy(A)
        bad["status"] = "nervous"
        self.bad(ea.StatusWords, battle([A, B], ([], [bad, B])))
        self.good(ea.StatusWords, battle([A, B], ([], [A, B])))

    def test_accounted(self):
        self.bad(ea.StatusAccounted, battle([A, B], ([], [moved(A, status=3), B])))
        f = fire("B", "A", "later_line_volley", 5, 4, 3)
        self.good(ea.StatusAccounted, battle([A, B], ([f], [moved(A, status=3, dis=True), B])))
        wrong_from = fire("B", "A", "later_line_volley", 5, 5, 4)
        self.bad(ea.StatusAccounted, battle([A, B], ([wrong_from], [moved(A, status=4), B])))


class TestFire(Base):
    def test_result(self):
        f = fire("A", "B", "first_line_volley", 4, 5, 4)  # should drop two
        self.bad(ea.FireResult, battle([A, B], ([f], [A, B])))
        f = fire("A", "B", "first_line_volley", 4, 5, 3)
        self.good(ea.FireResult, battle([A, B], ([f], [A, B])))
        f = fire("Bat", "B", "ball", 4, 1, 0)  # note 1: not below Frightened
        self.bad(ea.FireResult, battle([A, B], ([f], [A, B])))

    def test_range(self):
        near = moved(B, at=(90, 45))
        f = fire("A", "B", "later_line_volley", 4, 5, 5, rng=12.0)
        self.bad(ea.FireRange, battle([A, near], ([f], [A, near])))
        f = fire("A", "B", "later_line_volley", 4, 5, 5, rng=5.0)
        self.good(ea.FireRange, battle([A, near], ([f], [A, near])))
        f = fire("A", "B", "later_line_volley", 4, 5, 5, rng=8.0)  # the bodies are 5 apart
        self.bad(ea.FireRange, battle([A, near], ([f], [A, near])))

    def test_row(self):
        near = moved(B, at=(90, 45))
        f = fire("A", "B", "later_line_volley", 4, 5, 5)  # an ordered line's first volley
        self.bad(ea.FireRow, battle([A, near], ([f], [A, near])))
        f = fire("A", "B", "first_line_volley", 4, 5, 3)
        self.good(ea.FireRow, battle([A, near], ([f], [A, near])))
        f2 = fire("A", "B", "first_line_volley", 4, 3, 1)  # a second 'first' volley
        self.bad(ea.FireRow, battle([A, near], ([f], [A, near]), ([f2], [A, near])))
        f = fire("A", "B", "later_line_volley", 3, 5, 5)  # fires as 3, stood at 4
        self.bad(ea.FireRow, battle([A, near], ([f], [A, near])))

    def test_density(self):
        f = fire("A", "B", "later_line_volley", 4, 5, 5, density="loose")  # a column is dense
        self.bad(ea.TargetDensity, battle([A, B], ([f], [A, B])))
        f = fire("A", "B", "later_line_volley", 4, 5, 5, density="dense")
        self.good(ea.TargetDensity, battle([A, B], ([f], [A, B])))

    def test_who_fires(self):
        C = P("C", 0, kind="cavalry regiment", at=(40, 40))
        f = fire("C", "B", "later_line_volley", 4, 5, 5)
        self.bad(ea.WhoFires, battle([A, B, C], ([f], [A, B, C])))

    def test_defence_fire(self):
        f = fire("A", "B", "later_line_volley", 4, 5, 5, defence=True)
        self.bad(ea.DefenceFire, battle([A, B], ([f], [A, B])))
        B2 = moved(B, at=(90, 50))
        self.good(ea.DefenceFire, battle([A, B], ([f, move(B, B2)], [A, B2])))


class TestMovement(Base):
    def test_allowance(self):
        A2 = moved(A, at=(90, 65))  # a line moves 20 cm, this is 25
        self.bad(ea.MoveAllowance, battle([A, P("B", 1, at=(10, 110))],
                                          ([move(A, A2)], [A2, P("B", 1, at=(10, 110))])))
        A3 = moved(A, at=(90, 55))
        self.good(ea.MoveAllowance, battle([A], ([move(A, A3)], [A3])))
        S = P("S", 0, formation="square", at=(30, 30))
        S2 = moved(S, at=(30, 35))
        self.bad(ea.MoveAllowance, battle([S], ([move(S, S2)], [S2])))

    def test_straight(self):
        A2 = moved(A, at=(95, 55))  # advancing on a slant
        self.bad(ea.MoveStraight, battle([A], ([move(A, A2)], [A2])))
        A3 = moved(A, at=(90, 30))
        self.good(ea.MoveStraight, battle([A], ([move(A, A3, what="withdraw")], [A3])))

    def test_close_variation(self):
        B2 = moved(B, at=(75, 45), facing=240.0)
        self.bad(ea.CloseVariation, battle([A, B], ([move(B, B2, "charge", target="A")], [A, B2])))
        B3 = moved(B, at=(90, 45))
        self.good(ea.CloseVariation, battle([A, B], ([move(B, B3, "charge", target="A")], [A, B3])))
        c = run(ea.CloseVariationSmall, battle([A, B], ([move(B, B2, "charge", target="A")],
                                                        [A, B2])))
        self.assertEqual((c.count, c.violations), (1, 0))

    def test_manoeuvre_instead_of_move(self):
        m = {"fact": "manoeuvre", "unit": "A", "formation": "assault_column", "facing": None,
             "turns": 2, "stage": "begun", "body": body(A)}
        A2 = moved(A, at=(90, 50))
        self.bad(ea.ManoeuvreInsteadOfMove, battle([A], ([m, move(A, A2)], [A2])))
        # turn 2: still changing (2 turns), as the label shows
        Af = moved(A, dis=True, extra=", forming assault column")
        self.bad(ea.ManoeuvreInsteadOfMove, battle([A], ([m], [Af]), ([move(Af, A2)], [A2])))
        self.good(ea.ManoeuvreInsteadOfMove, battle([A], ([m], [A])))

    def test_formation_times(self):
        m = {"fact": "manoeuvre", "unit": "A", "formation": "assault_column", "facing": None,
             "turns": 1, "stage": "begun", "body": body(A)}  # line -> assault column is 2
        self.bad(ea.FormationTimes, battle([A], ([m], [A])))
        m2 = dict(m, turns=2)
        done = dict(m, stage="done")
        self.good(ea.FormationTimes, battle([A], ([m2], [A]), ([done], [A])))
        self.bad(ea.FormationTimes, battle([A], ([m2, done], [A])))  # done a turn early
        about = dict(m, formation="line", facing=180.0, turns=1)
        self.bad(ea.FormationTimes, battle([A], ([about], [A])))
        c = run(ea.UnlistedChanges, battle([A], ([dict(m, formation="line", facing=90.0)], [A])))
        self.assertEqual(c.count, 1)

    def test_path_clear(self):
        X = P("X", 0, at=(90, 55), size=(10, 2))
        A2 = moved(A, at=(90, 60))
        self.bad(ea.PathClear, battle([A, X], ([move(A, A2)], [A2, X])))
        Y = P("Y", 0, at=(150, 55), size=(10, 2))
        self.good(ea.PathClear, battle([A, Y], ([move(A, A2)], [A2, Y])))

    def test_pivot_count(self):
        X = P("X", 0, at=(80, 48), size=(4, 2))  # in the north-west quarter the line sweeps
        m = {"fact": "manoeuvre", "unit": "A", "formation": "line", "facing": 90.0, "turns": 2,
             "stage": "done", "body": {"at": [90 + 1, 40 - 1], "facing": 90.0,
                                       "corners": corners((91, 39), 90.0, 36, 2)}}
        # the centre of A (90, 39) kept: rotating 36 cm sweeps a circle of radius 18
        m["body"]["corners"] = corners((91, 39), 90.0, 36, 2)
        c = run(ea.PivotSweep, battle([A, X], ([m], [A, X])))
        self.assertEqual(c.violations, 0)
        self.assertGreaterEqual(c.count, 1)


class TestStatusBehaviour(Base):
    def test_pugnacious(self):
        Pg = P("Pg", 1, formation="assault column", status=6, at=(90, 60), facing=180.0)
        self.bad(ea.Pugnacious, battle([A, Pg], ([], [A, Pg])))
        Pg2 = moved(Pg, at=(90, 45))
        self.good(ea.Pugnacious, battle([A, Pg], ([move(Pg, Pg2, "charge", target="A")],
                                                  [A, Pg2])))
        F = P("F", 0, at=(150, 60), facing=0.0)  # nearer than A? no: charge the wrong one
        Pg3 = P("Pg", 1, formation="assault column", status=6, at=(140, 70), facing=180.0)
        Pg4 = moved(Pg3, at=(120, 50))
        self.bad(ea.Pugnacious, battle([A, F, Pg3], ([move(Pg3, Pg4, "charge", target="A")],
                                                      [A, F, Pg4])))

    def test_wavering(self):
        W = P("W", 1, formation="assault column", status=2, at=(90, 70), facing=180.0)
        W2 = moved(W, at=(90, 55))
        self.bad(ea.WaveringNotCloser, battle([A, W], ([move(W, W2)], [A, W2])))
        W3 = moved(W, at=(90, 80))
        self.good(ea.WaveringNotCloser, battle([A, W], ([move(W, W3, "withdraw")], [A, W3])))

    def test_nervous(self):
        N = P("N", 0, status=3, at=(90, 52))
        near = moved(B, at=(90, 60))
        self.bad(ea.NervousFires, battle([N, near], ([], [N, near])))
        f = fire("N", "B", "later_line_volley", 3, 5, 5)
        self.good(ea.NervousFires, battle([N, near], ([f], [N, near])))


class TestAssault(Base):
    def setUp(self):
        self.a = P("A", 0, at=(90, 40), facing=0.0)
        self.d = P("D", 1, formation="assault column", status=4, at=(90, 40), facing=180.0)

    def test_contact(self):
        far = moved(self.d, at=(90, 45))
        x = assault(self.a, far, fig(4), fig(4), results=[res("A", True, 4, 4, "pursue"),
                                                             res("D", False, 4, 3, "withdraw",
                                                                 cm=10)])
        self.bad(ea.AssaultContact, battle([self.a, far], ([x], [self.a, far])))
        x = assault(self.a, self.d, fig(4), fig(4))
        self.good(ea.AssaultContact, battle([self.a, self.d], ([x], [self.a, self.d])))

    def test_charge_resolved(self):
        a0 = P("A", 0, at=(90, 30), facing=0.0)
        m = move(a0, self.a, "charge", target="D", stop={"cause": "contact", "unit": "D"})
        self.bad(ea.ChargeResolved, battle([a0, self.d], ([m], [self.a, self.d])))
        x = assault(self.a, self.d, fig(4), fig(4))
        self.good(ea.ChargeResolved, battle([a0, self.d], ([m, x], [self.a, self.d])))

    def test_direction(self):
        x = assault(self.a, self.d, fig(4, ("attacking on the flank", 1)), fig(4),
                    direction="flank")
        self.bad(ea.AssaultDirection, battle([self.a, self.d], ([x], [self.a, self.d])))
        x = assault(self.a, self.d, fig(4), fig(4))
        self.good(ea.AssaultDirection, battle([self.a, self.d], ([x], [self.a, self.d])))
        # behind a column facing south (its rear edge at y 46)
        d2 = P("D", 1, formation="assault column", at=(90, 34), facing=180.0)
        x = assault(self.a, d2, fig(4), fig(4), direction="front")
        self.assertEqual(ea.direction_of(body(self.a), body(d2)), "rear")
        self.bad(ea.AssaultDirection, battle([self.a, d2], ([x], [self.a, d2])))

    def test_step_one(self):
        x = assault(self.a, self.d, fig(3), fig(4), closed=True)  # 3 < 4 yet closes
        self.bad(ea.StepOne, battle([self.a, self.d], ([x], [self.a, self.d])))
        # a failed attack must end 5 cm off and DISORDERED
        x = assault(self.a, self.d, fig(4, ("DISORDERED", -1)), fig(4), closed=False)
        a_dis = moved(self.a, dis=True)
        self.bad(ea.StepOne, battle([a_dis, self.d], ([x], [a_dis, self.d])))
        back = moved(self.a, at=(90, 35), dis=True)
        self.good(ea.StepOne, battle([a_dis, self.d], ([x], [back, self.d])))
        x = assault(self.a, self.d, fig(4, ("senior officer personally involved", 2)), fig(4))
        self.bad(ea.StepOne, battle([self.a, self.d], ([x], [self.a, self.d])))

    def test_step_one_modifiers(self):
        x = assault(self.a, self.d, fig(4), fig(4))
        self.good(ea.StepOneModifiers, battle([self.a, self.d], ([x], [self.a, self.d])))
        # the defender is DISORDERED when the turn begins: it must have the -1
        d_dis = moved(self.d, dis=True)
        x = assault(self.a, d_dis, fig(4), fig(4))
        self.bad(ea.StepOneModifiers, battle([self.a, d_dis], ([x], [self.a, d_dis])))
        # the commander with the attacker
        mk = copy.deepcopy(HQ)
        mk[2]["unit"] = "A"
        x = assault(self.a, self.d, fig(4), fig(4))
        self.bad(ea.StepOneModifiers, battle([self.a, self.d], ([x], [self.a, self.d]),
                                             markers=mk))
        # fired last turn, no -1
        f = fire("A", "D", "later_line_volley", 4, 4, 3)
        x = assault(self.a, self.d, fig(4), fig(3))
        self.bad(ea.StepOneModifiers, battle([self.a, self.d], ([f], [self.a, moved(self.d, status=3)]),
                                             ([x], [self.a, self.d])))

    def test_step_one_modifiers_cavalry(self):
        c = P("C", 0, kind="cavalry regiment", at=(90, 40))
        x = assault(c, self.d, fig(4), fig(4))  # cavalry on infantry not in square: +2
        self.bad(ea.StepOneModifiers, battle([c, self.d], ([x], [c, self.d])))
        x = assault(c, self.d, fig(4, ("cavalry vs infantry not in square", 2)), fig(4))
        self.good(ea.StepOneModifiers, battle([c, self.d], ([x], [c, self.d])))

    def test_step_one_defensive_feature(self):
        town = [{"kind": "town", "name": "farm", "points": [[70, 30], [110, 30], [110, 60],
                                                             [70, 60]], "closed": True}]
        d = P("D", 1, formation="assault column", at=(90, 40), facing=180.0)
        x = assault(self.a, d, fig(4), fig(4))
        self.bad(ea.StepOneModifiers, battle([self.a, d], ([x], [self.a, d]), terrain=town))

    def test_step_two(self):
        x = assault(self.a, self.d, fig(4), fig(5), won=True)  # 4 against 5: the defender wins
        self.bad(ea.StepTwo, battle([self.a, self.d], ([x], [self.a, self.d])))
        x = assault(self.a, self.d, fig(4), fig(4), won=True)  # a tie goes to the attacker
        self.good(ea.StepTwo, battle([self.a, self.d], ([x], [self.a, self.d])))
        x = assault(self.a, self.d, fig(4), fig(4), won=True,
                    step_two=[fig(4, ("senior officer personally involved", 1)), fig(4)])
        self.bad(ea.StepTwo, battle([self.a, self.d], ([x], [self.a, self.d])))

    def test_results(self):
        x = assault(self.a, self.d, fig(4), fig(4), results=[
            res("A", True, 4, 4, "pursue"), res("D", False, 4, 3, "withdraw", cm=5)])  # 10 cm
        self.bad(ea.MeleeResults, battle([self.a, self.d], ([x], [self.a, self.d])))
        x = assault(self.a, self.d, fig(4), fig(4), results=[
            res("A", True, 4, 4, "pursue"), res("D", False, 4, 3, "withdraw", cm=10)])
        self.good(ea.MeleeResults, battle([self.a, self.d], ([x], [self.a, self.d])))
        c = P("C", 0, kind="cavalry regiment", at=(90, 40))
        x = assault(c, self.d, fig(5), fig(4), results=[
            res("C", True, 5, 5, "pursue"), res("D", False, 4, 3, "withdraw", cm=10)])  # -1
        self.bad(ea.MeleeResults, battle([c, self.d], ([x], [c, self.d])))

    def test_disorders(self):
        x = assault(self.a, self.d, fig(4), fig(4))
        self.bad(ea.AssaultDisorders, battle([self.a, self.d], ([x], [self.a, self.d])), 2)
        a2, d2 = moved(self.a, dis=True), moved(self.d, dis=True)
        self.good(ea.AssaultDisorders, battle([self.a, self.d], ([x], [a2, d2])))


class TestResults(Base):
    def setUp(self):
        self.a = P("A", 0, at=(90, 40), facing=0.0)
        self.d = P("D", 1, formation="assault column", status=4, at=(90, 40), facing=180.0)
        self.x = assault(self.a, self.d, fig(4), fig(4), results=[
            res("A", True, 4, 4, "pursue"), res("D", False, 4, 3, "withdraw", cm=10)])

    def test_next_turn(self):
        d3 = moved(self.d, status=3, dis=True)
        self.bad(ea.ResultsNextTurn, battle([self.a, self.d], ([self.x], [self.a, d3]),
                                            ([], [self.a, d3])), 2)
        d4 = moved(d3, at=(90, 50))
        w = {"fact": "withdrawal", "unit": "D", "winner": "A", "from": body(d3), "to": body(d4),
             "heading": 0.0, "ordered": 10.0, "done": 10.0, "stop": {"cause": "full"},
             "rule": "none", "touching": None}
        a2 = moved(self.a, at=(90, 50))
        p = move(self.a, a2, "pursue", target="D")
        self.good(ea.ResultsNextTurn, battle([self.a, self.d], ([self.x], [self.a, d3]),
                                             ([w, p], [a2, d4])))

    def test_withdraw_backwards(self):
        d3 = moved(self.d, status=3, dis=True)
        d4 = moved(d3, at=(100, 40))  # sideways
        w = {"fact": "withdrawal", "unit": "D", "winner": "A", "from": body(d3), "to": body(d4),
             "heading": 90.0, "ordered": 10.0, "done": 10.0, "stop": {"cause": "full"},
             "rule": "none", "touching": None}
        self.bad(ea.WithdrawBackwards, battle([self.a, d3], ([w], [self.a, d4])))
        d5 = moved(d3, at=(90, 50))
        w = dict(w, to=body(d5), heading=0.0)
        self.good(ea.WithdrawBackwards, battle([self.a, d3], ([w], [self.a, d5])))

    def test_run(self):
        r0 = P("R", 1, formation="line", status=0, at=(90, 60), facing=0.0, dis=True)
        r1 = moved(r0, at=(90, 80))
        run_ = {"fact": "run", "unit": "R", "from": body(r0), "to": body(r1), "heading": 0.0,
                "ordered": 40.0, "done": 20.0, "first_turn": True, "stop": {"cause": "full"},
                "off_the_field": False}
        self.good(ea.RunAway, battle([self.a, r0], ([run_], [self.a, r1])))
        self.bad(ea.RunAway, battle([self.a, r0], ([dict(run_, ordered=20.0)], [self.a, r1])))
        self.bad(ea.RunAway, battle([self.a, r0], ([], [self.a, r0])))  # does not run
        r2 = moved(r0, at=(90, 80), facing=180.0)  # runs backwards, facing the enemy
        back = dict(run_, to=body(r2))
        self.bad(ea.RunAway, battle([self.a, r0], ([back], [self.a, r2])))

    def test_cavalry_pursuit(self):
        c = P("C", 0, kind="cavalry regiment", at=(90, 40))
        d = P("D", 1, kind="cavalry regiment", formation="column", at=(90, 40), facing=180.0)
        off = {"fact": "pursuit", "unit": "C", "target": "D", "outcome": "followed_off"}
        back = moved(c, at=(90, 10), dis=True)
        ret = {"fact": "returned", "unit": "C", "body": body(back)}
        self.good(ea.CavalryPursuit, battle([c, d], ([off], []), ([], []), ([], []),
                                            ([ret], [back])))
        self.bad(ea.CavalryPursuit, battle([c, d], ([off], []), ([ret], [back])))
        self.bad(ea.CavalryPursuit, battle([c, d], ([off], [d])))

    def test_second_line(self):
        c = P("C", 0, kind="cavalry regiment", formation="column", at=(90, 40), status=2,
              second=4)
        sl = {"fact": "second_line", "unit": "C", "follows_up": False,
              "lines": [{"line": 1, "from": 2, "to": 2}, {"line": 2, "from": 4, "to": 2}]}
        self.bad(ea.SecondLine, battle([c], ([sl], [c])), 2)  # no melee; not the average
        d = P("D", 1, kind="cavalry regiment", formation="column", at=(90, 40), facing=180.0)
        x = assault(d, c, fig(4), fig(2), results=[res("D", True, 4, 4, "pursue"),
                                                   res("C", False, 4, 2, "withdraw", cm=25)])
        ok = dict(sl, lines=[{"line": 1, "from": 2, "to": 3}, {"line": 2, "from": 4, "to": 3}])
        self.good(ea.SecondLine, battle([c, d], ([x], [c, d]), ([ok], [c, d])))


class TestOrderAndRecovery(Base):
    def test_reordered(self):
        ad = moved(A, dis=True)
        A2 = moved(A, at=(90, 50))
        self.bad(ea.Reordered, battle([ad], ([move(ad, moved(A2, dis=True)),
                                              {"fact": "reordered", "unit": "A"}], [A2])))
        self.bad(ea.Reordered, battle([ad], ([], [A])))  # ordered again with no re-ordering
        self.good(ea.Reordered, battle([ad], ([{"fact": "reordered", "unit": "A"}], [A])))

    def test_rally(self):
        lo = P("L", 0, status=2, at=(90, 40))
        up = moved(lo, status=3)
        mk = copy.deepcopy(HQ)
        mk[2]["unit"] = "L"
        r = {"fact": "rally", "unit": "L", "by": "C0", "commander": True,
             "lines": [{"line": 1, "from": 2, "to": 3}]}
        self.good(ea.Rally, battle([lo], ([], [lo], mk), ([r], [up], mk), markers=mk))
        up2 = moved(lo, status=4)
        r2 = dict(r, lines=[{"line": 1, "from": 3, "to": 4}])
        self.bad(ea.Rally, battle([lo], ([], [lo], mk), ([r], [up], mk), ([r2], [up2], mk),
                                  markers=mk))
        self.bad(ea.Rally, battle([lo], ([], [lo], HQ), ([r], [up], mk), markers=HQ))
        cav = P("K", 1, kind="cavalry regiment", at=(90, 60), facing=180.0)  # 20 cm off
        self.bad(ea.Rally, battle([lo, cav], ([], [lo, cav], mk), ([r], [up, cav], mk),
                                  markers=mk))


class TestTable(Base):
    def test_frontages(self):
        wide = P("A", 0, at=(90, 40), size=(40, 2))
        self.bad(ea.Frontages, battle([A], ([], [wide])))
        self.good(ea.Frontages, battle([A], ([], [A])))

    def test_overlap(self):
        on = P("X", 1, at=(90, 39), facing=180.0)
        self.bad(ea.NoOverlap, battle([A, on], ([], [A, on])))
        self.good(ea.NoOverlap, battle([A, B], ([], [A, B])))

    def test_contact_unfought(self):
        t = P("T", 1, formation="assault column", at=(90, 40), facing=180.0)
        self.bad(ea.ContactUnfought, battle([A, t], ([], [A, t]), ([], [A, t])))
        self.good(ea.ContactUnfought, battle([A, t], ([], [A, t])))


class TestSequence(Base):
    def test_sequence(self):
        A2 = moved(A, at=(90, 50))
        f = fire("A", "B", "later_line_volley", 4, 5, 5)
        self.bad(ea.Sequence, battle([A, B], ([move(A, A2), f], [A2, B])))
        self.good(ea.Sequence, battle([A, B], ([f, move(A, A2)], [A2, B])))

    def test_headquarters(self):
        mk = copy.deepcopy(HQ)
        mk[0]["at"] = [90.0, 80.0]
        self.bad(ea.HeadquartersMove, battle([A], ([], [A], mk)))
        self.good(ea.HeadquartersMove, battle([A], ([], [A])))


class TestCounts(unittest.TestCase):
    """The counts count and never report."""

    def test_counts_never_report(self):
        for cls in ea.CHECKS:
            if issubclass(cls, ea.Count):
                self.assertEqual(cls.keep, 0, cls.__name__)

    def test_commander_ride(self):
        mk = copy.deepcopy(HQ)
        mk[2]["at"] = [90.0, 80.0]
        c = run(ea.CommanderRide, battle([A], ([], [A], mk)))
        self.assertEqual((c.count, c.violations), (1, 0))

    def test_withdraw_counts(self):
        d = P("D", 1, formation="assault column", status=3, at=(90, 40), facing=180.0)
        d2 = moved(d, at=(100, 45))
        w = {"fact": "withdrawal", "unit": "D", "winner": "A", "from": body(d), "to": body(d2),
             "heading": 60.0, "ordered": 15.0, "done": 11.0, "stop": {"cause": "edge"},
             "rule": "short", "touching": None}
        lines = battle([A, d], ([w], [A, d2]))
        for cls in (ea.WithdrawOffAxis, ea.WithdrawCutShort):
            c = run(cls, lines)
            self.assertEqual((c.count, c.violations), (1, 0), cls.__name__)

    def test_more_counts(self):
        d = P("D", 1, formation="assault column", status=3, at=(90, 40), facing=180.0)
        caught = {"fact": "withdrawal", "unit": "D", "winner": "A", "from": body(d), "to": body(d),
                  "heading": 0.0, "ordered": 10.0, "done": 0.0, "stop": {"cause": "body"},
                  "rule": "caught", "touching": "A"}
        c = run(ea.CaughtBreaks, battle([A, d], ([caught], [A, moved(d, status=0)])))
        self.assertEqual((c.count, c.violations), (1, 0))
        a0 = P("A", 0, at=(90, 10), facing=0.0)
        a1 = moved(a0, at=(90, 20))
        m = move(a0, a1, "charge", target="D", stop={"cause": "stand_off", "unit": "X"})
        c = run(ea.StandOffBlocksClose, battle([a0, d], ([m], [a1, d])))
        self.assertEqual((c.count, c.violations), (1, 0))
        r = {"fact": "rally", "unit": "A", "by": "C0", "commander": True,
             "lines": [{"line": 1, "from": 0, "to": 1}]}
        c = run(ea.RallyFromRunning, battle([A], ([r], [A])))
        self.assertEqual((c.count, c.violations), (1, 0))
        lc = P("L", 1, kind="light battalion", formation="assault column", at=(90, 60),
               facing=180.0)
        f = fire("A", "L", "later_line_volley", 4, 4, 3, density="dense")
        c = run(ea.LightColumnDensity, battle([A, lc], ([f], [A, lc])))
        self.assertEqual((c.count, c.violations), (1, 0))
        begun = {"fact": "manoeuvre", "unit": "A", "formation": "assault_column", "facing": None,
                 "turns": 2, "stage": "begun", "body": body(A)}
        c = run(ea.ChangeDropped, battle([A], ([begun], [moved(A, dis=True)]), ([], [A])))
        self.assertEqual((c.count, c.violations), (1, 0))

    def test_every_check_has_a_test(self):
        src = open(os.path.abspath(__file__), encoding="utf-8").read()
        for cls in ea.CHECKS:
            if not issubclass(cls, ea.Count):
                self.assertIn(f"ea.{cls.__name__},", src, f"{cls.__name__} has no test")

    def test_every_check_is_listed_once(self):
        self.assertEqual(len(ea.CHECKS), len(set(ea.CHECKS)))
        for cls in ea.CHECKS:
            self.assertTrue(cls.name and cls.clause, cls.__name__)


if __name__ == "__main__":
    unittest.main()
