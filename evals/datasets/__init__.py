"""Benchmark dataset loaders.

File resolution (data folder, cache, pinned download with sha256) lives in
:mod:`restgraph.tools.datafiles`, the lowest layer, so agents can read upstream prompt files the same way
the loaders read datasets. It is re-exported here for the loaders' convenience.
"""

from restgraph.tools.datafiles import (
    DATA_DIR_ENV,
    DataFile,
    DatasetUnavailable,
    cache_root,
    data_dir,
    resolve,
    sha256_of,
)

__all__ = ["DATA_DIR_ENV", "DataFile", "DatasetUnavailable", "cache_root", "data_dir", "resolve", "sha256_of"]
