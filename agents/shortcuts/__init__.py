"""LLM-facing roles of the ShortcutsBench agents."""
