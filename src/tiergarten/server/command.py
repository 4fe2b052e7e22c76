"""`tiergarten serve` and `tiergarten config`: the server's settings as flags.

Every field of `ServerConfig` (server/config.py) is a flag here, made from the model (its
name, help and allowed values), so the flags, the `TIERGARTEN_*` variables and the docs can
never drift apart. A flag only says that it was given: the model checks every value, the
environment's and the flags' alike, and a bad one stops the command before anything is served
(one line per problem on stderr, exit 2). `python -m tiergarten.server` is the same `serve`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Annotated, Any, NoReturn

import typer

from .config import ConfigError, ServerConfig, allowed, env_name, flags_of

EXIT_USAGE = 2


def fail(message: str) -> NoReturn:
    """Each line of `message` as one `error:` line on stderr; exit 2."""
    for line in message.splitlines():
        typer.echo(f"error: {' '.join(line.split())}", err=True)
    raise typer.Exit(EXIT_USAGE)


def load(values: dict[str, Any]) -> ServerConfig:
    """The configuration from the environment and the flags given, or exit 2 saying why."""
    try:
        return ServerConfig.load(values)
    except ConfigError as exc:
        fail(str(exc))


def _default(name: str) -> str:
    default = ServerConfig.model_fields[name].default
    if default is None:
        return "none"
    if isinstance(default, bool):
        return "true" if default else "false"
    return f"{default:g}" if isinstance(default, float) else str(default)


def _parameters() -> list[inspect.Parameter]:
    """One keyword parameter per setting, as typer reads them (default None: not given)."""
    out = []
    for name, field in ServerConfig.model_fields.items():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        panel = ServerConfig.GROUPS[str(extra["group"])]
        doc = f"{field.description} [{env_name(name)}; default {_default(name)}]"
        flags = flags_of(name)
        if field.annotation is bool:
            decl = f"{flags[0]}/--no-{flags[0][2:]}"
            option: Any = typer.Option(decl, help=doc, rich_help_panel=panel, show_default=False)
            annotation: Any = Annotated[bool, option]
        else:
            option = typer.Option(*flags, help=doc, rich_help_panel=panel, show_default=False,
                                  metavar=_metavar(name))
            annotation = Annotated[str | None, option]
        out.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                     annotation=annotation))
    return out


def _metavar(name: str) -> str:
    said = allowed(name)
    if name == "log_level":
        return "LEVEL"
    if said.startswith("one of "):
        return "|".join(said.removeprefix("one of ").split(", ")).upper()
    if "seconds" in said:
        return "SECONDS"
    if said.startswith(("a whole number", "a number")):
        return "N" if "whole" in said else "X"
    return "URL" if "URL" in said or "://" in said else "TEXT"


def _with_settings(function: Callable[..., None], extra: Sequence[inspect.Parameter] = ()
                   ) -> Callable[..., None]:
    function.__signature__ = inspect.Signature([*extra, *_parameters()])  # type: ignore[attr-defined]
    return function


def _serve(**values: Any) -> None:
    """Serve tables in the browser and over websockets (Ctrl-C stops).

    Every setting is a flag and a TIERGARTEN_* environment variable (the flag wins); a
    TIERGARTEN_* variable that is no setting, or a value that is not allowed, stops it before
    it serves, saying which and what is allowed. `tiergarten config` prints the settings in
    effect; docs/deploy.md lists them all.
    """
    from . import main

    config = load(values)
    try:
        main.serve(config)
    except ValueError as exc:  # what only the machine can say (LAN mode without a network)
        fail(str(exc))


def _config(markdown: bool = False, **values: Any) -> None:
    """Print the settings `tiergarten serve` would run with, as TIERGARTEN_NAME=value lines
    (an environment file), each with where its value came from (flag, environment or
    default); passwords and keys masked. It checks them as serve does: exit 2 saying what is
    wrong."""
    from .config import markdown as table

    if markdown:
        typer.echo(table(), nl=False)
        return
    typer.echo(load(values).env_file())


_MARKDOWN = inspect.Parameter(
    "markdown", inspect.Parameter.KEYWORD_ONLY, default=False,
    annotation=Annotated[bool, typer.Option("--markdown", help="Print the table of every "
                                            "setting that docs/deploy.md holds instead.")])

serve = _with_settings(_serve)
config = _with_settings(_config, [_MARKDOWN])


def _app(command: Callable[..., None]) -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    doc = inspect.cleandoc(command.__doc__ or "")
    app.command(help="\n\n".join(" ".join(p.split()) for p in doc.split("\n\n")))(command)
    return app


def run(name: str, args: Sequence[str]) -> None:
    """Run `tiergarten NAME ARGS...` (serve or config)."""
    command = {"serve": serve, "config": config}[name]
    typer.main.get_command(_app(command)).main(list(args), prog_name=f"tiergarten {name}")
