"""LangGraph wiring: one builder per agent, and the registry from agent name to builder."""
