"""The people and bots who play: accounts (user names, passwords, sessions, seat tokens), the
ratings of accounts per game, and the bots' fixed ratings per level (bot_levels.py, read from
bot_ratings.json). It may import the rules engine, the bots and the server's storage (its
schema and rows), and for now `hash_token` of edge/settings.py; never the tables, the routes,
the cluster or the server's top.
"""
