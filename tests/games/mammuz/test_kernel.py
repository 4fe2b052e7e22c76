"""The legal lays as a lazy sequence (`LegalLays`, and the optional C kernel's `Lays` where
installed) behave as the tuple of the same actions, and the kernel plays the same games."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

import pytest

import tiergarten
from tiergarten.games.mammuz import kernel, knowledge, lays, shuffles
from tiergarten.games.mammuz.actions import DOUBT, EXTINCT, LAY_BY, MammuZAction
from tiergarten.games.mammuz.cards import SPECIES

from .test_lays import plain_lays, random_hand

Tail = tuple[MammuZAction, ...]


def expected(hand: list[int], species: tuple[int, ...], tail: Tail) -> Tail:
    return (*(a for s in species for a in plain_lays(hand, s)), *tail)


def random_case(rng: random.Random) -> tuple[list[int], tuple[int, ...], Tail]:
    hand = random_hand(rng)
    species = tuple(sorted(rng.sample(SPECIES, rng.randint(1, len(SPECIES)))))
    tail = (*DOUBT[:rng.randrange(5)], *rng.sample(EXTINCT, rng.randrange(2)))
    return hand, species, tail


Make = Callable[[tuple[int, ...], list[int], Tail], Sequence[MammuZAction]]
MAKERS = [pytest.param(lays.LegalLays, id="python")]
if kernel.KERNEL is not None:
    MAKERS.append(pytest.param(kernel.KERNEL.Lays, id="kernel"))


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("seed", range(4))
def test_legal_lays_behave_as_the_tuple_of_their_actions(seed: int, make: Make) -> None:
    rng = random.Random(seed)
    for _ in range(30):
        hand, species, tail = random_case(rng)
        legal = make(species, hand, tail)
        want = expected(hand, species, tail)
        assert len(legal) == len(want) and bool(legal) == bool(want)
        assert [legal[i] for i in range(len(want))] == list(want)
        assert [legal[-i] for i in range(1, len(want) + 1)] == [want[-i] for i in
                                                               range(1, len(want) + 1)]
        assert list(legal) == list(want) and list(reversed(legal)) == list(reversed(want))
        assert legal[1:7] == want[1:7] and legal[::-3] == want[::-3]
        assert legal == want and want == legal and (legal != want) is False
        assert legal == make(species, hand, tail) and isinstance(legal, Sequence)
        assert legal != want[:-1] and legal != list(want)
        assert hash(legal) == hash(want) and repr(legal) == repr(want)
        assert legal + () == want and () + legal == want
        row = LAY_BY[rng.choice(SPECIES)]
        for action in [*rng.sample(row, 60), *DOUBT, *EXTINCT, "doubt 1", None]:
            assert (action in legal) == (action in want)
        if want:
            assert legal.index(want[-1]) == want.index(want[-1])
        with pytest.raises(IndexError):
            legal[len(want)]
        with pytest.raises(IndexError):
            legal[-len(want) - 1]


@pytest.mark.parametrize("make", MAKERS)
def test_a_lay_set_is_a_snapshot_the_hand_changing_afterwards_does_not_change_it(
        make: Make) -> None:
    hand = [0, 1, 1] + [0] * 11
    legal = make((2,), hand, ())
    before = tuple(legal)
    hand[0] = 2
    assert tuple(legal) == before and len(legal) == 3


def _module() -> Any:
    """The installed kernel (even where TIERGARTEN_PURE is set); a stale build fails."""
    module = pytest.importorskip(kernel.MODULE, reason="the C kernel is not built (a "
                                 "pure-Python install, or a source tree never installed)")
    assert module.VERSION == kernel.VERSION, "the installed kernel is stale: run `make`"
    return module


def _kernel() -> Make:
    """The installed kernel's `Lays`, set up."""
    return kernel.kernel_lays(_module())


def test_the_c_kernel_lists_the_same_lays_as_the_python_path() -> None:
    made = _kernel()
    assert kernel.uses_kernel() or os.environ.get("TIERGARTEN_PURE")
    rng = random.Random(5)
    for _ in range(300):
        hand, species, tail = random_case(rng)
        got, pure = made(species, hand, tail), lays.LegalLays(species, hand, tail)
        assert len(got) == len(pure) and tuple(got) == tuple(pure)
        assert [got[i] for i in range(len(got))] == list(pure)
        assert tuple(got) == expected(hand, species, tail)


def test_the_c_kernel_refuses_what_is_not_a_hand() -> None:
    made = _kernel()
    with pytest.raises(ValueError, match="negative"):
        made((0,), [-1] + [0] * 13, ())
    with pytest.raises(TypeError, match="fourteen counts"):
        made((0,), [0] * 13, ())
    with pytest.raises(ValueError, match="species is 0 to 7"):
        made((8,), [1] + [0] * 13, ())


def test_the_c_kernel_moves_a_lay_as_the_python_twin_does() -> None:
    """The same order drawn (rng state included), the same hand and herd after."""
    module = _module()
    rng = random.Random(3)
    for seed in range(300):
        hand = random_hand(rng)
        held = [k for k, count in enumerate(hand) for _ in range(count)]
        cards = tuple(sorted(rng.sample(held, min(len(held), rng.randint(1, 4)))))
        results = []
        for move in (shuffles.move_lay, module.move_lay):
            mine, herd, draws = hand.copy(), [0] * len(hand), random.Random(seed)
            results.append((move(draws, cards, mine, herd), mine, herd, draws.getstate()))
        assert results[0] == results[1]
    with pytest.raises(ValueError, match="a kind is 0 to 13"):
        module.move_lay(rng, (14,), [0] * 14, [0] * 14)


def test_the_c_kernel_deals_as_the_python_twin_does() -> None:
    """The same shuffle (rng state included), the same hands."""
    module = _module()
    for seed in range(100):
        players = 3 + seed % 5
        deck = [k for k in range(14) for _ in range(seed % 3 + 1)][:players * 6]
        results = []
        for deal in (shuffles.deal, module.deal):
            cards, draws = deck.copy(), random.Random(seed)
            results.append((deal(draws, cards, players, len(deck) // players), cards,
                            draws.getstate()))
        assert results[0] == results[1]
    with pytest.raises(ValueError, match="too few cards"):
        module.deal(random.Random(1), [0, 1], 3, 1)
    with pytest.raises(ValueError, match="a kind is 0 to 13"):
        module.deal(random.Random(1), [0, 14], 2, 1)


def test_the_c_kernel_learns_a_herd_as_the_python_twin_does() -> None:
    """The same knowledge table after a herd is taken or goes to the jackpot, whatever the
    counts stored and laid before."""
    module = _module()
    rng = random.Random(8)
    for _ in range(300):
        players = rng.randint(3, 7)
        table = knowledge.table(players)
        for row in table:
            row[:] = [rng.choice((0, 0, 1, 2, 5)) for _ in row]
        herd = [(rng.randrange(players), tuple(rng.choices(range(14), k=rng.randint(1, 4))))
                for _ in range(rng.randint(1, 6))]
        holder = rng.randrange(players + 1)  # a seat, or the jackpot
        skip = holder if holder < players else -1
        args = (holder, herd, herd[-1][0], rng.randrange(14), skip)
        ours, theirs = [row.copy() for row in table], [row.copy() for row in table]
        knowledge.learn_herd(ours, *args)
        module.learn_herd(theirs, *args)
        assert ours == theirs
    with pytest.raises(ValueError, match="no such seat"):
        module.learn_herd(knowledge.table(3), 0, [(5, (1,))], 5, 1, -1)


# Random games with clones, resamples and observations: a digest of everything they produce.
FINGERPRINT = textwrap.dedent("""
    import hashlib, json, random
    import tiergarten
    from tiergarten.games.mammuz.kernel import uses_kernel
    digest = hashlib.sha256()
    for players in (3, 5, 7):
        game = tiergarten.load("mammuz", players=players)
        rng = random.Random(players)
        for seed in range(30):
            state = game.new_state(seed)
            while not state.is_over():
                seat = rng.choice(state.to_move())
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
    print(json.dumps({"digest": digest.hexdigest(), "kernel": uses_kernel()}))
""")


def _fingerprint(pure: bool) -> dict[str, object]:
    env = {**os.environ, "TIERGARTEN_PURE": "1" if pure else ""}
    out = subprocess.run([sys.executable, "-c", FINGERPRINT], env=env, check=True,
                         capture_output=True, text=True, timeout=600).stdout
    return dict(json.loads(out))


def test_the_c_kernel_and_pure_python_play_the_same_games() -> None:
    _kernel()
    pure, fast = _fingerprint(pure=True), _fingerprint(pure=False)
    assert pure["kernel"] is False and fast["kernel"] is True
    assert pure["digest"] == fast["digest"]


def test_no_compiled_module_shadows_the_rules_sources() -> None:
    """The rules run from their .py files (an older build compiled some beside them)."""
    tiergarten.load("mammuz")
    for name in ("actions", "cards", "game", "knowledge", "lays", "state", "view"):
        module = sys.modules[f"tiergarten.games.mammuz.{name}"]
        assert str(module.__file__).endswith(".py"), module.__file__
