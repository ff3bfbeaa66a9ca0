"""Rendering the prompt and summary templates in a Jinja sandbox.

Templates are user-editable code: a memory repository may override any bundled
template with a file of the same name in ``.dreamgit/prompts/``. They therefore
run in jinja2's immutable sandbox (no attribute access to Python internals, no
mutation of the data passed in) with ``StrictUndefined`` so a misspelt variable
fails instead of vanishing from a prompt. Output is Markdown or plain text, so
autoescape is off; untrusted text is wrapped with the :func:`fence` filter
instead, which makes it inert data rather than instructions. Every failure
becomes a :class:`~dreamgit.errors.TemplateError` that names the template, the
line and what to do.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

from dreamgit.errors import DreamgitError, TemplateError

__all__ = ["available_templates", "fence", "render", "template_file"]

#: Where a repository keeps its overrides; used in messages and fake file names.
OVERRIDE_DIR = ".dreamgit/prompts"
_SUFFIX = ".md.j2"
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*(\.[a-z0-9]+)*\Z")
# Any opening or closing of the fence tag inside the data, however spaced or cased.
_FENCE_TAG = re.compile(r"<(\s*/?\s*data\b)", re.IGNORECASE)
_ATTR = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*\Z")


def fence(text: object, kind: str = "data", id: str | None = None) -> str:
    """Wrap untrusted text as a delimited data block that the text cannot close.

    The block is ``<data kind="…" id="…">`` … ``</data>``. Any ``<data`` or
    ``</data`` inside the text (in any case or spacing) has its ``<`` written as
    ``&lt;``, so nothing inside can end the block early or open a new one.
    """
    body = _FENCE_TAG.sub(r"&lt;\1", str(text))
    attrs = f' kind="{_attr(kind)}"'
    if id is not None:
        attrs += f' id="{_attr(id)}"'
    return f"<data{attrs}>\n{body.rstrip()}\n</data>"


def _attr(value: str) -> str:
    # Attribute values come from our own ids and names; anything else is flattened
    # so it cannot break out of the quotes.
    text = str(value)
    return text if _ATTR.match(text) else re.sub(r"[^A-Za-z0-9._:-]", "_", text)


def _quote(text: object) -> str:
    """Markdown block quote: every line prefixed with ``> `` so text cannot break the layout."""
    return "\n".join("> " + line if line else ">" for line in str(text).splitlines() or [""])


def _to_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def template_file(name: str) -> str:
    """The file name of a template: ``gather`` → ``gather.md.j2``; full names pass through."""
    base = name.rsplit("/", 1)[-1]
    if not _NAME.match(base):
        raise TemplateError(
            f"{name!r} is not a template name",
            hint="use a name such as gather, consolidate, supersede or summary",
        )
    return base if base.endswith(".j2") else base + _SUFFIX


def available_templates() -> list[str]:
    """Names (without suffix) of the templates bundled in ``dreamgit.prompts``."""
    names = [
        entry.name[: -len(_SUFFIX)]
        for entry in resources.files("dreamgit.prompts").iterdir()
        if entry.name.endswith(_SUFFIX)
    ]
    return sorted(names)


class _OverrideLoader(jinja2.BaseLoader):
    """Templates from the repository, named by their path there so errors point at it."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self.sources = {key.rsplit("/", 1)[-1]: text for key, text in sources.items()}

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        if template not in self.sources:
            raise jinja2.TemplateNotFound(template)
        return self.sources[template], f"{OVERRIDE_DIR}/{template}", lambda: True

    def list_templates(self) -> list[str]:
        return sorted(self.sources)


def _environment(overrides: Mapping[str, str] | None) -> ImmutableSandboxedEnvironment:
    loaders: list[jinja2.BaseLoader] = []
    if overrides:
        loaders.append(_OverrideLoader(overrides))
    loaders.append(jinja2.PackageLoader("dreamgit.prompts", "."))
    env = ImmutableSandboxedEnvironment(
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["fence"] = fence
    env.filters["to_json"] = _to_json
    env.filters["quote"] = _quote
    return env


_BASE: ImmutableSandboxedEnvironment | None = None


def _base_environment() -> ImmutableSandboxedEnvironment:
    global _BASE
    if _BASE is None:
        _BASE = _environment(None)
    return _BASE


def render(
    name: str, context: Mapping[str, Any], *, overrides: Mapping[str, str] | None = None
) -> str:
    """Render template ``name`` with ``context``; a repository override wins over the bundled one.

    ``overrides`` maps file names found in ``.dreamgit/prompts/`` to their text.
    """
    file = template_file(name)
    env = _environment(overrides) if overrides else _base_environment()
    try:
        return env.get_template(file).render(dict(context))
    except jinja2.TemplateNotFound as exc:
        known = ", ".join(available_templates())
        raise TemplateError(
            f"no prompt template named {exc.name!r} (bundled: {known})",
            hint=f"add {OVERRIDE_DIR}/{exc.name} to the repository or use a bundled name",
        ) from None
    except jinja2.TemplateSyntaxError as exc:
        where = _display(exc.filename, exc.name or file)
        raise TemplateError(
            f"{where}:{exc.lineno}: template syntax error: {exc.message}",
            hint="fix the Jinja syntax at that line",
        ) from None
    except jinja2.exceptions.SecurityError as exc:
        raise TemplateError(
            f"{_failing_place(exc, file)}: the template tried something the sandbox forbids: {exc}",
            hint="templates may read the variables they are given, not Python internals",
        ) from None
    except jinja2.UndefinedError as exc:
        raise TemplateError(
            f"{_failing_place(exc, file)}: undefined variable: {exc.message}",
            hint="use only the variables listed in the comment at the top of the bundled template",
        ) from None
    except DreamgitError:
        raise
    except Exception as exc:  # a user template can raise anything; name it
        raise TemplateError(
            f"{_failing_place(exc, file)}: the template failed: {type(exc).__name__}: {exc}",
            hint="fix the expression at that line",
        ) from None


def _display(filename: str | None, fallback: str) -> str:
    if filename is None:
        return fallback
    if filename.startswith(OVERRIDE_DIR + "/"):
        return filename
    # A bundled template: show its package name, never a machine path.
    return "dreamgit.prompts/" + filename.replace("\\", "/").rsplit("/", 1)[-1]


def _failing_place(exc: BaseException, fallback: str) -> str:
    """``file:line`` of the innermost template frame of the traceback (jinja rewrites them)."""
    place = fallback
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if not code.co_filename.endswith(".py"):
            place = f"{_display(code.co_filename, fallback)}:{tb.tb_lineno}"
        tb = tb.tb_next
    return place
