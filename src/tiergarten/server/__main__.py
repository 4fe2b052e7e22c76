"""`python -m tiergarten.server`: run the server, the same flags as `tiergarten serve`."""

import sys

from .command import run

run("serve", sys.argv[1:])
