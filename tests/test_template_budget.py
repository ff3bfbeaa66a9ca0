"""Templates with a memory budget: no value a step builds, and no output, can grow unbounded.

A repository's own template is code: doubling a string through a namespace (``~``,
``+``, ``join``), a width of two billion (``center``, ``format``, ``%``, ``.format``)
or many bounded values in a row are stopped with a TemplateError naming the line,
before the memory is spent. Rendered with the real renderer.
"""

from __future__ import annotations

import time

import pytest

from dreamgit.errors import TemplateError
from dreamgit.templating import MAX_OUTPUT, MAX_VALUE, render

WHERE = ".dreamgit/prompts/summary.md.j2:1: "
DOUBLING = "{% set ns = namespace(s=START) %}{% for i in range(40) %}{% set ns.s = STEP %}"
DOUBLING += "{% endfor %}{{ ns.s|length }}"


def _render(source: str) -> str:
    return render("summary", {"record": {}}, overrides={"summary.md.j2": source})


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            DOUBLING.replace("START", "'xy'").replace("STEP", "ns.s ~ ns.s"),
            f"'~' would make a value of more than {MAX_VALUE:,} items",
        ),
        (
            DOUBLING.replace("START", "'xy'").replace("STEP", "ns.s + ns.s"),
            f"'+' would make a value of more than {MAX_VALUE:,} items",
        ),
        (
            DOUBLING.replace("START", "['xy']").replace("STEP", "[ns.s|join, ns.s|join]"),
            f"the filter 'join' made a value of more than {MAX_VALUE:,} items",
        ),
        (
            "{{ 'x'|center(2000000000) }}",
            f"the filter 'center' was given 2,000,000,000; at most {MAX_VALUE:,}",
        ),
        ("{{ 'x'.center(2000000000) }}", f"a call was given 2,000,000,000; at most {MAX_VALUE:,}"),
        (
            "{{ '%2000000000s'|format('x') }}",
            f"the filter 'format' was given a format width over {MAX_VALUE:,}",
        ),
        ("{{ '%2000000000s' % 'x' }}", f"'%' was given a format width over {MAX_VALUE:,}"),
        (
            "{{ '{:2000000000}'.format('x') }}",
            f"a call was given a format width over {MAX_VALUE:,}",
        ),
    ],
    ids=[
        "tilde",
        "plus",
        "join",
        "center-filter",
        "center-call",
        "format",
        "percent",
        "str-format",
    ],
)
def test_a_template_bomb_is_stopped_at_its_line(source: str, message: str) -> None:
    """Each bomb fails at once with its line, never with MemoryError or the OOM killer."""
    started = time.monotonic()
    with pytest.raises(TemplateError) as caught:
        _render(source)
    assert str(caught.value) == WHERE + message
    assert time.monotonic() - started < 5


def test_many_bounded_values_still_stop_at_the_output_budget() -> None:
    """Values each within the budget, repeated: the output as a whole is bounded."""
    with pytest.raises(TemplateError) as caught:
        _render("{% for i in range(100000) %}{{ 'x' * 999999 }}{% endfor %}")
    assert str(caught.value).endswith(f"the output passed {MAX_OUTPUT:,} characters")


def test_ordinary_templates_render_as_before() -> None:
    """Widths, joins, concatenation and formats of ordinary size are untouched."""
    source = "{{ '{:5}'.format('x') }}|{{ 'ab'.center(6) }}|{{ 'a' ~ 'b' }}|{{ [1, 2]|join(',') }}"
    source += "|{{ '%3s' % 'x' }}|{{ 'ab' + 'cd' }}"
    assert _render(source) == "x    |  ab  |ab|1,2|  x|abcd"
