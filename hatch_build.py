"""Build hook: MammuZ's optional C kernel, compiled into the wheel when a C compiler is there.

`pip install .` and `pip install -e .` (which `make` runs) build
src/tiergarten/games/mammuz/_gather.c into the top-level extension module `_tiergarten_mammuz`
and put it in the wheel (for an editable install too: it then sits in site-packages, never in
src/). Should the build fail (no compiler, no Python headers), the wheel is pure Python, which
plays the same games, only slower (see docs/games/mammuz.md, "Speed"); set
TIERGARTEN_NO_KERNEL=1 to skip the build.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

KERNEL = "_tiergarten_mammuz"
SOURCE = Path("src", "tiergarten", "games", "mammuz", "_gather.c")


def build_kernel(root: Path, out: Path) -> Path:
    """Compile the kernel from `root`'s source into `out`; returns the extension's path."""
    from setuptools import Distribution, Extension

    dist = Distribution({
        "name": KERNEL,
        "ext_modules": [Extension(KERNEL, [str(root / SOURCE)], extra_compile_args=["-O3"])],
        "script_args": ["build_ext", "--build-lib", str(out), "--build-temp", str(out / "tmp"),
                        "-q"],
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
        try:
            built = build_kernel(Path(self.root), self._temp)
        except (SystemExit, Exception) as exc:  # distutils reports compiler failures by exiting
            self.app.display_warning(f"tiergarten: MammuZ's C kernel was not built ({exc}); "
                                     "the package is pure Python (the same games, slower)")
            return
        where = "force_include_editable" if version == "editable" else "force_include"
        build_data[where][str(built)] = built.name
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        temp = getattr(self, "_temp", None)
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
