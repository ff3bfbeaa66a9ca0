"""What the HTTP adapters share: settings, the API key from the environment, the client.

A subclass names its defaults (base URL, key variable), the extra settings it
takes, and how to send a key; the constructor checks every setting once, so a
typo in ``llm:`` is reported when the run starts, not after the first request.
``llm.timeout`` is each request's deadline (60 s), ``llm.run_timeout`` the run's
total time for the LLM from its first request (1800 s); both hold however slowly a
server sends.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, ClassVar

from dreamgit.errors import ConfigError
from dreamgit.llm.base import (
    LLMAdapter,
    check_settings,
    setting_int,
    setting_number,
    setting_str,
)
from dreamgit.llm.http import HttpClient

__all__ = ["HttpAdapter"]

_SHARED = frozenset(
    {"model", "base_url", "api_key_env", "timeout", "run_timeout", "retries", "temperature"}
)
#: Seconds one run may spend on the LLM in all (requests, retries, waits): half an hour.
RUN_TIMEOUT = 1800.0


class HttpAdapter(LLMAdapter):
    """Base of the adapters that POST JSON to a provider."""

    #: The provider's name in messages ("OpenAI"), and its defaults.
    provider: ClassVar[str]
    default_base_url: ClassVar[str]
    default_key_env: ClassVar[str]
    extra_settings: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, settings: Mapping[str, Any], *, client: HttpClient | None = None) -> None:
        check_settings(self.name, settings, set(_SHARED | self.extra_settings))
        self.model = setting_str(self.name, settings, "model", None)
        base = setting_str(self.name, settings, "base_url", self.default_base_url)
        self.base_url = base.rstrip("/")
        self.key_env = setting_str(self.name, settings, "api_key_env", self.default_key_env)
        temperature = settings.get("temperature", 0)
        if isinstance(temperature, bool) or not isinstance(temperature, int | float):
            raise ConfigError(f"llm.temperature: expected a number, got {temperature!r}")
        # 0 by default, so the same prompt gets the same answer as far as the provider allows.
        self.temperature = float(temperature)
        self.client = client or HttpClient(
            self.name,
            timeout=setting_number(settings, "timeout", 60.0),
            retries=setting_int(settings, "retries", 4),
            run_timeout=setting_number(settings, "run_timeout", RUN_TIMEOUT),
            key_hint=f"${self.key_env}",
        )

    def api_key(self, *, hint: str) -> str | None:
        """The key from the environment; required (ConfigError) only on the provider's own URL."""
        key = os.environ.get(self.key_env, "").strip()
        if key:
            return key
        if self.base_url == self.default_base_url.rstrip("/"):
            raise ConfigError(
                f"${self.key_env} is not set: the {self.provider} API needs a key", hint=hint
            )
        return None
