"""The credential scan before every commit: what it must catch, and what it must leave alone."""

from __future__ import annotations

import pytest

from dreamgit.errors import ConfigError, SecretFoundError
from dreamgit.store.secrets import findings_trailers, scan_text, scrub, secrets_mode

# Synthetic credentials of each shape (built here from their documented formats; none is real).
ALNUM = "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
HEX = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
SECRETS = [
    ("aws-key", "the deploy key is AKIAZ7QWERTYUIOP4ASD for prod"),
    ("aws-secret-key", "aws_secret_access_key = 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"),
    ("github-token", f"use token ghp_{ALNUM}abcd to push"),
    ("github-token", f"fine-grained github_pat_11ABCDEFG0{ALNUM}{ALNUM}xyz in CI"),
    ("gitlab-token", f"GitLab: glpat-{ALNUM[:20]}"),
    ("slack-token", "bot token xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
    ("stripe-key", f"stripe sk_live_{ALNUM[:24]} for billing"),
    ("openai-key", f"OPENAI_API_KEY=sk-proj-{ALNUM}{ALNUM}"),
    ("anthropic-key", f"key sk-ant-api03-{ALNUM}{ALNUM}"),
    ("google-api-key", "maps key AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"),
    ("huggingface-token", f"hf_{ALNUM}QrSt for the hub"),
    ("private-key", "-----BEGIN RSA PRIVATE KEY-----"),
    ("private-key", "-----BEGIN OPENSSH PRIVATE KEY-----"),
    ("password", "db at postgres://admin:s3cr3tPassw0rd@db.internal:5432/app"),
    ("password", "redis://:Xk82jd9Wq1@cache.local:6379/0"),
    ("password", "mongodb+srv://app:Zq7Lp2Mx9Vb4@cluster0.mongodb.net/test"),
    ("jwt", "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2hlcmU"),
    ("password", "password = 'Tr0ub4dor&3xyz'"),
    ("secret", "api_key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    ("secret", 'client_secret="q8W2e4R6t8Y0u2I4o6P8"'),
    ("sendgrid-key", f"SG.{ALNUM[:22]}.{ALNUM}{ALNUM[:11]}"),
    ("npm-token", f"//registry.npmjs.org/:_authToken=npm_{ALNUM}abcd"),
    ("twilio-key", "twilio SK0123456789abcdef0123456789abcdef"),
    ("artifactory-token", f"artifactory key AKCp8{ALNUM}{ALNUM[:20]} for the mirror"),
    ("artifactory-token", f"artifactory password AP6{ALNUM[:12]} set"),
    ("discord-token", f"bot token MTk{ALNUM[:21]}.Gx7Yq2.{ALNUM[:27]} in the env"),
    ("ibm-key", f"cos_hmac secret_access_key: {HEX}{HEX[:16]}"),
    ("ibm-key", f"ibm_cloud_iam_api_key = {ALNUM}Zq9_-x1Y2w3V"),
    ("softlayer-key", f"softlayer_api_key = {HEX}{HEX}"),
    ("cloudant-key", f"cloudant_password = {HEX}{HEX}"),
    ("cloudant-key", f"https://acct:{HEX}{HEX}@acct.cloudant.com"),
]

INNOCENT = [
    "Fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b last week.",
    "The tarball's sha256 is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.",
    "Ticket 123e4567-e89b-12d3-a456-426614174000 tracks the outage.",
    "We run Python 3.11.7 and Node v20.20.2 in production.",
    "Upgrade to version 2.14.1-rc.1 before Friday.",
    "The secret to good bread is patience.",
    "My password manager is 1Password.",
    "The token ring network was replaced in 1998.",
    "Prefers pytest over unittest for Python tests.",
    "Her API key rotation policy is every 90 days.",
    "Use the AWS region eu-west-1 for the staging stack.",
    "The md5 of the file was d41d8cd98f00b204e9800998ecf8427e.",
    "Docker image digest sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.",
    "The build id is 20261123T030000Z-4f2a.",
    "Her phone is +44 20 7946 0958.",
    "postgres://localhost:5432/app has no password set locally.",
    "Call the endpoint at https://api.example.com/v1/items?page=2.",
    "The memory id m-7f3k2q9d was merged.",
    "Keep answers short: token budget is 1500 characters.",
    "password: see the team vault",
    "The commit range abc1234..def5678 holds the fix.",
    "ISBN 978-3-16-148410-0 is the book she recommended.",
    '  "api_key_env": "OPENAI_API_KEY",',
    "token: ${{ secrets.GITHUB_TOKEN }}",
    "They moved the APACHEKAFKA1 cluster and the APPROVALS queue.",
    "The cost of the SLA key metrics was reviewed.",
]


@pytest.mark.parametrize(
    ("kind", "line"), SECRETS, ids=[f"{k}-{i}" for i, (k, _) in enumerate(SECRETS)]
)
def test_each_credential_shape_is_found(kind: str, line: str) -> None:
    """Every listed credential shape is found, on its line, as its kind."""
    found = scan_text(f"first line\n{line}\n", path="memories/x.md")
    assert [(f.line, f.kind) for f in found][:1] == [(2, kind)]


@pytest.mark.parametrize("line", INNOCENT)
def test_look_alikes_are_left_alone(line: str) -> None:
    """Hashes in prose, UUIDs, versions and secret-ish words are ordinary memory."""
    assert scan_text(line) == []


def test_redact_mode_replaces_only_the_secret_and_says_where() -> None:
    """Redaction keeps the rest of the text byte for byte and reports path:line and kind."""
    text = "Deploys with key AKIAZ7QWERTYUIOP4ASD.\r\nLikes tea.\r\n"
    files, found = scrub({"memories/ops/key.md": text.encode(), "gone.md": None}, "redact")
    assert files["memories/ops/key.md"] == b"Deploys with key [REDACTED:aws-key].\r\nLikes tea.\r\n"
    assert files["gone.md"] is None
    assert findings_trailers(found) == "Dream-Redacted: memories/ops/key.md:1 (aws-key)\n"


def test_redacted_connection_string_keeps_user_and_host() -> None:
    """Only the password of a connection string goes."""
    files, _ = scrub({"s.md": b"db: postgres://admin:s3cr3tPassw0rd@db.internal/app\n"}, "redact")
    assert files["s.md"] == b"db: postgres://admin:[REDACTED:password]@db.internal/app\n"


def test_refuse_mode_names_file_and_line_and_commits_nothing() -> None:
    """Refuse raises before anything is written, naming the file, the line and the kind."""
    with pytest.raises(SecretFoundError) as caught:
        scrub({"sessions/a.md": b"hello\nmy key AKIAZ7QWERTYUIOP4ASD\n"}, "refuse")
    assert str(caught.value) == (
        "sessions/a.md:2: looks like a credential (aws-key); nothing was committed"
    )
    assert "secrets: {mode: redact}" in (caught.value.hint or "")


def test_off_mode_passes_through_and_bytes_that_are_not_utf8_are_scanned_too() -> None:
    """``off`` scans nothing; in bytes that are not UTF-8 the key goes, every other byte stays."""
    data = {"a.md": b"AKIAZ7QWERTYUIOP4ASD", "b.bin": b"\xff\xfeAKIAZ7QWERTYUIOP4ASD"}
    assert scrub(data, "off") == (data, [])
    files, found = scrub(data, "redact")
    assert files["b.bin"] == b"\xff\xfe[REDACTED:aws-key]"
    assert [f.path for f in found] == ["a.md", "b.bin"]


def test_mode_comes_from_config_and_a_bad_one_is_a_config_error() -> None:
    """``secrets: {mode: …}`` picks the mode; redact by default; anything else is refused."""
    assert secrets_mode({}) == "redact"
    assert secrets_mode({"secrets": {"mode": "refuse"}}) == "refuse"
    with pytest.raises(ConfigError) as caught:
        secrets_mode({"secrets": {"mode": "shout"}})
    assert str(caught.value) == (
        ".dreamgit/config.yaml: secrets.mode must be one of redact, refuse, off, not 'shout'"
    )


def test_a_file_named_with_a_key_is_moved_and_the_trailer_names_the_new_path() -> None:
    """The content is scanned under its new name; nothing of the key is left in any path."""
    key = "AKIAZ7QWERTYUIOP4ASD"
    files, found = scrub(
        {f"memories/ops/{key}.md": b"note\n", "memories/ops/redacted-aws-key.md": b"x\n"},
        "redact",
        taken=lambda p: False,
    )
    assert sorted(files) == [
        "memories/ops/redacted-aws-key-2.md",
        "memories/ops/redacted-aws-key.md",
    ]
    assert findings_trailers(found) == (
        "Dream-Redacted: memories/ops/redacted-aws-key-2.md (file name, aws-key)\n"
    )


def test_a_slug_that_lower_cased_a_key_is_still_found() -> None:
    """``akia…`` in a slug is the key a slug made lower-case."""
    files, _ = scrub({"memories/ops/deploy-akiaz7qwertyuiop4asd-key.md": b"x\n"}, "redact")
    assert list(files) == ["memories/ops/redacted-aws-key.md"]


def test_refuse_mode_refuses_a_file_named_with_a_key_without_repeating_it() -> None:
    """The message names the folder and the kind, never the name."""
    with pytest.raises(SecretFoundError) as caught:
        scrub({"memories/ops/AKIAZ7QWERTYUIOP4ASD.md": b"note\n"}, "refuse")
    assert str(caught.value) == (
        "a file in memories/ops/ is named with what looks like a credential (aws-key); "
        "nothing was committed"
    )
