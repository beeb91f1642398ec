"""Movies of the TMDB fixture (authoring source for ``fixtures/movies.json``).

``m(id, title, date, vote_average, popularity, genres, **fields)``; ids >= 9_200_000 are
fixture-local. Credits are (person_id, character) and (person_id, job) pairs.
"""

from __future__ import annotations

from typing import Any

MOVIES: list[dict[str, Any]] = []


def m(id: int, title: str, date: str, vote: float, pop: float, genres: str, **kw: Any) -> None:
    MOVIES.append(
        {
            "id": id,
            "title": title,
            "release_date": date,
            "vote_average": vote,
            "popularity": pop,
            "genres": [g for g in genres.split("|") if g],
            **kw,
        }
    )


def rd(country: str, date: str, type_: int = 3, cert: str = "", note: str = "") -> dict[str, Any]:
    return {"country": country, "date": date, "type": type_, "certification": cert, "note": note}


def rv(author: str, content: str) -> dict[str, str]:
    return {"author": author, "content": content}


# --- prompt-example movies (spec 8.1) -----------------------------------------------------------------
m(
    843,
    "In the Mood for Love",
    "2000-09-29",
    8.069,
    21.3,
    "Drama|Romance",
    original_title="花樣年華",
    original_language="cn",
    countries=["HK"],
    cast=[(1337, "Chow Mo-wan"), (9100058, "Su Li-zhen")],
    crew=[(12453, "Director"), (12453, "Screenplay")],
)
m(
    18329,
    "Happy Together",
    "1997-05-30",
    7.712,
    14.0,
    "Drama|Romance",
    original_title="春光乍洩",
    original_language="cn",
    countries=["HK"],
    cast=[(9100059, "Ho Po-wing"), (1337, "Lai Yiu-fai")],
    crew=[(12453, "Director")],
)
m(
    44865,
    "The Grandmaster",
    "2013-01-08",
    6.531,
    12.6,
    "Action|Drama|History",
    original_title="一代宗師",
    original_language="cn",
    countries=["HK", "CN"],
    cast=[(1337, "Ip Man")],
    crew=[(12453, "Director")],
)
m(
    11104,
    "Chungking Express",
    "1994-07-14",
    7.911,
    16.2,
    "Drama|Comedy|Romance",
    original_title="重慶森林",
    original_language="cn",
    countries=["HK"],
    cast=[(9100060, "Woman in blonde wig"), (1337, "Cop 663")],
    crew=[(12453, "Director")],
)
m(
    11324,
    "Shutter Island",
    "2010-02-14",
    8.203,
    58.4,
    "Drama|Thriller|Mystery",
    cast=[(6193, "Teddy Daniels"), (9100072, "Chuck Aule")],
    crew=[(1032, "Director"), (20294, "Screenplay")],
    companies=[4],
    similar=[1422, 27205],
    recommendations=[27205, 1422],
)
m(
    315162,
    "Puss in Boots: The Last Wish",
    "2022-12-07",
    8.262,
    120.5,
    "Animation|Adventure|Comedy|Family|Fantasy",
    cast=[(9100061, "Puss in Boots (voice)")],
    crew=[(9100064, "Director")],
    companies=[521],
)
m(
    808,
    "Shrek",
    "2001-05-18",
    7.735,
    95.1,
    "Animation|Comedy|Fantasy|Adventure|Family",
    cast=[(9100062, "Shrek (voice)")],
    crew=[(9100065, "Director")],
    companies=[521],
)
m(
    629542,
    "The Bad Guys",
    "2022-03-17",
    7.781,
    60.2,
    "Animation|Comedy|Action|Crime|Family",
    cast=[(9100063, "Mr. Wolf (voice)")],
    crew=[(9100066, "Director")],
    companies=[521],
)

# --- Christopher Nolan -----------------------------------------------------------------------------
NOLAN = [(525, "Director")]
m(11660, "Following", "1999-04-24", 7.185, 9.8, "Crime|Mystery|Thriller", crew=NOLAN, countries=["GB"])
m(77, "Memento", "2000-10-11", 8.176, 33.1, "Mystery|Thriller", crew=NOLAN)
m(320, "Insomnia", "2002-05-24", 6.932, 18.6, "Crime|Mystery|Thriller", crew=NOLAN)
m(
    272,
    "Batman Begins",
    "2005-06-10",
    7.698,
    52.4,
    "Action|Crime|Drama",
    cast=[(3894, "Bruce Wayne / Batman")],
    crew=NOLAN,
    companies=[174, 923, 9996],
)
m(
    1124,
    "The Prestige",
    "2006-10-17",
    8.203,
    40.7,
    "Drama|Mystery|Science Fiction",
    cast=[(3894, "Alfred Borden")],
    crew=NOLAN,
)
m(
    155,
    "The Dark Knight",
    "2008-07-16",
    8.512,
    86.9,
    "Drama|Action|Crime|Thriller",
    runtime=152,
    budget=185000000,
    revenue=1004558444,
    tagline="Welcome to a world without rules.",
    companies=[174, 923, 9996],
    collection=263,
    overview="Batman raises the stakes in his war on crime, with the help of Lt. Jim Gordon and District Attorney Harvey Dent, until a criminal mastermind known as the Joker plunges Gotham into anarchy.",
    cast=[(3894, "Bruce Wayne"), (1810, "Joker"), (64, "James Gordon")],
    crew=[(525, "Director"), (525, "Screenplay"), (9100035, "Screenplay")],
    keywords=["joker", "superhero", "vigilante", "dc comics", "crime fighter", "sequel"],
    similar=[272, 49026, 1124],
    recommendations=[272, 49026, 27205],
    reviews=[
        {
            "author": "gothamreel",
            "content": "Heath Ledger's Joker is the centre of gravity here: every scene he is in feels dangerous, and Nolan stages Gotham like a real city under siege.",
        },
        {
            "author": "nightshift_critic",
            "content": "A crime epic that happens to star Batman. The interrogation scene and the ferry dilemma are as tense as blockbuster filmmaking gets.",
        },
    ],
)
m(
    27205,
    "Inception",
    "2010-07-15",
    8.366,
    92.4,
    "Action|Science Fiction|Adventure",
    cast=[(6193, "Dom Cobb")],
    crew=NOLAN,
    companies=[174, 923, 9996],
)
m(
    49026,
    "The Dark Knight Rises",
    "2012-07-16",
    7.765,
    61.2,
    "Action|Crime|Drama|Thriller",
    cast=[(3894, "Bruce Wayne / Batman"), (64, "James Gordon")],
    crew=NOLAN,
    collection=263,
)
m(157336, "Interstellar", "2014-11-05", 8.419, 140.6, "Adventure|Drama|Science Fiction", crew=NOLAN)
m(
    374720,
    "Dunkirk",
    "2017-07-19",
    7.474,
    33.0,
    "War|Action|Drama",
    cast=[(2037, "Shivering Soldier")],
    crew=NOLAN,
)
m(577922, "Tenet", "2020-08-22", 7.205, 45.3, "Action|Thriller|Science Fiction", crew=NOLAN)
m(
    872585,
    "Oppenheimer",
    "2023-07-19",
    8.291,
    1420.8,
    "Drama|History",
    runtime=181,
    budget=100000000,
    revenue=0,
    companies=[33, 9996],
    overview="The story of J. Robert Oppenheimer's role in the development of the atomic bomb during World War II.",
    tagline="The world forever changes.",
    cast=[
        (2037, "J. Robert Oppenheimer"),
        (5081, "Kitty Oppenheimer"),
        (1892, "Leslie Groves"),
        (3223, "Lewis Strauss"),
    ],
    crew=[(525, "Director"), (525, "Screenplay")],
    keywords=["atomic bomb", "biography", "manhattan project", "physicist", "world war ii"],
    images=4,
    release_dates=[rd("US", "2023-07-21", 3, "R"), rd("GB", "2023-07-21", 3, "15")],
    similar=[374720, 157336],
    recommendations=[346698, 374720],
)

# --- Martin Scorsese and Leonardo DiCaprio --------------------------------------------------------------
SCORSESE = [(1032, "Director")]
m(
    103,
    "Taxi Driver",
    "1976-02-09",
    8.124,
    41.0,
    "Crime|Drama",
    cast=[(9100069, "Travis Bickle")],
    crew=SCORSESE,
)
m(1578, "Raging Bull", "1980-11-14", 7.862, 22.7, "Drama", cast=[(9100069, "Jake LaMotta")], crew=SCORSESE)
m(
    769,
    "GoodFellas",
    "1990-09-12",
    8.471,
    58.6,
    "Drama|Crime",
    cast=[(9100069, "James Conway")],
    crew=SCORSESE,
)
m(
    524,
    "Casino",
    "1995-11-22",
    8.042,
    32.4,
    "Crime|Drama",
    cast=[(9100069, "Sam 'Ace' Rothstein")],
    crew=SCORSESE,
)
m(
    1422,
    "The Departed",
    "2006-10-05",
    8.164,
    55.8,
    "Drama|Thriller|Crime",
    cast=[(6193, "Billy Costigan"), (1892, "Colin Sullivan")],
    crew=SCORSESE,
)
m(44826, "Hugo", "2011-11-22", 7.193, 24.0, "Adventure|Drama|Family", crew=SCORSESE)
m(
    106646,
    "The Wolf of Wall Street",
    "2013-12-25",
    8.031,
    77.5,
    "Crime|Drama|Comedy",
    cast=[(6193, "Jordan Belfort")],
    crew=SCORSESE,
)
m(
    398978,
    "The Irishman",
    "2019-11-01",
    7.594,
    30.2,
    "Crime|Drama|History",
    cast=[(9100069, "Frank Sheeran"), (1158, "Jimmy Hoffa")],
    crew=SCORSESE,
)
m(
    466420,
    "Killers of the Flower Moon",
    "2023-10-20",
    7.563,
    140.3,
    "Crime|Drama|History|Western",
    status="Post Production",
    vote_count=180,
    cast=[(6193, "Ernest Burkhart"), (9100076, "Mollie Burkhart"), (9100069, "William Hale")],
    crew=SCORSESE,
    release_dates=[rd("FR", "2023-05-20", 1, note="Cannes Film Festival"), rd("US", "2023-10-20", 3, "R")],
)
m(
    640,
    "Catch Me If You Can",
    "2002-12-25",
    7.965,
    45.9,
    "Drama|Crime",
    cast=[(6193, "Frank Abagnale Jr."), (9100071, "Carl Hanratty")],
    crew=[(488, "Director")],
)
m(
    281957,
    "The Revenant",
    "2015-12-25",
    7.528,
    48.2,
    "Western|Drama|Adventure|Thriller",
    cast=[(6193, "Hugh Glass")],
)
m(
    466272,
    "Once Upon a Time... in Hollywood",
    "2019-07-24",
    7.433,
    44.6,
    "Comedy|Drama|Thriller",
    cast=[(6193, "Rick Dalton"), (9100075, "Cliff Booth"), (234352, "Sharon Tate")],
    crew=[(138, "Director")],
)
m(
    646380,
    "Don't Look Up",
    "2021-12-07",
    7.161,
    38.4,
    "Comedy|Drama|Science Fiction",
    cast=[(6193, "Dr. Randall Mindy"), (72129, "Kate Dibiasky")],
    crew=[(55710, "Director")],
)
m(
    597,
    "Titanic",
    "1997-11-18",
    7.904,
    101.5,
    "Drama|Romance",
    runtime=194,
    budget=200000000,
    revenue=2264162353,
    companies=[25, 4],
    overview="101-year-old Rose DeWitt Bukater tells the story of her life aboard the Titanic, 84 years later: a young Rose, her fiancé Cal, and the poor artist Jack Dawson, on the ship's maiden and last voyage.",
    tagline="Nothing on Earth could come between them.",
    cast=[(6193, "Jack Dawson"), (204, "Rose DeWitt Bukater"), (1954, "Cal Hockley")],
    crew=[(2710, "Director"), (2710, "Screenplay"), (2710, "Producer")],
    keywords=[
        "shipwreck",
        "iceberg",
        "ship",
        "panic",
        "titanic",
        "ocean liner",
        "forbidden love",
        "based on true story",
        "epic",
        "love affair",
    ],
    release_dates=[
        rd("JP", "1997-11-01", 1, note="Tokyo International Film Festival"),
        rd("US", "1997-12-19", 3, "PG-13"),
        rd("GB", "1998-01-23", 3, "12"),
    ],
    reviews=[
        rv(
            "deckchair_reviews",
            "Cameron's Titanic still works because the disaster is staged in real time; the romance is corny, the last hour is overwhelming.",
        )
    ],
    similar=[676, 11036, 454, 1581],
    recommendations=[11036, 454, 8966, 19995],
)
m(
    676,
    "Pearl Harbor",
    "2001-05-21",
    6.945,
    40.1,
    "History|Romance|War",
    reviews=[
        rv(
            "harborlights",
            "Pearl Harbor spends two hours on a love triangle before the attack arrives; the 40-minute raid sequence is the reason to watch it.",
        ),
        rv(
            "sundaymatinee",
            "Overlong and sentimental, but the period detail and the Doolittle Raid finale give it some weight.",
        ),
    ],
)
m(11036, "The Notebook", "2004-06-25", 7.886, 52.0, "Romance|Drama", cast=[(30614, "Noah Calhoun")])
m(454, "Romeo + Juliet", "1996-11-01", 6.728, 26.3, "Drama|Romance", cast=[(6193, "Romeo")])
m(1581, "The Holiday", "2006-12-08", 7.062, 29.9, "Comedy|Romance", cast=[(204, "Iris")])

# --- Sofia and Francis Ford Coppola -----------------------------------------------------------------------
SOFIA = [(1769, "Director"), (1769, "Screenplay")]
m(
    1443,
    "The Virgin Suicides",
    "1999-05-19",
    7.223,
    21.4,
    "Drama|Romance",
    cast=[(9100068, "Lux Lisbon")],
    crew=SOFIA,
)
m(
    153,
    "Lost in Translation",
    "2003-08-31",
    7.394,
    27.5,
    "Drama|Comedy|Romance",
    cast=[(9100067, "Bob Harris"), (1245, "Charlotte")],
    crew=SOFIA,
)
m(
    1887,
    "Marie Antoinette",
    "2006-05-24",
    6.728,
    19.8,
    "Drama|History|Romance",
    cast=[(9100068, "Marie Antoinette")],
    crew=SOFIA,
)
m(39781, "Somewhere", "2010-09-03", 6.184, 10.1, "Drama|Comedy", crew=SOFIA)
m(96936, "The Bling Ring", "2013-06-14", 5.721, 14.7, "Crime|Drama", crew=SOFIA)
m(
    399019,
    "The Beguiled",
    "2017-06-23",
    6.295,
    15.9,
    "Drama|Thriller|Western",
    cast=[(9100068, "Edwina Morrow")],
    crew=SOFIA,
)
m(575774, "On the Rocks", "2020-10-02", 6.412, 12.2, "Comedy|Drama", cast=[(9100067, "Felix")], crew=SOFIA)
FFC = [(1776, "Director")]
m(
    238,
    "The Godfather",
    "1972-03-14",
    8.708,
    118.2,
    "Drama|Crime",
    runtime=175,
    companies=[4],
    overview="Spanning the years 1945 to 1955, a chronicle of the fictional Italian-American Corleone crime family.",
    cast=[(3084, "Don Vito Corleone"), (1158, "Michael Corleone"), (3085, "Sonny Corleone")],
    crew=[(1776, "Director"), (1776, "Screenplay")],
    similar=[240, 769, 111, 524],
    recommendations=[240, 242, 769],
    keywords=[
        "mafia",
        "patriarch",
        "organized crime",
        "based on novel or book",
        "crime family",
        "new york city",
        "1940s",
    ],
    release_dates=[rd("US", "1972-03-14", 1, note="New York premiere"), rd("US", "1972-03-24", 3, "R")],
    reviews=[
        rv(
            "corleone_cinema",
            "Coppola's patient, operatic crime saga: Brando and Pacino trade the family business across a generation, and every scene is staged like a painting.",
        )
    ],
)
m(
    240,
    "The Godfather Part II",
    "1974-12-20",
    8.591,
    71.0,
    "Drama|Crime",
    cast=[(1158, "Michael Corleone"), (9100069, "Vito Corleone")],
    crew=FFC,
    similar=[238, 242, 111],
)
m(
    242,
    "The Godfather Part III",
    "1990-12-25",
    7.405,
    40.6,
    "Crime|Drama|Thriller",
    cast=[(1158, "Michael Corleone"), (1769, "Mary Corleone")],
    crew=FFC,
    similar=[238, 240],
)
m(592, "The Conversation", "1974-04-07", 7.523, 13.4, "Crime|Drama|Mystery", crew=FFC, similar=[103])
m(
    28,
    "Apocalypse Now",
    "1979-05-19",
    8.276,
    36.5,
    "Drama|War",
    cast=[(3084, "Colonel Walter E. Kurtz")],
    crew=FFC,
    similar=[857, 1578],
)
m(111, "Scarface", "1983-12-09", 8.165, 49.7, "Action|Crime|Drama", cast=[(1158, "Tony Montana")])

# --- Tarantino -------------------------------------------------------------------------------------------
QT = [(138, "Director"), (138, "Screenplay")]
m(500, "Reservoir Dogs", "1992-09-02", 8.132, 26.9, "Crime|Thriller", crew=QT)
m(
    680,
    "Pulp Fiction",
    "1994-09-10",
    8.489,
    70.3,
    "Thriller|Crime",
    cast=[(9100074, "Vincent Vega"), (9100073, "Mia Wallace"), (2231, "Jules Winnfield")],
    crew=QT,
)
m(
    184,
    "Jackie Brown",
    "1997-12-25",
    7.345,
    20.3,
    "Crime|Drama|Thriller",
    cast=[(2231, "Ordell Robbie")],
    crew=QT,
)
m(24, "Kill Bill: Vol. 1", "2003-10-10", 7.973, 48.0, "Action|Crime", cast=[(9100073, "The Bride")], crew=QT)
m(
    393,
    "Kill Bill: Vol. 2",
    "2004-04-16",
    7.886,
    30.1,
    "Action|Crime|Thriller",
    cast=[(9100073, "The Bride")],
    crew=QT,
)
m(
    16869,
    "Inglourious Basterds",
    "2009-08-02",
    8.213,
    52.8,
    "Drama|Thriller|War",
    cast=[(9100075, "Lt. Aldo Raine"), (27319, "Col. Hans Landa")],
    crew=QT,
)
m(
    68718,
    "Django Unchained",
    "2012-12-25",
    8.174,
    59.3,
    "Drama|Western",
    runtime=165,
    companies=[9300003],
    cast=[(134, "Django"), (27319, "Dr. King Schultz"), (6193, "Calvin Candie"), (2231, "Stephen")],
    crew=QT,
    similar=[16869, 273248],
    recommendations=[16869, 680],
)
m(
    273248,
    "The Hateful Eight",
    "2015-12-25",
    7.743,
    33.6,
    "Drama|Mystery|Western",
    cast=[(2231, "Major Marquis Warren")],
    crew=QT,
)

# --- Kurosawa and Spielberg (question 93: who directed more) --------------------------------------------
AK = [(5026, "Director")]
for mid, title, date, vote in [
    (548, "Rashomon", "1950-08-26", 8.0),
    (3782, "Ikiru", "1952-10-09", 8.1),
    (346, "Seven Samurai", "1954-04-26", 8.5),
    (3777, "Throne of Blood", "1957-01-15", 7.9),
    (11878, "Yojimbo", "1961-04-25", 8.1),
    (12493, "High and Low", "1963-03-01", 8.2),
    (9764, "Dersu Uzala", "1975-08-02", 8.0),
    (11953, "Kagemusha", "1980-04-26", 7.9),
    (11645, "Ran", "1985-05-31", 8.1),
]:
    m(
        mid,
        title,
        date,
        vote + 0.012,
        15.0 + vote,
        "Drama",
        original_language="ja",
        countries=["JP"],
        crew=AK,
        cast=[(9100070, "Lead")] if mid in (346, 11878, 548) else [],
    )
SS = [(488, "Director")]
for mid, title, date, vote in [
    (578, "Jaws", "1975-06-20", 7.7),
    (840, "Close Encounters of the Third Kind", "1977-11-16", 7.4),
    (85, "Raiders of the Lost Ark", "1981-06-12", 7.9),
    (601, "E.T. the Extra-Terrestrial", "1982-06-11", 7.5),
    (329, "Jurassic Park", "1993-06-11", 7.9),
    (424, "Schindler's List", "1993-12-15", 8.6),
    (857, "Saving Private Ryan", "1998-07-24", 8.2),
    (180, "Minority Report", "2002-06-20", 7.3),
    (74, "War of the Worlds", "2005-06-28", 6.5),
    (612, "Munich", "2005-12-23", 7.1),
    (72976, "Lincoln", "2012-11-09", 6.8),
    (296098, "Bridge of Spies", "2015-10-15", 7.2),
    (333339, "Ready Player One", "2018-03-28", 7.6),
    (511809, "West Side Story", "2021-12-08", 6.9),
    (804095, "The Fabelmans", "2022-11-11", 7.7),
]:
    m(
        mid,
        title,
        date,
        vote + 0.031,
        20.0 + vote,
        "Drama",
        crew=SS,
        cast=[(9100071, "Lead")] if mid in (857,) else ([(3, "Indiana Jones")] if mid == 85 else []),
    )

# --- Clint Eastwood, Katherine LaNasa -------------------------------------------------------------------
CE = [(190, "Director")]
m(33, "Unforgiven", "1992-08-07", 7.905, 22.0, "Western", cast=[(190, "William Munny")], crew=CE)
m(70, "Million Dollar Baby", "2004-12-15", 8.026, 27.4, "Drama", cast=[(190, "Frankie Dunn")], crew=CE)
m(13223, "Gran Torino", "2008-12-12", 7.797, 30.8, "Drama", cast=[(190, "Walt Kowalski")], crew=CE)
m(504172, "The Mule", "2018-12-14", 6.985, 26.1, "Crime|Drama|Thriller", cast=[(190, "Earl Stone")], crew=CE)
m(
    9200001,
    "Cry Macho",
    "2021-09-16",
    6.412,
    23.7,
    "Drama|Western",
    cast=[(190, "Mike Milo"), (9100078, "Rafo")],
    crew=CE,
    companies=[174],
    release_dates=[
        rd("US", "2021-09-17", 3, "PG-13", "Theatrical and HBO Max"),
        rd("US", "2021-09-17", 4, "PG-13", "HBO Max"),
        rd("GB", "2021-11-12", 3, "12A"),
    ],
)
m(9200002, "Alfie", "2004-10-22", 6.213, 11.0, "Comedy|Drama|Romance", cast=[(9100003, "Lonette")])
m(
    9200003,
    "The Frozen Ground",
    "2013-07-11",
    6.386,
    13.5,
    "Crime|Drama|Thriller",
    cast=[(9100003, "Fran Hansen")],
    overview="An Alaska State Trooper partners with a young woman who escaped the clutches of serial killer Robert Hansen to bring him to justice.",
)

# --- single-question movies --------------------------------------------------------------------------------
m(
    8966,
    "Twilight",
    "2008-11-20",
    6.301,
    62.7,
    "Fantasy|Drama|Romance",
    companies=[9300004],
    cast=[(37917, "Bella Swan"), (11288, "Edward Cullen")],
    crew=[(9100007, "Director")],
    similar=[11036],
)
m(
    603,
    "The Matrix",
    "1999-03-30",
    8.206,
    78.3,
    "Action|Science Fiction",
    companies=[174],
    cast=[(6384, "Neo"), (2975, "Morpheus"), (530, "Trinity")],
    crew=[(9339, "Director"), (9340, "Director")],
    keywords=[
        "virtual reality",
        "artificial intelligence",
        "dystopia",
        "hacker",
        "simulated reality",
        "martial arts",
    ],
    similar=[27205, 157336],
    release_dates=[
        rd("US", "1999-03-31", 3, "R"),
        rd("AU", "1999-04-08", 3, "M"),
        rd("GB", "1999-06-11", 3, "15"),
    ],
)
m(
    19995,
    "Avatar",
    "2009-12-15",
    7.572,
    142.1,
    "Action|Adventure|Fantasy|Science Fiction",
    companies=[25],
    cast=[(65731, "Jake Sully"), (8691, "Neytiri"), (10205, "Dr. Grace Augustine")],
    crew=[(2710, "Director")],
    collection=87096,
)
m(
    76600,
    "Avatar: The Way of Water",
    "2022-12-14",
    7.655,
    310.8,
    "Science Fiction|Adventure|Action",
    cast=[(65731, "Jake Sully"), (8691, "Neytiri")],
    crew=[(2710, "Director")],
    collection=87096,
)
m(
    278,
    "The Shawshank Redemption",
    "1994-09-23",
    8.705,
    111.6,
    "Drama|Crime",
    runtime=142,
    companies=[97],
    overview="Imprisoned in the 1940s for the double murder of his wife and her lover, upstanding banker Andy Dufresne begins a new life at the Shawshank prison.",
    cast=[(504, "Andy Dufresne"), (192, "Ellis Boyd 'Red' Redding"), (4029, "Warden Norton")],
    crew=[(4027, "Director"), (4027, "Screenplay")],
    keywords=["prison", "friendship", "based on novel or book", "wrongful imprisonment", "escape", "hope"],
    similar=[13, 424],
    recommendations=[13, 680, 238],
    release_dates=[rd("US", "1994-09-23", 3, "R")],
)
m(
    1600,
    "The Double Life of Véronique",
    "1991-05-15",
    7.702,
    14.8,
    "Drama|Fantasy|Mystery|Romance",
    original_title="La Double Vie de Véronique",
    original_language="fr",
    countries=["FR", "PL"],
    cast=[(9100008, "Weronika / Véronique")],
    crew=[(9100009, "Director")],
)
m(
    1018,
    "Mulholland Drive",
    "2001-05-16",
    7.853,
    29.4,
    "Thriller|Drama|Mystery",
    countries=["FR", "US"],
    cast=[(3489, "Betty Elms / Diane Selwyn"), (9100010, "Rita / Camilla Rhodes")],
    crew=[(5602, "Director"), (5602, "Screenplay")],
    keywords=["amnesia", "hollywood", "dream", "los angeles", "neo-noir", "surrealism"],
    similar=[1600],
    release_dates=[rd("FR", "2001-05-16", 1, note="Cannes Film Festival"), rd("US", "2001-10-12", 3, "R")],
)
m(
    9200004,
    "We Married as Job! Special: Ganbare Jinrui!",
    "2021-01-02",
    7.312,
    6.3,
    "Comedy|Romance|Drama|TV Movie",
    original_title="逃げるは恥だが役に立つ ガンバレ人類！新春スペシャル!!",
    original_language="ja",
    countries=["JP"],
    overview="Mikuri and Hiramasa, who married as a job, face pregnancy, parental leave and the pandemic in this New Year special of the drama.",
    cast=[(9100001, "Mikuri Moriyama"), (9100002, "Hiramasa Tsuzaki")],
)
m(
    346698,
    "Barbie",
    "2023-07-19",
    7.245,
    2395.4,
    "Comedy|Adventure|Fantasy",
    runtime=114,
    budget=145000000,
    companies=[174, 9300005],
    overview="Barbie and Ken are having the time of their lives in the colorful and seemingly perfect world of Barbie Land; when they get a chance to go to the real world, they discover the joys and perils of living among humans.",
    cast=[(234352, "Barbie"), (30614, "Ken")],
    crew=[(45400, "Director"), (45400, "Screenplay")],
    keywords=[
        "doll",
        "fashion",
        "feminism",
        "based on toy",
        "satire",
        "barbie",
        "dreamhouse",
        "live action and animation",
    ],
    images=4,
    release_dates=[rd("US", "2023-07-21", 3, "PG-13")],
    similar=[872585],
    recommendations=[872585, 569094],
)

# --- collection members -------------------------------------------------------------------------------------
m(
    11,
    "Star Wars",
    "1977-05-25",
    8.204,
    88.1,
    "Adventure|Action|Science Fiction",
    collection=10,
    companies=[1, 25],
    cast=[(2, "Luke Skywalker"), (3, "Han Solo"), (4, "Princess Leia Organa")],
    crew=[(1, "Director"), (1, "Writer")],
)
m(
    1891,
    "The Empire Strikes Back",
    "1980-05-20",
    8.392,
    40.0,
    "Adventure|Action|Science Fiction",
    collection=10,
    companies=[1],
    cast=[(2, "Luke Skywalker"), (3, "Han Solo")],
)
m(
    1892,
    "Return of the Jedi",
    "1983-05-25",
    7.905,
    33.0,
    "Adventure|Action|Science Fiction",
    collection=10,
    companies=[1],
)
m(
    1893,
    "Star Wars: Episode I - The Phantom Menace",
    "1999-05-19",
    6.534,
    45.3,
    "Adventure|Action|Science Fiction",
    collection=10,
    companies=[1],
    cast=[(3896, "Qui-Gon Jinn"), (3061, "Obi-Wan Kenobi"), (524, "Padmé Amidala")],
    crew=[(1, "Director")],
)
m(
    1894,
    "Star Wars: Episode II - Attack of the Clones",
    "2002-05-15",
    6.542,
    38.0,
    "Adventure|Action|Science Fiction",
    collection=10,
    companies=[1],
    crew=[(1, "Director")],
)
m(
    1895,
    "Star Wars: Episode III - Revenge of the Sith",
    "2005-05-17",
    7.413,
    41.2,
    "Adventure|Action|Science Fiction",
    collection=10,
    companies=[1],
    crew=[(1, "Director")],
)
m(
    140607,
    "Star Wars: The Force Awakens",
    "2015-12-15",
    7.256,
    52.6,
    "Adventure|Action|Science Fiction",
    collection=10,
    companies=[1, 9300006],
)
m(
    181808,
    "Star Wars: The Last Jedi",
    "2017-12-13",
    6.811,
    44.1,
    "Adventure|Action|Science Fiction",
    collection=10,
    companies=[1],
)
m(
    181812,
    "Star Wars: The Rise of Skywalker",
    "2019-12-18",
    6.375,
    40.9,
    "Adventure|Action|Science Fiction",
    collection=10,
    companies=[1],
)
HP = [
    (671, "Harry Potter and the Philosopher's Stone", "2001-11-16", 7.915),
    (672, "Harry Potter and the Chamber of Secrets", "2002-11-13", 7.719),
    (673, "Harry Potter and the Prisoner of Azkaban", "2004-05-31", 8.018),
    (674, "Harry Potter and the Goblet of Fire", "2005-11-16", 7.813),
    (675, "Harry Potter and the Order of the Phoenix", "2007-06-28", 7.690),
    (767, "Harry Potter and the Half-Blood Prince", "2009-07-07", 7.700),
    (12444, "Harry Potter and the Deathly Hallows: Part 1", "2010-11-17", 7.808),
    (12445, "Harry Potter and the Deathly Hallows: Part 2", "2011-07-07", 8.105),
]
for i, (mid, title, date, vote) in enumerate(HP):
    m(
        mid,
        title,
        date,
        vote,
        90.0 - i * 4,
        "Adventure|Fantasy",
        collection=1241,
        countries=["GB", "US"],
        companies=[174],
        cast=[(10980, "Harry Potter"), (10989, "Ron Weasley"), (10990, "Hermione Granger")],
        crew=[(10965, "Director")] if i < 2 else [],
    )
m(
    70160,
    "The Hunger Games",
    "2012-03-12",
    7.193,
    70.2,
    "Science Fiction|Adventure|Fantasy",
    collection=131635,
    cast=[(72129, "Katniss Everdeen"), (27972, "Peeta Mellark")],
    crew=[(9100054, "Director")],
    keywords=[
        "dystopia",
        "based on novel or book",
        "survival",
        "female protagonist",
        "game show",
        "death match",
        "forest",
    ],
)
m(
    101299,
    "The Hunger Games: Catching Fire",
    "2013-11-15",
    7.424,
    61.0,
    "Adventure|Action|Science Fiction",
    collection=131635,
    cast=[(72129, "Katniss Everdeen")],
    keywords=["dystopia", "revolution", "based on young adult novel", "sequel"],
)
m(
    131631,
    "The Hunger Games: Mockingjay - Part 1",
    "2014-11-19",
    6.813,
    50.2,
    "Science Fiction|Adventure|Thriller",
    collection=131635,
    cast=[(72129, "Katniss Everdeen")],
)
m(
    131634,
    "The Hunger Games: Mockingjay - Part 2",
    "2015-11-18",
    6.824,
    48.9,
    "Action|Adventure|Science Fiction",
    collection=131635,
    cast=[(72129, "Katniss Everdeen")],
)
m(
    49051,
    "The Hobbit: An Unexpected Journey",
    "2012-12-12",
    7.362,
    81.0,
    "Adventure|Fantasy|Action",
    collection=121938,
    countries=["NZ", "US"],
    cast=[(7060, "Bilbo Baggins"), (1327, "Gandalf")],
    crew=[(108, "Director")],
)
m(
    57158,
    "The Hobbit: The Desolation of Smaug",
    "2013-12-11",
    7.586,
    72.4,
    "Adventure|Fantasy|Action",
    collection=121938,
    countries=["NZ", "US"],
    cast=[(7060, "Bilbo Baggins"), (1327, "Gandalf")],
    crew=[(108, "Director")],
)
m(
    122917,
    "The Hobbit: The Battle of the Five Armies",
    "2014-12-10",
    7.303,
    68.9,
    "Action|Adventure|Fantasy",
    collection=121938,
    countries=["NZ", "US"],
    cast=[(7060, "Bilbo Baggins"), (1327, "Gandalf")],
    crew=[(108, "Director")],
)
m(
    120,
    "The Lord of the Rings: The Fellowship of the Ring",
    "2001-12-18",
    8.412,
    96.3,
    "Adventure|Fantasy|Action",
    collection=119,
    countries=["NZ", "US"],
    companies=[12],
    cast=[(109, "Frodo Baggins"), (1327, "Gandalf"), (110, "Aragorn")],
    crew=[(108, "Director")],
)
m(
    121,
    "The Lord of the Rings: The Two Towers",
    "2002-12-18",
    8.396,
    77.0,
    "Adventure|Fantasy|Action",
    collection=119,
    countries=["NZ", "US"],
    companies=[12],
    cast=[(109, "Frodo Baggins"), (1327, "Gandalf")],
    crew=[(108, "Director")],
)
m(
    122,
    "The Lord of the Rings: The Return of the King",
    "2003-12-01",
    8.478,
    88.5,
    "Adventure|Fantasy|Action",
    collection=119,
    countries=["NZ", "US"],
    companies=[12],
    cast=[(109, "Frodo Baggins"), (1327, "Gandalf")],
    crew=[(108, "Director")],
)
FF = [
    (9799, "The Fast and the Furious", "2001-06-22", 6.985),
    (584, "2 Fast 2 Furious", "2003-06-05", 6.425),
    (9615, "The Fast and the Furious: Tokyo Drift", "2006-06-03", 6.452),
    (13804, "Fast & Furious", "2009-04-02", 6.697),
    (51497, "Fast Five", "2011-04-20", 7.295),
    (82992, "Fast & Furious 6", "2013-05-21", 6.911),
    (168259, "Furious 7", "2015-04-01", 7.221),
    (337339, "The Fate of the Furious", "2017-04-12", 6.857),
    (385128, "F9", "2021-05-19", 7.303),
    (385687, "Fast X", "2023-05-17", 7.262),
]
FF_REVIEWS = {
    9799: [
        rv(
            "quartermile_dan",
            "The first Fast and the Furious is a lean undercover-cop story; the street races and Vin Diesel's garage family set up everything that followed.",
        )
    ],
    51497: [
        rv(
            "heistnight",
            "Fast Five turns the series into a heist movie, and the vault chase through Rio is still the franchise's best set piece.",
        )
    ],
    385687: [
        rv(
            "popcornledger",
            "Fast X is loud and overstuffed; Jason Momoa's giggling villain is the only thing that feels new.",
        )
    ],
}
for i, (mid, title, date, vote) in enumerate(FF):
    m(
        mid,
        title,
        date,
        vote,
        40.0 + i * 3,
        "Action|Crime|Thriller",
        collection=9485,
        companies=[33],
        cast=[(12835, "Dominic Toretto"), (8167, "Brian O'Conner")]
        if mid in (9799, 13804, 51497, 82992, 168259)
        else (
            [(9100084, "Dante Reyes"), (12835, "Dominic Toretto")]
            if mid == 385687
            else [(12835, "Dominic Toretto")]
        ),
        crew=[(9100056, "Director")]
        if mid == 9799
        else ([(9100057, "Director")] if mid in (9615, 13804, 51497, 82992, 385128) else []),
        reviews=FF_REVIEWS.get(mid, []),
    )

# --- lists only (popular, now playing, top rated, discover, recommendations) -----------------------------
m(
    569094,
    "Spider-Man: Across the Spider-Verse",
    "2023-05-31",
    8.412,
    1180.6,
    "Action|Adventure|Animation|Science Fiction",
    cast=[(9100079, "Miles Morales (voice)")],
)
m(
    361743,
    "Top Gun: Maverick",
    "2022-05-24",
    8.274,
    95.3,
    "Action|Drama",
    cast=[(9100080, "Capt. Pete 'Maverick' Mitchell")],
)
m(438631, "Dune", "2021-09-15", 7.786, 110.2, "Science Fiction|Adventure", cast=[(9100081, "Paul Atreides")])
m(
    545611,
    "Everything Everywhere All at Once",
    "2022-03-24",
    7.812,
    60.8,
    "Action|Adventure|Science Fiction",
    cast=[(9100082, "Evelyn Quan Wang")],
)
m(414906, "The Batman", "2022-03-01", 7.697, 150.3, "Crime|Mystery|Thriller", cast=[(11288, "Bruce Wayne")])
m(
    447365,
    "Guardians of the Galaxy Vol. 3",
    "2023-05-03",
    8.021,
    530.4,
    "Science Fiction|Adventure|Action",
    cast=[(8691, "Gamora")],
)
m(
    575264,
    "Mission: Impossible - Dead Reckoning Part One",
    "2023-07-08",
    7.683,
    870.7,
    "Action|Thriller",
    cast=[(9100080, "Ethan Hunt")],
)
m(
    502356,
    "The Super Mario Bros. Movie",
    "2023-04-05",
    7.738,
    640.2,
    "Animation|Family|Adventure|Fantasy|Comedy",
)
m(389, "12 Angry Men", "1957-04-10", 8.542, 30.3, "Drama")
m(
    129,
    "Spirited Away",
    "2001-07-20",
    8.538,
    90.1,
    "Animation|Family|Fantasy",
    original_title="千と千尋の神隠し",
    original_language="ja",
    countries=["JP"],
)
m(13, "Forrest Gump", "1994-06-23", 8.477, 70.5, "Comedy|Drama|Romance", cast=[(9100071, "Forrest Gump")])
m(
    496243,
    "Parasite",
    "2019-05-30",
    8.511,
    80.4,
    "Comedy|Thriller|Drama",
    original_title="기생충",
    original_language="ko",
    countries=["KR"],
)
m(
    372058,
    "Your Name.",
    "2016-08-26",
    8.502,
    85.2,
    "Romance|Animation|Drama",
    original_title="君の名は。",
    original_language="ja",
    countries=["JP"],
)
