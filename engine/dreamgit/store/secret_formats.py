"""What a credential looks like: token formats by prefix, private key blocks, keyword rules.

The scanner (``store.secrets``) runs these over every text dreamgit writes. Token
formats are the issuers' documented shapes (a fixed prefix and a fixed alphabet and
length), so they are found with no context. Values without a prefix are found by a
keyword before them: an assignment (``DB_PASSWORD=…``, ``client_secret: …``) or prose
("the wifi password is …", "with secret …"), and then only when the value does not
read as a word, a number, a version, a UUID or a path (see :func:`plausible_value`).
A private key block is redacted whole, from its BEGIN line to its END line, also
where it sits in a JSON string with ``\\n`` escapes.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any

__all__ = [
    "KEYWORD",
    "PRIVATE_KEY_BLOCK",
    "folds_plainly",
    "has_keyword",
    "high_entropy",
    "keyword_rules",
    "looks_innocent",
    "plausible_value",
    "token_formats",
]


def _token(pattern: str) -> str:
    """A token that no letter, digit or ``_`` may precede or follow."""
    return rf"(?<![A-Za-z0-9_]){pattern}(?![A-Za-z0-9_])"


def _named(service: str, word: str, value: str) -> str:
    """``<service>…<word>… = value``: a value (group 1) assigned to a name that says whose it is."""
    return (
        rf"(?i)\b(?:{service})[\w. -]{{0,40}}?(?:{word})\w*['\"]?\s*[:=]\s*['\"]?"
        rf"({value})(?![A-Za-z0-9_-])"
    )


#: (kind, source of the pattern of the whole secret, or of group 1 where context is needed).
_TOKEN_SOURCES: tuple[tuple[str, str], ...] = (
    ("aws-key", _token(r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}")),
    (
        "aws-secret-key",
        (
            r"(?i:aws.{0,20}?(?:secret|private).{0,20}?)[:=]\s*['\"]?"
            r"([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
    ),
    ("github-token", _token(r"gh[pousr]_[A-Za-z0-9]{36,255}")),
    ("github-token", _token(r"github_pat_[A-Za-z0-9_]{22,255}")),
    (
        "gitlab-token",
        (r"(?<![A-Za-z0-9])gl(?:pat|dt|rt|ptt|cbt|imt|oas|soat|ft)-[0-9A-Za-z_-]{20,}"),
    ),
    ("slack-token", (r"(?<![A-Za-z0-9])xox[abposre]-[0-9A-Za-z-]{10,}")),
    ("slack-token", (r"(?<![A-Za-z0-9])xapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{32,}")),
    ("slack-webhook", (r"hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/+]{20,}")),
    ("stripe-key", _token(r"(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}")),
    ("stripe-key", _token(r"whsec_[0-9A-Za-z]{24,}")),
    ("anthropic-key", (r"(?<![A-Za-z0-9])sk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{32,}")),
    (
        "openai-key",
        (r"(?<![A-Za-z0-9])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}"),
    ),
    ("google-api-key", _token(r"AIza[0-9A-Za-z_-]{35}")),
    ("google-oauth-token", _token(r"ya29\.[0-9A-Za-z_-]{30,}")),
    ("google-client-secret", _token(r"GOCSPX-[0-9A-Za-z_-]{28}")),
    ("huggingface-token", _token(r"(?:hf|api_org)_[A-Za-z0-9]{30,}")),
    ("npm-token", _token(r"npm_[A-Za-z0-9]{36}")),
    ("pypi-token", _token(r"pypi-AgE[IN][A-Za-z0-9_-]{50,}")),
    ("jwt", _token(r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}")),
    ("sendgrid-key", _token(r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}")),
    ("twilio-key", _token(r"SK[0-9a-fA-F]{32}")),
    ("mailgun-key", _token(r"key-[0-9a-f]{32}")),
    ("mailchimp-key", _token(r"[0-9a-f]{32}-us\d{1,2}")),
    ("shopify-token", _token(r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}")),
    ("digitalocean-token", _token(r"do[por]_v1_[a-f0-9]{64}")),
    ("doppler-token", _token(r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}")),
    ("linear-key", _token(r"lin_(?:api|oauth)_[A-Za-z0-9]{40}")),
    ("notion-token", _token(r"(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,})")),
    ("postman-key", _token(r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}")),
    ("atlassian-token", _token(r"ATATT[A-Za-z0-9_=-]{60,}")),
    ("bitbucket-token", _token(r"ATBB[A-Za-z0-9_=.-]{28,}")),
    ("databricks-token", _token(r"dapi[a-f0-9]{32}(?:-\d)?")),
    ("age-key", _token(r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}")),
    ("vault-token", _token(r"hv[sb]\.[A-Za-z0-9_-]{24,}")),
    ("figma-token", _token(r"figd_[A-Za-z0-9_-]{40,}")),
    ("grafana-token", _token(r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}")),
    ("grafana-token", (r"(?<![A-Za-z0-9])glc_[A-Za-z0-9+/]{32,}={0,2}")),
    ("sentry-token", (r"(?<![A-Za-z0-9])sntry[su]_[A-Za-z0-9+/=_]{40,}")),
    ("pulumi-token", _token(r"pul-[a-f0-9]{40}")),
    ("terraform-token", _token(r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}")),
    ("newrelic-key", _token(r"NRAK-[A-Z0-9]{27}")),
    ("supabase-token", _token(r"sbp_[a-f0-9]{40}")),
    ("flyio-token", _token(r"fo1_[A-Za-z0-9_-]{40,}")),
    ("replicate-token", _token(r"r8_[A-Za-z0-9]{37}")),
    ("groq-key", _token(r"gsk_[A-Za-z0-9]{48,}")),
    ("xai-key", _token(r"xai-[A-Za-z0-9]{60,}")),
    ("perplexity-key", _token(r"pplx-[A-Za-z0-9]{40,}")),
    (
        "tailscale-key",
        _token(r"tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}"),
    ),
    ("1password-token", _token(r"ops_eyJ[A-Za-z0-9+/=_-]{60,}")),
    ("docker-token", _token(r"dckr_pat_[A-Za-z0-9_-]{27,}")),
    ("planetscale-token", _token(r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}")),
    ("contentful-token", _token(r"CFPAT-[A-Za-z0-9_-]{43}")),
    ("buildkite-token", _token(r"bkua_[a-f0-9]{40}")),
    ("square-token", _token(r"sq0(?:atp|csp)-[0-9A-Za-z_-]{22,}")),
    ("square-token", _token(r"EAAA[A-Za-z0-9_-]{60}")),
    ("telegram-token", _token(r"\d{8,10}:AA[0-9A-Za-z_-]{33}")),
    ("azure-key", (r"AccountKey=([A-Za-z0-9+/]{86}==)")),
    ("azure-client-secret", _token(r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}")),
    ("heroku-key", _token(r"HRKU-[A-Za-z0-9_-]{60}")),
    ("alibaba-key", _token(r"LTAI[A-Za-z0-9]{20}")),
    ("netlify-token", _token(r"nf[pc]_[A-Za-z0-9]{36,}")),
    ("mapbox-token", _token(r"sk\.eyJ[A-Za-z0-9_-]{40,}\.[A-Za-z0-9_-]{20,}")),
    ("shippo-token", _token(r"shippo_(?:live|test)_[a-f0-9]{40}")),
    ("easypost-key", _token(r"EZ[AT]K[a-zA-Z0-9]{54}")),
    ("rubygems-key", _token(r"rubygems_[a-f0-9]{48}")),
    ("clojars-token", _token(r"CLOJARS_[a-z0-9]{60}")),
    ("crates-token", _token(r"cio[A-Za-z0-9]{32}")),
    ("typeform-token", _token(r"tfp_[A-Za-z0-9_.=-]{59}")),
    ("firebase-key", _token(r"AAAA[A-Za-z0-9_-]{7}:[A-Za-z0-9_-]{140}")),
    # Artifactory: API keys start AKC; encrypted passwords AP and a hex digit (with a digit
    # and a lower-case letter after it, so an upper-case word such as APACHEKAFKA is not one).
    ("artifactory-token", _token(r"AKC[A-Za-z0-9]{10,}")),
    ("artifactory-token", _token(r"AP[0-9A-F](?=\w*[0-9])(?=\w*[a-z])[A-Za-z0-9]{8,}")),
    # Discord bot tokens: the base64 user id, a timestamp and an HMAC, joined by dots.
    ("discord-token", _token(r"[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}")),
    # IBM Cloud (IAM API keys, COS HMAC keys), SoftLayer and Cloudant keys have no prefix of
    # their own: the service's name before the assignment says what the value is.
    ("ibm-key", _named(r"ibm|cos|hmac", r"key|secret", r"[A-Za-z0-9_-]{40,64}")),
    ("softlayer-key", _named(r"softlayer|sl", r"key", r"[a-z0-9]{64}")),
    ("cloudant-key", _named(r"cloudant", r"pass(?:word)?|pwd|key|secret", r"[A-Za-z0-9]{24,64}")),
    ("cloudant-key", (r"://[^\s:/@]+:([A-Za-z0-9]{24,64})@[A-Za-z0-9-]+\.cloudant\.com")),
    ("password", (r"\b[a-z][a-z0-9+.-]*://[^\s:/@\"'<>]*:([^\s:/@\"'<>]{4,})@")),
)

# Compiled by re on first use (only when the prefilter is built), not at import.
_LOOKAROUND = r"\(\?<?[!=](?:\[[^\]]*\]|[^()\[\]])*\)"
_COUNTED = r"\{(\d+)(?:,(\d*))?\}\??"


def _loosened(pattern: str) -> str:
    """``pattern`` without lookarounds and with ``{n,m}`` as ``+`` (``*`` for 0): it matches
    wherever the pattern does, and RE2 runs it as a small automaton."""
    pattern = re.sub(_LOOKAROUND, "", pattern)
    return re.sub(_COUNTED, lambda m: "*" if m.group(1) == "0" else "+", pattern)


def token_formats(line: str) -> list[tuple[str, re.Pattern[str]]]:
    """The token formats that may match ``line`` (kind, pattern of the whole secret, or of
    group 1 where context is needed), in the table's order.

    RE2 runs every format, loosened, as one set over the line, and says which could
    match: most lines are ruled out of all seventy at once, and only the formats a line
    passes are compiled (once a process), so a path such as ``flask-editor.md`` (``sk-``
    loosened) costs one pattern, not seventy (tens of milliseconds).
    """
    possible = _prefilter().Match(line) or ()  # None when no format may match
    return [(_TOKEN_SOURCES[i][0], _token_format(i)) for i in sorted(possible)]


@functools.cache
def _token_format(index: int) -> re.Pattern[str]:
    return re.compile(_TOKEN_SOURCES[index][1])


@functools.cache
def _prefilter() -> Any:
    import re2  # only for a line that may hold a credential

    options = re2.Options()
    options.never_capture = True
    found = re2.Set.SearchSet(options)
    for _, source in _TOKEN_SOURCES:
        found.Add(_loosened(source))
    found.Compile()
    return found


#: A private key block, BEGIN to END; where the END line is missing, BEGIN and the
#: base64 lines after it. ``\\n`` lets the block sit in a JSON string.
PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
    r"(?:[\s\S]{0,20000}?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
    r"|(?:(?:\r?\n|\\r?\\n|[ \t])+[A-Za-z0-9+/=:,-]{16,})*)"
)

_PASSWORD_WORD = r"pass(?:word|wd|phrase|code)?|pwd|pin"
_SECRET_WORD = (
    r"api[_-]?key|apikey|access[_-]?key|secret(?:[_-]?key)?|client[_-]?secret|"
    r"(?:auth|access|refresh|bearer|session|api)[_-]?token|token|private[_-]?key|"
    r"credentials?|signing[_-]?key|encryption[_-]?key|bearer|basic"
)

#: ``NAME = value`` / ``name: value``, where NAME ends in a secret word (``DB_PASSWORD``).
_ASSIGNMENT = (
    rf"(?i)(?<![A-Za-z0-9])(?:[A-Za-z0-9]+[_.-])*(?:(?P<pw>{_PASSWORD_WORD})|{_SECRET_WORD})"
    r"(?![A-Za-z0-9])(?:\\?['\"])?\s*(?::=|=>|[:=])\s*(?:\\?['\"])?"
    r"(?P<value>[^\s'\"`,;<>{}\[\]()\\]{4,})"
)

#: Prose: "the wifi password is …", "with secret …", "Authorization: Bearer …".
_PROSE = (
    rf"(?i)(?<![A-Za-z0-9_])(?:(?P<pw>{_PASSWORD_WORD})|{_SECRET_WORD}|key)"
    r"(?P<copula>(?:\s*:|\s+(?:is|was|are|now|set\s+to|changed\s+to|reads))*)[ \t]+['\"“]?"
    r"(?P<value>[^\s'\"”`,;<>{}\[\]()]{4,})"
)


#: A word one of the two keyword rules holds wherever it matches (every alternative of
#: ``_PASSWORD_WORD``, ``_SECRET_WORD`` and ``key`` contains one), matched with the same
#: case folding: a line without one needs neither rule compiled (~4 ms a process), as a
#: memory file's long slug, suspect by its length alone, at every add.
KEYWORD = re.compile(r"pass|pwd|pin|key|secret|token|cred|bearer|basic", re.IGNORECASE)
#: :data:`KEYWORD` without case folding, over a line lower-cased (see
#: :func:`folds_plainly`): ~4 times faster than the folded pattern.
_KEYWORD_LOWER = re.compile(r"pass|pwd|pin|key|secret|token|cred|bearer|basic")

#: The characters that re's case folding reads as an ASCII letter although ``str.lower``
#: does not make them one (a Kelvin sign is ``k``, a long s ``s``, a dotless i ``i``), and
#: the one whose lower case is two characters: found by going over every code point.
_FOLDING_ODDLY = "\u0130\u0131\u017f\u212a"


def folds_plainly(line: str) -> bool:
    """Whether a case-folded pattern of ASCII alone matches ``line`` exactly where the
    same pattern in lower case, without folding, matches ``line.lower()``."""
    return line.isascii() or not any(c in line for c in _FOLDING_ODDLY)


def has_keyword(line: str) -> bool:
    """Whether :data:`KEYWORD` matches ``line``."""
    if folds_plainly(line):
        return _KEYWORD_LOWER.search(line.lower()) is not None
    return KEYWORD.search(line) is not None


@functools.cache
def keyword_rules() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The assignment and the prose rule, compiled on first use (a suspect line)."""
    return re.compile(_ASSIGNMENT), re.compile(_PROSE)


_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
_VERSIONISH = re.compile(r"^v?\d+(?:\.\d+)+(?:[-+.][A-Za-z0-9]+)*$")
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")  # api_key_env: OPENAI_API_KEY
_HEX_DIGEST = re.compile(r"^(?:[0-9a-f]{7,12}|[0-9a-f]{40}|[0-9a-f]{64})$")
_REFERENCE = re.compile(r"^(?:\$|%|\{\{|<|\*{3}|\[REDACTED|https?://|/|~/|\.\.?/|[A-Za-z]:\\)")
_CODE_REFERENCE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\)?)?$")  # os.environ
_PLACEHOLDER = re.compile(
    r"^(?:x+|\*+|\.+|-+|_+|none|null|nil|empty|unset|redacted|required)$", re.I
)


def looks_innocent(token: str) -> bool:
    """A UUID, a version, an environment variable's name: never a secret by itself."""
    return bool(_UUID.match(token) or _VERSIONISH.match(token) or _ENV_NAME.match(token))


def high_entropy(value: str) -> bool:
    """Reads as random: many distinct characters, a digit or mixed case, ~3 bits a character."""
    if looks_innocent(value) or value.isalpha() or len(set(value)) < 6:
        return False
    counts = {c: value.count(c) for c in set(value)}
    entropy = -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())
    has_digit = any(c.isdigit() for c in value)
    mixed = value.lower() != value and value.upper() != value
    # A dotted or hyphenated name (python.test-runner) is a name, not a token.
    return entropy >= 3.0 and (has_digit or mixed)


def plausible_value(value: str, *, password: bool, prose: str | None) -> bool:
    """Whether the word after a secret keyword is the secret itself.

    ``prose`` is None for an assignment (``NAME=value``), else what joins keyword and
    value ("is", ":" or nothing). A password may be short and plain (``hunter2!``),
    so it needs a digit, a symbol or mixed case, or twelve characters; in prose a
    plain word counts only after "is" (and not a state such as "expired"). A token
    or key must read as random, and in prose have sixteen characters.
    """
    value = value.rstrip(".!?:")
    if not value or _REFERENCE.match(value) or _PLACEHOLDER.match(value) or looks_innocent(value):
        return False
    if "://" in value or value.count("/") > 1 or _CODE_REFERENCE.match(value):
        return False
    if not password:
        return len(value) >= (8 if prose is None else 16) and high_entropy(value)
    if len(value) < (4 if prose is None else 6):
        return False
    if any(not c.isalpha() for c in value):
        return not value.isdigit() or prose is None
    if value.lower() != value and value.upper() != value:  # mixed case
        # "we pin Python 3.12", "pass Django the settings": a name after the word used as
        # a verb; after "is" or ":" a capitalised word is the password ("… is Sunflower")
        titled = value[:1].isupper() and value[1:].islower()
        return not (titled and prose is not None and not prose.strip())
    if prose is None:
        return len(value) >= 8
    return bool(prose.strip()) and not _STATE_WORD.search(value)


#: "the password is expired / changing / stored / reusable": a state, not the password.
_STATE_WORD = re.compile(
    r"(?i)(?:ed|ing|ly|ble|ful|less|ous|ive|ent|ant)$|^(?:same|wrong|weak|strong|secure|different|unknown|correct|missing|optional)$"
)
