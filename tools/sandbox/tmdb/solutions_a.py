"""Reference solutions for RestBench TMDB queries 1-50 (see ``reference`` for the format)."""

from __future__ import annotations

from restgraph.tools.sandbox.tmdb import views as v
from restgraph.tools.sandbox.tmdb.reference import (
    Solution,
    all_of,
    any_of,
    call,
    cast_names,
    crew_names,
    date,
    directed_by_date,
    directors,
    image_url,
    latest,
    lead,
    movie_image_facts,
    names,
    number,
    paths,
    place,
    review_facts,
    review_text,
    text,
    title,
)

SM, ST, SP, SC, SCO = "/search/movie", "/search/tv", "/search/person", "/search/collection", "/search/company"


def _directed_count(r):
    films = {c["id"]: c["title"] for c in r[1]["crew"] if c["job"] == "Director"}
    return f"Sofia Coppola has directed {len(films)} movies: {', '.join(films.values())}."


def _latest_directed(r, who):
    film = latest([c for c in r[1]["crew"] if c["job"] == "Director"])
    return f"The latest movie directed by {who} is {film['title']} ({film['release_date']})."


def _best_directed(r):
    film = max((c for c in r[1]["crew"] if c["job"] == "Director"), key=lambda c: c["vote_average"])
    return f"The highest rated movie directed by Martin Scorsese is {film['title']} (rating {film['vote_average']})."


def _release(r, i, label):
    rows = [
        f"{c['iso_3166_1']}: {d['release_date'][:10]}" for c in r[i]["results"] for d in c["release_dates"]
    ]
    return f"{label} release dates: " + "; ".join(rows[:10])  # the first ten (countries in TMDB's order)


def _collection_first_date(db, cid):
    return min(db.movies[m].release_date for m in db.collections[cid].parts)


def _latest_any(db, pid, media="movie"):
    ids = {c.media_id for c in db.credits[pid] if c.media_type == media}
    table = db.movies if media == "movie" else db.shows
    return max(ids, key=lambda i: getattr(table[i], "release_date", None) or table[i].first_air_date)


S: dict[int, Solution] = {
    1: Solution(
        [call(SP, query="Sofia Coppola"), call("/person/1769/movie_credits")],
        _directed_count,
        lambda db: all_of(number(len(db.directed(1769)))),
    ),
    2: Solution(
        [call(SM, query="The Dark Knight"), call("/movie/155/credits")],
        lambda r: f"The lead actor of The Dark Knight is {lead(r[1])}.",
        lambda db: all_of(text(cast_names(db, db.movies[155].cast)[0])),
    ),
    3: Solution(
        [call("/movie/top_rated"), call("/movie/238/credits")],
        lambda r: (
            f"The top-1 rated movie is {r[0]['results'][0]['title']}, directed by {', '.join(directors(r[1]))}."
        ),
        lambda db: any_of(text(n) for n in crew_names(db, db.movies[db.lists.movie_top_rated[0]].crew)),
    ),
    4: Solution(
        [call(SC, query="Star Wars"), call("/collection/10/images")],
        lambda r: f"An image of the Star Wars collection: {image_url(r[1]['posters'][0]['file_path'])}",
        lambda db: any_of(paths(v.collection_images(10)["posters"] + v.collection_images(10)["backdrops"])),
    ),
    5: Solution(
        [call(SCO, query="Walt Disney"), call("/company/2/images")],
        lambda r: f"The logo of {r[0]['results'][0]['name']}: {image_url(r[1]['logos'][0]['file_path'])}",
        lambda db: any_of(
            f
            for c in db.companies.values()
            if "walt disney" in c.name.lower()
            for f in paths(v.company_logos(c.id))
        ),
    ),
    6: Solution(
        [call(SM, query="Titanic"), call("/movie/597/credits"), call("/person/6193/images")],
        lambda r: (
            f"The lead actor of Titanic is {lead(r[1])}; here is a photo: {image_url(r[2]['profiles'][0]['file_path'])}"
        ),
        lambda db: any_of(paths(v.person_images(db.people[db.movies[597].cast[0][0]])["profiles"])),
    ),
    7: Solution(
        [call(SM, query="Titanic"), call("/movie/597/similar"), call("/movie/676/reviews")],
        lambda r: f"Reviews of {r[1]['results'][0]['title']}: {review_text(r[2])}",
        lambda db: any_of(review_facts(db.movies[db.movies[597].similar[0]].reviews)),
    ),
    8: Solution(
        [call(SM, query="Titanic"), call("/movie/597/recommendations")],
        lambda r: f"If you liked Titanic, try: {names(r[1]['results'])}.",
        lambda db: any_of(title(db.movies[i].title) for i in db.movies[597].recommendations),
    ),
    9: Solution(
        [call(SP, query="Christopher Nolan"), call("/person/525/movie_credits")],
        lambda r: _latest_directed(r, "Christopher Nolan"),
        lambda db: all_of(title(db.movies[directed_by_date(db, 525)[-1]].title)),
    ),
    10: Solution(
        [call(SP, query="Martin Scorsese"), call("/person/1032/movie_credits")],
        _best_directed,
        lambda db: all_of(
            title(db.movies[max(db.directed(1032), key=lambda i: db.movies[i].vote_average)].title)
        ),
    ),
    11: Solution(
        [
            call(SP, query="Leonardo DiCaprio"),
            call("/person/6193/movie_credits"),
            call("/movie/466420/credits"),
        ],
        lambda r: (
            f"Leonardo DiCaprio's latest movie is {latest(r[1]['cast'])['title']}, directed by {', '.join(directors(r[2]))}."
        ),
        # the latest credit is not yet released at the freeze date; the latest released one is accepted too
        lambda db: any_of(
            text(n)
            for mid in (
                _latest_any(db, 6193),
                max(
                    (
                        c.media_id
                        for c in db.credits[6193]
                        if c.media_type == "movie"
                        and db.movies[c.media_id].release_date <= db.lists.frozen_at
                    ),
                    key=lambda i: db.movies[i].release_date,
                ),
            )
            for n in crew_names(db, db.movies[mid].crew)
        ),
    ),
    12: Solution(
        [call(SP, query="Catherine Hardwicke"), call("/person/9100007/tv_credits")],
        lambda r: (
            f"A TV show recently directed by Catherine Hardwicke: {latest(r[1]['crew'], 'first_air_date')['name']}."
        ),
        lambda db: all_of(
            title(
                db.shows[
                    max(
                        (c.media_id for c in db.credits[9100007] if c.media_type == "tv" and c.job),
                        key=lambda i: db.shows[i].first_air_date,
                    )
                ].name
            )
        ),
    ),
    13: Solution(
        [call(ST, query="Breaking Bad"), call("/tv/1396/recommendations")],
        lambda r: f"Shows like Breaking Bad: {names(r[1]['results'], 'name')}.",
        lambda db: any_of(title(db.shows[i].name) for i in db.shows[1396].recommendations),
    ),
    # /trending/all/day, not /trending/movie/day: RestGPT's end-anchored matcher (spec 3.3) reads the latter as GET /movie/{movie_id}
    14: Solution(
        [call("/trending/all/day"), call("/movie/872585/credits")],
        lambda r: (
            "Today's most trending movie is "
            f"{next(x for x in r[0]['results'] if x['media_type'] == 'movie')['title']}, directed by "
            f"{', '.join(directors(r[1]))}."
        ),
        lambda db: any_of(text(n) for n in crew_names(db, db.movies[db.lists.trending_movie_day[0]].crew)),
    ),
    15: Solution(
        [call(SM, query="Twilight"), call("/movie/8966/credits")],
        lambda r: f"Twilight was directed by {', '.join(directors(r[1]))}.",
        lambda db: any_of(text(n) for n in crew_names(db, db.movies[8966].crew)),
    ),
    16: Solution(
        [call(ST, query="the Witcher"), call("/tv/71912/season/1/episode/2/images")],
        lambda r: f"A still from The Witcher S1E2: {image_url(r[1]['stills'][0]['file_path'])}",
        lambda db: any_of(
            paths(
                v.episode_stills(
                    db.shows[71912], db.season(db.shows[71912], 1), db.season(db.shows[71912], 1).episodes[1]
                )
            )
        ),
    ),
    17: Solution(
        [call("/movie/top_rated")],
        lambda r: f"The top-1 rated movie is {r[0]['results'][0]['title']}.",
        lambda db: all_of(title(db.movies[db.lists.movie_top_rated[0]].title)),
    ),
    18: Solution(
        [call(SM, query="The Matrix"), call("/movie/603/release_dates")],
        lambda r: _release(r, 1, "The Matrix"),
        lambda db: any_of(
            [date(d.date) for d in db.movies[603].release_dates] + [date(db.movies[603].release_date)]
        ),
    ),
    19: Solution(
        [call("/person/popular")],
        lambda r: f"The most popular person is {r[0]['results'][0]['name']}.",
        lambda db: all_of(text(db.people[db.lists.person_popular[0]].name)),
    ),
    20: Solution(
        [
            call(SP, query="Christopher Nolan"),
            call("/person/525/movie_credits"),
            call("/movie/872585/images"),
        ],
        lambda r: (
            f"A cover of {latest([c for c in r[1]['crew'] if c['job'] == 'Director'])['title']}: {image_url(r[2]['posters'][0]['file_path'])}"
        ),
        lambda db: any_of(f for mid in db.directed(525) for f in movie_image_facts(db, mid)),
    ),
    21: Solution(
        [call(SM, query="Titanic"), call("/movie/597/keywords")],
        lambda r: "Keywords of Titanic: " + ", ".join(k["name"] for k in r[1]["keywords"]),
        lambda db: any_of(text(k) for k in db.movies[597].keywords),
    ),
    22: Solution(
        [call("/tv/on_the_air")],
        lambda r: f"{r[0]['results'][0]['name']} is currently on the air.",
        lambda db: any_of(title(db.shows[i].name) for i in db.lists.tv_on_the_air),
    ),
    23: Solution(
        [
            call(SP, query="Clint Eastwood"),
            call("/person/190/movie_credits"),
            call("/movie/9200001/release_dates"),
        ],
        lambda r: (
            f"Clint Eastwood's latest movie is {latest(r[1]['cast'] + r[1]['crew'])['title']}. "
            + _release(r, 2, "Its")
        ),
        lambda db: any_of(
            [date(d.date) for d in db.movies[_latest_any(db, 190)].release_dates]
            + [date(db.movies[_latest_any(db, 190)].release_date)]
        ),
    ),
    24: Solution(
        [call(SM, query="The Dark Knight"), call("/movie/155/reviews")],
        lambda r: f"Reviews of The Dark Knight: {review_text(r[1])}",
        lambda db: any_of(review_facts(db.movies[155].reviews)),
    ),
    25: Solution(
        [
            call(SP, query="Francis Ford Coppola"),
            call("/person/1776/movie_credits"),
            call("/movie/238/similar"),
        ],
        lambda r: (
            f"Movies similar to The Godfather (directed by Francis Ford Coppola): {names(r[2]['results'])}."
        ),
        lambda db: any_of(
            title(db.movies[s].title) for mid in db.directed(1776) for s in db.movies[mid].similar
        ),
    ),
    26: Solution(
        [call("/movie/latest"), call("/movie/872585/credits")],
        lambda r: f"The latest released movie is {r[0]['title']}; its lead actor is {lead(r[1])}.",
        lambda db: all_of(text(cast_names(db, db.movies[db.lists.movie_latest].cast)[0])),
    ),
    27: Solution(
        [call("/movie/now_playing"), call("/movie/872585/images")],
        lambda r: (
            f"{r[0]['results'][0]['title']} is showing in theaters: {image_url(r[1]['posters'][0]['file_path'])}"
        ),
        lambda db: any_of(f for mid in db.lists.movie_now_playing for f in movie_image_facts(db, mid)),
    ),
    28: Solution(
        [call("/movie/popular"), call("/movie/346698/keywords")],
        lambda r: (
            f"The most popular movie right now is {r[0]['results'][0]['title']}; its keywords: "
            + ", ".join(k["name"] for k in r[1]["keywords"])
        ),
        lambda db: all_of(
            title(db.movies[db.lists.movie_popular[0]].title),
            any_of(text(k) for k in db.movies[db.lists.movie_popular[0]].keywords),
        ),
    ),
    29: Solution(
        [call("/movie/popular"), call("/movie/346698/keywords")],
        lambda r: "Keywords of the most popular movie: " + ", ".join(k["name"] for k in r[1]["keywords"]),
        lambda db: any_of(text(k) for k in db.movies[db.lists.movie_popular[0]].keywords),
    ),
    30: Solution(
        [call(SM, query="Titanic"), call("/movie/597/credits")],
        lambda r: "Titanic stars " + ", ".join(c["name"] for c in r[1]["cast"][:10]) + ".",
        lambda db: any_of(text(n) for n in cast_names(db, db.movies[597].cast)),
    ),
    31: Solution(
        [call("/company/4"), call("/company/4/images")],
        lambda r: f"The logo of {r[0]['name']}: {image_url(r[1]['logos'][0]['file_path'])}",
        lambda db: any_of(paths(v.company_logos(4))),
    ),
    32: Solution(
        [call(SCO, query="universal pictures"), call("/company/33")],
        lambda r: f"{r[1]['name']} is headquartered in {r[1]['headquarters']} ({r[1]['description']})",
        lambda db: any_of(place(db.companies[33].headquarters)[:1]),
    ),
    33: Solution(
        [call(SM, query="Titanic"), call("/movie/597/release_dates")],
        lambda r: _release(r, 1, "Titanic"),
        lambda db: any_of(
            [date(d.date) for d in db.movies[597].release_dates] + [date(db.movies[597].release_date)]
        ),
    ),
    34: Solution(
        [call(SC, query="Star Wars"), call("/collection/10"), call("/movie/11/credits")],
        lambda r: (
            f"The first Star Wars movie, {r[1]['parts'][0]['title']}, stars "
            + ", ".join(c["name"] for c in r[2]["cast"][:10])
            + "."
        ),
        # "first" may mean first released (1977) or first in story order (Episode I)
        lambda db: any_of(text(n) for mid in (11, 1893) for n in cast_names(db, db.movies[mid].cast)),
    ),
    35: Solution(
        [call(SC, query="Harry Potter"), call("/collection/1241"), call("/movie/671/images")],
        lambda r: f"A cover of {r[1]['parts'][0]['title']}: {image_url(r[2]['posters'][0]['file_path'])}",
        lambda db: any_of(f for mid in db.collections[1241].parts for f in movie_image_facts(db, mid)),
    ),
    36: Solution(
        [call(SC, query="The Hunger Games"), call("/collection/131635"), call("/movie/70160/keywords")],
        lambda r: (
            f"Keywords of {r[1]['parts'][0]['title']}: " + ", ".join(k["name"] for k in r[2]["keywords"])
        ),
        lambda db: any_of(text(k) for mid in db.collections[131635].parts for k in db.movies[mid].keywords),
    ),
    37: Solution(
        [call(SC, query="The Hobbit"), call("/collection/121938")],
        lambda r: "Release dates: " + "; ".join(f"{p['title']}: {p['release_date']}" for p in r[1]["parts"]),
        lambda db: all_of(*[date(db.movies[mid].release_date) for mid in db.collections[121938].parts]),
    ),
    38: Solution(
        [call(SC, query="The Fast and the Furious"), call("/collection/9485")],
        lambda r: "The Fast and the Furious collection: " + "; ".join(p["title"] for p in r[1]["parts"]),
        lambda db: any_of((title(db.movies[mid].title) for mid in db.collections[9485].parts), min=3),
    ),
    39: Solution(
        [call(SC, query="The Fast and the Furious"), call("/collection/9485"), call("/movie/9799/reviews")],
        lambda r: f"A review of {r[1]['parts'][0]['title']}: {review_text(r[2], 1)}",
        lambda db: any_of(
            f for mid in db.collections[9485].parts for f in review_facts(db.movies[mid].reviews)
        ),
    ),
    40: Solution(
        [call(SC, query="Lord of the Rings"), call("/collection/119")],
        lambda r: "The first movie, {t}, was released on {d}.".format(
            **{
                "t": min(r[1]["parts"], key=lambda p: p["release_date"])["title"],
                "d": min(p["release_date"] for p in r[1]["parts"]),
            }
        ),
        lambda db: all_of(date(_collection_first_date(db, 119))),
    ),
    41: Solution(
        [call(ST, query="House of Cards"), call("/tv/1425/season/1/credits")],
        lambda r: "Directors of House of Cards season 1: " + ", ".join(directors(r[1])) + ".",
        lambda db: any_of((text(n) for n in crew_names(db, db.season(db.shows[1425], 1).crew)), min=2),
    ),
    42: Solution(
        [call(ST, query="House of Cards"), call("/tv/1425/similar")],
        lambda r: f"Shows similar to House of Cards: {names(r[1]['results'], 'name')}.",
        lambda db: any_of(title(db.shows[i].name) for i in db.shows[1425].similar),
    ),
    43: Solution(
        [call("/tv/on_the_air"), call("/tv/71912")],
        lambda r: f"The most popular show on the air, {r[1]['name']}, started on {r[1]['first_air_date']}.",
        lambda db: all_of(
            date(
                max((db.shows[i] for i in db.lists.tv_on_the_air), key=lambda s: s.popularity).first_air_date
            )
        ),
    ),
    44: Solution(
        [call(SM, query="Django Unchained"), call("/movie/68718/credits"), call("/person/138/movie_credits")],
        lambda r: (
            f"{directors(r[1])[0]} also directed: "
            + ", ".join(c["title"] for c in r[2]["crew"] if c["job"] == "Director" and c["id"] != 68718)
            + "."
        ),
        lambda db: any_of(
            title(db.movies[mid].title)
            for pid, job in db.movies[68718].crew
            if job == "Director"
            for mid in db.directed(pid)
            if mid != 68718
        ),
    ),
    45: Solution(
        [call("/tv/on_the_air"), call("/tv/71912/credits")],
        lambda r: (
            f"The cast of {r[0]['results'][0]['name']}: "
            + ", ".join(c["name"] for c in r[1]["cast"][:10])
            + "."
        ),
        lambda db: any_of(text(n) for i in db.lists.tv_on_the_air for n in cast_names(db, db.shows[i].cast)),
    ),
    46: Solution(
        [call(ST, query="Breaking Bad"), call("/tv/1396/reviews")],
        lambda r: f"A review of Breaking Bad: {review_text(r[1], 1)}",
        lambda db: any_of(review_facts(db.shows[1396].reviews)),
    ),
    47: Solution(
        [call(ST, query="The Last Of Us"), call("/tv/100088/recommendations")],
        lambda r: f"Recommendations: {names(r[1]['results'], 'name')}.",
        lambda db: any_of(title(db.shows[i].name) for i in db.shows[100088].recommendations),
    ),
    48: Solution(
        [call(ST, query="The Last Of Us"), call("/tv/100088/recommendations")],
        lambda r: f"You might like: {names(r[1]['results'], 'name')}.",
        lambda db: any_of(title(db.shows[i].name) for i in db.shows[100088].recommendations),
    ),
    49: Solution(
        [call(ST, query="Friends"), call("/tv/1668/season/3/episode/24/credits")],
        lambda r: (
            "Guest stars of Friends S3E24: "
            + ", ".join(f"{g['name']} ({g['character']})" for g in r[1]["guest_stars"])
            + "."
        ),
        lambda db: any_of(
            text(n)
            for n in cast_names(
                db,
                next(e for e in db.season(db.shows[1668], 3).episodes if e.episode_number == 24).guest_stars,
            )
        ),
    ),
    50: Solution(
        [call("/tv/popular"), call("/tv/1399/credits")],
        lambda r: f"The lead actor of {r[0]['results'][0]['name']} is {lead(r[1])}.",
        lambda db: all_of(text(cast_names(db, db.shows[db.lists.tv_popular[0]].cast)[0])),
    ),
}
