"""Benchmark-specific reports (tables and figures beyond the generic ``restgraph report``)."""
