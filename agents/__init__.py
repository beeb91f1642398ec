"""LLM-facing roles (prompts, structured outputs, parsing) and the model factory."""
