"""What the browser needs to play with no server: the engine as one zip, and the list of every
file the service worker keeps (docs/web.md, "Offline").

- The engine zip holds `tiergarten/__init__.py`, `core`, `games`, `bots` and `offline` (the
  local table), standard library only, built from the package's own sources when first asked
  for (never a copy in the repository); its URL names its content's hash, so a new release is
  a new URL and a browser's copy never goes stale.
- `offline/manifest.json` names the engine's URL, a version (the hash of every file listed)
  and every file of the client: the page, scripts, styles, each game's parts, the catalogues,
  the icons and Pyodide (`web/offline/pyodide/`, copied there from the npm package by `make`).
"""

from __future__ import annotations

import functools
import hashlib
import io
import mimetypes
import zipfile
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent  # src/tiergarten
ENGINE_PARTS = ("core", "games", "bots", "offline")
PYODIDE = "offline/pyodide/"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
for _type, _suffix in (("text/javascript", ".mjs"), ("application/wasm", ".wasm"),
                      ("application/manifest+json", ".webmanifest")):
    mimetypes.add_type(_type, _suffix)  # served with these (nosniff: nothing else would do)
SKIPPED = {".map", ".pyc", ".so", ".c", ".stamp"}  # never needed by the page


def _engine_sources() -> list[Path]:
    files = [PACKAGE / "__init__.py"]
    for part in ENGINE_PARTS:
        files += sorted(p for p in (PACKAGE / part).rglob("*.py") if "__pycache__" not in p.parts)
    return files


@functools.cache
def engine() -> tuple[bytes, str]:
    """The engine zip's bytes and its name (`engine-<hash>.zip`), the same for the same
    sources (fixed timestamps, sorted)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in _engine_sources():
            info = zipfile.ZipInfo("tiergarten/" + path.relative_to(PACKAGE).as_posix(),
                                   date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, path.read_bytes())
    data = buffer.getvalue()
    return data, f"engine-{hashlib.sha256(data).hexdigest()[:16]}.zip"


_DIGESTS: dict[Path, tuple[int, int, bytes]] = {}  # a file's mtime, size and sha-256


def _digest(path: Path) -> bytes:
    """A file's sha-256, hashed again only when its time or size changed (the manifest is asked
    for on every page load online; Pyodide alone is 13 MB)."""
    stat = path.stat()
    kept = _DIGESTS.get(path)
    if kept is None or kept[:2] != (stat.st_mtime_ns, stat.st_size):
        kept = (stat.st_mtime_ns, stat.st_size, hashlib.sha256(path.read_bytes()).digest())
        _DIGESTS[path] = kept
    return kept[2]


def manifest(web: Path) -> dict[str, Any]:
    """Every file the service worker keeps, under the page's folder, and their version."""
    digest = hashlib.sha256()
    files = ["./"]
    for path in sorted(p for p in web.rglob("*") if p.is_file()):
        rel = path.relative_to(web).as_posix()
        if path.suffix in SKIPPED or rel == "sw.js" or rel == "index.html" or (
                rel.startswith(PYODIDE) and path.name not in PYODIDE_FILES):
            continue
        files.append(rel)
        digest.update(rel.encode() + b"\0" + _digest(path))
    _, name = engine()
    digest.update(name.encode())
    digest.update(_digest(web / "index.html"))
    engine_url = f"offline/{name}"
    return {"version": digest.hexdigest()[:16], "engine": engine_url, "pyodide": PYODIDE,
            "ready": all((web / PYODIDE / f).is_file() for f in PYODIDE_FILES),
            "files": [*files, engine_url]}
