"""Real-time terminal play: keys to actions, players with hit keys, the screen, and whole games
driven by a scripted clock that presses keys (nothing timed, no terminal needed)."""

from __future__ import annotations

import io
import json
import pathlib
import queue

import pytest
from rich.console import Console

import tiergarten
from tiergarten.core.realtime import Submission, TimedView
from tiergarten.terminal.lecker_mammut import LeckerMammutRenderer
from tiergarten.terminal.lecker_mammut_match import Keys, Person, RealTimeMatch, parse_players

from .positions import position

FLIPPING = {"version": 7, "phase": "flipping", "choosing": [], "returning": [], "flipper": 0}


def test_one_person_hits_with_a_single_key_judged_on_the_version_on_screen() -> None:
    keys = Keys({0: None})
    assert keys.press("2", FLIPPING) == ([(0, "hit boar @7")], "")
    assert keys.press("v", FLIPPING) == ([(0, "hit purple @7")], "")
    assert keys.press(" ", FLIPPING) == ([(0, "flip")], "")
    assert keys.press(".", FLIPPING) == ([(0, "pass")], "")
    assert "no key 'z'" in keys.press("z", FLIPPING)[1]
    assert keys.press(" ", {**FLIPPING, "flipper": 1}) == (
        [], "it is not your pile that is being flipped")


def test_digits_choose_the_top_card_or_the_pile_to_give_back() -> None:
    keys = Keys({1: None})
    choosing = {**FLIPPING, "choosing": [{"seat": 1, "feature": "green", "cards": [],
                                          "tops": ["green-bear", "green-boar"]}]}
    assert keys.press("2", choosing) == ([(1, "top green-boar")], "")
    assert keys.press("3", choosing) == ([], "choose a top card 1 to 2")
    assert keys.press("2", {**FLIPPING, "returning": [1]}) == ([(1, "return 2")], "")


def test_at_one_keyboard_each_person_presses_their_hit_key_first() -> None:
    keys = Keys({0: "q", 2: "m"})
    assert keys.press("g", FLIPPING)[0] == []
    assert keys.press("m", FLIPPING) == ([], "Player 3: now the animal 1-7 or colour "
                                             "r o y g b v p (or . to pass)")  # at once
    assert keys.press("g", FLIPPING) == ([(2, "hit green @7")], "")
    assert keys.press("q", FLIPPING)[0] == []
    assert keys.press(".", FLIPPING) == ([(0, "pass")], "")
    assert keys.press(" ", FLIPPING) == ([(0, "flip")], "")  # space: whoever's pile it is


def test_players_are_people_with_hit_keys_or_bot_levels() -> None:
    assert parse_players(["hard", "me"]) == (["hard", "me"], {1: None})
    with pytest.raises(tiergarten.OptionError, match="no player 'wizard'"):
        parse_players(["me", "wizard"])
    with pytest.raises(tiergarten.OptionError, match="each person needs a hit key"):
        parse_players(["me", "me"])
    with pytest.raises(tiergarten.OptionError, match="different keys"):
        parse_players(["me:q", "me:q"])


def test_the_screen_shows_the_table_in_words() -> None:
    state = position(middle="green-boar red-deer", piles=["pink-sloth", ""],
                     prizes=[[], ["red-bear blue-tiger"]], penalties=[1, 0])
    state.apply(1, "hit pink")
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(
        LeckerMammutRenderer(unicode=False).screen(state.observe(0), ["You", "Hard 1"]))
    text = out.getvalue()
    for words in ("green boar", "red deer", "blue tiger", "You", "Hard 1",
                  "hit pink wrongly (none showing): a penalty card", "penalty cards"):
        assert words in text


def test_a_mistake_with_no_card_left_is_said_to_take_none() -> None:
    state = position(middle="green-boar", piles=["", ""], prizes=[[], ["red-bear blue-tiger"]])
    state.apply(0, "hit pink")
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(
        LeckerMammutRenderer(unicode=False).screen(state.observe(0), ["You", "Hard 1"]))
    assert "You hit pink wrongly (none showing): no card left to take" in out.getvalue()


def silent(state: tiergarten.State, seat: int, now: float) -> object:
    """What the table's timer does for a silent person at `seat` by `now`."""
    person = Person(seat, patience=6.0)
    person.propose(TimedView(state, seat, state.legal_actions(seat), 0.0))
    return person.propose(TimedView(state, seat, state.legal_actions(seat), now))


@pytest.mark.parametrize(("rules", "passes"), [(1, True), (None, False)])
def test_the_timer_passes_for_a_silent_person_only_when_no_triple_shows(
        rules: int | None, passes: bool) -> None:
    triple = position(middle="green-boar green-deer green-tiger", piles=["", ""], rules=rules)
    proposal = silent(triple, 0, now=10.0)
    assert (proposal is not None and str(proposal[1]) == "pass") is passes  # type: ignore[index]
    quiet = position(middle="green-boar red-deer", piles=["", ""], rules=rules)
    proposal = silent(quiet, 0, now=10.0)
    assert proposal is not None and str(proposal[1]) == "pass"  # type: ignore[index]


class PressingClock:
    """A clock for a match: time moves as the table waits; the 'person' presses space 0.7 s
    after it becomes their pile to flip, and other keys at scripted times."""

    def __init__(self, match: RealTimeMatch, script: list[tuple[float, str]]) -> None:
        self.match = match
        self.t = 0.0
        self.script = sorted(script)
        self.flip_at: float | None = None

    def now(self) -> float:
        return self.t

    def wait(self, inbox: queue.Queue[Submission], seconds: float) -> Submission | None:
        mine = self.match.obs["flipper"] in self.match.keys.people
        if mine and self.flip_at is None:
            self.flip_at = self.t + 0.7
        events = [(at, key) for at, key in self.script if at <= self.t + seconds]
        if mine and self.flip_at is not None and self.flip_at <= self.t + seconds:
            events.append((self.flip_at, " "))
        if events:
            at, key = min(events)
            self.t = max(self.t, at)
            if key == " " and (at, key) not in self.script:
                self.flip_at = None
            else:
                self.script.remove((at, key))
            self.match.press(key)
        else:
            self.t += seconds
        try:
            return inbox.get_nowait()
        except queue.Empty:
            return None


def test_a_whole_game_against_a_bot_with_a_person_flipping_and_hitting() -> None:
    out = io.StringIO()
    match = RealTimeMatch(["me", "hard"], seed=3, options={"rounds": 1},
                          console=Console(file=out, width=120, color_system=None))
    match.table.clock = PressingClock(match, [(0.9, "g"), (1.1, "x")])
    assert match.run(keys=iter(())) == "over"
    mine = [str(a) for seat, a in match.state.history if seat == 0]
    assert mine[:2] == ["flip", "hit green @1"] and mine[-1] == "pass"
    assert match.state.penalties[0] == 1  # green was a mistake: a penalty card from the pile
    assert mine.count("flip") == 24  # the rest of the person's 25 cards
    assert "Hard 2 wins." in out.getvalue() or "You win." in out.getvalue()
    record = tiergarten.replay(match.state.record())
    assert record.result() == match.state.result()


def test_quitting_stops_the_game_and_it_can_be_saved(tmp_path: pathlib.Path) -> None:
    out = io.StringIO()
    match = RealTimeMatch(["hard", "me"], seed=1, options={"rounds": 1},
                          console=Console(file=out, width=100, color_system=None))
    match.table.clock = PressingClock(match, [(2.0, "Q")])
    assert match.run(keys=iter(())) == "quit"
    assert not match.state.is_over() and match.state.history
    saved = match.save(tmp_path / "game.json")
    record = json.loads(saved.read_text())
    assert record["agents"] == ["hard", "me"]
    assert tiergarten.replay(record).observe(0) == match.state.observe(0)


def test_the_footer_says_whose_hit_key_is_which_and_a_hit_key_answers_at_once() -> None:
    out = io.StringIO()
    match = RealTimeMatch(["me:q", "me:m", "hard"], seed=2, options={"rounds": 1},
                          console=Console(file=out, width=100, color_system=None))
    assert match.names == ["Player 1", "Player 2", "Hard 3"]
    assert match.help().startswith("Hit keys: Player 1 q · Player 2 m. Your hit key, then:")
    match.press("m")
    assert match.message == "Player 2: now the animal 1-7 or colour r o y g b v p (or . to pass)"


def test_a_persons_good_hit_and_mistake_are_said_at_once() -> None:
    match = RealTimeMatch(["me", "hard"], seed=1, options={"rounds": 1},
                          console=Console(file=io.StringIO(), width=100, color_system=None))

    def hit(state: tiergarten.State, feature: str) -> str:
        before = match.obs = state.observe(0)
        state.apply(0, f"hit {feature} @{before['version']}")
        match.obs = state.observe(0)
        return match._hit_message(before, 0)

    three = position(middle="green-boar green-deer green-tiger", piles=["red-bear", "pink-deer"])
    assert hit(three, "green") == "You: a good hit, 3 cards — choose the top card: 1 to 3"
    one = position(middle="green-boar red-deer", piles=["red-bear", "pink-deer"])
    assert hit(one, "green") == "You: only 1 card shows green — a penalty card"
    none = position(middle="green-boar red-deer", piles=["red-bear", "pink-deer"])
    assert hit(none, "purple") == "You: no card shows purple — a penalty card"
    flipped = position(middle="green-boar red-deer", piles=["", ""])
    assert hit(flipped, "green") == "You: only 1 card shows green — no card left to take"
