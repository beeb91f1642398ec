"""``assistantbench-local`` tasks in AssistantBench's style: several sites per task, several pages
per site (detail pages hold the facts the lists do not), a little arithmetic or date reasoning,
and every gold type (number, string, list of strings, JSON objects)."""

from __future__ import annotations

from restgraph.tools.browser.sites.plan import LocalTask, open_page, open_site, visit


def eats_search(neighborhood: str = "", cuisine: str = "") -> list[tuple]:
    steps: list[tuple] = [*open_site("eats")]
    if neighborhood:
        steps.append(("select", "Neighborhood", neighborhood))
    if cuisine:
        steps.append(("select", "Cuisine", cuisine))
    return [*steps, ("click", "button", "Find restaurants")]


def care_search(neighborhood: str, age: str = "") -> list[tuple]:
    steps: list[tuple] = [*open_site("care"), ("select", "Neighborhood", neighborhood)]
    return [*steps, *([("select", "Child's age", age)] if age else []), ("click", "button", "Find childcare")]


def event(author: str) -> list[tuple]:
    return [*open_site("events"), ("click", "link", f"Event details: {author}")]


MULTI_SITE: list[LocalTask] = [
    LocalTask(
        "eats-oldtown-latest-saturday",
        "Which restaurant in Riverton's Old Town neighborhood listed on Riverton Eats stays open the latest on Saturdays?",
        "Trattoria Lume", "string",
        [*eats_search("Old Town"), *visit("Dumpling House", "Old Town Creperie", "Museum Kitchen"), ("click", "link", "Trattoria Lume"), ("answer", "Trattoria Lume")],
        "Hard", ("eats",),
    ),
    LocalTask(
        "eats-italian-cheapest-dish",
        'For each Italian restaurant on Riverton Eats, give its cheapest menu item\'s price as JSON objects with keys "restaurant" and "price" (US dollars).',
        '{"restaurant": "Trattoria Lume", "price": 9}\n{"restaurant": "Nonna\'s Table", "price": 7.5}\n{"restaurant": "Harbor Pasta Bar", "price": 6}', "dict",
        [*eats_search(cuisine="Italian"), *visit("Trattoria Lume", "Nonna's Table"), ("click", "link", "Harbor Pasta Bar"),
         ("answer", '[{"restaurant": "Trattoria Lume", "price": 9}, {"restaurant": "Nonna\'s Table", "price": 7.5}, {"restaurant": "Harbor Pasta Bar", "price": 6}]')],
        "Hard", ("eats",),
    ),
    LocalTask(
        "eats-oldtown-closed-monday",
        "Which restaurants in Riverton's Old Town neighborhood (according to Riverton Eats) are closed on Mondays?",
        "Trattoria Lume\nMuseum Kitchen", "list",
        [*eats_search("Old Town"), *visit("Dumpling House", "Trattoria Lume", "Old Town Creperie"), ("click", "link", "Museum Kitchen"), ("answer", '["Trattoria Lume", "Museum Kitchen"]')],
        "Hard", ("eats",),
    ),
    LocalTask(
        "eats-best-near-northgate-mall",
        "Which is the best-rated restaurant on Riverton Eats whose nearest bus stop is Northgate Mall?",
        "Taqueria Rio", "string",
        [*eats_search("Northgate"), ("click", "link", "Taqueria Rio"), ("answer", "Taqueria Rio")],
        "Medium", ("eats",),
    ),
    LocalTask(
        "event-arden-venue-closing",
        "Tomas Arden is reading at a Lantern Books author event held at a restaurant. At what time does that restaurant close on the day of the event?",
        "22:30", "string",
        [*event("Tomas Arden"), *open_page("Trattoria Lume Riverton Eats", "Trattoria Lume - Riverton Eats"), ("answer", "22:30")],
        "Hard", ("books", "eats"),
    ),
    LocalTask(
        "event-okafor-venue-cheapest",
        "What is the price, in US dollars, of the cheapest item on the menu of the restaurant hosting Petra Okafor's Lantern Books author event?",
        "6", "number",
        [*event("Petra Okafor"), *open_page("Old Town Creperie Riverton Eats", "Old Town Creperie - Riverton Eats"), ("answer", "6")],
        "Medium", ("books", "eats"),
    ),
    LocalTask(
        "event-costa-venue-routes",
        "Which Riverton Metro bus routes serve the nearest bus stop of the restaurant where Ana Costa's Lantern Books author event takes place?",
        "Route 15\nRoute 31", "list",
        [*event("Ana Costa"), *open_page("Golden Lotus Riverton Eats", "Golden Lotus - Riverton Eats"), *open_site("transit"),
         ("type", "Stop name", "Northgate Mall", True), ("answer", '["Route 15", "Route 31"]')],
        "Hard", ("books", "eats", "transit"),
    ),
    LocalTask(
        "event-voss-venue-dict",
        'Where is Clara Voss\'s Lantern Books author event held, and when does the venue close that day? Answer as a JSON object with keys "venue" and "closes" (24-hour time).',
        '{"venue": "Taqueria Rio", "closes": "23:30"}', "dict",
        [*event("Clara Voss"), *open_page("Taqueria Rio Riverton Eats", "Taqueria Rio - Riverton Eats"), ("answer", '{"venue": "Taqueria Rio", "closes": "23:30"}')],
        "Hard", ("books", "eats"),
    ),
    LocalTask(
        "gym-lotus-room-routes",
        "I want to take the bus to the Lotus Room studio listed on FitFinder. Which Riverton Metro routes serve its nearest bus stop?",
        "Route 7\nRoute 15\nRoute 22", "list",
        [*open_page("Lotus Room FitFinder", "Lotus Room - FitFinder"), *open_site("transit"), ("type", "Stop name", "Museum Quarter", True),
         ("answer", '["Route 7", "Route 15", "Route 22"]')],
        "Medium", ("gyms", "transit"),
    ),
    LocalTask(
        "gym-spin-lab-bus",
        "I live at Harbor Point and want to attend the Friday morning Spin class at Harbor Spin Lab (FitFinder). What is the departure time from Harbor Point of the latest weekday Riverton Metro bus that reaches the gym's nearest stop before the class starts?",
        "06:00", "string",
        [*open_page("Harbor Spin Lab FitFinder", "Harbor Spin Lab - FitFinder"), *open_site("transit"), ("click", "link", "Route 12"), ("answer", "06:00")],
        "Hard", ("gyms", "transit"),
    ),
    LocalTask(
        "gym-sunrise-weekend-cafes",
        "Sunrise Flow Studio (FitFinder) has one weekend yoga class. Which cafes listed on Riverton Eats are open on that day?",
        "The Brunch Club\nSunny Side Cafe\nMuseum Kitchen", "list",
        [*open_page("Sunrise Flow Studio FitFinder", "Sunrise Flow Studio - FitFinder"), *eats_search(cuisine="Cafe"),
         *visit("The Brunch Club", "Old Town Creperie", "Sunny Side Cafe"), ("click", "link", "Museum Kitchen"),
         ("answer", '["The Brunch Club", "Sunny Side Cafe", "Museum Kitchen"]')],
        "Hard", ("gyms", "eats"),
    ),
    LocalTask(
        "gyms-eastside-before-7",
        "Which gyms in Riverton's Eastside neighborhood listed on FitFinder have a class that starts before 7:00 on a weekday (Monday to Friday)?",
        "CrossFit East River\nHarbor Spin Lab", "list",
        [*open_site("gyms"), ("select", "Neighborhood", "Eastside"), ("click", "button", "Find gyms"),
         *visit("Harbor Spin Lab", "Avea Pilates", "Core & Reformer"), ("click", "link", "CrossFit East River"), ("answer", '["CrossFit East River", "Harbor Spin Lab"]')],
        "Hard", ("gyms",),
    ),
    LocalTask(
        "books-hale-total",
        "How much, in US dollars, would it cost to buy one copy of every book by Imogen Hale that Lantern Books sells?",
        "71.25", "number",
        [*open_site("books"), ("type", "Search books by title or author", "Imogen Hale", True), ("answer", "71.25")],
        "Medium", ("books",),
    ),
    LocalTask(
        "books-okafor-pages",
        "How many pages are there in total in all the books by Petra Okafor sold by Lantern Books?",
        "669", "number",
        [*open_site("books"), ("type", "Search books by title or author", "Petra Okafor", True), *visit("Orchard Lane"), ("click", "link", "A River in Winter"), ("answer", "669")],
        "Hard", ("books",),
    ),
    LocalTask(
        "homes-pine-harbor-areas",
        'Give the address and floor area of every Pine Harbor listing on Harbor Homes, as JSON objects with keys "address" and "sqft".',
        '{"address": "4 Pier Rd", "sqft": 1650}\n{"address": "120 Ocean Blvd, Unit 12", "sqft": 1000}', "dict",
        [*open_site("homes"), ("select", "Town", "Pine Harbor"), ("click", "button", "Search listings"), *visit("4 Pier Rd"), ("click", "link", "120 Ocean Blvd, Unit 12"),
         ("answer", '[{"address": "4 Pier Rd", "sqft": 1650}, {"address": "120 Ocean Blvd, Unit 12", "sqft": 1000}]')],
        "Medium", ("homes",),
    ),
    LocalTask(
        "homes-cedar-falls-average-2022",
        "What was the average sold price, in US dollars rounded to the nearest dollar, of the houses in Cedar Falls on Harbor Homes that sold in 2022?",
        "461667", "number",
        [*open_site("homes"), ("select", "Town", "Cedar Falls"), ("select", "Property type", "House"), ("select", "Status", "Sold"), ("click", "button", "Search listings"),
         *visit("77 Millrace Rd", "14 Cedar Ridge Dr", "9 Falls View Ct"), ("click", "link", "2 Orchard Pl"), ("answer", "461667")],
        "Hard", ("homes",),
    ),
    LocalTask(
        "homes-maple-bay-3bed-under-600k",
        "Which houses currently for sale in Maple Bay on Harbor Homes have at least 3 bedrooms and cost less than $600,000?",
        "41 Willow Lane\n19 Birch Hollow", "list",
        [*open_site("homes"), ("select", "Town", "Maple Bay"), ("select", "Property type", "House"), ("select", "Status", "For sale"), ("click", "button", "Search listings"),
         ("answer", '["41 Willow Lane", "19 Birch Hollow"]')],
        "Medium", ("homes",),
    ),
    LocalTask(
        "care-northgate-6-months",
        'Which Little Steps childcare centres in Riverton\'s Northgate neighborhood take 6-month-old babies? Answer as JSON objects with keys "center" and "price (USD)" (the full-time monthly tuition).',
        '{"center": "Northgate Kids Corner", "price (USD)": 1540}\n{"center": "Maple Tree Nursery", "price (USD)": 1980}', "dict",
        [*care_search("Northgate", "6 months"), *visit("Maple Tree Nursery"), ("click", "link", "Northgate Kids Corner"),
         ("answer", '[{"center": "Northgate Kids Corner", "price (USD)": 1540}, {"center": "Maple Tree Nursery", "price (USD)": 1980}]')],
        "Hard", ("care",),
    ),
    LocalTask(
        "care-eastside-yearly-saving",
        "How much would a family save in a year, in US dollars, on full-time tuition by choosing the cheapest Little Steps centre in Eastside that takes 1-year-olds instead of the most expensive one?",
        "2760", "number",
        [*care_search("Eastside", "1 year"), *visit("Acorn Early Learning", "Bright Harbor Daycare"), ("click", "link", "Little Sprouts Eastside"), ("answer", "2760")],
        "Hard", ("care",),
    ),
    LocalTask(
        "care-eastside-latest",
        "Which Little Steps childcare centre in Riverton's Eastside neighborhood closes the latest on weekdays?",
        "Little Sprouts Eastside", "string",
        [*care_search("Eastside"), *visit("Acorn Early Learning", "Bright Harbor Daycare"), ("click", "link", "Little Sprouts Eastside"), ("answer", "Little Sprouts Eastside")],
        "Medium", ("care",),
    ),
    LocalTask(
        "care-cobble-kids-airport",
        "Which Riverton Metro route goes from the nearest bus stop of the Cobble Kids childcare centre (Little Steps) to Airport Terminal?",
        "Route 7", "string",
        [*open_page("Cobble Kids Little Steps", "Cobble Kids - Little Steps"), *open_site("transit"), ("type", "Stop name", "Museum Quarter", True), ("click", "link", "Route 7"), ("answer", "Route 7")],
        "Medium", ("care", "transit"),
    ),
    LocalTask(
        "transit-first-saturday-museum",
        "At what time does the first Saturday Riverton Metro bus arrive at the Museum Quarter stop?",
        "07:09", "string",
        [*open_site("transit"), ("type", "Stop name", "Museum Quarter", True), ("click", "link", "Route 7"), ("click", "link", "Saturday timetable"), ("back",), ("back",),
         ("click", "link", "Route 15"), ("click", "link", "Saturday timetable"), ("back",), ("back",), ("click", "link", "Route 22"), ("click", "link", "Saturday timetable"), ("answer", "07:09")],
        "Hard", ("transit",),
    ),
    LocalTask(
        "transit-saturday-old-town",
        "How many Saturday departures in total do the Riverton Metro routes that stop at Old Town Square have?",
        "4", "number",
        [*open_site("transit"), ("type", "Stop name", "Old Town Square", True), ("click", "link", "Route 12"), ("click", "link", "Saturday timetable"), ("back",), ("back",),
         ("click", "link", "Route 22"), ("click", "link", "Saturday timetable"), ("answer", "4")],
        "Medium", ("transit",),
    ),
    LocalTask(
        "gym-crossfit-dinner-nearby",
        "After the Wednesday evening CrossFit class at CrossFit East River (FitFinder), I want dinner nearby. Which restaurants on Riverton Eats have the same nearest bus stop as the gym and are still open at 20:00 on Wednesdays?",
        "Nonna's Table\nSaffron Road", "list",
        [*open_page("CrossFit East River FitFinder", "CrossFit East River - FitFinder"), *eats_search("Eastside"), *visit("Saffron Road", "Nonna's Table"),
         ("click", "link", "Sunny Side Cafe"), ("answer", '["Nonna\'s Table", "Saffron Road"]')],
        "Hard", ("gyms", "eats"),
    ),
    LocalTask(
        "care-maple-tree-gyms",
        "Which FitFinder gyms have the same nearest bus stop as the Maple Tree Nursery childcare centre (Little Steps)?",
        "Northgate Yoga Collective\nIron Bell Boxing\nPeak Performance Gym", "list",
        [*open_page("Maple Tree Nursery Little Steps", "Maple Tree Nursery - Little Steps"), *open_site("gyms"), ("select", "Neighborhood", "Northgate"), ("click", "button", "Find gyms"),
         *visit("Peak Performance Gym", "Sunrise Flow Studio", "Northgate Yoga Collective", "Lotus Room"), ("click", "link", "Iron Bell Boxing"),
         ("answer", '["Northgate Yoga Collective", "Iron Bell Boxing", "Peak Performance Gym"]')],
        "Hard", ("care", "gyms"),
    ),
    LocalTask(
        "event-hale-book-and-coffee",
        "At her Lantern Books author event, Imogen Hale presents one of her books. How much, in US dollars, would a copy of that book plus the cheapest item on the event venue's menu cost?",
        "17", "number",
        [*event("Imogen Hale"), *open_page("The Copper Kettle Lantern Books", "The Copper Kettle - Lantern Books"),
         *open_page("Sunny Side Cafe Riverton Eats", "Sunny Side Cafe - Riverton Eats"), ("answer", "17")],
        "Hard", ("books", "eats"),
    ),
]
