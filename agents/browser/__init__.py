"""LLM-facing roles of the browsing agent: the policy (one action per step), the closed-book
answerer, answer formatting for the AssistantBench scorer, and the scripted oracle."""
