"""Word pools the padding generator draws plausible names, titles and texts from.

Invented combinations only: a generated person, film or show is labelled generated (its id is in
the padding ranges of ``generate``) and never stands for a real one.
"""

from __future__ import annotations


def _list(text: str, sep: str | None = None) -> tuple[str, ...]:
    return tuple(text.split(sep))


FIRST_F = _list(
    "Anna Maria Elena Sofia Laura Julia Clara Emma Olivia Grace Hannah Nora Ruth Alice Eva Lena Mia Zoe Ella Rosa Ines Lucia "
    "Marta Paula Irene Diane Carol Susan Karen Megan Rachel Naomi Helen Vera Ingrid Astrid Yuki Mei Hana Aiko Priya Leila Amara Chloe "
    "Daphne Fiona Gemma Holly Iris Jade Kate Lydia Maya Nina Opal Pearl Rita Tess Uma Violet Wendy"
)
FIRST_M = _list(
    "James John Robert Michael David William Richard Thomas Charles Daniel Matthew Anthony Mark Paul Steven Andrew Kevin Brian George "
    "Edward Peter Henry Samuel Oliver Lucas Hugo Felix Oscar Victor Marco Luca Pablo Diego Carlos Andre Ivan Nikolai Kenji Hiroshi "
    "Takeshi Wei Jun Ravi Omar Tariq Kofi Liam Noah Ethan Owen Caleb Dean Frank Grant Harvey Isaac Jack Karl Leon Miles Neil Ray"
)
SURNAMES = _list(
    "Abbott Alvarez Andersen Archer Baker Barnes Bauer Bell Bennett Berg Blake Brandt Brennan Brooks Burke Byrne Calloway Cardenas "
    "Carver Chandler Chen Clarke Cole Conti Crane Dalton Delgado Dixon Doyle Drummond Duarte Ellison Eriksen Farrell Fischer Fleming "
    "Ford Foster Garrett Gallo Gibson Greer Hale Halvorsen Hart Hayes Holt Hughes Ibarra Ito Jansen Kaplan Keller Kim Kowalski Lambert "
    "Lang Lindqvist Lowe Maddox Marsh Mendez Meyer Moreau Murphy Nakamura Novak Oakley Ortega Park Petrov Pike Quinn Reyes Rhodes "
    "Rossi Sandoval Schmidt Serrano Shaw Silva Sloane Sorensen Stone Tanaka Thorne Vance Vargas Voss Walsh Weber Whitaker Wolfe Yates "
    "Zhang Ziegler"
)
PLACES = _list(
    "London, England, UK|Paris, France|Los Angeles, California, USA|New York City, New York, USA|Toronto, Ontario, Canada|"
    "Sydney, New South Wales, Australia|Berlin, Germany|Madrid, Spain|Rome, Italy|Stockholm, Sweden|Tokyo, Japan|Seoul, South Korea|"
    "Mexico City, Mexico|Chicago, Illinois, USA|Dublin, Ireland|Melbourne, Victoria, Australia|Vancouver, British Columbia, Canada|"
    "Boston, Massachusetts, USA|Manchester, England, UK|Oslo, Norway|Lyon, France|Hamburg, Germany|Osaka, Japan|Austin, Texas, USA",
    "|",
)
TITLE_ADJ = _list(
    "Silent Broken Hidden Last Golden Crimson Endless Distant Wild Frozen Burning Secret Lonely Midnight Savage Quiet Bitter Fallen "
    "Lost Hollow Restless Scarlet Shattered Velvet Northern Southern Electric Dangerous Little Perfect"
)
TITLE_NOUN = _list(
    "Harbor River Summer Winter Road Garden Empire Shadow Mirror Letter Island Promise Horizon Storm Witness Kingdom Voyage Circle "
    "Border Season Orchard Lantern Signal Frontier Echo Ghost Heart House Station Valley Bridge Canyon Tide Falcon Compass"
)
TITLE_FORMS = (
    "The {adj} {noun}",
    "{adj} {noun}",
    "A {noun} in {place}",
    "The {noun} of {place}",
    "{noun}s",
    "After the {noun}",
    "Beyond the {adj} {noun}",
    "{place} {noun}",
    "The {noun}keeper",
    "Under the {adj} {noun}",
)
TITLE_PLACES = _list(
    "Paris Vienna Lisbon Havana Kyoto Marseille Alaska Montana Tangier Brooklyn Galway Naples Memphis Odessa Patagonia"
)
SHOW_FORMS = (
    "The {adj} {noun}",
    "{noun} Street",
    "{place} Nights",
    "The {noun} Files",
    "Inside the {noun}",
    "{adj} {noun}",
    "The {noun} Show",
    "Late Night {place}",
    "{place} Live",
    "Good Morning {place}",
)
ROLES = _list(
    "Reporter|Nurse|Officer|Bartender|Waitress|Doctor|Student|Neighbor|Driver|Guard|Detective|Passenger|Teacher|Clerk|Priest|"
    "Soldier|Photographer|Lawyer|Receptionist|Mechanic|Mother|Father|Young Girl|Young Boy|Agent|Pilot|Singer|Dancer|Crowd Member|"
    "Security Guard|Paramedic|Journalist|Shop Owner|Waiter|Sailor|Technician|Scientist|Man in Bar|Woman at Party|Self",
    "|",
)
CREW_JOBS = (
    ("Producer", "Production"),
    ("Executive Producer", "Production"),
    ("Casting", "Production"),
    ("Original Music Composer", "Sound"),
    ("Director of Photography", "Camera"),
    ("Editor", "Editing"),
    ("Production Design", "Art"),
    ("Art Direction", "Art"),
    ("Set Decoration", "Art"),
    ("Costume Design", "Costume & Make-Up"),
    ("Makeup Artist", "Costume & Make-Up"),
    ("Sound Designer", "Sound"),
    ("Supervising Sound Editor", "Sound"),
    ("Visual Effects Supervisor", "Visual Effects"),
    ("Stunt Coordinator", "Crew"),
    ("Gaffer", "Lighting"),
    ("Key Grip", "Camera"),
    ("Camera Operator", "Camera"),
    ("Script Supervisor", "Crew"),
    ("Location Manager", "Production"),
    ("Unit Production Manager", "Production"),
    ("Hairstylist", "Costume & Make-Up"),
    ("Music Supervisor", "Sound"),
    ("Colorist", "Editing"),
    ("Line Producer", "Production"),
)
#: jobs a padded credit may carry on a real (authored) person: never Directing or Writing, so no count of directed or
#: written works, and no "who directed" answer, can change
PERSON_JOBS = ("Producer", "Executive Producer", "Thanks", "Casting", "Original Music Composer", "Editor")
DEPARTMENTS = ("Acting",) * 7 + (
    "Directing",
    "Writing",
    "Production",
    "Camera",
    "Sound",
    "Art",
    "Editing",
    "Crew",
)
COUNTRIES = _list(
    "US GB FR DE IT ES CA AU JP KR BR MX NL SE NO DK FI PL PT IE NZ AR CL HU CZ GR TR IN RU CN HK TW TH SG PH ID "
    "ZA BE CH AT IL RO BG"
)
CERTS = {
    "US": "PG-13",
    "GB": "12A",
    "FR": "U",
    "DE": "12",
    "IT": "T",
    "ES": "12",
    "CA": "PG",
    "AU": "M",
    "JP": "G",
    "KR": "15",
    "BR": "12",
    "MX": "B",
    "NL": "12",
    "SE": "11",
    "NO": "12",
    "DK": "11",
    "FI": "K-12",
    "IE": "12A",
    "NZ": "M",
    "PT": "M/12",
}
LANGS = ("en",) * 10 + ("fr", "de", "es", "it", "ja", "ko", "sv", "pt", "zh", "hi", "da", "no")
MOVIE_GENRES = (
    "Drama",
    "Comedy",
    "Thriller",
    "Romance",
    "Action",
    "Horror",
    "Crime",
    "Documentary",
    "Adventure",
    "Science Fiction",
    "Family",
    "Mystery",
    "Fantasy",
    "Animation",
    "Music",
    "History",
    "War",
    "Western",
    "TV Movie",
)
TV_GENRES = (
    "Drama",
    "Comedy",
    "Crime",
    "Documentary",
    "Reality",
    "Talk",
    "Mystery",
    "Family",
    "Kids",
    "News",
    "Sci-Fi & Fantasy",
    "Action & Adventure",
    "Animation",
    "Soap",
)
SENTENCES = (
    "A {noun} in {place} changes everything for {name}.",
    "When {name} returns to {place}, an old {noun} resurfaces.",
    "{name} must choose between the {noun} and everything {pron} has built.",
    "Years after the {adj} {noun}, the truth comes out.",
    "A story of friendship, loss and the {adj} {noun} that binds a family together.",
    "Nobody in {place} expected the {noun} to come back.",
    "{name} takes one last job that goes terribly wrong.",
)
REVIEW_LINES = (
    "I went in with low expectations and came out pleasantly surprised.",
    "The performances carry the film even when the script wobbles.",
    "Visually stunning, with a score that lingers long after the credits roll.",
    "The pacing in the second act drags, but the finale lands.",
    "It is not perfect, but it is ambitious, and I admire that.",
    "A rewatch only deepened my appreciation for the craft on display.",
    "The dialogue feels natural and the characters are drawn with real care.",
    "Some scenes overstay their welcome; others are simply unforgettable.",
    "I can see why this has such a devoted following.",
    "The cinematography does a lot of the storytelling on its own.",
    "My only real complaint is the runtime.",
    "It balances humour and tension better than most films of its kind.",
    "Overall a solid recommendation, especially on a big screen.",
    "The supporting cast deserves more credit than it usually gets.",
)
USER_WORDS = _list(
    "film movie cine reel screen night popcorn critic watcher fan buff geek owl wolf fox raven"
)
