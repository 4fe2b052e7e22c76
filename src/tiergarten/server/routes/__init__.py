"""The server's routes by topic, one `APIRouter` each; `create_app` (server/app.py) includes
them all. Each finds the table manager the app was started with (`deps.Tables`).

- `health`: is the server up, and which protocol it speaks;
- `games`: every game with its options and bots;
- `lobby`: tables to create, find and show; seats to join and leave; rematches;
- `invite`: a table's invite link and its QR code (server/edge/invite.py);
- `records`: a table's record and the replay of a finished game;
- `hints`: advice for a seat (the game's adviser in tiergarten.bots);
- `players`: leaderboards and profiles (server/players/ratings.py);
- `tutorials`: guided first games (server/table/tutorial.py);
- `account`: sign up, in and out; the seats that follow a signed-in player;
- `lab`: the lab in the browser: simulation runs, queued and bounded (server/lab);
- `play`: the websocket of one connection to a table;
- `uploads`: a game played offline joins the player's history, unrated;
- `offline`: the engine zip and the files the service worker keeps (server/offline.py);
- `quickmatch`: "Play now": the queue that pairs people by rating (server/players/quickmatch.py);
- `ops`: `/healthz`, `/readyz` and `/metrics` for operators.
"""

from __future__ import annotations

from fastapi import APIRouter

from . import (
    account,
    games,
    health,
    hints,
    invite,
    lab,
    lobby,
    offline,
    ops,
    play,
    players,
    quickmatch,
    records,
    tutorials,
    uploads,
)

ROUTERS: tuple[APIRouter, ...] = (health.router, games.router, lobby.router, invite.router,
                                  records.router, hints.router, account.router, players.router,
                                  tutorials.router, lab.router, play.router, offline.router,
                                  uploads.router, quickmatch.router, ops.router)
