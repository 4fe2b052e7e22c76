"""Several `tiergarten serve` processes as one server: Redis for what they share.

- `lease`: who owns a table (a lease with an expiry, renewed by its owner);
- `bus`: the workers' ordered frames over Redis pub/sub;
- `transport`: the owner's `Transport`, reaching connections held by other workers;
- `relay`: a worker's connections to a table another worker owns;
- `remote`: the owner's side of those connections;
- `forward`: REST about another worker's table, run by that worker;
- `adopt`: taking a table over, rebuilt from its log;
- `node`: `Cluster`, all of it wired into one worker.

docs/deploy.md describes the deployment; the table's parts are the same as in one process.
"""

from .node import Cluster
from .settings import ClusterSettings

__all__ = ["Cluster", "ClusterSettings"]
