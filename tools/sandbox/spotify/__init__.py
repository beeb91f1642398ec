"""Spotify sandbox for RestBench: catalogue, per-token state, the 40-operation FastAPI app (``app.create_app``),
reference solutions. Predicates live in ``evals/scorers/spotify*.py``."""
