"""The `tiergarten` command: play, simulate, study, replay, rules, games, serve, config, admin,
backup, restore.

A thin adapter: it reads arguments, hands them to the terminal driver, the simulator or the
registry, and turns their errors into one line on stderr with exit code 2.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

import tiergarten
from tiergarten.core import OptionError, game_class
from tiergarten.core.options import parse_assignments

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # what shells expect after Ctrl-C (128 + SIGINT)

app = typer.Typer(
    name="tiergarten",
    help="Four family card games for players, bots, researchers and game designers.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

PlayersOpt = Annotated[str | None, typer.Option(
    "--players", "-p", help="Comma-separated seats in order: 'me' (a person at this keyboard; "
    "'me' twice or more for hot-seat; Lecker Mammut! 'me:q,me:p' gives each a hit key) or a "
    "bot name; default: you against the game's usual bots.")]
BotsOpt = Annotated[str | None, typer.Option(
    "--players", "-p", help="Comma-separated bot names, one per seat, e.g. heuristic,random "
    "(docs/bots.md lists each game's bots; no 'me': only bots are simulated); default: the "
    "game's usual line-up.")]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="A game option as name=value (repeatable); see `tiergarten rules`.")]


def fail(message: str) -> NoReturn:
    """Say what was wrong in one line on stderr and exit with code 2."""
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(EXIT_USAGE)


def _options(pairs: list[str] | None) -> dict[str, str]:
    try:
        return parse_assignments(pairs or [])
    except OptionError as exc:
        fail(str(exc))


def _players(text: str | None) -> list[str] | None:
    if text is None:
        return None
    names = [p.strip() for p in text.split(",")]
    if not all(names):
        fail(f"--players {text!r} has an empty name; write e.g. me,heuristic,random")
    return names


def _console() -> Console:
    return Console(highlight=False)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="The game's id, e.g. maumau.")],
    players: PlayersOpt = None,
    seed: Annotated[int | None, typer.Option(help="Repeat a deal: same seed, same cards.")
                    ] = None,
    option: OptionOpt = None,
    save: Annotated[Path | None, typer.Option(
        help="Where to save the record (default: ./records/GAME-SEED-TIME.json).")
    ] = None,
    no_save: Annotated[bool, typer.Option("--no-save", help="Do not save a record.")] = False,
    pace: Annotated[float, typer.Option(min=0.0, help="Seconds a bot's move stays on screen.")
                    ] = 0.6,
) -> None:
    """Play a game in the terminal, against bots or friends at the same keyboard.

    The screen shows the table, your hand and the last events, and stays in place; below it a
    short menu: type a number, or the move itself (Tab completes it, Tab twice lists the
    moves). MammuZ asks for a lay in two steps: which cards, then which species. A wrong move
    gets one line saying why. Seats are numbered from 1 ("Heuristic 2"); with several people
    ("me,me,heuristic") they are "Player 1", "Player 2" and the screen changes hands between
    turns. Lecker Mammut! is played in real time with single keys (shown at the foot of its
    screen). quit (or Ctrl-C, exit status 130) stops; the game so far is saved.
    """
    from tiergarten.terminal import start_match

    console = _console()
    try:
        match = start_match(game, _players(players), seed, _options(option), pace=pace,
                            console=console)
    except OptionError as exc:
        fail(str(exc))
    if save is not None and not no_save:
        _check_writable(save)
    outcome = match.run()
    if not no_save:
        try:
            path = match.save(save)
        except OSError as exc:
            fail(f"cannot save the record: {exc}")
        console.print(f"Game saved to {path}  (replay: tiergarten replay {path})",
                      soft_wrap=True, markup=False)
    if outcome == "interrupted":
        raise typer.Exit(EXIT_INTERRUPTED)


def _check_writable(path: Path) -> None:
    """Refuse a --save path before the game rather than after it."""
    if path.is_dir():
        fail(f"--save {str(path)!r} is a folder; give a file name, e.g. {path / 'game.json'}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot save to {str(path)!r}: {exc}")


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="The game's id, e.g. maumau.")],
    players: BotsOpt = None,
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="How many games to play.")
                 ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 1,
    option: OptionOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    workers: Annotated[int | None, typer.Option(min=1, help="Processes to play in.")] = None,
    tournament: Annotated[str | None, typer.Option(
        help="round-robin or gauntlet between the --players named (n games per line-up).")
    ] = None,
    seats: Annotated[int | None, typer.Option(min=2, help="Table size in a tournament.")
                     ] = None,
    sweep: Annotated[str | None, typer.Option(
        help="Compare option values side by side: option=a,b,c.")] = None,
    report: Annotated[Path | None, typer.Option(
        help="Write an HTML page with plots into this folder.")] = None,
    save: Annotated[Path | None, typer.Option(
        help="Save every game's record into this folder.")] = None,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(
        help="Address of an existing Ray cluster (--backend ray).")] = None,
    until_separated: Annotated[bool, typer.Option(
        "--until-separated", help="Play batches of -n games (per line-up or value) until the "
        "intervals the run asks about separate, or the cap is reached.")] = False,
    cap: Annotated[int | None, typer.Option(
        min=1, help="Most games per line-up with --until-separated (default: 10 batches).")
    ] = None,
) -> None:
    """Play many games between bots and report win rates, points and game length."""
    try:
        from tiergarten.sim.command import simulate_command
    except ImportError as exc:
        fail(f"simulate is not available in this installation ({exc})")
    lab: dict[str, Any] = {"tournament": tournament, "seats": seats, "sweep_option": sweep,
                           "report": report, "save": save, "backend": backend,
                           "address": address, "until_separated": until_separated or None,
                           "cap": cap}
    given = {k: v for k, v in lab.items() if v is not None and (k, v) != ("backend", "local")}
    code = simulate_command(game, _players(players), n, seed, _options(option), as_json,
                            workers, **given)
    raise typer.Exit(code)


@app.command()
def study(
    game: Annotated[str, typer.Argument(
        help="The game whose balance study to run: maumau, mammuz, mucca_pazza, lecker_mammut.")],
    out: Annotated[Path | None, typer.Option(
        help="Folder for the page, its plots and figures.json (default docs/lab/GAME).")
    ] = None,
    workers: Annotated[int | None, typer.Option(min=1, help="Processes to play in.")] = None,
    n: Annotated[int | None, typer.Option(
        "-n", "--games", min=1, help="Games per line-up instead of the study's own counts "
        "(default folder study/GAME-nN).")] = None,
    quick: Annotated[bool, typer.Option(
        "--quick", help="The study's quick form: a few games per line-up, the figures the "
        "committed study checks against (default folder study/GAME-quick).")] = False,
) -> None:
    """Run a game's balance study (seeded) and write its page with figures and plots."""
    try:
        from tiergarten.sim.command import study_command
    except ImportError as exc:
        fail(f"study is not available in this installation ({exc})")
    raise typer.Exit(study_command(game, out, workers, n, quick))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A record saved by `tiergarten play`.")],
    step: Annotated[bool, typer.Option(help="Wait for Enter before each action.")] = False,
    rules: Annotated[int | None, typer.Option(
        min=1, help="The rules version to replay under (default: the one the record names; "
                    "a record from before versions: the oldest it replays under).")] = None,
) -> None:
    """Replay a saved game action by action, with every hand shown."""
    from tiergarten.terminal import RecordError, read_record, replay_record

    try:
        replay_record(read_record(file), _console(), step=step, rules=rules)
    except RecordError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        raise typer.Exit(EXIT_INTERRUPTED) from None


def _default_text(value: Any) -> str:
    """An option's default as it is written: a mapping one `key: value` a line, so that a
    long default wraps between its entries, never inside a word."""
    if value is None:
        return "none"
    if isinstance(value, dict):
        return "\n".join(f"{k}: {_default_text(v)}" for k, v in value.items())
    return json.dumps(value).strip('"')


def options_table(game: str, options: Any) -> Table:
    """A game's options: the name whole, the default and the allowed values wrapped between
    words, the meaning given the most room; readable from 80 columns on."""
    table = Table(title=f"Options of {game} (set with --option name=value)",
                  title_justify="left", show_lines=True)
    longest = max((len(o.name) for o in options), default=6)
    table.add_column("Option", no_wrap=True, style="bold", min_width=longest)
    table.add_column("Default", ratio=2, overflow="fold")
    table.add_column("Allowed", ratio=2, overflow="fold")
    table.add_column("Meaning", ratio=4)
    for opt in options:
        table.add_row(opt.name, _default_text(opt.default), opt.allowed(), opt.doc)
    return table


@app.command()
def rules(game: Annotated[str, typer.Argument(help="The game's id, e.g. maumau.")]) -> None:
    """Print the rules as implemented and every option with its default."""
    try:
        info = game_class(game).info
    except OptionError as exc:
        fail(str(exc))
    console = _console()
    page = docs_page(game)
    if page is not None:
        console.print(Markdown(page.read_text(encoding="utf-8")))
    else:
        console.print(Text(info.title, style="bold"))
        console.print(info.summary or "(no rules page is installed for this game)")
        console.print(f"Moves: {tiergarten.load(game).notation_hint()}", soft_wrap=True)
    console.print(options_table(game, info.options))
    console.print(f"Players: {info.min_players} to {info.max_players} "
                  f"(usually {info.default_players}).")


def docs_page(game_id: str) -> Path | None:
    """docs/games/<id>.md of the source checkout, if this package runs from one."""
    package = Path(tiergarten.__file__).resolve().parent
    for root in package.parents[:3]:
        page = root / "docs" / "games" / f"{game_id}.md"
        if page.is_file():
            return page
    return None


# `serve` and `config` take every setting of the server as a flag (server/command.py makes
# them from the settings' model); they are handed their arguments as they are, so that other
# commands start without loading the server's settings.
_PASSED = {"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []}


@app.command(context_settings=_PASSED, add_help_option=False)
def serve(ctx: typer.Context) -> None:
    """Serve tables in the browser and over websockets (Ctrl-C stops); every setting a flag
    and a TIERGARTEN_* variable (`tiergarten serve --help` lists them)."""
    from tiergarten.server.command import run

    run("serve", ctx.args)


@app.command(context_settings=_PASSED, add_help_option=False)
def config(ctx: typer.Context) -> None:
    """Print the server's settings in effect (flags, TIERGARTEN_* variables, defaults),
    secrets masked, after checking them as `serve` does."""
    from tiergarten.server.command import run

    run("config", ctx.args)


@app.command(context_settings=_PASSED, add_help_option=False)
def admin(ctx: typer.Context) -> None:
    """The operator's commands on the server's database and Redis: tables, close, drain,
    leases, workers (`tiergarten admin --help`); the settings are serve's."""
    from tiergarten.server.admin import run

    run(ctx.args)


DbOpt = Annotated[str | None, typer.Option(
    help="The database: a SQLite file path (default: the server's, in the user's data "
         "folder).")]


@app.command()
def backup(
    path: Annotated[Path, typer.Argument(help="A new file to write the backup to.")],
    db: DbOpt = None,
) -> None:
    """Back up the database while the server runs (SQLite; PostgreSQL: pg_dump)."""
    from tiergarten.server.storage.backup import BackupError
    from tiergarten.server.storage.backup import backup as run_backup

    try:
        summary = run_backup(db, path)
    except (BackupError, OSError) as exc:
        fail(str(exc))
    typer.echo(f"backed up {summary} to {path}")


@app.command()
def restore(
    path: Annotated[Path, typer.Argument(help="A backup made by `tiergarten backup`.")],
    db: DbOpt = None,
) -> None:
    """Put a backup in place of the database (stop the server first; PostgreSQL: pg_restore)."""
    from tiergarten.server.storage.backup import BackupError
    from tiergarten.server.storage.backup import restore as run_restore

    try:
        summary = run_restore(path, db)
    except (BackupError, OSError) as exc:
        fail(str(exc))
    typer.echo(f"restored {summary} from {path}")


ratings_app = typer.Typer(help="Players' ratings in the server's database.",
                          no_args_is_help=True)
app.add_typer(ratings_app, name="ratings")


@ratings_app.command("rebuild")
def ratings_rebuild(
    db: Annotated[str | None, typer.Option(
        help="Database: a SQLite file path or postgresql://... (default: the server's).")
    ] = None,
) -> None:
    """Recompute every result and rating from the tables' logs (the same numbers the
    server computed as the games ended)."""
    from tiergarten.server.players.ratings import rebuild
    from tiergarten.server.storage.sql_players import SqlPlayerStore
    from tiergarten.server.storage.sql_store import SqlStore

    store = SqlStore(db)
    try:
        done = rebuild(SqlPlayerStore(store), store.load_table)
    finally:
        store.close()
    typer.echo(f"rated {done['rated']} of {done['games']} finished games")


@ratings_app.command("calibrate")
def ratings_calibrate(
    game: Annotated[list[str] | None, typer.Option(
        help="A game to measure (repeatable; default every game with levels). The other "
             "games' figures in the file are kept.")] = None,
    n: Annotated[int, typer.Option("-n", "--games", min=1,
                                   help="Games per line-up of the round robin.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the round robin.")] = 1,
    workers: Annotated[int | None, typer.Option(min=1, help="Processes to play in.")] = None,
    out: Annotated[Path | None, typer.Option(
        help="Where to write the figures (default: the server's bot_ratings.json).")] = None,
) -> None:
    """Measure the bots' fixed ratings per level: a round robin of random and the levels of
    each game (the lab's league), fitted with the model the server rates with; the server
    reads the file this writes (see sim/calibrate.py)."""
    from tiergarten.bots.levels import LEVELS
    from tiergarten.server.players.bot_levels import ANCHOR, BOT_SIGMA, DATA
    from tiergarten.sim.calibrate import calibrate

    games = game or sorted(LEVELS)
    unknown = [g for g in games if g not in LEVELS]
    if unknown:
        fail(f"no levels for {', '.join(unknown)}; games with levels: {', '.join(sorted(LEVELS))}")
    data = calibrate(games, n, seed, workers, out or DATA, anchor=ANCHOR, sigma=BOT_SIGMA)
    for game_id in games:
        ratings = data["games"][game_id]["ratings"]
        typer.echo(f"{game_id}: " + ", ".join(f"{name} {r['mu']:.1f} ± {r['se']:.1f}"
                                              for name, r in ratings.items()))


records_app = typer.Typer(help="The games stored in the server's database.",
                          no_args_is_help=True)
app.add_typer(records_app, name="records")


@records_app.command("check")
def records_check(
    db: Annotated[str | None, typer.Option(
        help="Database: a SQLite file path or postgresql://... (default: the server's).")
    ] = None,
) -> None:
    """Replay every stored table under the rules version it was played with, and list each
    one that does not replay (run it before and after an upgrade; nothing is written). Exits
    1 if any table does not replay."""
    from rich.progress import Progress

    from tiergarten.server.storage.records_check import check
    from tiergarten.server.storage.sql_store import SqlStore, database_url
    from tiergarten.server.storage.store import STATUSES, StoreUnavailable

    url = database_url(db)
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
        fail(f"there is no database at {url.removeprefix('sqlite:///')}")  # make none
    try:
        store = SqlStore(db)
    except StoreUnavailable as exc:
        fail(str(exc))
    try:
        ids = store.table_ids(STATUSES)
        with Progress(console=_console(), transient=True) as progress:
            task = progress.add_task("replaying", total=len(ids))
            report = check(ids, store.load_table, lambda: progress.advance(task))
    finally:
        store.close()
    table = Table(title=f"{report.checked} stored tables", title_justify="left")
    for column in ("Game", "Rules", "Replayed"):
        table.add_column(column)
    for (game_id, rules), count in sorted(report.replayed.items()):
        table.add_row(game_id, str(rules), str(count))
    _console().print(table)
    if report.unsettled:
        typer.echo(f"{report.unsettled} of them name no rules version (stored before "
                   "versions were named) and replay under the version shown")
    for finding in report.problems:
        typer.echo(f"table {finding.table} ({finding.game}, {finding.status}) does not "
                   f"replay: {finding.problem}")
    if report.problems:
        typer.echo(f"{len(report.problems)} of {report.checked} tables do not replay")
        raise typer.Exit(1)
    typer.echo(f"every one of the {report.checked} tables replays")


@app.command(name="games")
def list_games() -> None:
    """List the games tiergarten plays."""
    table = Table(title="Games", title_justify="left")
    table.add_column("Id", no_wrap=True, style="bold")
    table.add_column("Title", no_wrap=True)
    table.add_column("Players", no_wrap=True)
    table.add_column("About")
    for game_id in tiergarten.games():
        info = game_class(game_id).info
        table.add_row(game_id, info.title,
                      f"{info.min_players}–{info.max_players} ({info.default_players})",
                      info.summary)
    _console().print(table)


def unwrapped(doc: str) -> str:
    r"""A docstring as help text: paragraphs kept, the lines within each joined (the help
    formatter keeps a docstring's line breaks, which at 80 columns left lines of two words).

    >>> unwrapped("Play a game.\n\n    The screen shows\n    the table.\n    ")
    'Play a game.\n\nThe screen shows the table.'
    """
    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(doc).split("\n\n"))


for _typer in (app, ratings_app, records_app):
    for _command in _typer.registered_commands:
        if _command.help is None and _command.callback is not None and _command.callback.__doc__:
            _command.help = unwrapped(_command.callback.__doc__)


def _version(value: bool) -> None:
    if value:
        rules = ", ".join(f"{g} {game_class(g).info.rules_version}" for g in tiergarten.games())
        typer.echo(f"tiergarten {tiergarten.__version__} (rules: {rules})")
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the release and each game's rules version, and exit.")] = False) -> None:
    """Four family card games for players, bots, researchers and game designers."""


def main() -> None:
    """Entry point of the `tiergarten` script."""
    app()


if __name__ == "__main__":
    main()
