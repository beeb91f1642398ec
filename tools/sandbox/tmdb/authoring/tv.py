"""TV shows of the TMDB fixture (authoring source for ``fixtures/tv.json``); ids >= 9_500_000 are fixture-local."""

from __future__ import annotations

from typing import Any

SHOWS: list[dict[str, Any]] = []


def t(id: int, name: str, first: str, last: str | None, vote: float, pop: float, genres: str, **kw: Any) -> None:
    SHOWS.append({"id": id, "name": name, "first_air_date": first, "last_air_date": last, "vote_average": vote, "popularity": pop, "genres": [g for g in genres.split("|") if g], **kw})


def s(n: int, air: str, count: int, **kw: Any) -> dict[str, Any]:
    return {"season_number": n, "air_date": air, "episode_count": count, **kw}


def e(n: int, name: str, air: str, overview: str = "", **kw: Any) -> dict[str, Any]:
    return {"episode_number": n, "name": name, "air_date": air, "overview": overview, **kw}


def rv(author: str, content: str) -> dict[str, str]:
    return {"author": author, "content": content}


t(1396, "Breaking Bad", "2008-01-20", "2013-09-29", 8.891, 310.4, "Drama|Crime", networks=[174], companies=[11073], created_by=[66633],
  overview="Walter White, a New Mexico chemistry teacher diagnosed with Stage III cancer, turns to manufacturing and selling methamphetamine to secure his family's future.",
  homepage="https://www.sonypictures.com/tv/breakingbad", episode_run_time=[45, 47],
  seasons=[s(1, "2008-01-20", 7), s(2, "2009-03-08", 13), s(3, "2010-03-21", 13), s(4, "2011-07-17", 13), s(5, "2012-07-15", 16)],
  cast=[(17419, "Walter White"), (84497, "Jesse Pinkman")], crew=[(66633, "Executive Producer")],
  keywords=["new mexico", "drug dealer", "chemistry teacher", "methamphetamine", "cancer", "crime lord", "drug cartel"],
  similar=[60059, 1398, 63351], recommendations=[60059, 1398, 69740, 60574],
  reviews=[rv("albuquerque_nights", "Breaking Bad is the rare drama that gets better every season: Bryan Cranston's slide from teacher to kingpin is frighteningly believable."),
           rv("sixtytwo_episodes", "Tight plotting, a perfect ending, and Aaron Paul breaking your heart along the way.")])
t(71912, "The Witcher", "2019-12-20", "2023-07-27", 8.137, 812.6, "Sci-Fi & Fantasy|Drama|Action & Adventure", networks=[213], companies=[], created_by=[9100016],
  overview="Geralt of Rivia, a mutated monster-hunter for hire, journeys toward his destiny in a turbulent world where people often prove more wicked than beasts.",
  homepage="https://www.netflix.com/title/80189685", status="Returning Series", in_production=True, origin_country=["US"], episode_run_time=[60],
  seasons=[s(1, "2019-12-20", 8, episodes=[e(1, "The End's Beginning", "2019-12-20"),
                                        e(2, "Four Marks", "2019-12-20", "Bullied and neglected, Yennefer accidentally finds a means of escape. Geralt and Jaskier are accused of murder in the countryside.",
                                          crew=[(9100085, "Director")], images=3)]),
           s(2, "2021-12-17", 8), s(3, "2023-06-29", 8)],
  cast=[(73968, "Geralt of Rivia"), (9100014, "Yennefer of Vengerberg"), (9100015, "Ciri")], crew=[(9100016, "Executive Producer")],
  keywords=["monster", "sorcery", "based on novel or book", "based on video game", "sword and sorcery", "magic"],
  similar=[1399, 94997, 84773], recommendations=[1399, 94997, 66732],
  reviews=[rv("kaermorhen_kate", "Henry Cavill is a perfect Geralt; the three timelines of the first season are confusing until the finale snaps them together."),
           rv("bardic_notes", "Toss a coin to the music department. The third season's split release hurts its momentum, but the Yennefer story stays strong.")])
t(1425, "House of Cards", "2013-02-01", "2018-11-02", 7.657, 74.0, "Drama", networks=[213], companies=[9300007], created_by=[9100021],
  overview="Ruthless and cunning, Congressman Francis Underwood and his wife Claire stop at nothing to conquer everything in Washington.",
  seasons=[s(1, "2013-02-01", 13, crew=[(7467, "Director"), (9100017, "Director"), (9100018, "Director"), (9100019, "Director"), (9100020, "Director")]),
           s(2, "2014-02-14", 13), s(3, "2015-02-27", 13), s(4, "2016-03-04", 13), s(5, "2017-05-30", 13), s(6, "2018-11-02", 8)],
  cast=[(1979, "Francis Underwood"), (32, "Claire Underwood")], crew=[(9100021, "Executive Producer"), (7467, "Executive Producer")],
  similar=[688, 76331, 1396], recommendations=[76331, 688])
t(100088, "The Last of Us", "2023-01-15", "2023-03-12", 8.646, 402.0, "Drama", networks=[49], created_by=[9100023, 9100024], status="Returning Series", in_production=True,
  overview="Twenty years after modern civilization has been destroyed, Joel, a hardened survivor, is hired to smuggle Ellie, a 14-year-old girl, out of an oppressive quarantine zone.",
  seasons=[s(1, "2023-01-15", 9)], cast=[(1253360, "Joel Miller"), (9100022, "Ellie Williams")], crew=[(9100023, "Executive Producer")],
  similar=[1402, 66732], recommendations=[1402, 94997, 66732, 1399])
t(1668, "Friends", "1994-09-22", "2004-05-06", 8.443, 290.7, "Comedy", networks=[6], companies=[1957], created_by=[9100087, 9100088],
  overview="Six young people from New York City, on their own and struggling to survive in the real world, find the companionship, comfort and support they get from each other to be the perfect antidote to the pressures of life.",
  seasons=[s(1, "1994-09-22", 24), s(2, "1995-09-21", 24),
           s(3, "1996-09-19", 25, episodes=[e(24, "The One with the Ultimate Fighting Champion", "1997-05-01",
                                              "Monica dates a millionaire, Pete, who wants to become the Ultimate Fighting Champion. Chandler cannot tell his new boss to stop slapping his butt.",
                                              guest_stars=[(15277, "Pete Becker"), (9100025, "Tank Abbott")], crew=[(9100089, "Director")]),
                                            e(25, "The One at the Beach", "1997-05-15")]),
           s(4, "1997-09-25", 24), s(5, "1998-09-24", 24), s(6, "1999-09-23", 25), s(7, "2000-10-12", 24), s(8, "2001-09-27", 24), s(9, "2002-09-26", 24), s(10, "2003-09-25", 18)],
  cast=[(4491, "Rachel Green"), (14405, "Monica Geller"), (14406, "Phoebe Buffay"), (14407, "Joey Tribbiani"), (14408, "Chandler Bing"), (14409, "Ross Geller")])
t(9500001, "2 Broke Girls", "2011-09-19", "2017-04-17", 7.321, 80.3, "Comedy", networks=[16], companies=[1957], created_by=[9100028, 9100029],
  overview="Two young women waitressing at a Brooklyn diner become friends and start a cupcake business.", images=3,
  seasons=[s(1, "2011-09-19", 24), s(2, "2012-09-24", 24), s(3, "2013-09-23", 24), s(4, "2014-10-27", 22), s(5, "2015-11-12", 22), s(6, "2016-10-10", 22)],
  cast=[(9100026, "Max Black"), (9100027, "Caroline Channing")])
t(1418, "The Big Bang Theory", "2007-09-24", "2019-05-16", 7.917, 340.2, "Comedy", networks=[16], companies=[9300001, 1957], created_by=[9100033, 9100034],
  overview="Physicists Leonard and Sheldon find their nerd-centric social circle expanding when aspiring actress Penny moves in across the hall.",
  seasons=[s(1, "2007-09-24", 17), s(2, "2008-09-22", 23, images=3), s(3, "2009-09-21", 23), s(4, "2010-09-23", 24), s(5, "2011-09-22", 24), s(6, "2012-09-27", 24),
           s(7, "2013-09-26", 24), s(8, "2014-09-22", 24), s(9, "2015-09-21", 24), s(10, "2016-09-19", 24), s(11, "2017-09-25", 24), s(12, "2018-09-24", 24)],
  cast=[(9100030, "Leonard Hofstadter"), (9100031, "Sheldon Cooper"), (9100032, "Penny")])
t(63247, "Westworld", "2016-10-02", "2022-08-14", 8.066, 95.1, "Sci-Fi & Fantasy|Western|Drama", networks=[49], created_by=[9100035, 9100036],
  seasons=[s(1, "2016-10-02", 10), s(2, "2018-04-22", 10, episodes=[e(3, "Virtù e Fortuna", "2018-05-06",
           "Glimpses of a new park, The Raj, are revealed as a guest is hunted by a Bengal tiger. Bernard and Charlotte search for Peter Abernathy, while Dolores prepares her forces for a confrontation with Delos.",
           crew=[(9100037, "Director")])]), s(3, "2020-03-15", 8), s(4, "2022-06-26", 8)],
  cast=[(38940, "Dolores Abernathy"), (2954, "Bernard Lowe"), (228, "Man in Black")])
t(1399, "Game of Thrones", "2011-04-17", "2019-05-19", 8.443, 1120.5, "Sci-Fi & Fantasy|Drama|Action & Adventure", networks=[49], companies=[3268], created_by=[9813, 228068],
  overview="Seven noble families fight for control of the mythical land of Westeros, while an ancient enemy returns after being dormant for a millennia.",
  homepage="https://www.hbo.com/game-of-thrones",
  seasons=[s(0, "2010-12-05", 14, name="Specials"), s(1, "2011-04-17", 10), s(2, "2012-04-01", 10, crew=[(9100090, "Director")]), s(3, "2013-03-31", 10),
           s(4, "2014-04-06", 10), s(5, "2015-04-12", 10), s(6, "2016-04-24", 10), s(7, "2017-07-16", 7), s(8, "2019-04-14", 6)],
  cast=[(1223786, "Daenerys Targaryen"), (239019, "Jon Snow"), (22970, "Tyrion Lannister"), (17286, "Cersei Lannister")],
  crew=[(9813, "Executive Producer"), (228068, "Executive Producer")],
  keywords=["based on novel or book", "kingdom", "dragon", "king", "intrigue", "fantasy world", "political intrigue"],
  similar=[94997, 71912, 44217], recommendations=[94997, 1402, 71912])
t(4613, "Band of Brothers", "2001-09-09", "2001-11-04", 8.600, 60.2, "Drama|War & Politics", networks=[49], type="Miniseries",
  seasons=[s(1, "2001-09-09", 10, episodes=[e(3, "Carentan", "2001-09-16",
           "Easy Company fights to take the town of Carentan, and Private Albert Blithe struggles with the shock of combat.", crew=[(9100038, "Director")], images=3)])],
  cast=[(17288, "Maj. Richard D. Winters"), (14409, "Capt. Herbert M. Sobel")], crew=[(488, "Executive Producer"), (9100071, "Executive Producer")])
t(82856, "The Mandalorian", "2019-11-12", "2023-04-19", 8.480, 230.9, "Sci-Fi & Fantasy|Action & Adventure|Drama", networks=[2739], companies=[1], created_by=[15277],
  overview="After the fall of the Galactic Empire, a lone gunfighter makes his way through the outer reaches of the lawless galaxy.", status="Returning Series", in_production=True,
  seasons=[s(1, "2019-11-12", 8), s(2, "2020-10-30", 8, episodes=[e(3, "Chapter 11: The Heiress", "2020-11-13",
           "The Mandalorian braves high seas and meets unexpected allies, Mandalorians led by Bo-Katan Kryze.", guest_stars=[(9100039, "Bo-Katan Kryze")],
           crew=[(18997, "Director")])]), s(3, "2023-03-01", 8)],
  cast=[(1253360, "The Mandalorian / Din Djarin")], crew=[(15277, "Executive Producer")])
t(42009, "Black Mirror", "2011-12-04", "2023-06-15", 8.296, 160.4, "Sci-Fi & Fantasy|Drama|Mystery", networks=[26, 213], created_by=[9100040], origin_country=["GB"],
  overview="An anthology series exploring a twisted, high-tech near-future where humanity's greatest innovations and darkest instincts collide.",
  seasons=[s(1, "2011-12-04", 3),
           s(2, "2013-02-11", 3, cast=[(39459, "Martha Powell"), (93210, "Ash Starmer"), (9100042, "Victoria Skillane"), (9100044, "Jamie Salter / Waldo")],
             crew=[(9100041, "Director"), (9100043, "Director"), (9100045, "Director")],
             episodes=[e(1, "Be Right Back", "2013-02-11", "After learning about a new service that lets people stay in touch with the deceased, a lonely, grieving Martha reconnects with her late lover.",
                         guest_stars=[(39459, "Martha Powell"), (93210, "Ash Starmer")], crew=[(9100041, "Director")]),
                       e(2, "White Bear", "2013-02-18", "Victoria wakes up and cannot remember anything about her life; everyone she encounters refuses to communicate with her.",
                         guest_stars=[(9100042, "Victoria Skillane")], crew=[(9100043, "Director")]),
                       e(3, "The Waldo Moment", "2013-02-25", "A failed comedian who voices a popular cartoon bear named Waldo finds himself mixing in politics when TV executives want Waldo to run for office.",
                         guest_stars=[(9100044, "Jamie Salter / Waldo")], crew=[(9100045, "Director")])]),
           s(3, "2016-10-21", 6), s(4, "2017-12-29", 6), s(5, "2019-06-05", 3), s(6, "2023-06-15", 5)],
  cast=[(39459, "Martha Powell (\"Be Right Back\")"), (93210, "Ash Starmer (\"Be Right Back\")"), (9100044, "Jamie Salter (\"The Waldo Moment\")")],
  crew=[(9100040, "Executive Producer")])
t(1920, "Twin Peaks", "1990-04-08", "2017-09-03", 8.203, 55.4, "Drama|Crime|Mystery", networks=[2, 67], created_by=[5602, 9100011],
  overview="The body of Laura Palmer is washed up on a beach near the small Washington state town of Twin Peaks, and FBI Special Agent Dale Cooper is called in to investigate.",
  seasons=[s(1, "1990-04-08", 8, crew=[(5602, "Director"), (9100047, "Director"), (9100048, "Director"), (9100049, "Director"), (9100050, "Director"), (9100051, "Director")]),
           s(2, "1990-09-30", 22), s(3, "2017-05-21", 18, name="The Return")],
  cast=[(6677, "Special Agent Dale Cooper"), (9100046, "Laura Palmer")], crew=[(5602, "Executive Producer"), (9100011, "Executive Producer")])
t(45782, "Sword Art Online", "2012-07-08", "2020-09-20", 7.430, 120.8, "Animation|Action & Adventure|Sci-Fi & Fantasy", original_name="ソードアート・オンライン", original_language="ja",
  origin_country=["JP"], networks=[9400001], type="Scripted",
  seasons=[s(0, "2012-12-29", 10, name="Specials"), s(1, "2012-07-08", 25), s(2, "2014-07-05", 24), s(3, "2018-10-07", 47, name="Alicization")],
  cast=[(9100052, "Kazuto Kirigaya / Kirito (voice)"), (9100053, "Asuna Yuuki (voice)")])
t(13916, "DEATH NOTE", "2006-10-04", "2007-06-27", 8.563, 130.5, "Animation|Mystery|Sci-Fi & Fantasy|Crime", original_name="デスノート", original_language="ja",
  origin_country=["JP"], networks=[9400002],
  seasons=[s(1, "2006-10-04", 37)], cast=[(9100012, "Light Yagami (voice)"), (9100013, "L (voice)")], crew=[(9100091, "Director")])
t(9500002, "Top Gear", "2002-10-20", "2022-12-18", 7.900, 70.6, "Reality|Talk", networks=[9400003], origin_country=["GB"], type="Reality",
  seasons=[s(1, "2002-10-20", 10)], number_of_episodes=253,
  cast=[(9100004, "Himself - Presenter"), (9100005, "Himself - Presenter"), (9100006, "Himself - Presenter")])
t(9500003, "The Grand Tour", "2016-11-18", "2023-09-15", 8.000, 48.1, "Reality|Comedy", networks=[1024], origin_country=["GB"], type="Reality",
  seasons=[s(1, "2016-11-18", 13)], number_of_episodes=46,
  cast=[(9100004, "Himself - Presenter"), (9100005, "Himself - Presenter"), (9100006, "Himself - Presenter")])
t(9500004, "Clarkson's Farm", "2021-06-11", "2023-02-10", 8.500, 30.9, "Reality|Documentary", networks=[1024], origin_country=["GB"], type="Reality",
  seasons=[s(1, "2021-06-11", 8), s(2, "2023-02-10", 8)], cast=[(9100004, "Himself")])
t(9500005, "Mrs. America", "2020-04-15", "2020-05-27", 7.600, 18.7, "Drama|War & Politics", networks=[88], type="Miniseries",
  overview="The true story of the movement to ratify the Equal Rights Amendment, and the unexpected backlash led by conservative activist Phyllis Schlafly.",
  seasons=[s(1, "2020-04-15", 9)], cast=[(112, "Phyllis Schlafly"), (9100093, "Gloria Steinem")],
  reviews=[rv("era_archive", "Cate Blanchett makes Phyllis Schlafly magnetic without ever softening her; each episode centres a different woman of the movement, and the format pays off.")])
t(9500006, "Stateless", "2020-03-01", "2020-04-05", 7.100, 12.9, "Drama", networks=[9400004], origin_country=["AU"], type="Miniseries",
  seasons=[s(1, "2020-03-01", 6)], cast=[(9100094, "Sofie Werner"), (112, "Pat Masters")], crew=[(112, "Executive Producer")],
  reviews=[rv("outback_screen", "A sober drama about an Australian immigration detention centre; Blanchett's role is small but the ensemble is strong.")])
t(9500007, "Eye Candy", "2015-01-12", "2015-03-30", 6.700, 14.0, "Drama|Crime|Mystery", networks=[33], seasons=[s(1, "2015-01-12", 10)],
  cast=[(9100095, "Lindy Sampson")], crew=[(9100007, "Director"), (9100007, "Executive Producer")])
t(9500008, "We Married as Job!", "2016-10-11", "2016-12-20", 7.900, 22.0, "Comedy|Drama", original_name="逃げるは恥だが役に立つ", original_language="ja", origin_country=["JP"],
  networks=[9400005], seasons=[s(1, "2016-10-11", 11)], cast=[(9100001, "Mikuri Moriyama"), (9100002, "Hiramasa Tsuzaki")])
t(9500009, "Intelligence", "2020-02-20", "2021-07-19", 6.400, 9.8, "Comedy", networks=[9400006], origin_country=["GB"], seasons=[s(1, "2020-02-20", 6), s(2, "2021-06-10", 6)],
  cast=[(14409, "Jerry Bernstein")])
# shows that appear only in frozen lists / recommendations
for tid, name, first, vote, pop, genres, net in [
    (60059, "Better Call Saul", "2015-02-08", 8.7, 160.0, "Crime|Drama", 174), (1398, "The Sopranos", "1999-01-10", 8.6, 120.0, "Drama|Crime", 49),
    (63351, "Narcos", "2015-08-28", 8.1, 80.0, "Crime|Drama", 213), (69740, "Ozark", "2017-07-21", 8.2, 70.0, "Crime|Drama", 213),
    (60574, "Peaky Blinders", "2013-09-12", 8.5, 110.0, "Drama|Crime", 9400003), (688, "The West Wing", "1999-09-22", 8.0, 40.0, "Drama|War & Politics", 6),
    (76331, "Succession", "2018-06-03", 8.3, 90.0, "Drama|Comedy", 49), (1402, "The Walking Dead", "2010-10-31", 8.1, 300.0, "Action & Adventure|Drama|Sci-Fi & Fantasy", 174),
    (66732, "Stranger Things", "2016-07-15", 8.6, 350.0, "Drama|Sci-Fi & Fantasy|Mystery", 213), (94997, "House of the Dragon", "2022-08-21", 8.4, 700.0, "Sci-Fi & Fantasy|Drama|Action & Adventure", 49),
    (84773, "The Lord of the Rings: The Rings of Power", "2022-09-01", 7.3, 150.0, "Action & Adventure|Sci-Fi & Fantasy|Drama", 1024),
    (44217, "Vikings", "2013-03-03", 8.1, 140.0, "Action & Adventure|Drama|War & Politics", 9400007), (94605, "Arcane", "2021-11-06", 8.75, 100.0, "Animation|Sci-Fi & Fantasy|Action & Adventure", 213),
    (87108, "Chernobyl", "2019-05-06", 8.68, 60.0, "Drama", 49), (1438, "The Wire", "2002-06-02", 8.56, 65.0, "Crime|Drama", 49),
]:
    t(tid, name, first, None, vote + 0.004, pop, genres, networks=[net], seasons=[s(1, first, 10)])
t(615, "Futurama", "1999-03-28", "2023-07-24", 8.392, 420.0, "Animation|Comedy|Sci-Fi & Fantasy", networks=[453], status="Returning Series", in_production=True,
  seasons=[s(11, "2023-07-24", 10)], number_of_episodes=150, cast=[(9100096, "Philip J. Fry (voice)"), (9100097, "Turanga Leela (voice)")])
t(93740, "Foundation", "2021-09-23", "2023-07-14", 7.612, 260.0, "Sci-Fi & Fantasy|Drama", networks=[2552], status="Returning Series", in_production=True,
  seasons=[s(1, "2021-09-23", 10), s(2, "2023-07-14", 10)], cast=[(9100098, "Hari Seldon"), (9100099, "Brother Day")])
t(114472, "Secret Invasion", "2023-06-21", "2023-07-26", 6.512, 540.0, "Drama|Action & Adventure|Sci-Fi & Fantasy", networks=[2739], type="Miniseries", status="Ended",
  seasons=[s(1, "2023-06-21", 6)], cast=[(2231, "Nick Fury")])
