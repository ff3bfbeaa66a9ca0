"""Credentials of many real formats, made up here from the issuers' documented shapes.

Every value is drawn from a seeded generator, so no real credential is ever in the
tests and each run sees the same ones. ``SECRETS`` pairs a kind with a sentence
holding one credential and the credential itself (what must never be committed);
``LOOK_ALIKES`` are sentences that look like secrets and must be kept as written.
"""

from __future__ import annotations

import base64
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

_RNG = random.Random(20261126)
UPPER, LOWER, DIGITS = string.ascii_uppercase, string.ascii_lowercase, string.digits
ALNUM = UPPER + LOWER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"


def _r(alphabet: str, n: int) -> str:
    """``n`` characters of ``alphabet``, with at least one digit where it has digits."""
    while True:
        out = "".join(_RNG.choice(alphabet) for _ in range(n))
        if not any(c in DIGITS for c in alphabet) or any(c.isdigit() for c in out) or n < 8:
            return out


def _jwt() -> str:
    def part(data: str) -> str:
        return base64.urlsafe_b64encode(data.encode()).decode().rstrip("=")

    head = part('{"alg":"HS256","typ":"JWT"}')
    body = part(f'{{"sub":"{_r(DIGITS, 9)}","name":"{_r(LOWER, 6)}"}}')
    return f"{head}.{body}.{_r(URLSAFE, 43)}"


def _pem(label: str) -> str:
    lines = [_r(B64, 64) for _ in range(4)] + [_r(B64, 20) + "=="]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


@dataclass(frozen=True)
class Secret:
    """One made-up credential: its kind, the sentence that holds it, and the value itself."""

    kind: str
    sentence: str
    value: str


_RECIPES: list[tuple[str, Callable[[], str], str]] = [
    ("aws-key", lambda: "AKIA" + _r(UPPER + DIGITS, 16), "the deploy key id is {}"),
    ("aws-key", lambda: "ASIA" + _r(UPPER + DIGITS, 16), "temporary key {} for the job"),
    ("aws-secret-key", lambda: _r(B64, 39) + "/", "aws_secret_access_key = {}"),
    ("aws-secret-key", lambda: _r(B64, 39) + "+", "AWS_SECRET_ACCESS_KEY={}"),
    ("secret", lambda: _r(ALNUM, 38) + "/+", "deploy key AKIA-less, with secret {} in the vault"),
    ("github-token", lambda: "ghp_" + _r(ALNUM, 36), "push with {}"),
    ("github-token", lambda: "gho_" + _r(ALNUM, 36), "the oauth token {} expires"),
    ("github-token", lambda: "ghs_" + _r(ALNUM, 36), "the app uses {}"),
    (
        "github-token",
        lambda: "github_pat_11" + _r(UPPER + DIGITS, 20) + "_" + _r(ALNUM, 59),
        "CI has {}",
    ),
    ("gitlab-token", lambda: "glpat-" + _r(URLSAFE, 20), "GitLab token {}"),
    ("gitlab-token", lambda: "gldt-" + _r(URLSAFE, 20), "deploy token {}"),
    ("slack-token", lambda: f"xoxb-{_r(DIGITS, 12)}-{_r(DIGITS, 13)}-{_r(ALNUM, 24)}", "bot {}"),
    ("slack-token", lambda: f"xoxp-{_r(DIGITS, 12)}-{_r(DIGITS, 12)}-{_r(HEX, 32)}", "user {}"),
    (
        "slack-token",
        lambda: f"xapp-1-A{_r(UPPER + DIGITS, 10)}-{_r(DIGITS, 13)}-{_r(HEX, 64)}",
        "app {}",
    ),
    (
        "slack-webhook",
        lambda: (
            "https://hooks.slack.com/services/"
            f"T{_r(UPPER + DIGITS, 8)}/B{_r(UPPER + DIGITS, 8)}/{_r(ALNUM, 24)}"
        ),
        "alerts go to {}",
    ),
    ("stripe-key", lambda: "sk_live_" + _r(ALNUM, 24), "billing uses {}"),
    ("stripe-key", lambda: "rk_live_" + _r(ALNUM, 24), "restricted key {}"),
    ("stripe-key", lambda: "whsec_" + _r(ALNUM, 32), "the webhook signing secret {}"),
    ("openai-key", lambda: "sk-proj-" + _r(URLSAFE, 48), "OPENAI_API_KEY={}"),
    ("openai-key", lambda: "sk-" + _r(ALNUM, 48), "old key {}"),
    ("openai-key", lambda: "sk-svcacct-" + _r(URLSAFE, 48), "service account {}"),
    ("anthropic-key", lambda: "sk-ant-api03-" + _r(URLSAFE, 93) + "AA", "claude key {}"),
    ("anthropic-key", lambda: "sk-ant-admin01-" + _r(URLSAFE, 93) + "AA", "admin key {}"),
    ("google-api-key", lambda: "AIza" + _r(URLSAFE, 35), "maps key {}"),
    ("google-oauth-token", lambda: "ya29." + _r(URLSAFE, 60), "access {}"),
    ("google-client-secret", lambda: "GOCSPX-" + _r(URLSAFE, 28), "client {}"),
    ("huggingface-token", lambda: "hf_" + _r(ALNUM, 34), "hub {}"),
    ("npm-token", lambda: "npm_" + _r(ALNUM, 36), "//registry.npmjs.org/:_authToken={}"),
    ("npm-token", lambda: "npm_" + _r(ALNUM, 36), "publish with {}"),
    ("pypi-token", lambda: "pypi-AgEIcHlwaS5vcmc" + _r(URLSAFE, 70), "twine uses {}"),
    ("jwt", _jwt, "Bearer {}"),
    ("jwt", _jwt, "the session cookie was {}"),
    ("sendgrid-key", lambda: f"SG.{_r(URLSAFE, 22)}.{_r(URLSAFE, 43)}", "mail via {}"),
    ("twilio-key", lambda: "SK" + _r(HEX, 32), "twilio {}"),
    ("mailgun-key", lambda: "key-" + _r(HEX, 32), "mailgun {}"),
    ("mailchimp-key", lambda: _r(HEX, 32) + "-us14", "mailchimp {}"),
    ("shopify-token", lambda: "shpat_" + _r(HEX, 32), "shop {}"),
    ("digitalocean-token", lambda: "dop_v1_" + _r(HEX, 64), "droplets {}"),
    ("doppler-token", lambda: "dp.pt." + _r(ALNUM, 43), "doppler {}"),
    ("linear-key", lambda: "lin_api_" + _r(ALNUM, 40), "linear {}"),
    ("notion-token", lambda: "ntn_" + _r(ALNUM, 46), "notion {}"),
    ("postman-key", lambda: f"PMAK-{_r(HEX, 24)}-{_r(HEX, 34)}", "postman {}"),
    ("atlassian-token", lambda: "ATATT3xFfGF0" + _r(URLSAFE, 180), "jira {}"),
    ("databricks-token", lambda: "dapi" + _r(HEX, 32), "databricks {}"),
    ("age-key", lambda: "AGE-SECRET-KEY-1" + _r("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58), "age {}"),
    ("vault-token", lambda: "hvs." + _r(URLSAFE, 90), "vault {}"),
    ("figma-token", lambda: "figd_" + _r(URLSAFE, 40), "figma {}"),
    ("grafana-token", lambda: f"glsa_{_r(ALNUM, 32)}_{_r(HEX, 8)}", "grafana {}"),
    ("pulumi-token", lambda: "pul-" + _r(HEX, 40), "pulumi {}"),
    ("terraform-token", lambda: f"{_r(ALNUM, 14)}.atlasv1.{_r(URLSAFE, 67)}", "terraform {}"),
    ("newrelic-key", lambda: "NRAK-" + _r(UPPER + DIGITS, 27), "new relic {}"),
    ("supabase-token", lambda: "sbp_" + _r(HEX, 40), "supabase {}"),
    ("replicate-token", lambda: "r8_" + _r(ALNUM, 37), "replicate {}"),
    ("groq-key", lambda: "gsk_" + _r(ALNUM, 52), "groq {}"),
    ("xai-key", lambda: "xai-" + _r(ALNUM, 80), "grok {}"),
    ("perplexity-key", lambda: "pplx-" + _r(ALNUM, 48), "perplexity {}"),
    ("tailscale-key", lambda: f"tskey-auth-k{_r(ALNUM, 10)}-{_r(ALNUM, 30)}", "tailnet {}"),
    ("docker-token", lambda: "dckr_pat_" + _r(URLSAFE, 27), "docker login with {}"),
    ("planetscale-token", lambda: "pscale_tkn_" + _r(URLSAFE, 43), "planetscale {}"),
    ("contentful-token", lambda: "CFPAT-" + _r(URLSAFE, 43), "contentful {}"),
    ("buildkite-token", lambda: "bkua_" + _r(HEX, 40), "buildkite {}"),
    ("square-token", lambda: "sq0atp-" + _r(URLSAFE, 22), "square {}"),
    ("telegram-token", lambda: f"{_r(DIGITS, 10)}:AA{_r(URLSAFE, 33)}", "telegram bot {}"),
    ("azure-key", lambda: "AccountKey=" + _r(B64, 86) + "==", "DefaultEndpointsProtocol=https;{}"),
    ("heroku-key", lambda: "HRKU-" + _r(URLSAFE, 60), "heroku {}"),
    ("alibaba-key", lambda: "LTAI" + _r(ALNUM, 20), "aliyun {}"),
    ("rubygems-key", lambda: "rubygems_" + _r(HEX, 48), "gem push with {}"),
    ("easypost-key", lambda: "EZAK" + _r(ALNUM, 54), "easypost {}"),
    ("password", lambda: _r(ALNUM, 12) + "!", "postgres://admin:{}@db.internal:5432/app"),
    ("password", lambda: "Hunter" + _r(DIGITS, 3) + "!", "the wifi password is {}"),
    ("password", lambda: _r(LOWER, 8) + _r(DIGITS, 3), "DB_PASSWORD={}"),
    ("password", lambda: _r(LOWER, 6) + _r(DIGITS, 4), "db_password: {}"),
    ("password", lambda: _r(ALNUM, 14), "export REDIS_PASS={}"),
    ("secret", lambda: _r(HEX, 32), "token: {}"),
    ("secret", lambda: _r(ALNUM, 24), 'client_secret="{}"'),
    ("secret", lambda: _r(ALNUM, 32), "api_key={}"),
    ("private-key", lambda: _pem("RSA PRIVATE KEY"), "deploy key:\n{}\nkeep it safe"),
    ("private-key", lambda: _pem("OPENSSH PRIVATE KEY"), "{}"),
    ("private-key", lambda: _pem("PRIVATE KEY").replace("\n", "\\n"), '{{"private_key": "{}\\n"}}'),
    ("private-key", lambda: _pem("EC PRIVATE KEY").rsplit("\n", 1)[0], "the key, cut off:\n{}"),
]

SECRETS: list[Secret] = []
for _kind, _make, _template in _RECIPES:
    _value = _make()
    SECRETS.append(Secret(_kind, _template.format(_value), _value))

#: Sentences that look like secrets to a careless scanner and must be kept as written.
LOOK_ALIKES: list[str] = [
    "We pin Python 3.12 on the build runners.",
    "Pass Django the settings module explicitly.",
    "Fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b last week.",
    "The short sha a94a8fe5 is the release.",
    "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 of the tarball.",
    "Ticket 123e4567-e89b-12d3-a456-426614174000 tracks the outage.",
    "We run Python 3.11.7 and Node v20.20.2 in production.",
    "Upgrade to version 2.14.1-rc.1 before Friday.",
    "The secret to good bread is patience.",
    "My password manager is 1Password.",
    "The password is expired, ask IT for a new one.",
    "The token ring network was replaced in 1998.",
    "Prefers pytest over unittest for Python tests.",
    "Her API key rotation policy is every 90 days.",
    "Use the AWS region eu-west-1 for the staging stack.",
    "The md5 of the file was d41d8cd98f00b204e9800998ecf8427e.",
    "Docker digest sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.",
    "The build id is 20261123T030000Z-4f2a.",
    "Her phone is +44 20 7946 0958.",
    "postgres://localhost:5432/app has no password set locally.",
    "Call the endpoint at https://api.example.com/v1/items?page=2.",
    "The memory id m-7f3k2q9d was merged.",
    "Keep answers short: token budget is 1500 characters.",
    "password: see the team vault",
    "The commit range abc1234..def5678 holds the fix.",
    "ISBN 978-3-16-148410-0 is the book she recommended.",
    '"api_key_env": "OPENAI_API_KEY",',
    "token: ${{ secrets.GITHUB_TOKEN }}",
    "Config lives in /etc/nginx/sites-available/default.conf on the box.",
    "The path ~/projects/dreamgit/engine/dreamgit/store is where it lives.",
    "Antidisestablishmentarianism is her favourite long word.",
    "Pneumonoultramicroscopicsilicovolcanoconiosis came up in the quiz.",
    "The key insight was that caching helps.",
    "Set the password policy to require twelve characters.",
    "She keeps the secret recipe for lasagne in a notebook.",
    "DB_PASSWORD=${DB_PASSWORD} comes from the environment.",
    "password = os.environ['PASSWORD']",
    "The PIN pad at the office is broken.",
    "Run git checkout 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b to reproduce.",
    "The container id was 4f2a9c1e7b3d for the failed job.",
    "Release tag v1.2.3+build.456 shipped on Monday.",
    "session s-20261120-a1b2c3 covered the migration.",
    "The API key goes in the settings page, never in code.",
    "Timestamps look like 2026-11-20T10:04:00Z in the logs.",
]


def needles(secret: Secret) -> list[str]:
    """The parts of a credential that must be found nowhere (a key block's body lines)."""
    parts = secret.value.replace("\\n", "\n").split("\n")
    return [p for p in parts if len(p) >= 8 and not p.startswith("-----")]
