"""Compiled hot modules (tiergarten.core.native): used only when built from the current
sources, and playing exactly the same games as the Python sources."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import tiergarten
from tiergarten.core import native

MAMMUZ = Path(tiergarten.__file__).parent / "games" / "mammuz"

# Random games with clones, resamples and observations: a digest of everything they produce.
FINGERPRINT = textwrap.dedent("""
    import hashlib, json, random, sys
    import tiergarten
    from tiergarten.core.native import is_compiled
    digest = hashlib.sha256()
    for players in (3, 5, 7):
        game = tiergarten.load("mammuz", players=players)
        rng = random.Random(players)
        for seed in range(40):
            state = game.new_state(seed)
            while not state.is_over():
                movers = state.to_move()
                seat = rng.choice(movers)
                legal = state.legal_actions(seat)
                digest.update(" ".join(map(str, legal)).encode())
                state.apply(seat, rng.choice(legal))
                if rng.random() < 0.05:
                    other = state.resample(seat, random.Random(seed))
                    digest.update(json.dumps(other.observe(None), sort_keys=True).encode())
                    state = state.clone()
            digest.update(json.dumps([state.observe(s) for s in range(players)],
                                     sort_keys=True).encode())
            digest.update(repr(state.result().to_dict()).encode())
    print(json.dumps({"digest": digest.hexdigest(),
                      "compiled": is_compiled("tiergarten.games.mammuz.state")}))
""")


def _fingerprint(pure: bool) -> dict[str, object]:
    env = {**os.environ, "TIERGARTEN_PURE": "1" if pure else ""}
    out = subprocess.run([sys.executable, "-c", FINGERPRINT], env=env, check=True,
                         capture_output=True, text=True).stdout
    return dict(json.loads(out))


def test_compiled_and_source_modules_play_the_same_games() -> None:
    source, default = _fingerprint(pure=True), _fingerprint(pure=False)
    assert source["compiled"] is False
    # `make` builds the compiled modules (when a C compiler exists); then they must be in use
    assert default["compiled"] is bool(native.built_from_source(MAMMUZ))
    assert default["digest"] == source["digest"]


def _package(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "a.py").write_text("WHERE = 'source'\n")
    (folder / "__init__.py").write_text(
        "from tiergarten.core import native\nnative.load(__name__, __path__[0])\n")
    return folder


def test_a_stale_build_is_never_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _package(tmp_path, "stalepkg")
    (folder / native.MANIFEST).write_text(json.dumps({"a.py": "hash of an older a.py"}))
    monkeypatch.setitem(native.COMPILED, "stalepkg", ("a.py",))
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.warns(UserWarning, match="built from older sources"):
        import stalepkg  # noqa: F401
    # imported from its source file explicitly (a stale extension would have come first)
    assert sys.modules["stalepkg.a"].__spec__.origin == str(folder / "a.py")


def test_a_matching_build_is_left_to_the_normal_import(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _package(tmp_path, "freshpkg")
    (folder / native.MANIFEST).write_text(json.dumps(native.source_hashes(folder)))
    monkeypatch.setitem(native.COMPILED, "freshpkg", ("a.py",))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("TIERGARTEN_PURE", raising=False)
    import freshpkg  # noqa: F401
    assert "freshpkg.a" not in sys.modules  # not preloaded: the import system picks the build
    assert native.built_from_source(folder) is True
    assert native.built_from_source(tmp_path) is None  # no manifest, no build
    # compiled code takes constants from uncompiled siblings too: any source changed is stale
    (folder / "constants.py").write_text("LIMIT = 4\n")
    assert native.built_from_source(folder) is False
