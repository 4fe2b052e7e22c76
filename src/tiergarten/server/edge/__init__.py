"""The web edge: the server's settings, the wire protocol (every websocket message a model,
protocol.py; the one writer of the server's messages, writer.py; the REST bodies and the rule
for names, bodies.py), what one client may cost (limits.py), the security headers, the
cross-site check, logging, the Prometheus metrics, readiness and invite links. It imports
nothing of the rest of the server, so the routes, the cluster and the server's top (app.py,
main.py, which put the parts together) build on it; the tables and the accounts still read
its settings, protocol and metrics, arrows the parts' own interfaces are to take away.
"""
