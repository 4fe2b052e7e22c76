"""Build hook: MammuZ's optional C kernel, compiled into the package when a C compiler is there.

`pip install .` and `pip install -e .` (which `make` runs) build
src/tiergarten/games/mammuz/_kernel.c into the extension module `tiergarten.games.mammuz._kernel`,
inside the package: a wheel carries it as tiergarten/games/mammuz/_kernel.<tag>.so; an editable
install, whose package is src/tiergarten itself, gets it built in place beside the source (git
ignores it; `make` removes and rebuilds it on every reinstall). Should the build fail (no
compiler, no Python headers), the package is pure Python, which plays the same games, only
slower (see docs/games/mammuz.md, "Speed"); set TIERGARTEN_NO_KERNEL=1 to skip the build.
kernel.py decides whether the game uses the kernel.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

KERNEL = "tiergarten.games.mammuz._kernel"
SOURCE = Path("src", "tiergarten", "games", "mammuz", "_kernel.c")


def build_kernel(root: Path, out: Path, temp: Path) -> Path:
    """Compile the kernel from `root`'s source into the package tree under `out` (out/tiergarten/
    games/mammuz/), with its intermediate files in `temp`; returns the extension's path."""
    from setuptools import Distribution, Extension

    dist = Distribution({
        "name": "tiergarten-kernel",
        "ext_modules": [Extension(KERNEL, [str(root / SOURCE)], extra_compile_args=["-O3"])],
        "script_args": ["build_ext", "--build-lib", str(out), "--build-temp", str(temp), "-q"],
    })
    dist.parse_command_line()
    dist.run_commands()
    command: Any = dist.get_command_obj("build_ext")
    return Path(command.get_ext_fullpath(KERNEL))


class KernelHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or os.environ.get("TIERGARTEN_NO_KERNEL"):
            return
        self._temp = Path(tempfile.mkdtemp(prefix="tiergarten-kernel-"))
        root = Path(self.root)
        editable = version == "editable"
        try:  # an editable install runs the package from src/: the kernel goes there
            built = build_kernel(root, root / "src" if editable else self._temp,
                                 self._temp / "tmp")
        except (SystemExit, Exception) as exc:  # distutils reports compiler failures by exiting
            self.app.display_warning(f"tiergarten: MammuZ's C kernel was not built ({exc}); "
                                     "the package is pure Python (the same games, slower)")
            return
        if not editable:
            build_data["force_include"][str(built)] = str(
                Path(*KERNEL.split(".")[:-1], built.name))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        temp = getattr(self, "_temp", None)
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
