"""Every game tiergarten plays, registered by id; each game's module loads when first used.

The package is also what `tiergarten.games()` calls: one name for one thing, so both
`tiergarten.games()` (the ids) and `import tiergarten.games.maumau.state` work.

>>> import tiergarten, tiergarten.games.mammuz.state as mammuz_state
>>> tiergarten.games() == tiergarten.core.games(), mammuz_state.__name__
(True, 'tiergarten.games.mammuz.state')
"""

import sys
import types

from tiergarten.core import games, register


class CallablePackage(types.ModuleType):
    """This package, callable: `tiergarten.games()` lists the registered game ids, sorted."""

    def __call__(self) -> tuple[str, ...]:
        return games()


sys.modules[__name__].__class__ = CallablePackage

register("maumau", "tiergarten.games.maumau:MauMau")
register("mammuz", "tiergarten.games.mammuz:MammuZ")
register("mucca_pazza", "tiergarten.games.mucca_pazza:MuccaPazza")
register("lecker_mammut", "tiergarten.games.lecker_mammut:LeckerMammut")
