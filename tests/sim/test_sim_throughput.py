"""The throughput benchmark runs end to end and writes its report (no speed is asserted)."""

import importlib.util
import json
import random
from pathlib import Path

import tiergarten

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "throughput.py"


def _load():
    spec = importlib.util.spec_from_file_location("throughput", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_random_play_finishes_a_legal_game():
    bench = _load()
    game = tiergarten.load("maumau", 2, rounds=1)
    decisions = bench.play_random(game, 3, random.Random(3))
    assert decisions > 0


def test_report_has_machine_info_and_a_row_per_measurement(tmp_path, capsys):
    bench = _load()
    out = tmp_path / "throughput.json"
    assert bench.main(["--games", "maumau", "--players", "2", "--seconds", "0.01",
                       "--repeats", "2", "--option", "rounds=1", "--match",
                       "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["machine"]["python"] and report["machine"]["cpus"] >= 1
    assert [(r["game"], r["players"], r["loop"]) for r in report["results"]] == [
        ("maumau", 2, "api"), ("maumau", 2, "match")]
    for row in report["results"]:
        assert len(row["repeats"]) == 2
        rates = row["decisions_per_s"]
        assert 0 < rates["min"] <= rates["median"] <= rates["max"]
        assert row["options"]["rounds"] == 1
    assert "maumau" in capsys.readouterr().out
