"""Every game tiergarten plays, registered by id; each game's module loads when first used."""

from tiergarten.core import register

register("maumau", "tiergarten.games.maumau:MauMau")
register("mammuz", "tiergarten.games.mammuz:MammuZ")
register("mucca_pazza", "tiergarten.games.mucca_pazza:MuccaPazza")
register("lecker_mammut", "tiergarten.games.lecker_mammut:LeckerMammut")
