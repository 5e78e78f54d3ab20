"""Simulations on a local Ray (2 CPUs) give the same battles and summary as on one machine."""

import pytest

ray = pytest.importorskip("ray", reason="the ray extra is not installed")

import volley  # noqa: E402
import volley.ray  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_the_same_master_seed_gives_the_same_summary_on_ray(local_ray):
    alone = volley.simulate("the-village", runs=24, seed=5, jobs=2)
    spread = volley.ray.simulate("the-village", runs=24, seed=5, share=5)
    assert spread.column("seed").to_pylist() == alone.column("seed").to_pylist()
    assert spread.column("winner").to_pylist() == alone.column("winner").to_pylist()
    assert volley.summary_of(spread) == volley.summary_of(alone)
    # Shares of another size, the same again.
    assert volley.summary_of(volley.ray.simulate("the-village", runs=24, seed=5, share=24)) == volley.summary_of(alone)


def test_a_share_missing_or_repeated_is_refused():
    from volley import _volley

    source = _volley.source("the-village")
    agents = ("heuristic", "heuristic")
    first = _volley.simulate_share(source, 0, 3, agents, 5, 1)
    with pytest.raises(ValueError, match="missing or repeated"):
        _volley.gather(source, 4, agents, 5, [first])
    with pytest.raises(ValueError, match="missing or repeated"):
        _volley.gather(source, 6, agents, 5, [first, first])
    rest = _volley.simulate_share(source, 3, 1, agents, 5, 1)
    columns, _ = _volley.gather(source, 4, agents, 5, [first, rest])
    assert dict((c[0], len(c[2])) for c in columns)["seed"] == 4 * 8


def test_a_sweep_on_ray_is_the_sweep_on_one_machine(local_ray):
    alone = volley.sweep("the-village", "turn_limit", [3, 8], runs=10, seed=2)
    spread = volley.ray.sweep("the-village", "turn_limit", [3, 8], runs=10, seed=2, share=4)
    assert volley.summary_of(spread) == volley.summary_of(alone)
    assert spread.to_pylist() == alone.to_pylist()
    battles = volley.ray.sweep("the-village", "turn_limit", [3, 8], runs=10, seed=2, battles=True)
    assert battles.equals(volley.sweep("the-village", "turn_limit", [3, 8], runs=10, seed=2, battles=True))


def test_bad_input_on_ray_is_refused_before_any_task(local_ray):
    with pytest.raises(ValueError, match="with turn_limit = 'x'"):
        volley.ray.sweep("the-village", "turn_limit", [3, "'x'"], runs=2)
    with pytest.raises(ValueError, match='unknown agent "heuristc"'):
        volley.ray.simulate("the-village", 3, agents=("heuristc", "random"))
    with pytest.raises(ValueError, match="not a bundled scenario"):
        volley.ray.simulate("no-such-battle", 3)
    # A task asking more CPUs than the cluster has would wait for ever: refused.
    with pytest.raises(ValueError, match="jobs_per_task: 3 CPUs a task, but the cluster has 2"):
        volley.ray.simulate("the-village", 4, jobs_per_task=3)
    with pytest.raises(ValueError, match="jobs_per_task: at least 1"):
        volley.ray.simulate("the-village", 4, jobs_per_task=0)
    with pytest.raises(ValueError, match="share: at least 1"):
        volley.ray.simulate("the-village", 4, share=0)
