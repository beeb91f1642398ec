"""Notebook execution tests."""
