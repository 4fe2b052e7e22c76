"""docs/games/mammuz.md, extinction: any seat, at any time, holding every card of a species left."""

from __future__ import annotations

from .positions import hand, legal, log, position, turn


def test_any_seat_holding_every_card_left_may_extinguish_out_of_turn() -> None:
    state = position(["deer tiger", "hare tiger", "mammoth mammoth hare deer"], turn=0)
    assert state.to_move() == (0, 2)
    assert legal(state, 2) == ["extinct mammoth"]
    assert legal(state, 1) == []
    state.apply(2, "extinct mammoth")
    assert hand(state, 2) == ["deer", "hare"]
    spectator = state.observe(None)
    assert spectator["extinct"] == ["mammoth"] and spectator["in_game"]["mammoth"] == 0
    assert log(state)[-1] == {"seat": 2, "act": "extinct", "species": "mammoth", "cards": 2}
    assert not any(a.endswith("as mammoth") for a in legal(state, 0))
    assert turn(state) == 0  # an extinction does not pass the turn


def test_an_observation_never_shows_that_another_seat_could_extinguish() -> None:
    state = position(["deer tiger", "hare tiger", "mammoth mammoth hare deer"], turn=0)
    assert state.observe(0)["to_move"] == [0]
    assert state.observe(1)["to_move"] == [0]
    assert state.observe(None)["to_move"] == [0]
    assert state.observe(2)["to_move"] == [0, 2]


def test_a_species_partly_in_the_herd_cannot_be_extinguished() -> None:
    state = position(["deer tiger", "hare tiger", "bear bear hare deer"], species="hare",
                     lays=[(0, "bear")], turn=1)
    assert "extinct bear" not in legal(state, 2)


def test_extinction_right_after_a_pick_up() -> None:
    state = position(["deer tiger", "hare tiger", "bear hare deer"], species="bear",
                     lays=[(0, "bear"), (1, "bear")])
    state.apply(2, "doubt 1")  # a true bear: seat 2 takes the herd and now holds all three
    assert turn(state) == 0
    assert state.to_move() == (0, 2)
    state.apply(2, "extinct bear")
    assert hand(state, 2) == ["deer", "hare"]


def test_a_herd_goes_on_after_its_species_goes_extinct_and_every_card_is_then_a_lie() -> None:
    state = position(["deer tiger tiger", "hare tiger", "mammoth mammoth hare"],
                     species="mammoth", lays=[(0, "deer")], turn=1)
    state.apply(2, "extinct mammoth")
    assert "lay hare as mammoth" in legal(state)
    state.apply(1, "lay hare as mammoth")
    state.apply(2, "doubt 1")
    assert state.observe(None)["revealed"][-1]["taker"] == 1


def test_a_player_left_without_cards_by_an_extinction_wins_at_once() -> None:
    state = position(["deer tiger", "hare tiger", "mammoth mammoth"], turn=0)
    state.apply(2, "extinct mammoth")
    assert state.is_over()
    result = state.result()
    assert result.winners == (2,) and result.reason == "extinction"
    assert result.scores == (-2, -2, 1) and result.ranks == (2, 2, 1)
    assert state.observe(0)["winner"] == 2


def test_a_herd_taken_opens_an_extinction_to_the_taker() -> None:
    """The extinctions after a take come from those before it and the taker's new hand
    (state._after_doubt). Every species starts split between two hands."""
    hands = ["tiger deer hare", "tiger tiger hare deer", "deer hare"]
    state = position(hands, turn=0)
    state.apply(0, "lay tiger as tiger")
    assert state.to_move() == (1,)
    state.apply(1, "doubt 1")  # the truth: the doubter takes the herd, so holds every tiger
    assert state.to_move() == (2, 1) and legal(state, 1) == ["extinct tiger"]
    state = position(hands, turn=0)
    state.apply(0, "lay tiger as deer")
    state.apply(1, "lay hare as deer")
    state.apply(2, "doubt 1")  # a lie: seat 1 takes the herd back, and seat 0's tiger with it
    assert state.to_move() == (2, 1) and legal(state, 1) == ["extinct tiger"]
    assert legal(state, 0) == []


def test_the_extinctions_kept_across_moves_are_those_every_hand_shows() -> None:
    """A lay, a take or an extinction updates the open extinctions instead of looking at every
    hand again; in random games they always equal a fresh look."""
    import random

    import tiergarten
    from tiergarten.games.mammuz.state import MammuZState

    rng = random.Random(3)
    checked = 0
    for players in range(3, 8):
        game = tiergarten.load("mammuz", players)
        for seed in range(25):
            state = game.new_state(seed)
            assert isinstance(state, MammuZState)
            while not state.is_over():
                kept = state._ext
                if kept is not None:
                    state._ext = None
                    assert state.extinctions() == kept
                    checked += 1
                seat = rng.choice(state.to_move())
                state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 3000
