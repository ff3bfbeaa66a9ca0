"""Vocabulary for the benchmark corpus: real names, places, tools and everyday things.

Kept apart from the sentence frames in ``corpus.py`` so each file stays readable.
"""

from __future__ import annotations


def words(text: str) -> tuple[str, ...]:
    """Entries separated by ``|`` (entries may contain spaces)."""
    return tuple(" ".join(w.split()) for w in text.split("|") if w.strip())


FIRST_NAMES = words(
    """Priya|Marco|Aisha|Tomás|Chen|Ingrid|Kwame|Sofia|Dmitri|Hana|Lukas|Amara|Rafael|Yuki|
    Fatima|Oliver|Zara|Mateo|Elif|Jonas|Nadia|Arjun|Chloe|Emeka|Lena|Hiroshi|Camila|Samir|Freya|
    Diego|Mei|Omar|Greta|Kofi|Isabel|Ravi|Anya|Bruno|Leila|Felix|Noor|Pablo|Astrid|Tariq|Vera|
    Kenji|Lucia|Malik|Signe|Andrei|Rosa|Tobias|Imani|Nikhil|Clara|Ezra|Ayesha|Hugo|Mina|Sven|
    Daniela|Kai|Olga|Jamal|Beatriz|Theo|Sakura|Idris|Maren|Julian|Esra|Viktor|Nia|Arturo|Helga|
    Sanjay|Paloma|Quentin|Yara|Wei|Rohan|Elena|Caspar|Adaeze|Mikko|Farah|Gabriel|Linnea|Hamza|
    Ines|Pavel|Thandiwe|Rahul|Maya|Stefan|Leona|Joaquín|Keiko|Ahmed|Brigitte|Connor|Divya|Emil|
    Frida|Gustavo|Halima|Ivan|Jia|Kerstin|Luis|Mariam|Nils|Oksana|Pedro|Qing|Rania|Sebastian|
    Tuva|Umar|Valentina|Wanjiru|Xavier|Yusuf|Zofia"""
)
SURNAMES = words(
    """Raman|Rossi|Okafor|Novak|Schmidt|Tanaka|Haddad|Larsen|Mendes|Kowalski|Nguyen|Fischer|
    Osei|Petrov|Alvarez|Lindqvist|Moreau|Sato|Mbeki|Costa|Jansen|Kaur|Dubois|Ivanova|Brennan|
    Yilmaz|Horvat|Ferreira|Eriksen|Adeyemi|Kim|Papadopoulos|Singh|Müller|Castillo|Hakimi|
    Bergström|Nakamura|Mensah|Rinaldi|Volkova|Duarte|Chowdhury|Lefebvre|Wójcik|Svensson|
    Banerjee|Abara|Whitfield|Carvalho|Hoffmann|Morales|Achebe|Lindgren|Santos|Kuznetsov|Iyer|
    Oyelaran|Takahashi|Gallagher"""
)
CITIES = words(
    """Berlin|Lisbon|Nairobi|Toronto|Osaka|Melbourne|Austin|Dublin|Bangalore|São Paulo|Kraków|
    Oslo|Montreal|Seoul|Cape Town|Edinburgh|Denver|Amsterdam|Barcelona|Helsinki|Singapore|Lagos|
    Vancouver|Prague|Copenhagen|Zurich|Vienna|Munich|Lyon|Porto|Seattle|Portland|Boston|Chicago|
    Taipei|Hanoi|Manila|Jakarta|Bogotá|Lima|Santiago|Montevideo|Accra|Kigali|Tallinn|Riga|
    Vilnius|Warsaw|Budapest|Athens|Istanbul|Tel Aviv|Dubai|Mumbai|Pune|Hyderabad|Chennai|Kyoto|
    Sapporo|Auckland|Wellington|Brisbane|Perth|Glasgow|Manchester|Leeds|Bristol|Cork|Gothenburg|
    Malmö|Aarhus|Bergen|Tampere|Ghent|Rotterdam|Utrecht|Hamburg|Cologne|Leipzig|Bologna|Turin|
    Valencia|Seville|Bilbao|Marseille|Nantes|Geneva|Basel"""
)
COMPANIES = words(
    """Stripe|Shopify|Spotify|Atlassian|Zalando|Klarna|Datadog|Cloudflare|GitLab|HashiCorp|
    Canonical|Mozilla|Red Hat|Elastic|Figma|Notion|Airbnb|Adyen|Revolut|Monzo|Wise|Mollie|
    Personio|Celonis|Unity|Ubisoft|Siemens|Bosch|SAP|Philips|Rabobank|Nubank|Mercado Libre|Rappi|
    Flutterwave|Paystack|Andela|Grab|Gojek|Rakuten|Naver|Kakao|Tokopedia|Canva|Xero|Octopus Energy|
    Ocado|Deliveroo|Trivago|Booking Holdings"""
)
CODENAMES = words(
    """Atlas|Orion|Harbor|Lumen|Quartz|Falcon|Beacon|Cobalt|Meridian|Nimbus|Sparrow|Tundra|Vega|
    Willow|Zephyr|Aurora|Basalt|Cedar|Ember|Fjord|Granite|Helix|Indigo|Juniper|Kestrel|Lagoon|
    Mosaic|Nebula|Onyx|Pelican|Quill|Raven|Sierra|Tidal|Umbra|Vortex|Walrus|Yarrow|Zenith|Acorn|
    Bramble|Canyon|Dune|Eclipse|Fennel|Glacier|Heron|Iris|Jasper|Koala|Lantern|Magpie|Nomad|
    Opal|Prism|Quasar|Redwood|Saffron|Thistle|Upland|Velvet|Wren|Yucca|Zinnia|Almond|Bison|
    Comet|Driftwood|Emerald|Firefly|Gannet|Hazel|Ibis|Jetty|Kite|Larch|Marlin|Nettle|Osprey"""
)
PRODUCT_LINES = words("Mobile|Web|Analytics|Core|Edge|Studio|Cloud|Connect|Insights|Desktop")
SERVICE_SUFFIXES = words("api|web|worker|gateway|scheduler|indexer|billing|auth|search|sync")
TEAMS = words(
    """Payments|Platform|Growth|Search|Mobile|Data|Infrastructure|Identity|Checkout|Billing|
    Notifications|Onboarding|Risk|Messaging|Analytics|Developer Experience|Storage|Security"""
)
ROLES = words(
    """tech lead|product manager|engineering manager|designer|release manager|security champion|
    QA lead|data steward|incident commander|staff engineer"""
)

# (category task, tools): a preference compares two tools of one category.
TOOL_CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Python tests", words("pytest|unittest|nose2|ward")),
    ("formatting Python code", words("ruff|Black|autopep8|yapf")),
    ("frontend unit tests", words("Vitest|Jest|Mocha|Jasmine")),
    ("Python dependency management", words("uv|Poetry|pip-tools|Pipenv|PDM")),
    ("JavaScript packages", words("pnpm|npm|Yarn|Bun")),
    ("end-to-end tests", words("Playwright|Cypress|Selenium|Puppeteer")),
    ("type checking", words("mypy|pyright|Pyre|pytype")),
    ("container builds", words("Docker|Podman|Buildah|Kaniko")),
    ("infrastructure code", words("Terraform|Pulumi|OpenTofu|CloudFormation")),
    ("task queues", words("Celery|RQ|Dramatiq|Huey")),
    ("HTTP clients", words("httpx|requests|aiohttp|urllib3")),
    ("API docs", words("Redoc|Swagger UI|Stoplight|Scalar")),
)
LANGUAGES = (
    ("Python", words("3.9|3.10|3.11|3.12|3.13")),
    ("Node", words("18|20|22")),
    ("Go", words("1.21|1.22|1.23")),
    ("Java", words("17|21")),
    ("Ruby", words("3.2|3.3")),
    ("Rust", words("1.75|1.79|1.82")),
    ("Kotlin", words("1.9|2.0")),
    ("PHP", words("8.2|8.3")),
)
DATABASES = (
    ("Postgres", words("13|14|15|16|17")),
    ("MySQL", words("5.7|8.0|8.4")),
    ("MongoDB", words("6.0|7.0")),
    ("Redis", words("6.2|7.2")),
    ("ClickHouse", words("23.8|24.3")),
    ("MariaDB", words("10.6|11.4")),
)
SPOKEN = words(
    """Portuguese|Japanese|Swahili|German|Spanish|French|Hindi|Arabic|Korean|Dutch|Polish|
    Turkish|Mandarin|Italian|Norwegian|Yoruba|Tamil|Greek|Finnish|Czech"""
)
EDITORS = words("Neovim|VS Code|Emacs|Helix|Sublime Text|IntelliJ IDEA|PyCharm|Zed|Vim|GoLand")
THEMES = words(
    "Solarized Dark|Gruvbox|Dracula|Nord|Catppuccin|One Dark|Tokyo Night|Monokai|Everforest"
)
CHANNELS = words("Slack|Signal|Teams|WhatsApp|Telegram|Discord|Matrix|Zulip")
FOODS = words(
    """peanuts|shellfish|sesame|tree nuts|eggs|soy|strawberries|kiwi|mustard|celery|lupin|
    sulphites|buckwheat|mango|avocado"""
)
DRINKS = words(
    """green tea|a flat white|black coffee|rooibos tea|chai|an oat milk latte|a double espresso|
    matcha|yerba mate|a cortado|peppermint tea|hot chocolate|kombucha|sparkling water"""
)
HOBBIES = words(
    """bouldering|trail running|swimming|kayaking|salsa dancing|cycling|rowing|ice skating|
    sailing|fencing|badminton|pottery|choir practice|life drawing"""
)
INSTRUMENTS = words("cello|bass guitar|piano|violin|drums|ukulele|saxophone|trumpet|clarinet")
BREEDS = words(
    """border collie|dachshund|greyhound|tabby cat|Maine Coon|corgi|beagle|ragdoll cat|
    whippet|labrador|Siamese cat|shiba inu|cockatiel|bearded dragon"""
)
PET_NAMES = words(
    """Miso|Pixel|Biscuit|Luna|Mochi|Pepper|Juno|Ziggy|Tofu|Noodle|Waffles|Ginger|Olive|Pickles|
    Bagel|Nacho|Pretzel|Maple|Clementine|Basil|Kiwi|Socks|Ramen|Domino|Crumpet|Fig|Truffle"""
)
DIETS = words("vegan|vegetarian|pescatarian|keto|halal|kosher|gluten-free|low-FODMAP|Mediterranean")
CI_SYSTEMS = words("GitHub Actions|GitLab CI|CircleCI|Jenkins|Buildkite|Drone|TeamCity|Woodpecker")
CLOUDS = words("AWS|GCP|Azure|Hetzner|DigitalOcean|Fly.io|OVHcloud|Scaleway")
REGIONS = words(
    "eu-west-1|us-east-1|eu-central-1|ap-southeast-2|us-west-2|ca-central-1|ap-northeast-1"
)
ENVIRONMENTS = words("staging|production|sandbox|QA|preview")
FORMATTERS = words("ruff format|Black|Prettier|gofmt|rustfmt|clang-format|ktlint|StandardJS")
LIBRARIES = (
    ("requests", words("2.31.0|2.32.3")),
    ("urllib3", words("1.26.18|2.2.1")),
    ("SQLAlchemy", words("1.4.52|2.0.30")),
    ("pydantic", words("1.10.15|2.7.1")),
    ("numpy", words("1.26.4|2.0.0")),
    ("protobuf", words("3.20.3|4.25.3")),
    ("boto3", words("1.34.100|1.35.2")),
    ("React", words("17.0.2|18.3.1")),
    ("lodash", words("4.17.21|4.17.20")),
    ("tokio", words("1.37.0|1.38.1")),
    ("axios", words("0.27.2|1.7.2")),
    ("Django", words("4.2.13|5.0.6")),
)
CAUSES = words(
    """an expired TLS certificate|a full disk on the primary database|a bad feature flag rollout|
    a DNS misconfiguration|connection pool exhaustion|a memory leak in the worker|a missing
    database index|a runaway cron job|a stale cache after the migration|clock skew between
    nodes|an exhausted API quota at the payment provider"""
)
CONFERENCES = words(
    """PyCon|EuroPython|KubeCon|JSConf|RustConf|GopherCon|FOSDEM|QCon|DjangoCon|SREcon|
    PyData|NDC Oslo|Devoxx|CppCon|Strange Loop"""
)
ROOMS = words("Fuji|Kilimanjaro|Everest|Denali|Matterhorn|Elbrus|Aconcagua|Olympus|Etna|Vesuvius")
LAPTOPS = words(
    """MacBook Pro|MacBook Air|ThinkPad X1 Carbon|Framework Laptop|Dell XPS|ThinkPad T14|
    System76 Lemur|HP EliteBook|Surface Laptop"""
)
BOOKS = (
    ("The Pragmatic Programmer", "Hunt and Thomas"),
    ("A Philosophy of Software Design", "John Ousterhout"),
    ("Thinking in Systems", "Donella Meadows"),
    ("The Left Hand of Darkness", "Ursula Le Guin"),
    ("Piranesi", "Susanna Clarke"),
    ("Project Hail Mary", "Andy Weir"),
    ("The Dispossessed", "Ursula Le Guin"),
    ("Working in Public", "Nadia Eghbal"),
    ("Accelerate", "Nicole Forsgren"),
    ("The Mythical Man-Month", "Fred Brooks"),
    ("Team Topologies", "Matthew Skelton"),
    ("Seeing Like a State", "James Scott"),
)
BRANCHES = words("main|release|develop|production|gh-pages|stable")
TIMEZONES = words("Central European|Pacific|Eastern|India Standard|Japan Standard|UTC|GMT")
MONTHS = words(
    "January|February|March|April|May|June|July|August|September|October|November|December"
)
WEEKDAYS = words("Monday|Tuesday|Wednesday|Thursday|Friday")
DAY_SETS = words(
    """Mondays and Thursdays|Tuesdays and Fridays|Mondays, Wednesdays and Fridays|weekdays|
    Tuesdays|Wednesdays|Thursdays"""
)
SMALL_NUMBERS = words("zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve")
