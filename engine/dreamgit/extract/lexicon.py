"""A small built-in lexicon of well-known tools, for tags, keys and change statements.

Gathering needs to know that "fastapi" is spelled FastAPI, that it is a Python web
framework and so implies the tag ``python``, and that an editor is something a
person has one of (so "uses Neovim" may fill the slot ``tool.editor``) while a
language is not. The table below is deliberately modest: a few hundred names
people mention in agent sessions. Words that are also ordinary English ("go",
"black", "poetry", "windows") count only when written with a capital letter, or
when a pattern has already placed them where a tool name belongs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from dreamgit import lazyre

__all__ = ["Tool", "find_tools", "lookup_tool"]


@dataclass(frozen=True)
class Tool:
    """One tool: its tag id, its preferred spelling, its category and implied language."""

    id: str
    display: str
    category: str
    implies: str = ""

    @property
    def exclusive(self) -> bool:
        """True for categories a person usually has one of (an editor, a shell)."""
        return self.category in EXCLUSIVE_CATEGORIES


#: Categories where using a new one normally replaces the old one.
EXCLUSIVE_CATEGORIES: frozenset[str] = frozenset(
    str.split(
        """editor shell terminal os browser python-package-manager js-package-manager
    python-test-runner js-test-runner notes-app python-formatter js-formatter
    terminal-multiplexer"""
    )
)

# id | category | implied language | spellings (the first is the display form).
# A leading "~" marks a spelling that is also an ordinary English word.
_TABLE = """
python|language||Python,py,python3
javascript|language||JavaScript,js
typescript|language||TypeScript,ts
rust|language||Rust
go|language||~Go,golang
java|language||~Java
kotlin|language||Kotlin
swift|language||~Swift
csharp|language||C#,csharp
cpp|language||C++,cpp
ruby|language||~Ruby
php|language||PHP
elixir|language||Elixir
haskell|language||Haskell
scala|language||Scala
clojure|language||Clojure
zig|language||Zig
lua|language||Lua
dart|language||~Dart
julia|language||~Julia
ocaml|language||OCaml
perl|language||Perl
vim|editor||Vim
neovim|editor||Neovim,nvim
emacs|editor||Emacs
vscode|editor||VS Code,vscode,Visual Studio Code
cursor|editor||~Cursor
zed|editor||~Zed
helix|editor||~Helix
sublime-text|editor||Sublime Text,~Sublime
intellij|editor||IntelliJ,IntelliJ IDEA
pycharm|editor|python|PyCharm
webstorm|editor||WebStorm
xcode|editor||Xcode
android-studio|editor||Android Studio
nano|editor||~nano
bash|shell||Bash
zsh|shell||zsh
fish|shell||~Fish
powershell|shell||PowerShell,pwsh
nushell|shell||Nushell
iterm2|terminal||iTerm2,iTerm
alacritty|terminal||Alacritty
kitty|terminal||~Kitty
wezterm|terminal||WezTerm
ghostty|terminal||Ghostty
warp|terminal||~Warp
windows-terminal|terminal||Windows Terminal
tmux|terminal-multiplexer||tmux
zellij|terminal-multiplexer||Zellij
screen|terminal-multiplexer||~screen
macos|os||macOS,OS X,osx
linux|os||Linux
ubuntu|os||Ubuntu
debian|os||Debian
fedora|os||Fedora
arch-linux|os||Arch Linux,~Arch
nixos|os||NixOS
windows|os||~Windows
firefox|browser||Firefox
chrome|browser||~Chrome,Google Chrome
safari|browser||Safari
brave|browser||~Brave
arc|browser||~Arc
edge|browser||Microsoft Edge,~Edge
chromium|browser||Chromium
vivaldi|browser||Vivaldi
flask|python-web-framework|python|Flask
fastapi|python-web-framework|python|FastAPI
django|python-web-framework|python|Django
starlette|python-web-framework|python|Starlette
litestar|python-web-framework|python|Litestar
sanic|python-web-framework|python|Sanic
tornado|python-web-framework|python|~Tornado
aiohttp|python-web-framework|python|aiohttp
express|js-web-framework|javascript|~Express,Express.js
koa|js-web-framework|javascript|Koa
fastify|js-web-framework|javascript|Fastify
nestjs|js-web-framework|typescript|NestJS,Nest.js
hono|js-web-framework|typescript|Hono
rails|ruby-web-framework|ruby|Rails,Ruby on Rails
laravel|php-web-framework|php|Laravel
spring-boot|java-web-framework|java|Spring Boot
phoenix|elixir-web-framework|elixir|~Phoenix
axum|rust-web-framework|rust|Axum
actix|rust-web-framework|rust|Actix,actix-web
react|frontend-framework|javascript|React
vue|frontend-framework|javascript|Vue,Vue.js,vuejs
svelte|frontend-framework|javascript|Svelte,SvelteKit
angular|frontend-framework|typescript|Angular
solidjs|frontend-framework|javascript|SolidJS,Solid.js
nextjs|frontend-framework|javascript|Next.js,nextjs
nuxt|frontend-framework|javascript|Nuxt
htmx|frontend-framework||htmx
pytest|python-test-runner|python|pytest
unittest|python-test-runner|python|unittest
nose|python-test-runner|python|nose2
jest|js-test-runner|javascript|Jest
vitest|js-test-runner|javascript|Vitest
mocha|js-test-runner|javascript|Mocha
playwright|e2e-testing||Playwright
cypress|e2e-testing||Cypress
pip|python-package-manager|python|pip
poetry|python-package-manager|python|~Poetry
uv|python-package-manager|python|uv
pipenv|python-package-manager|python|Pipenv
conda|python-package-manager|python|conda,Anaconda,Miniconda
pdm|python-package-manager|python|PDM
hatch|python-package-manager|python|~Hatch
npm|js-package-manager|javascript|npm
pnpm|js-package-manager|javascript|pnpm
yarn|js-package-manager|javascript|~Yarn
bun|js-runtime|javascript|~Bun
node|js-runtime|javascript|Node.js,nodejs,~Node
deno|js-runtime|javascript|Deno
cargo|rust-build-tool|rust|~Cargo
postgresql|database||PostgreSQL,Postgres,psql
mysql|database||MySQL
mariadb|database||MariaDB
sqlite|database||SQLite,sqlite3
mongodb|database||MongoDB,Mongo
redis|database||Redis
dynamodb|database||DynamoDB
cassandra|database||Cassandra
clickhouse|database||ClickHouse
duckdb|database||DuckDB
elasticsearch|database||Elasticsearch
bigquery|database||BigQuery
supabase|database||Supabase
firebase|database||Firebase
sqlalchemy|orm|python|SQLAlchemy
sqlmodel|orm|python|SQLModel
prisma|orm|typescript|Prisma
drizzle|orm|typescript|~Drizzle
aws|cloud||AWS
gcp|cloud||GCP,Google Cloud
azure|cloud||Azure
digitalocean|cloud||DigitalOcean
hetzner|cloud||Hetzner
heroku|hosting||Heroku
vercel|hosting||Vercel
netlify|hosting||Netlify
fly-io|hosting||Fly.io
cloudflare|hosting||Cloudflare
github-actions|ci||GitHub Actions
gitlab-ci|ci||GitLab CI
jenkins|ci||Jenkins
circleci|ci||CircleCI
git|vcs||Git
mercurial|vcs||Mercurial,hg
jujutsu|vcs||Jujutsu,jj
github|vcs-host||GitHub
gitlab|vcs-host||GitLab
bitbucket|vcs-host||Bitbucket
codeberg|vcs-host||Codeberg
docker|container||Docker
podman|container||Podman
kubernetes|orchestration||Kubernetes,k8s
terraform|infrastructure||Terraform
ansible|infrastructure||Ansible
nix|infrastructure||Nix
ruff|python-linter|python|Ruff
flake8|python-linter|python|flake8
pylint|python-linter|python|Pylint
black|python-formatter|python|~Black
mypy|python-type-checker|python|mypy
pyright|python-type-checker|python|Pyright
eslint|js-linter|javascript|ESLint
prettier|js-formatter|javascript|Prettier
biome|js-linter|javascript|Biome
obsidian|notes-app||~Obsidian
notion|notes-app||~Notion
logseq|notes-app||Logseq
evernote|notes-app||Evernote
apple-notes|notes-app||Apple Notes
jira|issue-tracker||Jira
linear|issue-tracker||~Linear
slack|chat||Slack
discord|chat||Discord
copilot|ai-assistant||Copilot,GitHub Copilot
claude-code|ai-assistant||Claude Code
chatgpt|ai-assistant||ChatGPT
jupyter|notebook|python|Jupyter,JupyterLab
pandas|python-library|python|pandas
polars|python-library|python|Polars
numpy|python-library|python|NumPy
pydantic|python-library|python|Pydantic
celery|python-library|python|Celery
kafka|messaging||Kafka
rabbitmq|messaging||RabbitMQ
graphql|api-style||GraphQL
grpc|api-style||gRPC
nginx|web-server||nginx
caddy|web-server||Caddy
tailwind|css-framework||Tailwind,TailwindCSS
vite|js-build-tool|javascript|Vite
webpack|js-build-tool|javascript|webpack
esbuild|js-build-tool|javascript|esbuild
cmake|build-tool||CMake
bazel|build-tool||Bazel
gradle|build-tool||Gradle
maven|build-tool||Maven
"""

_MAX_WORDS = 3
#: A word, allowing inner dots, dashes and a trailing ++/# (Node.js, fly.io, C++, C#).
_WORD = lazyre.compile(r"[A-Za-z0-9][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*(?:\+\+|#)?")


def _build() -> tuple[dict[str, Tool], frozenset[str]]:
    by_spelling: dict[str, Tool] = {}
    ambiguous: set[str] = set()
    for line in _TABLE.strip().splitlines():
        tool_id, category, implies, spellings = line.split("|")
        names = spellings.split(",")
        display = names[0].lstrip("~")
        tool = Tool(tool_id, display, category, implies)
        for name in names:
            plain = name.lstrip("~").lower()
            if name.startswith("~"):
                ambiguous.add(plain)
            by_spelling.setdefault(plain, tool)
        by_spelling.setdefault(tool_id, tool)
    return by_spelling, frozenset(ambiguous)


_BY_SPELLING, _AMBIGUOUS = _build()
#: First words of every spelling: a word not in here starts no tool name.
_FIRST_WORDS = frozenset(s.split(" ")[0] for s in _BY_SPELLING)


@lru_cache(maxsize=4096)
def lookup_tool(term: str) -> Tool | None:
    """The tool a term names ("fastapi", "VS Code", "Postgres"), or None."""
    key = " ".join(term.lower().strip(" .,;:!?\"'`()").split())
    return _BY_SPELLING.get(key)


@lru_cache(maxsize=8192)
def find_tools(text: str, *, trusted: bool = False) -> tuple[tuple[Tool, int, int], ...]:
    """The tools named in ``text`` with their spans, longest spelling first, in order.

    An ordinary-English spelling counts only when capitalised, unless ``trusted``
    says the text is already known to be a tool name.
    """
    words = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]
    found: list[tuple[Tool, int, int]] = []
    i = 0
    while i < len(words):
        if words[i][2].lower() not in _FIRST_WORDS:
            i += 1
            continue
        for size in range(min(_MAX_WORDS, len(words) - i), 0, -1):
            chunk = words[i : i + size]
            # A spelling spans only words separated by single spaces ("VS Code").
            if any(text[a[1] : b[0]] != " " for a, b in pairwise(chunk)):
                continue
            spelling = " ".join(w[2] for w in chunk).lower()
            tool = _BY_SPELLING.get(spelling)
            if tool is None:
                continue
            if spelling in _AMBIGUOUS and not trusted and not chunk[0][2][0].isupper():
                continue
            found.append((tool, chunk[0][0], chunk[-1][1]))
            i += size
            break
        else:
            i += 1
    return tuple(found)


@lru_cache(maxsize=4096)
def canonical_spelling(text: str) -> str:
    """``text`` with all-lowercase tool names respelled ("fastapi" → "FastAPI")."""
    parts: list[str] = []
    last = 0
    for _tool, start, end in find_tools(text):
        surface = text[start:end]
        if surface.islower():
            parts.append(text[last:start])
            spelled = _display_for(surface)
            parts.append(spelled)
            last = end
    parts.append(text[last:])
    return "".join(parts)


def _display_for(surface: str) -> str:
    """The table's own spelling of ``surface`` ("postgres" → "Postgres", not "PostgreSQL")."""
    return _SPELLING_CASE.get(surface.lower(), surface)


def _spelling_case() -> dict[str, str]:
    cases: dict[str, str] = {}
    for line in _TABLE.strip().splitlines():
        for name in line.split("|")[3].split(","):
            plain = name.lstrip("~")
            cases.setdefault(plain.lower(), plain)
    return cases


_SPELLING_CASE = _spelling_case()


def tool_aliases(tool: Tool) -> tuple[str, ...]:
    """Every spelling of ``tool`` in the table, lower-cased, longest first."""
    return _ALIASES.get(tool.id, (tool.id,))


def _aliases() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for spelling, tool in _BY_SPELLING.items():
        out.setdefault(tool.id, []).append(spelling)
    return {k: tuple(sorted(set(v), key=lambda s: (-len(s), s))) for k, v in out.items()}


_ALIASES = _aliases()
