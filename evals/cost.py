"""What a run costs: a price table for common models and the cost of one episode's tokens.

Why a table here: researchers compare agents by success *per dollar*; the paper's Table 4 reports
cost, and a run that only counts tokens leaves every reader to look prices up. Prices are list
prices in US dollars per million tokens (input, output) as published by the providers in 2025;
they drift, so ``--price IN/OUT`` overrides the table and the price used is written into
``config.json`` (``options.price``) so a report always says which price it applied.

Local (llama.cpp) and scripted models cost nothing; an unknown model has no price (``None``),
which reports show as an empty cell rather than as $0.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

#: $ per 1M tokens (input, output). Keys are matched against the model name after the provider.
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5": (1.25, 10.00),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
    "o3": (2.00, 8.00),
    "gpt-3.5-turbo": (0.50, 1.50),
    "text-davinci-003": (20.00, 20.00),  # the RestGPT paper's model (retired): $0.02 per 1K tokens
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-3-5-sonnet": (3.00, 15.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-opus-4": (15.00, 75.00),
    "gemini-2.0-flash": (0.10, 0.40),
    "gemini-2.5-flash": (0.30, 2.50),
    "gemini-2.5-pro": (1.25, 10.00),
    "mistral-small": (0.10, 0.30),
    "mistral-large": (2.00, 6.00),
}
FREE_PROVIDERS = ("local", "scripted", "replay", "none")


class Price(BaseModel):
    """A price in $ per 1M tokens; persisted in config.json so reports know what was applied."""

    model_config = ConfigDict(extra="forbid")

    input_per_m: float = Field(ge=0)
    output_per_m: float = Field(ge=0)

    @classmethod
    def parse(cls, text: str) -> Price:
        """``"0.15/0.60"`` -> Price; raises ValueError with a one-line reason."""
        left, sep, right = text.partition("/")
        try:
            if not sep:
                raise ValueError
            return cls(input_per_m=float(left), output_per_m=float(right))
        except ValueError:
            raise ValueError(
                f"--price expects IN/OUT dollars per million tokens (e.g. 0.15/0.60), got {text!r}"
            ) from None

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input_per_m + output_tokens * self.output_per_m) / 1e6


def price_for(model: str, override: Price | dict | None = None) -> Price | None:
    """The price of ``model`` (a restgraph model spec such as ``openai:gpt-4o-mini``), or None."""
    if override is not None:
        return override if isinstance(override, Price) else Price.model_validate(override)
    provider, _, name = model.partition(":")
    if provider in FREE_PROVIDERS or model in FREE_PROVIDERS:
        return Price(input_per_m=0.0, output_per_m=0.0)
    name = (name or provider).split("?")[0].lower()
    # longest key first: "gpt-4o-mini" must not be priced as "gpt-4o"
    for key in sorted(PRICES, key=len, reverse=True):
        if name.startswith(key) or f"/{key}" in name:
            return Price(input_per_m=PRICES[key][0], output_per_m=PRICES[key][1])
    return None


def episode_cost(
    model: str, input_tokens: int, output_tokens: int, override: Price | dict | None = None
) -> float | None:
    price = price_for(model, override)
    return None if price is None else round(price.cost(input_tokens, output_tokens), 8)
