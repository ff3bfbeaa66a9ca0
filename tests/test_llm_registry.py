"""Finding adapters through the dreamgit.llm entry points; the callable and scripted built-ins."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from dreamgit.errors import ConfigError, ProviderError
from dreamgit.llm import registry
from dreamgit.llm.anthropic import AnthropicAdapter
from dreamgit.llm.base import Completion, LLMAdapter, Message
from dreamgit.llm.callable import CallableAdapter, flatten
from dreamgit.llm.openai import OpenAIAdapter
from dreamgit.llm.scripted import ScriptedAdapter

CONVERSATION = [
    Message("system", "sys"),
    Message("user", "question"),
    Message("assistant", "bad"),
    Message("user", "again"),
]


class _Echo(LLMAdapter):
    name = "echo"

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self.model = str(settings.get("model", "echo-1"))

    def complete(self, messages: Sequence[Message], *, max_tokens: int) -> Completion:
        return Completion(messages[-1].content, self.model)


def test_builtin_adapters_come_from_the_entry_point_group() -> None:
    """openai, anthropic and scripted are found the way third-party plugins are."""
    assert {"openai", "anthropic", "scripted"} <= set(registry.available())
    assert isinstance(registry.get_adapter("openai", {"model": "m"}), OpenAIAdapter)
    assert isinstance(
        registry.get_adapter("anthropic", {"adapter": "anthropic", "model": "m"}), AnthropicAdapter
    )
    assert isinstance(registry.get_adapter("scripted", {}), ScriptedAdapter)


def test_callable_adapter_is_declared_as_an_entry_point() -> None:
    """The callable built-in is registered through the same hook as the others."""
    assert "callable" in registry.available()


def test_in_process_adapter_can_be_registered_and_removed() -> None:
    """A test or an embedding program adds an adapter without entry points."""
    registry.register("echo-test", _Echo)
    try:
        adapter = registry.get_adapter("echo-test", {"model": "e"})
        assert adapter.complete(CONVERSATION, max_tokens=5) == Completion("again", "e")
        with pytest.raises(ValueError, match="already registered"):
            registry.register("echo-test", _Echo)
    finally:
        registry.unregister("echo-test")
    assert "echo-test" not in registry.available()


def test_builtin_names_cannot_be_taken_in_process() -> None:
    """Registering "openai" again would shadow the real adapter; it is refused."""
    with pytest.raises(ValueError, match="'openai' is already registered"):
        registry.register("openai", _Echo)


def test_unknown_adapter_lists_the_available_ones() -> None:
    """A typo in llm.adapter names what could have been meant."""
    with pytest.raises(ConfigError) as info:
        registry.get_adapter("opnai", {})
    assert info.value.message.startswith("unknown LLM adapter 'opnai' (available: ")
    assert "openai" in info.value.message
    assert info.value.hint == (
        "set llm.adapter (or run --llm) to one of those, or install the plugin that provides it"
    )


def test_factory_returning_something_else_is_refused() -> None:
    """A plugin must give an LLMAdapter."""
    registry.register("broken-test", lambda settings: "nope")  # type: ignore[arg-type,return-value]
    try:
        with pytest.raises(ConfigError, match="gave str, not an LLMAdapter"):
            registry.get_adapter("broken-test", {})
    finally:
        registry.unregister("broken-test")


def test_callable_adapter_passes_the_flattened_prompt() -> None:
    """The function gets one prompt string and max_tokens; earlier answers are labelled."""
    seen: list[tuple[str, int]] = []

    def model(prompt: str, max_tokens: int) -> str:
        seen.append((prompt, max_tokens))
        return '{"proposals": []}'

    adapter = CallableAdapter({"function": model})
    assert adapter.model == "test_callable_adapter_passes_the_flattened_prompt.<locals>.model"
    assert adapter.complete(CONVERSATION, max_tokens=9).text == '{"proposals": []}'
    assert seen == [("sys\n\nquestion\n\nYour previous answer was:\nbad\n\nagain\n", 9)]
    assert flatten(CONVERSATION) == seen[0][0]


def test_callable_adapter_imports_a_function_by_path() -> None:
    """From a config file the function is given as package.module:attr."""
    adapter = CallableAdapter({"function": "llm_support:echo_model"})
    assert adapter.model == "echo_model"
    assert adapter.complete([Message("user", "x")], max_tokens=1).text == "1:x\n"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"function": "json"}, "llm.function: 'json' is not of the form package.module:function"),
        (
            {"function": "json:nothing"},
            "llm.function: cannot import 'json:nothing': module 'json' has no attribute 'nothing'",
        ),
        ({"function": 3}, "llm.function: expected a callable (prompt, max_tokens) -> str, got 3"),
    ],
)
def test_callable_adapter_bad_function_is_a_config_error(
    settings: dict[str, Any], message: str
) -> None:
    """A function that cannot be found is named."""
    with pytest.raises(ConfigError) as info:
        CallableAdapter(settings)
    assert info.value.message == message


def test_callable_that_raises_is_a_provider_failure() -> None:
    """Whatever the user's function raises becomes exit code 4."""

    def flaky(prompt: str, max_tokens: int) -> str:
        raise TimeoutError("model server busy")

    with pytest.raises(ProviderError) as info:
        CallableAdapter({"function": flaky, "model": "local"}).complete(CONVERSATION, max_tokens=1)
    assert info.value.message == "callable: local raised TimeoutError: model server busy"
    assert info.value.exit_code == 4


def test_scripted_adapter_without_script_proposes_nothing() -> None:
    """The default scripted answer is an empty proposal list, and the request is recorded."""
    adapter = ScriptedAdapter({})
    assert adapter.complete(CONVERSATION, max_tokens=3).text == '{"proposals": []}'
    assert adapter.requests[0].messages == tuple(CONVERSATION)


def test_scripted_adapter_answers_from_a_file_in_order(tmp_path: Path) -> None:
    """A JSON file of answers (objects are serialised) is replayed, then the script ends."""
    script = tmp_path / "answers.json"
    script.write_text(json.dumps({"responses": [{"proposals": []}, "plain text"]}))
    adapter = ScriptedAdapter({"file": str(script)})
    assert [adapter.complete(CONVERSATION, max_tokens=1).text for _ in range(2)] == [
        '{"proposals": []}',
        "plain text",
    ]
    with pytest.raises(ProviderError) as info:
        adapter.complete(CONVERSATION, max_tokens=1)
    assert info.value.message == "scripted: the script has 2 answers and request 3 came"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"responses": [], "file": "x"}, "llm.responses and llm.file: give one script, not both"),
        ({"responses": "x"}, "llm.responses: expected a list of answers"),
        (
            {"file": "/nonexistent/answers.json"},
            "llm.file: cannot read /nonexistent/answers.json: No such file or directory",
        ),
    ],
)
def test_scripted_adapter_bad_script_is_a_config_error(
    settings: dict[str, Any], message: str
) -> None:
    """Script problems are reported as configuration errors."""
    with pytest.raises(ConfigError) as info:
        ScriptedAdapter(settings)
    assert info.value.message == message


def test_a_plugin_that_cannot_be_imported_is_a_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installed entry point whose module is missing is named, with what went wrong."""
    info = tmp_path / "broken_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[dreamgit.llm]\nbroken = no_such_module_for_dreamgit:Adapter\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ConfigError) as caught:
        registry.get_adapter("broken", {})
    assert caught.value.render() == (
        "LLM adapter 'broken' (no_such_module_for_dreamgit:Adapter) could not be loaded:"
        " ModuleNotFoundError: No module named 'no_such_module_for_dreamgit'\n"
        "hint: reinstall or remove the plugin that provides it"
    )


@pytest.mark.parametrize(
    ("adapter", "settings", "message"),
    [
        (
            CallableAdapter,
            {"function": len, "model": ""},
            "llm.model: expected a non-empty string, got ''",
        ),
        (ScriptedAdapter, {"model": 3}, "llm.model: expected a non-empty string, got 3"),
        (
            OpenAIAdapter,
            {"model": "m", "temperature": "hot"},
            "llm.temperature: expected a number, got 'hot'",
        ),
    ],
)
def test_adapter_settings_of_the_wrong_kind_are_config_errors(
    adapter: Any, settings: dict[str, Any], message: str
) -> None:
    """model and temperature are checked when the adapter is made, naming the setting."""
    with pytest.raises(ConfigError) as info:
        adapter(settings)
    assert info.value.message == message


def test_scripted_adapter_file_that_is_not_json_names_its_line(tmp_path: Path) -> None:
    """A script file with broken JSON is reported with its path and line."""
    script = tmp_path / "answers.json"
    script.write_text('{\n  "responses": [\n    oops\n  ]\n}\n')
    with pytest.raises(ConfigError) as info:
        ScriptedAdapter({"file": str(script)})
    assert info.value.message == f"llm.file: {script}:3: not JSON: Expecting value"
