"""The PettingZoo environment: PettingZoo's own checks, and what a side may see."""

import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import volley  # noqa: E402
from volley.rl import AGENTS, FEATURES, VolleyEnv  # noqa: E402

# PettingZoo's checker advises Box observations and plain arrays; a dict of an observation and an
# action mask is its own convention for masked actions (as its classic games do).
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")

# One scenario of each rule set (the small ones).
SCENARIOS = ["hochdorf-mill", "the-village", "attack-on-the-ridge", "the-heath", "advance-guard"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_random_agents_pass_pettingzoos_api_checker(scenario):
    api_test(volley.env(scenario), num_cycles=400)


def test_the_same_seed_plays_the_same_battle():
    seed_test(lambda: volley.env("hochdorf-mill"), num_cycles=60)


def play(env, seed, pick):
    """A whole battle, `pick(obs, agent)` choosing; the rewards summed per agent and the steps."""
    env.reset(seed=seed)
    totals = {a: 0.0 for a in AGENTS}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() == len(info["legal_actions"]) > 0
        env.step(pick(obs, agent))
        steps += 1
    return totals, steps


def test_a_whole_battle_rewards_the_winner():
    env = volley.env("hochdorf-mill")
    rng = np.random.default_rng(3)
    totals, steps = play(env, 3, lambda obs, agent: int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    outcome = env.game.outcome
    assert outcome is not None and steps == env.game.actions
    winner = outcome["winner"]
    expected = {a: 0.0 if winner is None else (1.0 if i == winner else -1.0) for i, a in enumerate(AGENTS)}
    assert totals == expected


def test_the_action_taken_is_the_candidate_numbered():
    env = volley.env("the-village")
    env.reset(seed=2)
    agent = env.agent_selection
    while len(env.game.legal_actions()) < 2:
        env.step(0)
    choices = env.game.legal_actions()
    twin = env.game.clone()
    twin.apply(choices[-1]["action"])
    env.step(len(choices) - 1)
    assert env.game.state_hash == twin.state_hash
    with pytest.raises(ValueError, match="not one of the"):
        env.step(env.max_actions - 1)
    assert agent in AGENTS


def test_an_observation_is_the_sides_own_view():
    env = volley.env("the-village")
    env.reset(seed=1)
    view = env.game.view(0)
    rows = env.observe("side_0")["observation"]
    assert rows.shape == (len(env.game.view("umpire")["pieces"]), len(FEATURES))
    assert int(rows[:, FEATURES.index("present")].sum()) == len(view["pieces"])
    own = sum(1 for p in view["pieces"] if p["side"] == 0)
    assert int(rows[:, FEATURES.index("own")].sum()) == own
    assert int(rows[:, FEATURES.index("enemy")].sum()) == len(view["pieces"]) - own
    assert ((rows[:, 3:5] >= 0) & (rows[:, 3:5] <= 1)).all(), "places are fractions of the table"
    # The side not to act has no action marked.
    other = "side_1" if env.agent_selection == "side_0" else "side_0"
    assert env.observe(other)["action_mask"].sum() == 0


def test_a_hidden_deployment_stays_hidden():
    """Blown Away: while the deployments are secret, a side's observation holds its own pieces
    only, none of the enemy's (which the umpire sees); once both are fixed, both sides see all."""
    env = volley.env("advance-guard")
    env.reset(seed=1)
    everyone = len(env.game.view("umpire")["pieces"])
    own_col, enemy_col, present_col = (FEATURES.index(k) for k in ("own", "enemy", "present"))
    for _ in range(2):  # each side fixes its deployment in turn
        for side, agent in enumerate(AGENTS):
            rows = env.observe(agent)["observation"]
            mine = sum(1 for p in env.game.view("umpire")["pieces"] if p["side"] == side)
            assert int(rows[:, enemy_col].sum()) == 0, f"{agent} sees an enemy piece during the deployment"
            assert int(rows[:, own_col].sum()) == int(rows[:, present_col].sum()) == mine < everyone
        env.step(0)
    for agent in AGENTS:
        assert int(env.observe(agent)["observation"][:, present_col].sum()) == everyone


def test_too_many_choices_say_so():
    env = VolleyEnv("lobositz", max_actions=2)
    with pytest.raises(ValueError, match="more than max_actions \\(2\\)"):
        env.reset(seed=1)
        for _ in range(100):
            env.step(0)
    with pytest.raises(ValueError):
        VolleyEnv("hochdorf-mill", render_mode="human")


def test_resets_without_a_seed_play_new_battles():
    env = volley.env("hochdorf-mill")
    env.reset(seed=1)
    seeded = env.game.to_json()
    env.reset()
    assert env.game.to_json() != seeded, "not the seeded battle again"
    # The stream restarts from a seed: the same unseeded battles after the same seed.
    other = volley.env("hochdorf-mill")
    other.reset(seed=1)
    other.reset()
    assert other.game.to_json() == env.game.to_json()
    # Two fresh environments do not play the same unseeded battles.
    a, b = volley.env("hochdorf-mill"), volley.env("hochdorf-mill")
    a.reset()
    b.reset()
    assert a.game.to_json() != b.game.to_json()


def test_bad_settings_and_actions_are_refused():
    for bad in (0, -1):
        with pytest.raises(ValueError, match="max_steps: at least 1"):
            volley.env("hochdorf-mill", max_steps=bad)
    with pytest.raises(TypeError, match="max_actions: a whole number"):
        volley.env("hochdorf-mill", max_actions=2.5)
    env = volley.env("hochdorf-mill")
    env.reset(seed=1)
    for bad in (0.5, 1.5, True, "0"):
        with pytest.raises(ValueError, match="not one of the"):
            env.step(bad)
    env.step(np.int64(0))  # numpy's whole numbers are actions


def test_the_rendered_account_keeps_the_sides_secrets():
    """En Avant's orders are secret: the rendered account is a spectator's, without them."""
    env = volley.env("the-farm", render_mode="ansi")
    env.reset(seed=2)
    texts = env.infos[env.agent_selection]["legal_actions"]
    env.step(1)
    assert texts[1] not in env.render()
    assert env.render().splitlines()[-1].startswith("turn")


def test_truncation_after_max_steps():
    env = volley.env("hochdorf-mill", max_steps=5, render_mode="ansi")
    totals, steps = play(env, 1, lambda obs, agent: 0)
    assert steps == 5 and env.game.outcome is None
    assert totals == {a: 0.0 for a in AGENTS}
    assert "turn" in env.render()
