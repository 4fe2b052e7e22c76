"""The live table and its parts: `LiveTable` (tables.py) wired from its log, seats, bot driver,
fair queue, chat, clock and tutorial coach; a table's connections (`Connection`, and the
`Transport` they are reached through); the `TableManager` that creates, finds, recovers and
stops the tables of one process; replaying a stored game step by step, and the answer for a
table that no rules version replays. It may import the rules engine, the bots and the
server's storage, and for now the settings, the wire protocol and the metrics of edge/; never
the players, the routes, the cluster or the server's top (app.py, main.py).
"""
