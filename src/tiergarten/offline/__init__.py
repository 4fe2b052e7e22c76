"""Play without a server: the tables of one device, answering the browser client exactly as the
server does (docs/protocol.md), built from the engine alone. Standard library only: the browser
runs it in Pyodide, in a Web Worker (docs/web.md, "Offline").

>>> import json
>>> from tiergarten.offline import LocalServer
>>> class Heard:
...     def __init__(self): self.said = []
...     def deliver(self, conn, text): self.said.append(json.loads(text)["type"])
...     def close(self, conn, code, reason): pass
...     def saved(self, table, text): pass
>>> heard = Heard()
>>> local = LocalServer(heard, schedule=lambda delay, fire: None, now=lambda: 0.0)
>>> answer = json.loads(local.request("POST", "/api/tables", json.dumps(
...     {"game": "maumau", "players": 2, "seats": [None, {"bot": "easy"}]})))
>>> answer["status"], answer["data"]["status"], answer["data"]["id"].startswith("local-")
(201, 'open', True)
>>> table = answer["data"]["id"]
>>> joined = json.loads(local.request("POST", f"/api/tables/{table}/join",
...                                   json.dumps({"name": "Ann"})))["data"]
>>> conn = local.connect(table, joined["token"])
>>> heard.said
['hello', 'table', 'state', 'chat_log']
"""

from .facts import describe_game, replay_steps
from .table import PREFIX, LocalServer, Refused, Transport, finished

__all__ = ["PREFIX", "LocalServer", "Refused", "Transport", "describe_game", "finished",
           "replay_steps"]
