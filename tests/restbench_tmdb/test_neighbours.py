"""Search neighbours at the real API's scale for people and collections (``padding/families.py``,
``padding/franchises.py``), sized by the stated estimate of ``realtotals.py``: a partial name or one
name word fills pages, a full name finds a handful, a franchise several collections; the authored
entity the reference solutions pick (``results.0``) stays first, and misspellings are still refused."""

from __future__ import annotations

import pytest

from restgraph.tools.sandbox.tmdb.db import get_db, get_facts_db
from restgraph.tools.sandbox.tmdb.derive import normalise
from restgraph.tools.sandbox.tmdb.finders import _index
from restgraph.tools.sandbox.tmdb.padding.entities import is_generated
from restgraph.tools.sandbox.tmdb.realtotals import estimate


def _search(client, kind: str, query: str, page: int = 1) -> dict:
    response = client.get(f"/3/search/{kind}", params={"query": query, "page": page})
    assert response.status_code == 200, response.text
    return response.json()


def test_a_partial_name_fills_pages_and_the_person_stays_first(client, schema_errors):
    one, two = _search(client, "person", "Tony Leung"), _search(client, "person", "Tony Leung", 2)
    assert not schema_errors("/search/person", 200, one)
    assert len(one["results"]) == 20 and one["total_pages"] > 1 and one["total_results"] > 20
    assert one["results"][0]["id"] == 1337 and one["results"][0]["name"] == "Tony Leung Chiu-wai"
    names = [p["name"] for p in one["results"] + two["results"]]
    assert all(
        {"tony", "leung"} <= set(normalise(n).split()) for n in names
    )  # word-AND: a family of names, not every Tony or every Leung
    assert (
        sum(n != "Tony Leung Chiu-wai" and "-" in n.split()[-1] for n in names) >= 10
    )  # Tony Leung Ka-fai, Tony Leung Siu-hung, ...
    assert not {p["id"] for p in one["results"]} & {p["id"] for p in two["results"]} and two["page"] == 2
    francis = _search(client, "person", "Francis Coppola")  # less a middle name
    assert francis["results"][0]["name"] == "Francis Ford Coppola" and francis["total_pages"] > 1


def test_one_name_word_fills_pages_with_the_authored_people_first(client):
    body = _search(client, "person", "Coppola")
    assert len(body["results"]) == 20 and body["total_pages"] > 1
    firsts = [p["id"] for p in body["results"][:2]]
    assert sorted(firsts) == [1769, 1776]  # Sofia and Francis Ford Coppola, then the generated sharers
    assert all(is_generated(p["id"]) for p in body["results"][2:])
    assert all("coppola" in normalise(p["name"]).split() for p in body["results"])


def test_a_full_name_finds_a_handful_with_the_person_first(client):
    for query, pid in (("Christopher Nolan", 525), ("Leonardo DiCaprio", 6193), ("Sofia Coppola", 1769)):
        body = _search(client, "person", query)
        assert body["results"][0]["id"] == pid, query
        assert 3 <= body["total_results"] < 20, (
            query,
            body["total_results"],
        )  # a rare full name really is rare


def test_a_franchise_finds_several_collections_the_authored_one_first(client, schema_errors):
    for query, cid in (
        ("Star Wars", 10),
        ("Harry Potter", 1241),
        ("The Dark Knight", 263),
        ("The Hobbit", 121938),
    ):
        body = _search(client, "collection", query)
        assert not schema_errors("/search/collection", 200, body)
        assert body["results"][0]["id"] == cid and 3 <= body["total_results"] < 20, (
            query,
            body["total_results"],
        )
        assert all(
            is_generated(c["id"]) and normalise(query) in normalise(c["name"]) for c in body["results"][1:]
        )
    assert _search(client, "collection", "Star Wars", 2)["results"] == []


def test_a_company_search_lists_its_arms_after_the_company(client):
    body = _search(client, "company", "universal pictures")
    assert body["results"][0]["name"] == "Universal Pictures" and not is_generated(body["results"][0]["id"])
    assert 12 <= body["total_results"] <= 24  # the spec's captured 'Sony Pictures': 19
    assert all(
        is_generated(c["id"]) and c["name"].startswith("Universal Pictures ") for c in body["results"][1:]
    )


def test_generated_collections_hold_generated_films_only(client):
    facts, served = get_facts_db(), get_db()
    assert len(served.collections) > 2 * len(facts.collections)
    for mid in facts.movies:
        assert (
            served.collection_of(mid).id == facts.collection_of(mid).id
            if facts.collection_of(mid)
            else served.collection_of(mid) is None
        )
    for cid, c in served.collections.items():
        if is_generated(cid):
            assert c.parts and all(is_generated(m) and served.movies[m].collection == cid for m in c.parts)
            detail = client.get(f"/3/collection/{cid}").json()
            assert [p["id"] for p in detail["parts"]] == c.parts


def test_misspelt_names_are_still_refused(client):
    for kind, query in (
        ("person", "Tony Leng"),
        ("person", "Copolla"),
        ("collection", "Star Wors"),
        ("collection", "Hary Potter"),
    ):
        assert _search(client, kind, query)["results"] == [], (kind, query)


@pytest.mark.parametrize("kind", ["person", "collection", "company"])
def test_no_neighbour_outranks_an_authored_entity_on_its_partial_names(kind):
    """Every authored name less one word, and every single word of it: the facts world's first hit stays first."""
    facts, served = get_facts_db(), get_db()
    table = {"person": facts.people, "collection": facts.collections, "company": facts.companies}[kind]
    for item in table.values():
        words = item.name.split()
        for query in {" ".join(words[:i] + words[i + 1 :]) for i in range(len(words))} | set(words):
            before = _index(facts, kind).search(query)
            if before:
                after = _index(served, kind).search(query)
                assert after[0].id == before[0].id, (kind, query, after[0].name)
                assert [x.id for x in after if not is_generated(x.id)] == [x.id for x in before], (
                    kind,
                    query,
                )


def test_the_estimate_decides_which_searches_fill_a_page():
    assert estimate(
        "person", "Tony Leung", ["tony leung chiu wai"]
    ).fills_page  # a partial name: a family of names
    assert estimate("person", "Coppola", ["sofia coppola"]).fills_page  # one name word
    assert not estimate("person", "Christopher Nolan", ["christopher nolan"]).fills_page  # a full name
    assert not estimate(
        "collection", "The Fast and the Furious", ["the fast and the furious collection"]
    ).fills_page  # the spec's capture: 1
    assert (
        estimate("movie", "Titanic", ["titanic"]).fills_page
        and not estimate("tv", "Game of Thrones", ["game of thrones"]).fills_page
    )


def test_normalise_folds_accented_and_plain_text_alike():
    """ASCII text skips the accent pass (start-up, issue 30): both spellings fold to one form."""
    for text in ("Véronique & Co’s “Amélie”", 'Veronique & Co\'s "Amelie"', "VERONIQUE AND COS AMELIE"):
        assert normalise(text) == "veronique and cos amelie", text
    assert normalise("Ｆｉｎａｌ ﬁlm Ⅻ") == "final film xii"  # NFKD compatibility forms, not ASCII
    assert normalise("千と千尋の神隠し") == "千と千尋の神隠し" and normalise(" -- ") == ""
