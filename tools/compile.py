"""Compile the hot rules modules listed in `tiergarten.core.native.COMPILED`: the Python ones
with mypyc, the C helpers with the C compiler.

    .venv/bin/python tools/compile.py      # what `make` runs when one of their sources changed

Builds extension modules next to the sources (src/tiergarten/...; git-ignored) and a manifest of
the hashes of the package's sources as they were when the build began, without which
`tiergarten.core.native.load` keeps using the sources. A
failed build (no C compiler, say) removes the manifest and leaves pure Python, which is correct,
only slower; the exit status says so.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
TEMP = ROOT / "build" / "native"
sys.path.insert(0, str(SRC))

from tiergarten.core.native import COMPILED, MANIFEST, source_hashes  # noqa: E402


def main() -> int:
    from mypyc.build import mypycify
    from setuptools import Distribution, Extension

    folders = {package: SRC.joinpath(*package.split(".")) for package in COMPILED}
    for folder in folders.values():  # no build from an earlier list of modules stays behind
        (folder / MANIFEST).unlink(missing_ok=True)
        for old in folder.glob("*.so"):
            old.unlink()
    for old in SRC.glob("tiergarten_native__mypyc*.so"):
        old.unlink()
    paths = [str((folders[p] / name).relative_to(ROOT))
             for p, sources in COMPILED.items() for name in sources]
    built_from = {p: source_hashes(folder) for p, folder in folders.items()}  # before building
    try:
        extensions = mypycify([path for path in paths if path.endswith(".py")], opt_level="3",
                              group_name="tiergarten_native", target_dir=str(TEMP / "c"))
        extensions += [Extension(f"{p}.{name[:-2]}", [str(folders[p] / name)],
                                 extra_compile_args=["-O3"])
                       for p, sources in COMPILED.items() for name in sources
                       if name.endswith(".c")]
        dist = Distribution({"ext_modules": extensions, "package_dir": {"": "src"},
                             "script_args": ["build_ext", "--inplace", "--build-temp",
                                             str(TEMP / "o"), "-q"]})
        dist.parse_command_line()
        dist.run_commands()
    except (SystemExit, Exception) as exc:  # distutils reports compiler failures by exiting
        print(f"tools/compile.py: could not compile ({exc}); MammuZ runs as pure Python",
              file=sys.stderr)
        return 1
    for package, hashes in built_from.items():
        (folders[package] / MANIFEST).write_text(json.dumps(hashes, indent=1))
    shutil.rmtree(TEMP / "o", ignore_errors=True)
    print("compiled:", ", ".join(paths))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
