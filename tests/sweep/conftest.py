"""Ray in these tests is a one-machine cluster: keep all of its sockets on loopback."""

import os

from restgraph.evals.sweep.ray_executor import LOOPBACK_ONLY_ENV

os.environ.setdefault(*LOOPBACK_ONLY_ENV)
