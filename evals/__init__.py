"""Evaluation side: datasets, the episode runner, traces, scorers, reports and the CLI."""
