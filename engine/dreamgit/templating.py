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

import contextvars
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from importlib import resources
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer

from dreamgit.errors import DreamgitError, InternalSignal, TemplateError

__all__ = ["MAX_STEPS", "available_templates", "fence", "render", "template_file"]

#: Loop iterations and calls one rendering may take; a prompt loops over its data, a
#: template that needs more is computing (or stuck), and is stopped.
MAX_STEPS = 1_000_000
#: Longest string or list a ``*`` in a template may make, and the largest power ``**``.
MAX_PRODUCT = 1_000_000
_MAX_POWER_BITS = 64 * 1024
#: Longest value (string, list, mapping) any step of a template may build: ``~``, ``+``,
#: a filter or a call. Checked before the step where its size is known in advance
#: (``center(2000000000)``), after it otherwise; no single step can build more.
MAX_VALUE = MAX_PRODUCT
#: Longest output of one rendering: many bounded values still add up.
MAX_OUTPUT = 10 * MAX_VALUE

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


class _StepsExceeded(InternalSignal):
    """A rendering took more than :data:`MAX_STEPS` steps, or made a value too large."""


_STEPS: contextvars.ContextVar[list[int]] = contextvars.ContextVar("template_steps")
_COUNTER = "dreamgit_loop_steps_"
_CONCAT = "dreamgit_concat_"


def _tick(count: int = 1) -> None:
    steps = _STEPS.get(None)
    if steps is None:  # rendered outside render(): no budget to keep
        return
    steps[0] += count
    if steps[0] > MAX_STEPS:
        raise _StepsExceeded(
            f"the template took more than {MAX_STEPS:,} steps (loop iterations and calls)"
        )


def _counted(iterable: Iterable[Any]) -> Iterator[Any]:
    for item in iterable:
        _tick()
        yield item


def _sized(value: Any, what: str) -> Any:
    """``value``, unless it is longer than :data:`MAX_VALUE`."""
    if isinstance(value, str | list | tuple | dict) and len(value) > MAX_VALUE:
        raise _StepsExceeded(f"{what} made a value of more than {MAX_VALUE:,} items")
    return value


def _no_huge_numbers(args: Iterable[Any], what: str) -> None:
    """Refuse a width or count that would build a huge value before it is built."""
    for arg in args:
        if isinstance(arg, int) and not isinstance(arg, bool) and abs(arg) > MAX_VALUE:
            raise _StepsExceeded(f"{what} was given {arg:,}; at most {MAX_VALUE:,}")


_WIDTH = re.compile(r"\d{7,}")


def _no_huge_widths(fmt: str, what: str) -> None:
    """Refuse a format string whose width or precision alone would make a huge value."""
    if _WIDTH.search(fmt):
        raise _StepsExceeded(f"{what} was given a format width over {MAX_VALUE:,}")


def _concat(*parts: Any) -> str:
    """``a ~ b``: joined, within :data:`MAX_VALUE`."""
    _tick()
    texts = [str(p) for p in parts]
    if sum(len(t) for t in texts) > MAX_VALUE:
        raise _StepsExceeded(f"'~' would make a value of more than {MAX_VALUE:,} items")
    return "".join(texts)


def _bounded_filter(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """A filter whose numeric arguments and result are held within :data:`MAX_VALUE`."""

    def bounded(*args: Any, **kwargs: Any) -> Any:
        _tick()
        _no_huge_numbers([*args, *kwargs.values()], f"the filter {name!r}")
        if name == "format" and args and isinstance(args[0], str):
            _no_huge_widths(args[0], "the filter 'format'")
        return _sized(func(*args, **kwargs), f"the filter {name!r}")

    # Jinja passes the context or environment to filters marked for it: keep the mark.
    for mark in ("jinja_pass_arg",):
        if hasattr(func, mark):
            setattr(bounded, mark, getattr(func, mark))
    return bounded


class _ConcatCounter(NodeTransformer):
    """Every ``a ~ b`` becomes a call of the bounded join."""

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        parts = [self.visit(part) for part in node.nodes]
        return nodes.Call(
            nodes.Name(_CONCAT, "load", lineno=node.lineno),
            parts,
            [],
            None,
            None,
            lineno=node.lineno,
        )


class _BoundedSandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox, counting every loop iteration and call against one budget,
    and holding every value a step builds within :data:`MAX_VALUE`."""

    intercepted_binops = frozenset(["*", "**", "+", "%"])

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = _ConcatCounter().visit(super()._parse(source, name, filename))
        assert isinstance(tree, nodes.Template)
        # Every `for` iterates through a counter: nested loops cannot run unbounded.
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Call(
                nodes.Name(_COUNTER, "load", lineno=loop.lineno),
                [loop.iter],
                [],
                None,
                None,
                lineno=loop.lineno,
            )
        return tree

    def call(self, context: Context, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        _tick()
        _no_huge_numbers([*args, *kwargs.values()], "a call")
        # "….format()": the sandbox hands a wrapper of the bound method; find its string.
        owner = getattr(getattr(obj, "__wrapped__", obj), "__self__", None)
        if isinstance(owner, str):
            _no_huge_widths(owner, "a call")
        return _sized(super().call(context, obj, *args, **kwargs), "a call")

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        if operator == "%" and isinstance(left, str):
            _no_huge_widths(left, "'%'")
        elif operator == "+":
            sequences = isinstance(left, str | list | tuple) and isinstance(
                right, str | list | tuple
            )
            if sequences and len(left) + len(right) > MAX_VALUE:
                raise _StepsExceeded(f"'+' would make a value of more than {MAX_VALUE:,} items")
        elif operator == "*":
            for seq, times in ((left, right), (right, left)):
                sized = isinstance(seq, str | list | tuple) and isinstance(times, int)
                if sized and len(seq) * times > MAX_PRODUCT:
                    raise _StepsExceeded(
                        f"'*' would make a value of more than {MAX_PRODUCT:,} items"
                    )
        elif (
            isinstance(left, int)
            and isinstance(right, int)
            and right > 0
            and max(left.bit_length(), 1) * right > _MAX_POWER_BITS
        ):
            raise _StepsExceeded(f"'**' would make a number of more than {_MAX_POWER_BITS:,} bits")
        return super().call_binop(context, operator, left, right)


def _environment(overrides: Mapping[str, str] | None) -> ImmutableSandboxedEnvironment:
    loaders: list[jinja2.BaseLoader] = []
    if overrides:
        loaders.append(_OverrideLoader(overrides))
    loaders.append(jinja2.PackageLoader("dreamgit.prompts", "."))
    env = _BoundedSandbox(
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
    env.filters = {name: _bounded_filter(name, f) for name, f in env.filters.items()}
    env.globals[_COUNTER] = _counted
    env.globals[_CONCAT] = _concat
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
    budget = _STEPS.set([0])
    try:
        return _joined(env.get_template(file).generate(dict(context)))
    except _StepsExceeded as exc:
        raise TemplateError(
            f"{_failing_place(exc, file)}: {exc}",
            hint="a template should show the data it is given, not compute; simplify its loops",
        ) from None
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
    finally:
        _STEPS.reset(budget)


def _joined(chunks: Iterable[str]) -> str:
    """The rendering's output, stopped once it passes :data:`MAX_OUTPUT`."""
    out: list[str] = []
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_OUTPUT:
            raise _StepsExceeded(f"the output passed {MAX_OUTPUT:,} characters")
        out.append(chunk)
    return "".join(out)


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
