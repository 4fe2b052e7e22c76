"""The HTML report (`--report DIR`) and the tables a designer reads, each defect found once
with its test: the generated HTML is parsed (html.parser), never grepped; terminal tables
are rendered at the widths people use."""

import io
import json
from html.parser import HTMLParser

import pytest
from rich.console import Console

from tiergarten.cli import options_table
from tiergarten.core import game_class
from tiergarten.sim import report, sweep
from tiergarten.sim.command import simulate_command
from tiergarten.sim.display import sweep_figures
from tiergarten.sim.league import league

ONE_ROUND = {"rounds": "1"}


class Page(HTMLParser):
    """What a reader of the page sees: headings, images with their alt text, tables (by
    class: caption, header and rows of cell texts) and paragraphs (with their class)."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.headings, self.images, self.tables, self.paragraphs = [], [], [], []
        self._text = None
        self._table = None
        self._row = None
        self._row_is_header = False
        self._where = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.images.append(a)
        elif tag in ("h1", "h2", "p", "caption", "td", "th"):
            self._text, self._where = [], (tag, a.get("class"))
        elif tag == "table":
            self._table = {"class": a.get("class"), "caption": "", "header": [], "rows": []}
        elif tag == "tr":
            self._row, self._row_is_header = [], False
        if tag == "th":
            self._row_is_header = True

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "p", "caption", "td", "th") and self._text is not None:
            text = "".join(self._text)
            if tag in ("h1", "h2"):
                self.headings.append(text)
            elif tag == "p":
                self.paragraphs.append((self._where[1], text))
            elif tag == "caption":
                self._table["caption"] = text
            else:
                self._row.append(text)
            self._text = None
        elif tag == "tr" and self._table is not None:
            if self._row_is_header:
                self._table["header"] = self._row
            else:
                self._table["rows"].append(self._row)
        elif tag == "table" and self._table is not None:
            self.tables.append(self._table)
            self._table = None

    def table(self, cls):
        found = [t for t in self.tables if t["class"] == cls]
        assert len(found) == 1, f"not one table of class {cls!r}"
        return found[0]


def _page(folder):
    return Page((folder / "index.html").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    folder = tmp_path_factory.mktemp("league")
    assert simulate_command("maumau", ["easy", "normal", "hard"], 6, 1, ONE_ROUND, False, 1,
                            tournament="round-robin", report=folder, until_separated=True,
                            cap=12) == 0
    return folder


def test_every_image_has_its_whole_alt_text_even_with_an_apostrophe(tournament):
    page = _page(tournament)
    alts = {img["src"]: img["alt"] for img in page.images}
    assert alts["head_to_head.png"] == ("Head to head: the row's win rate per seat-game against "
                                        "the column, with its 95% interval and n")
    assert all(alt and src.endswith(".png") for src, alt in alts.items())
    assert all((tournament / src).stat().st_size > 1000 for src in alts)


def test_the_until_separated_verdict_is_on_the_page_not_only_in_the_json(tournament):
    page = _page(tournament)
    data = json.loads((tournament / "report.json").read_text())
    verdict = data["until_separated"]
    assert any(h.startswith("Until separated: ") for h in page.headings)
    assert ("verdict", verdict["text"]) in page.paragraphs
    table = page.table("verdict")
    assert "Bonferroni over 2 planned looks" in table["caption"]
    assert [row[0] for row in table["rows"]] == [i["label"] for i in verdict["intervals"]]
    assert all("–" in row[2] for row in table["rows"])


def test_the_head_to_head_matrix_shows_n_and_intervals(tournament):
    data = json.loads((tournament / "report.json").read_text())
    cells = data["head_to_head"]
    t = league("maumau", ["easy", "normal", "hard"], 12, 1, {"rounds": 1}, 1)
    fig = report._matrix(report.by_level(t.entrants), t.head_to_head)
    texts = [x.get_text() for x in fig.axes[0].texts]
    assert len(texts) == len(cells) == 6
    for h in t.head_to_head:
        assert f"{h.win_rate:.0%}\n{100 * h.low:.0f}–{h.high:.0%}\nn={h.games:,}" in texts
    table = _page(tournament).table("head-to-head")
    assert table["header"] == ["bot", "against", "seat-games (n)", "win rate (95%)", "fair"]
    assert sorted(row[2] for row in table["rows"]) == sorted(f"{c['games']:,}" for c in cells)


def test_game_length_is_a_cdf_with_its_percentiles(tournament):
    t = league("maumau", ["easy", "normal"], 12, 1, {"rounds": 1}, 1)
    runs = [("a", t.pairings[0])]
    fig = report._lengths(runs)
    ax = fig.axes[0]
    assert not ax.patches  # no histogram bars
    ys = list(ax.lines[0].get_ydata())
    assert ys == sorted(ys) and ys[-1] == 1.0
    table = _page(tournament).table("lengths")
    assert table["header"][2:7] == ["p10", "p25", "p50", "p75", "p90"]
    for row in table["rows"]:
        values = [int(x) for x in row[2:8]]
        assert values == sorted(values)


def test_the_designer_figures_are_on_the_page(tournament):
    page = _page(tournament)
    table = page.table("designer")
    assert table["header"][2:5] == ["lead changes a game (95%)", "comebacks (95%)",
                                    "kingmaking (95%)"]
    assert len(table["rows"]) == 3  # one per pairing
    usage = page.table("usage")
    assert usage["rows"][0][0] == "play" and len(usage["header"]) == 4


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sweep")
    assert simulate_command("maumau", ["heuristic", "random"], 8, 1, ONE_ROUND, False, 1,
                            sweep_option="jack_on_jack=true,false", report=folder) == 0
    return folder


def test_a_sweep_report_has_its_table_of_intervals_and_no_one_bot_ratings(swept):
    page = _page(swept)
    table = page.table("sweep")
    assert table["header"] == ["figure", "jack_on_jack=true", "jack_on_jack=false"]
    names = [row[0].rstrip(" *") for row in table["rows"]]
    assert names[:4] == ["heuristic wins", "random wins", "seat 0 wins", "seat 0 points"]
    for row in table["rows"]:
        assert all("(" in cell and "–" in cell for cell in row[1:])  # every figure's interval
    assert "Ratings" not in page.headings
    assert "ratings.png" not in {img["src"] for img in page.images}
    assert not (swept / "ratings.png").exists()


def test_a_sweep_whose_values_change_nothing_says_so(tmp_path, capsys):
    # mau_penalty only matters when someone forgets to call Mau: these bots never do
    args = ("maumau", ["heuristic", "heuristic"], 6, 1, ONE_ROUND)
    assert simulate_command(*args, False, 1, sweep_option="mau_penalty=2,4",
                            report=tmp_path) == 0
    out = " ".join(capsys.readouterr().out.split())
    said = "The values of mau_penalty change nothing here: every one of the 6 games went " \
           "exactly the same under each value."
    assert said in out
    assert ("note", said) in _page(tmp_path).paragraphs
    assert simulate_command(*args, True, 1, sweep_option="mau_penalty=2,4") == 0
    assert said in json.loads(capsys.readouterr().out)["notes"]


def test_a_sweep_with_no_figure_apart_says_no_effect_shows(capsys):
    assert simulate_command("maumau", ["heuristic", "random"], 4, 1, ONE_ROUND, True, 1,
                            sweep_option="jack_on_jack=true,false") == 0
    data = json.loads(capsys.readouterr().out)
    assert not any(data["differs"].values())
    assert any(n.startswith("No figure differs between the values of jack_on_jack beyond")
               for n in data["notes"])


@pytest.mark.parametrize("values", ["jack_on_jack=true,false", "mau_penalty=0,1,2,3"])
def test_sweep_tables_never_split_a_number_at_80_columns(capsys, monkeypatch, values):
    monkeypatch.setenv("COLUMNS", "80")
    bots = ["heuristic", "random", "normal"]
    assert simulate_command("maumau", bots, 6, 1, ONE_ROUND, False, 1,
                            sweep_option=values) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 80 for line in lines)
    name, _, rest = values.partition("=")
    runs = sweep("maumau", bots, name, rest.split(","), 6, 1, {"rounds": 1}, 1)
    for f in sweep_figures(runs):
        for j in range(len(runs)):
            assert any(f.cell(j) in line for line in lines), f.cell(j)  # whole, on one line


@pytest.mark.parametrize("width", [80, 120])
def test_the_options_table_of_rules_stays_readable(width):
    info = game_class("mammuz").info
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(options_table("mammuz", info.options))
    lines = console.export_text().splitlines()
    text = " ".join(lines)
    assert all(len(line) <= width for line in lines)
    assert "…" not in text
    cells = [line.split("│")[1:-1] for line in lines if line.startswith("│")]
    assert {c[0].strip() for c in cells} >= {"next_starter", "dinosaur_powers"}
    words = " ".join(cell for row in cells for cell in row).split()
    for power, effect in info.options[1].default.items():  # every entry whole
        assert f"{power}:" in words and effect in words
    assert "doubter," in words and "taker," in words  # the allowed values, whole words
