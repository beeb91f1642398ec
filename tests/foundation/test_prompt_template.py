"""One strict way to fill prompts: a placeholder without a value, or a value the template never
uses, is an error naming them - never a ``$typo`` left in the prompt - in each syntax authors use."""

from __future__ import annotations

import pytest

from restgraph.agents.prompt_template import TemplateError, fill, placeholders
from restgraph.agents.restgpt.config import RestGPTConfig
from restgraph.agents.restgpt.templates import render


def test_format_syntax_fills_like_str_format_so_upstream_texts_render_exactly() -> None:
    upstream = 'Reply as JSON: {{"plan": "..."}}\nQuery: {query}\nHistory: {history}\n'
    assert fill(upstream, {"query": "q", "history": "h"}) == upstream.format(query="q", history="h")
    assert 'JSON: {"plan": "..."}' in fill(upstream, {"query": "q", "history": "h"})
    assert placeholders("{a.b} {c[0]} {{d}}") == {"a", "c"}


@pytest.mark.parametrize(
    ("template", "syntax", "values", "message"),
    [
        ("Query: {query} {typo}", "format", {"query": "q"}, "{typo} have no value"),
        ("Query: $query $typo", "dollar", {"query": "q"}, "$typo have no value"),
        ("Query: <<query>> <<typo>>", "angle", {"query": "q"}, "<<typo>> have no value"),
        ("Query: {query}", "format", {"query": "q", "history": "h"}, "history have no placeholder"),
        ('Reply {"a": 1}', "format", {}, "literal braces as {{ and }}"),
        ("Pay $5 now", "dollar", {}, "doubled as $$"),
        ("Say {}", "format", {}, "name every placeholder"),
    ],
)
def test_unknown_or_missing_placeholders_raise_with_both_sides_named(
    template: str, syntax: str, values: dict, message: str
) -> None:
    with pytest.raises(TemplateError) as info:
        fill(template, values, syntax=syntax, name="demo")
    assert message in str(info.value)


def test_angle_syntax_fills_in_one_pass() -> None:
    # a value that itself contains a placeholder is inserted as is, not filled again
    assert fill("<<a>>|<<b>>", {"a": "<<b>>", "b": "B"}, syntax="angle") == "<<b>>|B"
    assert fill("x", {"extra": 1}, syntax="angle", optional=["extra"]) == "x"


def test_restgpt_templates_reject_a_typo_in_an_override_instead_of_sending_it() -> None:
    shipped = render("planner", examples="EX", scenario="tmdb")
    assert "EX" in shipped and "$" not in shipped.replace("$$", "")
    fewer = RestGPTConfig(prompts={"planner": "Plan for $scenario_name."})
    assert (
        render("planner", fewer, examples="EX", scenario="tmdb") == "Plan for TMDB (The Movie Database)."
    )  # may use fewer
    typo = RestGPTConfig(prompts={"planner": "Plan with $exampels."})
    with pytest.raises(TemplateError, match=r"'planner': placeholder\(s\) \$exampels have no value"):
        render("planner", typo, examples="EX", scenario="tmdb")
