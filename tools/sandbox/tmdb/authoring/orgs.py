"""Companies, networks, collections and the frozen lists of the TMDB fixture.

Ids from 9_300_000 (companies) and 9_400_000 (networks) up are fixture-local.
"""

from __future__ import annotations

COMPANIES = [
    dict(id=2, name="Walt Disney Pictures", headquarters="Burbank, California, United States", homepage="https://movies.disney.com", parent=9300008),
    dict(id=6125, name="Walt Disney Animation Studios", headquarters="Burbank, California, United States", homepage="https://www.disneyanimation.com", parent=9300008),
    dict(id=9300008, name="The Walt Disney Company", headquarters="Burbank, California, United States", homepage="https://thewaltdisneycompany.com",
         description="Founded on October 16, 1923 by Walt and Roy O. Disney as the Disney Brothers Cartoon Studio."),
    dict(id=4, name="Paramount Pictures", headquarters="Hollywood, California, United States", homepage="https://www.paramount.com",
         description="Founded in 1912 as the Famous Players Film Company."),
    dict(id=33, name="Universal Pictures", headquarters="Universal City, California, United States", homepage="https://www.universalpictures.com",
         description="Founded on April 30, 1912 by Carl Laemmle and partners; headquartered at Universal City, California."),
    dict(id=521, name="DreamWorks Animation", headquarters="Glendale, California, United States", homepage="https://www.dreamworks.com", parent=33),
    dict(id=97, name="Castle Rock Entertainment", headquarters="Beverly Hills, California, United States", homepage="https://www.castle-rock.com",
         description="Founded in 1987 by Rob Reiner, Andrew Scheinman, Alan Horn, Glenn Padnick and Martin Shafer."),
    dict(id=1, name="Lucasfilm Ltd.", headquarters="San Francisco, California, United States", homepage="https://www.lucasfilm.com", parent=9300008,
         description="Founded by George Lucas in 1971 in San Rafael, California."),
    dict(id=25, name="20th Century Fox", headquarters="Los Angeles, California, United States", homepage="https://www.20thcenturystudios.com",
         description="Formed on May 31, 1935 by the merger of Fox Film Corporation and Twentieth Century Pictures."),
    dict(id=1957, name="Warner Bros. Television", headquarters="Burbank, California, United States", homepage="https://www.warnerbros.com/tv",
         description="Founded on March 21, 1955 as the television production arm of Warner Bros."),
    dict(id=9300001, name="Chuck Lorre Productions", headquarters="Burbank, California, United States", homepage=""),
    dict(id=174, name="Warner Bros. Pictures", headquarters="Burbank, California, United States", homepage="https://www.warnerbros.com", description="Founded on April 4, 1923."),
    dict(id=923, name="Legendary Pictures", headquarters="Burbank, California, United States", homepage="https://www.legendary.com"),
    dict(id=9996, name="Syncopy", headquarters="London, England, United Kingdom", homepage="", origin_country="GB"),
    dict(id=3268, name="HBO", headquarters="New York City, New York, United States", homepage="https://www.hbo.com", description="Home Box Office, launched on November 8, 1972."),
    dict(id=11073, name="Sony Pictures Television Studios", headquarters="Culver City, California, United States", homepage="https://www.sonypicturestelevision.com"),
    dict(id=12, name="New Line Cinema", headquarters="Burbank, California, United States", homepage="https://www.newline.com"),
    dict(id=9300003, name="The Weinstein Company", headquarters="New York City, New York, United States"),
    dict(id=9300004, name="Summit Entertainment", headquarters="Santa Monica, California, United States"),
    dict(id=9300005, name="LuckyChap Entertainment", headquarters="Los Angeles, California, United States"),
    dict(id=9300006, name="Bad Robot", headquarters="Santa Monica, California, United States", homepage="https://www.badrobot.com"),
    dict(id=9300007, name="Media Rights Capital", headquarters="Beverly Hills, California, United States"),
]

NETWORKS = [
    dict(id=49, name="HBO", headquarters="New York City, New York, United States", homepage="https://www.hbo.com"),
    dict(id=213, name="Netflix", headquarters="Los Gatos, California, United States", homepage="https://www.netflix.com"),
    dict(id=16, name="CBS", headquarters="New York City, New York, United States", homepage="https://www.cbs.com"),
    dict(id=6, name="NBC", headquarters="New York City, New York, United States", homepage="https://www.nbc.com"),
    dict(id=174, name="AMC", headquarters="New York City, New York, United States", homepage="https://www.amc.com"),
    dict(id=2739, name="Disney+", headquarters="Burbank, California, United States", homepage="https://www.disneyplus.com"),
    dict(id=26, name="Channel 4", headquarters="London, England, United Kingdom", homepage="https://www.channel4.com", origin_country="GB"),
    dict(id=2, name="ABC", headquarters="New York City, New York, United States", homepage="https://abc.com"),
    dict(id=67, name="Showtime", headquarters="New York City, New York, United States", homepage="https://www.sho.com"),
    dict(id=88, name="FX", headquarters="Los Angeles, California, United States", homepage="https://www.fxnetworks.com"),
    dict(id=33, name="MTV", headquarters="New York City, New York, United States", homepage="https://www.mtv.com"),
    dict(id=453, name="Hulu", headquarters="Santa Monica, California, United States", homepage="https://www.hulu.com"),
    dict(id=1024, name="Prime Video", headquarters="Seattle, Washington, United States", homepage="https://www.primevideo.com"),
    dict(id=2552, name="Apple TV+", headquarters="Cupertino, California, United States", homepage="https://tv.apple.com"),
    dict(id=9400001, name="Tokyo MX", headquarters="Tokyo, Japan", homepage="https://s.mxtv.jp", origin_country="JP"),
    dict(id=9400002, name="Nippon TV", headquarters="Tokyo, Japan", homepage="https://www.ntv.co.jp", origin_country="JP"),
    dict(id=9400003, name="BBC Two", headquarters="London, England, United Kingdom", homepage="https://www.bbc.co.uk/bbctwo", origin_country="GB"),
    dict(id=9400004, name="ABC (AU)", headquarters="Sydney, New South Wales, Australia", homepage="https://www.abc.net.au", origin_country="AU"),
    dict(id=9400005, name="TBS", headquarters="Tokyo, Japan", homepage="https://www.tbs.co.jp", origin_country="JP"),
    dict(id=9400006, name="Sky One", headquarters="London, England, United Kingdom", homepage="https://www.sky.com", origin_country="GB"),
    dict(id=9400007, name="History", headquarters="New York City, New York, United States", homepage="https://www.history.com"),
]

COLLECTIONS = [
    dict(id=10, name="Star Wars Collection", overview="An epic space-opera theatrical film series created by George Lucas.",
         parts=[11, 1891, 1892, 1893, 1894, 1895, 140607, 181808, 181812]),
    dict(id=1241, name="Harry Potter Collection", overview="The Harry Potter films, based on the novels by J.K. Rowling.", parts=[671, 672, 673, 674, 675, 767, 12444, 12445]),
    dict(id=131635, name="The Hunger Games Collection", overview="The Hunger Games films, based on the novels by Suzanne Collins.", parts=[70160, 101299, 131631, 131634]),
    dict(id=121938, name="The Hobbit Collection", overview="Peter Jackson's three-part adaptation of The Hobbit.", parts=[49051, 57158, 122917]),
    dict(id=9485, name="The Fast and the Furious Collection", overview="The Fast and the Furious film series.",
         parts=[9799, 584, 9615, 13804, 51497, 82992, 168259, 337339, 385128, 385687]),
    dict(id=119, name="The Lord of the Rings Collection", overview="Peter Jackson's adaptation of J.R.R. Tolkien's The Lord of the Rings.", parts=[120, 121, 122]),
    dict(id=263, name="The Dark Knight Collection", overview="Christopher Nolan's Batman trilogy.", parts=[272, 155, 49026]),
    dict(id=87096, name="Avatar Collection", overview="James Cameron's Avatar films.", parts=[19995, 76600]),
]

LISTS = dict(
    frozen_at="2023-07-24",
    note=("Time-dependent lists are frozen as of 2023-07-24 (the Monday after Barbie and Oppenheimer opened). Entity facts are real-world facts as "
          "known to the fixture authors; ids below 9,000,000 are the real TMDB ids where the authors knew them, ids from 9,100,000 (people), "
          "9,200,000 (movies), 9,300,000 (companies), 9,400,000 (networks) and 9,500,000 (TV) are fixture-local stand-ins. Credit lists are "
          "partial: they hold the works the fixture needs (a person's count of directed films counts fixture films). Fixture decisions: "
          "/movie/latest is Oppenheimer; Mulholland Drive is not in the top-rated top 10; We Married as Job has a movie entry (its 2021 special) "
          "so that RestBench query 97's /search/movie finds it; Black Mirror's show credits carry per-episode roles; company descriptions "
          "carry founding facts (TMDB's company record has no founding date)."),
    movie_popular=[346698, 872585, 569094, 575264, 447365, 502356, 76600, 385687, 315162, 414906, 361743, 438631, 157336, 27205, 238, 155, 597, 278, 603, 19995],
    movie_top_rated=[238, 278, 240, 424, 389, 129, 155, 496243, 372058, 680, 122, 769, 13, 346, 120, 157336, 121, 1891, 27205, 569094],
    movie_now_playing=[872585, 346698, 575264, 569094, 447365, 385687],
    movie_upcoming=[466420],
    movie_latest=872585,
    tv_popular=[1399, 71912, 114472, 615, 100088, 1396, 94997, 66732, 82856, 93740, 1668, 1418, 1402, 45782, 42009],
    tv_top_rated=[1396, 94605, 87108, 60059, 4613, 1438, 13916, 1398, 100088, 82856, 1668, 60574, 1399, 76331, 66732, 42009],
    tv_on_the_air=[71912, 114472, 615, 93740],
    tv_airing_today=[615, 114472],
    tv_latest=615,
    person_popular=[234352, 2037, 30614, 1253360, 6193, 1245, 73968, 5081, 1223786, 3223],
    trending_movie_day=[872585, 346698, 575264, 569094, 385687],
    trending_movie_week=[346698, 872585, 575264, 447365, 569094],
    trending_tv_day=[71912, 114472, 615, 1399, 100088],
    trending_tv_week=[71912, 1399, 114472, 100088, 615],
    trending_person_day=[234352, 2037, 30614],
    trending_person_week=[2037, 234352, 30614],
)
