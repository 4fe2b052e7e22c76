"""ISMCTS: known right moves, repeatability, honesty (only `resample`), budgets, many movers."""

import random

import pytest

import tiergarten
from tiergarten.bots.ismcts import ISMCTSBot, Search, ToTheEnd, win_shares
from tiergarten.core.match import SeatView, play_match


def _winning_positions(game, count, seed=0):
    """Positions from seeded random play where one seat alone is to move and some, but not
    all, of its legal actions end the game with that seat the only winner."""
    rng = random.Random(seed)
    found = []
    for deal in range(200):
        state = game.new_state(deal)
        while not state.is_over():
            movers = state.to_move()
            seat = movers[0]
            legal = state.legal_actions(seat)
            wins = []
            for action in legal:
                after = state.clone()
                after.apply_unchecked(seat, action)
                if after.is_over() and after.result().winners == (seat,):
                    wins.append(action)
            if len(movers) == 1 and wins and len(wins) < len(legal):
                found.append((state, seat, set(wins)))
                break
            state.apply_unchecked(seat, rng.choice(legal))
        if len(found) == count:
            return found
    raise AssertionError("no such positions found")


def test_ismcts_takes_the_move_that_wins_at_once():
    game = tiergarten.load("maumau", players=2, rounds=1)
    for state, seat, wins in _winning_positions(game, 4):
        bot = ISMCTSBot(game, seat, random.Random(3), Search(iterations=40))
        choice = bot.choose(SeatView(state, seat, state.legal_actions(seat)))
        assert choice in wins, (str(choice), [str(a) for a in wins])


def test_ismcts_prefers_winning_in_a_three_player_game_too():
    game = tiergarten.load("maumau", players=3, rounds=1)
    for state, seat, wins in _winning_positions(game, 2, seed=5):
        bot = ISMCTSBot(game, seat, random.Random(1), Search(iterations=40))
        assert bot.choose(SeatView(state, seat, state.legal_actions(seat))) in wins


class OnlyView:
    """Everything a bot may use of a SeatView, and nothing else: no raw state to peek at."""

    def __init__(self, state, seat):
        self.game = state.game
        self.seat = seat
        self.legal = state.legal_actions(seat)
        self.observation = state.observe(seat)
        self._resample = lambda rng: state.resample(seat, rng)
        self.resamples = 0

    def resample(self, rng):
        self.resamples += 1
        return self._resample(rng)


@pytest.mark.parametrize("game_id", ["maumau", "mammuz"])
def test_ismcts_sees_the_table_only_through_resample(game_id):
    game = tiergarten.load(game_id)
    state = game.new_state(11)
    seat = state.to_move()[0]
    view = OnlyView(state, seat)
    bot = ISMCTSBot(game, seat, random.Random(0), Search(iterations=25))
    assert bot.choose(view) in view.legal  # type: ignore[arg-type]
    assert view.resamples == 25  # one sampled world per iteration


def test_the_same_rng_gives_the_same_search():
    game = tiergarten.load("mammuz", players=3)
    state = game.new_state(2)
    seat = state.to_move()[0]
    runs = []
    for _ in range(2):
        bot = ISMCTSBot(game, seat, random.Random(42), Search(iterations=30))
        action = bot.choose(SeatView(state, seat, state.legal_actions(seat)))
        runs.append((action, bot.stats.visits, bot.stats.rollout_steps))
    assert runs[0] == runs[1]
    assert sum(runs[0][1].values()) == 30


def test_a_time_budget_searches_at_least_once_and_a_budget_is_required():
    game = tiergarten.load("maumau", players=2, rounds=1)
    state = game.new_state(1)
    seat = state.to_move()[0]
    bot = ISMCTSBot(game, seat, random.Random(0), Search(iterations=None, seconds=0.0))
    legal = state.legal_actions(seat)
    assert bot.choose(SeatView(state, seat, legal)) in legal
    assert bot.stats.iterations >= 1
    with pytest.raises(ValueError, match="budget"):
        Search(iterations=None, seconds=None)
    with pytest.raises(ValueError, match="at least 1"):
        Search(iterations=0)


def test_whole_games_where_several_seats_may_act_at_once():
    """MammuZ lets a seat extinguish out of turn; Mau Mau lets anyone catch a missed Mau."""
    for game_id, options in (("mammuz", {}), ("maumau", {"rounds": 1})):
        game = tiergarten.load(game_id, players=3, **options)
        agents = [ISMCTSBot(game, s, random.Random(s), Search(iterations=8))
                  for s in range(3)]
        state = play_match(game, agents, seed=5)
        assert state.is_over()
        assert tiergarten.replay(state.record()).result() == state.result()


def test_cut_short_rollouts_score_everyone_alike_and_finished_ones_by_win_shares():
    game = tiergarten.load("maumau", players=2, rounds=1)
    state = game.new_state(3)
    assert ToTheEnd().values(state, None) == [0.5, 0.5]
    rng = random.Random(0)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
    assert sorted(win_shares(state)) == [0.0, 1.0]


def test_guard_keeps_the_default_unless_the_search_clearly_beats_it():
    game = tiergarten.load("maumau", players=2, rounds=1)
    for state, seat, wins in _winning_positions(game, 2, seed=3):
        legal = state.legal_actions(seat)
        losing = next(a for a in legal if a not in wins)
        search = Search(iterations=60, guard=1.0)
        bot = ISMCTSBot(game, seat, random.Random(0), search)
        # a default that throws the win away is replaced: winning at once is clearly better
        assert bot.engine.best(SeatView(state, seat, legal), random.Random(0), losing) in wins
        # a default that wins is kept
        winning = next(iter(wins))
        assert bot.engine.best(SeatView(state, seat, legal), random.Random(0), winning) is \
            winning


def test_widening_limits_the_children_of_a_node_with_many_actions():
    game = tiergarten.load("mammuz", players=3)
    state = game.new_state(4)
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    assert len(legal) > 100  # the opening lays of MammuZ
    narrow = ISMCTSBot(game, seat, random.Random(0), Search(iterations=40, widening=0.5))
    narrow.choose(SeatView(state, seat, legal))
    wide = ISMCTSBot(game, seat, random.Random(0), Search(iterations=40))
    wide.choose(SeatView(state, seat, legal))
    assert len(narrow.stats.visits) <= 2 * 40 ** 0.5 + 1 < len(wide.stats.visits) == 40
