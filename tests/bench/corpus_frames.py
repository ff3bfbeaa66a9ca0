"""Sentence frames of the benchmark corpus: the kinds of fact an agent keeps.

Each frame has equivalent wordings (``templates``; a paraphrase uses another one),
optionally negated wordings aligned with them, the slots it fills and which slots a
near-miss may change. Wordings differ the way two sessions' notes of one fact
differ: word order, function words, inflection, and now and then a content word
("needs" for "requires"); that last kind is what a word-overlap measure can miss.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import corpus_vocab as v

Slots = dict[str, str]
Draw = Callable[[random.Random], Slots]


def _pick(name: str, values: tuple[str, ...]) -> Draw:
    return lambda rng: {name: rng.choice(values)}


def _person(rng: random.Random) -> Slots:
    return {"full": f"{rng.choice(v.FIRST_NAMES)} {rng.choice(v.SURNAMES)}"}


def _proj(rng: random.Random) -> Slots:
    name = rng.choice(v.CODENAMES)
    return {"proj": name if rng.random() < 0.3 else f"{name} {rng.choice(v.PRODUCT_LINES)}"}


def _svc(rng: random.Random) -> Slots:
    return {"svc": f"{rng.choice(v.CODENAMES).lower()}-{rng.choice(v.SERVICE_SUFFIXES)}"}


def _tools(rng: random.Random) -> Slots:
    task, tools = rng.choice(v.TOOL_CATEGORIES)
    a, b = rng.sample(tools, 2)
    return {"a": a, "b": b, "task": task}


def _lang(rng: random.Random) -> Slots:
    lang, versions = rng.choice(v.LANGUAGES)
    return {"lang": lang, "ver": rng.choice(versions)}


def _db(rng: random.Random) -> Slots:
    db, versions = rng.choice(v.DATABASES)
    return {"db": db, "dbver": rng.choice(versions)}


def _lib(rng: random.Random) -> Slots:
    lib, versions = rng.choice(v.LIBRARIES)
    return {"lib": lib, "libver": rng.choice(versions)}


def _book(rng: random.Random) -> Slots:
    title, author = rng.choice(v.BOOKS)
    return {"book": title, "author": author}


def _date(rng: random.Random) -> Slots:
    return {"month": rng.choice(v.MONTHS), "day": str(rng.randint(1, 28))}


def _span(rng: random.Random) -> Slots:
    first = rng.randint(1, 20)
    return {"month": rng.choice(v.MONTHS), "d1": str(first), "d2": str(first + rng.randint(2, 8))}


def _time(name: str) -> Draw:
    def draw(rng: random.Random) -> Slots:
        hour, minute = rng.randint(7, 17), rng.choice((0, 15, 30, 45))
        suffix = "am" if hour < 12 else "pm"
        return {name: f"{(hour - 1) % 12 + 1}:{minute:02d}{suffix}"}

    return draw


def _hours(rng: random.Random) -> Slots:
    start = rng.randint(6, 10)
    return {"start": f"{start}am", "end": f"{start + 8 - 12}pm", "tz": rng.choice(v.TIMEZONES)}


def _cities(rng: random.Random) -> Slots:
    a, b = rng.sample(v.CITIES, 2)
    return {"from_city": a, "to_city": b}


def _langs(rng: random.Random) -> Slots:
    a, b = sorted(rng.sample(v.SPOKEN, 2))
    return {"l1": a, "l2": b}


def _number(name: str, low: int, high: int, step: int = 1) -> Draw:
    return lambda rng: {name: str(rng.randrange(low, high + 1, step))}


@dataclass(frozen=True)
class Frame:
    """One kind of fact and its wordings."""

    name: str
    topic: str
    templates: tuple[str, ...]
    slots: tuple[Draw, ...]
    vary: tuple[int, ...]  #: indexes into ``slots`` a near-miss may redraw
    negatives: tuple[str, ...] = ()  #: negated wordings, aligned with ``templates``
    key: str | None = None
    spell: tuple[str, ...] = field(default=())  #: slots a paraphrase may spell out


F = Frame
FRAMES: tuple[Frame, ...] = (
    F("tool-preference", "preferences",
      ("Prefers {a} over {b} for {task} in {proj}.",
       "For {task} in {proj}, prefers {a} to {b}.",
       "In {proj} the user prefers {a} over {b} for {task}.",
       "Likes {a} better than {b} for {task} in {proj}."),
      (_tools, _proj), (0, 1),
      ("No longer prefers {a} over {b} for {task} in {proj}.",
       "For {task} in {proj}, does not prefer {a} to {b}.")),
    F("role", "people",
      ("{full} is the {role} for {proj}.", "The {role} for {proj} is {full}.",
       "{proj}'s {role} is {full}.", "For {proj}, the {role} is {full}."),
      (_person, _proj, _pick("role", v.ROLES)), (0, 1),
      ("{full} is no longer the {role} for {proj}.", "The {role} for {proj} is no longer {full}.")),
    F("works-at", "people",
      ("{full} works at {company} in {city}.", "{full} works for {company} out of {city}.",
       "In {city}, {full} works at {company}.", "{full} is a {company} employee based in {city}."),
      (_person, _pick("company", v.COMPANIES), _pick("city", v.CITIES)), (0, 1, 2),
      ("{full} no longer works at {company} in {city}.",)),
    F("moved", "people",
      ("{full} moved from {from_city} to {to_city} in {year}.",
       "In {year}, {full} moved from {from_city} to {to_city}.",
       "{full} moved to {to_city} from {from_city} in {year}.",
       "{full} relocated from {from_city} to {to_city} back in {year}."),
      (_person, _cities, _number("year", 2012, 2025)), (0, 1, 2)),
    F("birthday", "people",
      ("{full}'s birthday is on {month} {day}.", "{full}'s birthday is {day} {month}.",
       "Birthday of {full}: {month} {day}.", "{full} celebrates their birthday on {month} {day}."),
      (_person, _date), (0, 1), key="{full}.birthday"),
    F("allergy", "health",
      ("{full} is allergic to {food}.", "{full} has an allergy to {food}.",
       "{full} is severely allergic to {food}.", "Note: {full} is allergic to {food}"),
      (_person, _pick("food", v.FOODS)), (0,),
      ("{full} is not allergic to {food}.",)),
    F("port", "projects",
      ("The {svc} service listens on port {port} in {env}.",
       "In {env}, {svc} listens on port {port}.",
       "{svc} listens on port {port} in the {env} environment.",
       "Port {port} is where {svc} listens in {env}."),
      (_svc, _number("port", 3000, 9999), _pick("env", v.ENVIRONMENTS)), (0, 1)),
    F("language-version", "projects",
      ("{proj} targets {lang} {ver}.", "{proj} currently targets {lang} {ver}.",
       "The {proj} codebase targets {lang} {ver}.", "{lang} {ver} is what {proj} targets."),
      (_proj, _lang), (0, 1),
      ("{proj} no longer targets {lang} {ver}.", "{proj} no longer targets {lang} {ver}."),
      key="{proj}.{lang}-version"),
    F("deploy-day", "schedule",
      ("{proj} is deployed every {weekday} at {time}.",
       "Every {weekday} at {time}, {proj} is deployed.",
       "Deploys of {proj} happen every {weekday} at {time}.",
       "{proj} gets deployed on {weekday}s at {time}."),
      (_proj, _pick("weekday", v.WEEKDAYS), _time("time")), (0, 1, 2)),
    F("required-reviews", "projects",
      ("{proj} requires {n} approving reviews before merging.",
       "Before merging, {proj} requires {n} approving reviews.",
       "Merging into {proj} needs {n} approving reviews.",
       "{proj} requires {n} approvals before a merge."),
      (_proj, _number("n", 2, 4)), (0, 1), key="{proj}.required-reviews", spell=("n",)),
    F("standup", "schedule",
      ("The {team} team has standup at {time} on {days}.",
       "On {days}, the {team} team has standup at {time}.",
       "Standup for the {team} team is at {time} on {days}.",
       "The {team} team meets for standup on {days} at {time}."),
      (_pick("team", v.TEAMS), _time("time"), _pick("days", v.DAY_SETS)), (0, 1, 2)),
    F("on-call", "schedule",
      ("{full} is on call for {proj} the week of {month} {day}.",
       "The week of {month} {day}, {full} is on call for {proj}.",
       "On call for {proj} the week of {month} {day}: {full}.",
       "{full} covers on-call for {proj} the week of {month} {day}."),
      (_person, _proj, _date), (0, 1, 2)),
    F("out-of-office", "schedule",
      ("{full} is out of office from {month} {d1} to {month} {d2}.",
       "From {month} {d1} to {month} {d2}, {full} is out of office.",
       "{full} will be out of the office {month} {d1} to {month} {d2}.",
       "{full} is on leave from {month} {d1} until {month} {d2}."),
      (_person, _span), (0, 1)),
    F("coverage", "projects",
      ("{proj} requires at least {pct}% test coverage.",
       "Test coverage in {proj} must be at least {pct}%.",
       "At least {pct}% test coverage is required for {proj}.",
       "{proj} needs {pct} percent test coverage or more."),
      (_proj, _number("pct", 60, 95, 5)), (0, 1), key="{proj}.coverage"),
    F("editor", "preferences",
      ("{full} uses {editor} with the {theme} theme.",
       "With the {theme} theme, {full} uses {editor}.",
       "{full} uses {editor}, with the {theme} theme.",
       "{full} codes in {editor} using the {theme} theme."),
      (_person, _pick("editor", v.EDITORS), _pick("theme", v.THEMES)), (0, 1, 2)),
    F("contact", "people",
      ("{full} prefers to be contacted on {channel} rather than email.",
       "Rather than email, {full} prefers to be contacted on {channel}.",
       "Contact {full} on {channel} rather than by email.",
       "{full} would rather be contacted on {channel} than by email."),
      (_person, _pick("channel", v.CHANNELS)), (0, 1)),
    F("pet", "personal",
      ("{full} has a {breed} named {pet}.", "{pet} is the name of {full}'s {breed}.",
       "{full}'s {breed} is named {pet}.", "{full} has a {breed} called {pet}."),
      (_person, _pick("breed", v.BREEDS), _pick("pet", v.PET_NAMES)), (0, 2)),
    F("speaks", "people",
      ("{full} speaks {l1} and {l2}.", "{full} speaks both {l1} and {l2}.",
       "{l1} and {l2} are the languages {full} speaks.", "{full} is fluent in {l1} and {l2}."),
      (_person, _langs), (0, 1),
      ("{full} does not speak {l1} or {l2}.", "{full} speaks neither {l1} nor {l2}.")),
    F("experience", "people",
      ("{full} has {n} years of experience with {lang}.",
       "{full} has {n} years of {lang} experience.",
       "With {lang}, {full} has {n} years of experience.",
       "{full} has been writing {lang} for {n} years."),
      (_person, _number("n", 2, 15), _lang), (0, 1, 2), spell=("n",)),
    F("ci", "projects",
      ("{proj} runs CI on {ci} and a pipeline takes about {minutes} minutes.",
       "CI for {proj} runs on {ci}; a pipeline takes about {minutes} minutes.",
       "A {proj} pipeline on {ci} takes about {minutes} minutes.",
       "{proj} uses {ci} for CI and pipelines take roughly {minutes} minutes."),
      (_proj, _pick("ci", v.CI_SYSTEMS), _number("minutes", 4, 45)), (0, 1, 2)),
    F("database", "projects",
      ("{proj} stores its data in {db} {dbver}.", "Data for {proj} is stored in {db} {dbver}.",
       "In {proj}, data is stored in {db} {dbver}.", "{proj} keeps its data in {db} {dbver}."),
      (_proj, _db), (0, 1),
      ("{proj} no longer stores its data in {db} {dbver}.",), key="{proj}.database"),
    F("hosting", "projects",
      ("The {env} environment of {proj} is hosted on {cloud} in {region}.",
       "{proj}'s {env} environment is hosted on {cloud} in {region}.",
       "On {cloud} in {region}: hosting for the {env} environment of {proj}.",
       "{proj} hosts its {env} environment on {cloud} in the {region} region."),
      (_proj, _pick("env", v.ENVIRONMENTS), _pick("cloud", v.CLOUDS), _pick("region", v.REGIONS)),
      (0, 2, 3)),
    F("morning-drink", "personal",
      ("{full} drinks {drink} every morning.", "Every morning, {full} drinks {drink}.",
       "{full} has {drink} every morning.", "{full} starts every morning with {drink}."),
      (_person, _pick("drink", v.DRINKS)), (0,),
      ("{full} no longer drinks {drink} every morning.", "Every morning, {full} avoids {drink}.")),
    F("hobby", "personal",
      ("{full} goes {hobby} on {weekday} evenings.", "On {weekday} evenings {full} goes {hobby}.",
       "{full} usually goes {hobby} on {weekday} evenings.",
       "{full} does {hobby} on {weekday} evenings."),
      (_person, _pick("hobby", v.HOBBIES), _pick("weekday", v.WEEKDAYS)), (0, 2)),
    F("instrument", "personal",
      ("{full} plays the {instrument} in a community orchestra.",
       "{full} plays {instrument} in a community orchestra.",
       "In a community orchestra, {full} plays the {instrument}.",
       "{full} is a {instrument} player in a community orchestra."),
      (_person, _pick("instrument", v.INSTRUMENTS)), (0,)),
    F("line-length", "projects",
      ("{proj} formats code with {formatter} at a line length of {width}.",
       "Code in {proj} is formatted with {formatter} at line length {width}.",
       "With {formatter}, {proj} formats code at a line length of {width}.",
       "{proj} uses {formatter} with a {width}-character line length."),
      (_proj, _pick("formatter", v.FORMATTERS), _number("width", 79, 120)), (0, 1, 2),
      key="{proj}.line-length"),
    F("planning", "schedule",
      ("The {proj} planning meeting is every {weekday} at {time} in the {room} room.",
       "Every {weekday} at {time}, the {proj} planning meeting is in the {room} room.",
       "{proj} planning: {weekday}s at {time}, {room} room.",
       "{proj} holds its planning meeting in {room} every {weekday} at {time}."),
      (_proj, _pick("weekday", v.WEEKDAYS), _time("time"), _pick("room", v.ROOMS)), (0, 1, 2, 3)),
    F("pin", "projects",
      ("{svc} pins {lib} to version {libver}.", "{lib} is pinned to version {libver} in {svc}.",
       "In {svc}, {lib} is pinned to {libver}.", "{svc} keeps {lib} locked at {libver}."),
      (_svc, _lib), (0, 1)),
    F("rate-limit", "projects",
      ("The {svc} API allows {n} requests per minute per client.",
       "Per client, the {svc} API allows {n} requests per minute.",
       "Clients of the {svc} API are allowed {n} requests per minute.",
       "The {svc} API caps each client at {n} requests a minute."),
      (_svc, _number("n", 50, 2000, 50)), (0, 1)),
    F("hours", "people",
      ("{full} works from {start} to {end} {tz} time.",
       "From {start} to {end} {tz} time, {full} is working.",
       "{full} works {start} to {end}, {tz} time.",
       "{full}'s working hours are {start} to {end} {tz} time."),
      (_person, _hours), (0, 1)),
    F("reading", "personal",
      ("{full} is reading {book} by {author}.", "{full} is currently reading {book} by {author}.",
       "{book} by {author} is what {full} is reading.",
       "{full} has been reading {author}'s {book}."),
      (_person, _book), (0, 1)),
    F("laptop", "people",
      ("{full} works on a {laptop} with {ram} GB of RAM.",
       "{full}'s {laptop} has {ram} GB of RAM.",
       "{full} works on a {laptop} that has {ram} GB of RAM.",
       "{full} uses a {laptop} with {ram}GB RAM."),
      (_person, _pick("laptop", v.LAPTOPS), _pick("ram", ("8",
       "16", "32", "64", "96"))), (0, 1, 2)),
    F("pr-size", "feedback",
      ("{full} wants pull requests under {n} lines.",
       "Keep pull requests for {full} under {n} lines.",
       "{full} wants pull requests kept under {n} lines.",
       "{full} prefers pull requests smaller than {n} lines."),
      (_person, _number("n", 100, 800, 50)), (0, 1)),
    F("outage", "projects",
      ("The {svc} outage on {month} {day} was caused by {cause}.",
       "On {month} {day}, the {svc} outage was caused by {cause}.",
       "{cause} caused the {svc} outage on {month} {day}.",
       "The {month} {day} outage of {svc} was caused by {cause}."),
      (_svc, _date, _pick("cause", v.CAUSES)), (0, 1)),
    F("children", "personal",
      ("{full} has {n} children.", "{full} has {n} kids.",
       "{full} is the parent of {n} children.", "{full} is a parent of {n} children."),
      (_person, _number("n", 1, 5)), (0, 1), spell=("n",)),
    F("talk", "people",
      ("{full} is speaking at {conf} in {city} in {month} {year}.",
       "In {month} {year}, {full} is speaking at {conf} in {city}.",
       "{full} will speak at {conf} in {city} in {month} {year}.",
       "{full} gives a talk at {conf} in {city} in {month} {year}."),
      (_person, _pick("conf", v.CONFERENCES), _pick("city", v.CITIES), _pick("month", v.MONTHS),
       _number("year", 2024, 2027)), (0, 1, 2, 3, 4)),
    F("budget", "projects",
      ("The cloud budget for {proj} is ${amount} a month.",
       "{proj} has a cloud budget of ${amount} a month.",
       "Cloud spend for {proj} is budgeted at ${amount} a month.",
       "The {proj} cloud budget is {amount} dollars a month."),
      (_proj, _number("amount", 500, 20000, 250)), (0, 1), key="{proj}.cloud-budget"),
    F("offsite", "schedule",
      ("{full} flies to {city} on {month} {day} for the {team} offsite.",
       "On {month} {day}, {full} flies to {city} for the {team} offsite.",
       "{full} is flying to {city} for the {team} offsite on {month} {day}.",
       "For the {team} offsite, {full} flies to {city} on {month} {day}."),
      (_person, _pick("city", v.CITIES), _date, _pick("team", v.TEAMS)), (0, 1, 2, 3)),
    F("diet", "health",
      ("{full} follows a {diet} diet.", "{full} eats a {diet} diet.",
       "{full} is on a {diet} diet.", "{full} keeps to a {diet} diet."),
      (_person, _pick("diet", v.DIETS)), (0, 1),
      ("{full} no longer follows a {diet} diet.", "{full} no longer eats a {diet} diet.")),
    F("force-push", "feedback",
      ("Never force-push to {branch} in {proj}.", "In {proj}, never force-push to {branch}.",
       "Force-pushing to {branch} in {proj} is not allowed.",
       "Do not force-push to the {branch} branch of {proj}."),
      (_pick("branch", v.BRANCHES), _proj), (1,)),
)  # fmt: skip
