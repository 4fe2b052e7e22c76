"""`python -m tiergarten.server`: run the server (see `tiergarten.server.main`)."""

from .main import main

main()
