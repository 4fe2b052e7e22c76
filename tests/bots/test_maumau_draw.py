"""Mau Mau bots after a plain draw (docs/games/maumau.md, "A turn"): when the drawn card does
not fit they pass at once, without searching; their pause is the same as after a card that
fits, so a bot's timing tells the table no more than the turn order does."""

import random

import pytest
from tests.games.maumau.positions import position

from tiergarten import bots
from tiergarten.bots.ismcts import ISMCTSBot
from tiergarten.core.match import SeatView

HANDS = ["8h Kc Ad Qs", "7c 9c 10d"]


def after_draw(stock: str):
    state = position(HANDS, top="Qh", stock=stock, rounds=1)
    state.apply(0, "draw")
    return state


@pytest.mark.parametrize("name", ["heuristic", "normal", "hard", "expert", "master"])
def test_a_bot_passes_when_the_drawn_card_does_not_fit_and_pauses_as_when_it_fits(name):
    misfit, fit = after_draw("10s"), after_draw("Kh")
    game = misfit.game
    proposals = []
    for state in (misfit, fit):
        bot = bots.make(name, game, 0, random.Random(1))
        proposals.append(bot.propose(SeatView(state, 0, state.legal_actions(0))))
        if isinstance(bot, ISMCTSBot) and state is misfit:
            assert bot.stats.iterations == 0  # one legal action: no search
    (misfit_delay, misfit_action), (fit_delay, fit_action) = proposals
    assert str(misfit_action) == "pass"
    assert str(fit_action) in {"play Kh", "pass"}
    assert misfit_delay == fit_delay


def test_the_random_bot_passes_too():
    state = after_draw("10s")
    bot = bots.make("easy", state.game, 0, random.Random(1))
    assert str(bot.propose(SeatView(state, 0, state.legal_actions(0)))[1]) == "pass"
