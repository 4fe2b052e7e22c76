"""The release number is said once and agrees everywhere: the package, pyproject.toml and the
newest CHANGELOG.md entry; every rules version after the first is named in the changelog and
on its game's page."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import tiergarten
from tiergarten.core import game_class

ROOT = Path(__file__).resolve().parents[2]
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_the_version_is_the_same_in_the_package_pyproject_and_the_changelog() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", CHANGELOG, re.M)
    assert releases, "CHANGELOG.md has no release headings"
    assert tiergarten.__version__ == project["version"] == releases[0]
    assert releases == sorted(releases, key=lambda v: tuple(map(int, v.split("."))),
                              reverse=True), "newest first"


@pytest.mark.parametrize("game_id", tiergarten.games())
def test_every_rules_version_is_in_the_changelog_and_on_the_game_page(game_id: str) -> None:
    info = game_class(game_id).info
    page = (ROOT / "docs" / "games" / f"{game_id}.md").read_text(encoding="utf-8")
    assert "## Rules versions" in page
    for version in info.rules:
        assert re.search(rf"^\| {version.number} \| ", page, re.M), (game_id, version.number)
        if version.number > 1:
            assert f"{info.title} rules {version.number}" in CHANGELOG, (game_id, version)
