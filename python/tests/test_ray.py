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


def test_a_share_missing_is_refused():
    import json

    from volley import _volley

    rows = json.loads(_volley.simulate_share("the-village", 0, 3, ("heuristic", "heuristic"), 5, 1))
    with pytest.raises(ValueError, match="missing or repeated"):
        _volley.summarize("the-village", 4, ("heuristic", "heuristic"), 5, json.dumps(rows))
