"""`--backend ray`: the same tournament on a local Ray instance gives the same figures."""

import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from tiergarten import sim
from tiergarten.sim.league import league

ray = pytest.importorskip("ray")  # the optional extra; installed with [dev]


def test_ray_keeps_its_start_up_lines_out_of_the_output():
    # runs before the module's Ray starts: this command starts (and ends) its own, in a short
    # temporary folder (Ray's socket paths must stay under 108 bytes)
    folder = tempfile.mkdtemp(prefix="tg-ray-")
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "TIERGARTEN_PURE": "1",
           "RAY_TMPDIR": folder}
    try:
        done = subprocess.run([sys.executable, "-m", "tiergarten.cli", "simulate", "maumau",
                               "--players", "heuristic,random", "-n", "4", "-o", "rounds=1",
                               "--backend", "ray", "--workers", "2", "--json"],
                              capture_output=True, text=True, env=env, timeout=300,
                              check=False)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert done.returncode == 0, done.stderr
    assert json_n(done.stdout) == 4
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "simulating maumau" in lines[0], done.stderr


def json_n(text):
    import json

    return json.loads(text)["n"]


@pytest.fixture(scope="module")
def local_ray(tmp_path_factory):
    os.environ["RAY_AUTH_MODE"] = "disabled"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             _temp_dir=str(tmp_path_factory.mktemp("ray")))
    yield ray
    ray.shutdown()


def _figures(result):
    report = result.to_dict(games=True)
    del report["timing"]
    return report


def test_ray_gives_the_local_results(local_ray):
    args = ("maumau", ["heuristic", "random", "easy"], 7, 5, {"rounds": 1})
    local = sim.run(*args, workers=1)
    remote = sim.run(*args, workers=2, backend="ray")
    assert remote.outcomes == local.outcomes
    assert _figures(remote) == _figures(local)


def test_a_tournament_on_ray_rates_as_the_local_one(local_ray):
    args = ("maumau", ["random", "heuristic"])
    kw = {"n": 4, "seed": 2, "options": {"rounds": 1}}
    here = league(*args, workers=1, **kw)
    there = league(*args, workers=2, backend="ray", **kw)
    assert here.ratings == there.ratings and here.head_to_head == there.head_to_head
