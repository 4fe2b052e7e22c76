"""Every game tiergarten plays, found by convention: each package here is one game, its name is
the game's id and it exports `GAME`, the game's class. A new game adds its package and edits no
table; its module loads when the game is first used.

The package is also what `tiergarten.games()` calls: one name for one thing, so both
`tiergarten.games()` (the ids) and `import tiergarten.games.maumau.state` work.

>>> import tiergarten, tiergarten.games.mammuz.state as mammuz_state
>>> tiergarten.games() == tiergarten.core.games(), mammuz_state.__name__
(True, 'tiergarten.games.mammuz.state')
"""

import pkgutil
import sys
import types

from tiergarten.core import games, register


class CallablePackage(types.ModuleType):
    """This package, callable: `tiergarten.games()` lists the registered game ids, sorted."""

    def __call__(self) -> tuple[str, ...]:
        return games()


sys.modules[__name__].__class__ = CallablePackage

for _found in pkgutil.iter_modules(__path__):
    if _found.ispkg and not _found.name.startswith("_"):
        register(_found.name, f"{__name__}.{_found.name}:GAME")
