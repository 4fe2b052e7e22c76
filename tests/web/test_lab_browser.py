"""The Lab page in chromium (js/lab.js): a small run asked for in the form, its progress, then
the report's tables, whose numbers are `tiergarten simulate`'s with the same seed; the run's
link shows the same run in another tab."""

from __future__ import annotations

from typing import Any

from tiergarten.sim.request import check

RUN = 60_000  # ms: a small run, queued, played and reported by the server

GAMES, SEED = 8, 3


def runs_row(page: Any) -> list[str]:
    """The report's first table ("Runs"): its one row's cells."""
    row = page.locator("#lab-report table").first.locator("tbody tr").first
    return [str(c) for c in row.locator("td").all_inner_texts()]


def test_a_lab_run_shows_the_figures_of_simulate_with_the_same_seed(page: Any, web: Any,
                                                                     shot: Any,
                                                                     page_errors: list[str]
                                                                     ) -> None:
    page.goto(web.url + "/")
    page.click("#lab-entry")
    page.wait_for_selector("#lab-form")
    page.select_option("#lab-game", "maumau")
    page.select_option("#lab-players", "2")
    page.select_option("#lab-seat-0", "heuristic")
    page.select_option("#lab-seat-1", "random")
    page.fill("#lab-games", str(GAMES))
    page.fill("#lab-seed", str(SEED))
    page.click("details.options summary")
    page.fill("#opt-rounds", "1")
    shot(page, "form")
    page.click("#lab-form button[type=submit]")
    page.wait_for_selector("#lab-run[data-status=done]", timeout=RUN)
    page.wait_for_selector("#lab-report table", timeout=RUN)
    command = page.locator(".lab-command").inner_text()
    assert command == (f"tiergarten simulate maumau --players heuristic,random -n {GAMES} "
                       f"--seed {SEED} -o rounds=1")
    shot(page, "done")

    mode = check("maumau", ["heuristic", "random"], GAMES, SEED, {"rounds": "1"}, workers=1)
    r = mode.grow(GAMES, None, lambda _done: None, lambda _estimate: None)
    seat = f"{r.first_seat.win_rate:.1%} ({100 * r.seats[0].low:.1f}–{r.seats[0].high:.1%})"
    expected = ["run", "heuristic, random", str(GAMES), str(r.rules), f"{r.decisions.mean:.1f}",
                seat]
    assert runs_row(page) == expected
    assert page.locator("#lab-report img[alt]").count() >= 3  # the report's plots, loaded
    assert page.evaluate("[...document.querySelectorAll('#lab-report img')]"
                         ".every((img) => img.complete && img.naturalWidth > 0)")

    link = page.locator("#lab-link").inner_text()
    assert "#/lab/" in link
    other = page.context.new_page()
    other.goto(link)
    other.wait_for_selector("#lab-report table", timeout=RUN)
    assert runs_row(other) == expected  # the shared link shows the same run
    assert other.locator("#lab-cancel").count() == 0
    other.close()
    assert page_errors == []
