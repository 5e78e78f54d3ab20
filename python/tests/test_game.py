"""The Python package against the engine: games, saving and restoring, the desk."""

import copy
import json
import pickle

import pytest

import volley


def play(game, steps):
    """Take the first legal action `steps` times (or until the battle ends)."""
    for _ in range(steps):
        if game.outcome is not None:
            break
        choices = game.legal_actions()
        assert choices, game.actor
        game.apply(choices[0]["action"])
    return game


def test_every_bundled_scenario_is_listed_with_its_armies():
    listed = volley.scenarios()
    names = {s["name"] for s in listed}
    assert {"mittelhof", "crossroads", "the-village", "hochdorf-mill", "the-farm"} <= names
    assert all(len(s["sides"]) == 2 for s in listed)


@pytest.mark.parametrize("name", ["mittelhof", "crossroads", "the-village", "hochdorf-mill", "the-farm"])
def test_a_battle_is_played_saved_and_restored_to_the_same_state(name):
    game = play(volley.load(name, seed=5), 40)
    assert game.actions > 0
    view = game.view("spectator")
    assert view["sides"] and view["pieces"]
    # Saved and restored: the same state, by JSON and by pickling.
    again = volley.Game.from_json(game.to_json())
    assert again.state_hash == game.state_hash
    assert pickle.loads(pickle.dumps(game)).state_hash == game.state_hash
    # A clone goes its own way.
    other = copy.deepcopy(game)
    play(other, 3)
    assert game.state_hash == again.state_hash


def test_the_same_seed_gives_the_same_battle_and_another_seed_another():
    a = play(volley.load("the-village", seed=11), 60)
    b = play(volley.load("the-village", seed=11), 60)
    c = play(volley.load("the-village", seed=12), 60)
    assert a.state_hash == b.state_hash
    assert a.state_hash != c.state_hash


def test_a_side_sees_only_what_it_may():
    game = volley.load("crossroads", seed=1)
    # Blown Away's secret deployment: a side is given its own placements, the other side none.
    assert game.view(0).get("deploy") is not None
    assert game.view("spectator").get("deploy") is None


def test_an_actions_account_is_read_as_its_reader_may():
    """En Avant's orders are secret: the side that gives one reads it, the enemy and a spectator
    do not, the umpire does."""
    game = volley.load("the-farm", seed=1)
    side = game.actor["side"]
    choice = game.legal_actions()[1]
    lines = game.apply(choice["action"], by=side)
    assert lines == [choice["text"]] == game.account(side) == game.account("umpire")
    assert game.account(1 - side) == [] and game.account("spectator") == []
    # `by` as a side's number or the engine's own form, the same.
    twin = volley.load("the-farm", seed=1)
    twin.apply(choice["action"], by={"side": side})
    assert twin.state_hash == game.state_hash


def test_bad_input_is_a_value_error_with_the_engines_words(tmp_path):
    with pytest.raises(ValueError, match="not a bundled scenario"):
        volley.load("no-such-battle")
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nruleset = "old-fritz"\n[table]\nwidth = "wide"\n')
    with pytest.raises(ValueError, match=r"bad\.toml:\d+:\d+"):
        volley.load(str(bad))
    game = volley.load("mittelhof")
    with pytest.raises(ValueError):
        game.apply({"no": "such action"})
    with pytest.raises(ValueError, match="viewer"):
        game.view("everybody")
    for viewer in (-1, 2, 1.0, True, None):
        with pytest.raises(ValueError, match="viewer: 0 or 1"):
            game.view(viewer)
    action = game.legal_actions()[0]["action"]
    with pytest.raises(ValueError, match="there is no side 5"):
        game.apply(action, by=5)
    with pytest.raises(ValueError, match="by: 0 or 1"):
        game.apply(action, by=[0])
    with pytest.raises(ValueError, match="seed: at least 0"):
        volley.load("mittelhof", seed=-1)
    with pytest.raises(ValueError, match="not a saved game"):
        volley.Game.from_json("{}")
    saved = json.loads(volley.load("hochdorf-mill").to_json())
    saved["format"] = "volley-game/99"
    with pytest.raises(ValueError, match="not a saved game of this version"):
        volley.Game.from_json(json.dumps(saved))
    with pytest.raises(TypeError, match="agents: two names as text"):
        volley.simulate("hochdorf-mill", runs=1, agents=(None, 1))
    with pytest.raises(ValueError, match="^name_or_path: give a bundled"):
        volley.load("")


SITUATION = {
    "attacker": {"arm": "infantry", "quality": "C", "figures": 12},
    "defender": {"arm": "infantry", "quality": "C", "figures": 12},
}


def test_the_desk_resolves_with_table_dice_and_gives_exact_odds():
    r = volley.resolve("old-fritz", SITUATION, draws="7 3 1 1 1 1")
    assert "withdraws" in r["text"]
    assert r["resolution"]["defender"]["reaction"] == "withdraw"
    outcomes = volley.odds("old-fritz", SITUATION)
    assert abs(sum(o["probability"] for o in outcomes) - 1.0) < 1e-9
    # The seeded dice, listed, typed back: the same result.
    seeded = volley.resolve("old-fritz", SITUATION, seed=9)
    typed = " ".join(str(d["value"]) for d in seeded["draws"])
    assert volley.resolve("old-fritz", SITUATION, draws=typed)["text"] == seeded["text"]
    assert volley.resolve("old-fritz", SITUATION, seed=9) == seeded, "a seed throws the same dice"
    # No seed: fresh dice each call (40 calls all alike would be a fixed seed), each told.
    fresh = [volley.resolve("old-fritz", SITUATION) for _ in range(40)]
    assert len({tuple(d["value"] for d in r["draws"]) for r in fresh}) > 1
    again = " ".join(str(d["value"]) for d in fresh[0]["draws"])
    assert volley.resolve("old-fritz", SITUATION, draws=again)["text"] == fresh[0]["text"]
    # A result's draws, or a list of values, given back as they are.
    assert volley.resolve("old-fritz", SITUATION, draws=fresh[0]["draws"])["text"] == fresh[0]["text"]
    values = [d["value"] for d in fresh[0]["draws"]]
    assert volley.resolve("old-fritz", SITUATION, draws=values)["text"] == fresh[0]["text"]
    with pytest.raises(ValueError, match="no rule set"):
        volley.odds("chess", SITUATION)
    with pytest.raises(ValueError, match="situation"):
        volley.odds("old-fritz", {"attacker": 1})


def test_the_module_is_typed_and_documented():
    assert volley.Game.__doc__ and volley.load.__doc__ and volley.odds.__doc__
    json.loads(volley.load("the-farm").to_json())


def test_the_core_package_needs_no_extra():
    """`import volley` loads neither Ray nor PettingZoo nor pandas: they are extras."""
    import subprocess
    import sys

    code = ("import sys, volley; volley.load('hochdorf-mill'); "
            "print(sorted(m for m in ('ray', 'pettingzoo', 'gymnasium', 'pandas', 'polars') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_choice_is_taken_as_legal_actions_gives_it():
    game = volley.load("hochdorf-mill", seed=3)
    choice = game.legal_actions()[0]
    before = game.actions
    game.apply(choice)  # the whole {"action", "text"}, as a newcomer would
    assert game.actions == before + 1
    other = volley.load("hochdorf-mill", seed=3)
    other.apply(choice["action"])
    assert other.state_hash == game.state_hash


def test_a_saved_game_changed_by_its_seed_draws_or_state_is_refused():
    game = play(volley.load("the-village", seed=5), 40)
    saved = json.loads(game.to_json())
    assert any(a["draws"] for a in saved["actions"]), "the village's battle throws dice"
    changed_seed = dict(saved, seed=saved["seed"] + 1)
    with pytest.raises(ValueError, match="not what the seed"):
        volley.Game.from_json(json.dumps(changed_seed))
    changed_hash = dict(saved, state_hash="0123456789abcdef")
    with pytest.raises(ValueError, match="not the 0123456789abcdef it was saved in"):
        volley.Game.from_json(json.dumps(changed_hash))
    # Saved before the hash was kept: still restored.
    old = {k: v for k, v in saved.items() if k != "state_hash"}
    assert volley.Game.from_json(json.dumps(old)).state_hash == game.state_hash


def test_summary_of_something_that_is_not_a_table_is_a_type_error_with_words():
    with pytest.raises(TypeError, match="a pyarrow.Table from volley.simulate or volley.sweep, not int"):
        volley.summary_of(5)
