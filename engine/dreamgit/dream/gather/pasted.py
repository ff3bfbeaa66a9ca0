"""Pasted documents and logs inside a user's turn: someone else's words, not the user's.

A user of a coding agent pastes whole documents into a turn (a planning document of
headings and ``Label: value`` items, a requirements list) and error pages or logs (a
message, a call stack of ``function`` / ``path (line:col)`` lines). Read as the
user's prose, every item becomes "The user says Framework: Express 4." What tells
such a block from the user's own words is its shape, not its topic: it is cut into
lines that are not sentences (headings, ``Label:`` items, lines with no sentence end
that are not items of a list), and nowhere in it does the writer speak as "I" or
"we" or say "please". A list of unlabelled items is the user's own ("- always squash
before merging"), with or without a voice. Some blocks say whose they are in their
first line, however short or voiced they are: a terminal session opens with a shell
prompt and a command (``$ make test``), and what follows it is the command's output; an
error page or a log has a line that opens with an error label (``TypeError: …``) or a
clock time (``[13:02:11.048] …``), and the "we" of "our team has been notified" in it is
the program's. A checklist item (``- [ ] add the export``) is a task of a plan, and is
dropped wherever it stands; quoted words and a heading's "I" are not the writer's voice.
The user's own sentence typed right under a program's output with no blank line between
("I see this on every reload.") is the user's, not the program's; a lead-in above it
("got this error when I signed out:") only points at the output and goes with it.

:func:`without_pasted` drops such blocks (runs of lines between blank lines) from a
user's turn, and the short blocks of fragments that sit beside them (the "1 of 1
error" above a stack). It reads English for the voice; a
block with no English in it is judged by its shape alone.

A whole turn can be a document too (an agent brief pasted into one turn, where each
line stands alone and its "you MUST" or "we" are the brief's): several headings (``#``
lines, or short capitalised lines with no sentence end that open a block) and many
short lines of a document's shape (items, ``Label: value``, numbered rules), most of
what lies between its first heading and its last section. Then only the user's words
around it stay: the blocks before its first heading and the ones after its last
section. A user's own long spec is prose paragraphs between its headings, and is read
block by block as before.
"""

from __future__ import annotations

import re

from dreamgit import lazyre

__all__ = ["program_line", "without_pasted"]

# The writer's own voice ("I", "we", "please"): the user speaking, not a document. An
# error page says "you" too ("did you forget to run …"), so "you" is no mark of the user.
_VOICE = lazyre.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|im|me|my|mine|we|we're|we've|our|us|please|pls)\b"
    r"(?![-/.@]\w)",  # "my-app@0.1.0", "us-east-1": a name, not a voice
    re.IGNORECASE,
)
# A shell prompt and the command after it: "$ make test", "PS C:\> dir", or a fancy
# prompt glyph (U+276F, U+279C, a lambda) before the command.
_PROMPT = lazyre.compile(
    r"^\s*(?:[$%\u276f\u279c\u03bb]|PS [A-Z]:\\[^>]*>|\w+@[\w.-]+[:~][^$#]*[$#])\s+\S"
)
# A line a program wrote: it opens with an error label ("TypeError: …", "error[E0382]:",
# "ERROR …") or a clock time ("[13:02:11.048] …", "2031-04-02 09:12:01 INFO"), or it is
# an error page's title ("Unhandled Runtime Error", "Error Details (Debug Build)").
_PROGRAM_LINE = lazyre.compile(
    r"^\s*(?:(?:[A-Z]\w*)?(?:Error|Exception)\b(?:\s*\[\w+\])?\s*:|(?:error|warning|fatal)"
    r"(?:\[\w+\])?:|(?:ERROR|WARN(?:ING)?|FATAL)\b|\[?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]?\s"
    r"|\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}"
    r"|(?:[A-Z]\w*\s+){0,3}(?:Error|Exception)(?:\s+\(?[A-Z]\w*\)?){0,3}\s*$)"
)
# A line that is a heading or a "Label: value" item: a document's line.
_STRUCTURED = lazyre.compile(
    r"^\s*(?:#{1,6}\s|(?:[-*+]|\d+[.)])\s+[^:\s][^:]{0,40}:\s|[^:\s][^:]{0,40}:\s+\S)"
)
# A "Label: value" line, an item or not: "- Story: …", "Tasks: …".
_LABELLED = lazyre.compile(r"^\s*(?:(?:[-*+]|\d+[.)])\s+)?[^:\s][^:]{0,40}:\s")
# A list item: the user's own list of rules ("- always use …") is one, unlabelled.
_ITEM = lazyre.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
# How a sentence ends: a line ending otherwise is a fragment (a log line, a stack frame).
_SENTENCE_END = lazyre.compile(r"[.!?\u3002\uff01\uff1f]['\")\]]*\s*$")
#: The fewest lines of a block judged by its shape.
MIN_LINES = 3
#: The fewest headings, and document-shaped lines, of a turn read as a pasted document;
#: more than a person types as a message.
DOC_HEADINGS = 2
DOC_SHAPED_LINES = 8
# A short capitalised line with no sentence end, a heading when a block follows it:
# "Your setup", "How we build". Digits and signs start no heading.
_PLAIN_HEADING = lazyre.compile(r"^\s*[^\W\d_a-z][^\n]{0,48}$")
_PLAIN_HEADING_WORDS = 7


def _blocks(lines: list[str]) -> list[list[str]]:
    """``lines`` cut at blank lines, each blank line a block of its own."""
    out: list[list[str]] = []
    for line in lines:
        if not line.strip():
            out.append([line])
        elif out and out[-1][0].strip():
            out[-1].append(line)
        else:
            out.append([line])
    return out


# Words inside quotation marks are someone else's ('"As a member, I can …"'), and a
# heading's "I" is a document's ("#### Story: as a user I can sign in").
_QUOTED = lazyre.compile(r'"[^"]*"|\u201c[^\u201d]*\u201d')
_HEADING = lazyre.compile(r"^\s*#{1,6}\s")
# A checklist item ("- [ ] add the export", "* [x] fix login"): a task of a plan, done or
# to do, never a statement of the user's.
_CHECKLIST_ITEM = lazyre.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[[ xX]\]\s")


def _voiced(block: list[str]) -> bool:
    """Whether a writer speaks in ``block``: outside quotes and headings, and, in a block
    that opens with a heading, outside its ``Label: value`` items (a document's section:
    "- Story: as a guest I can book" is the document's "I")."""
    lines = [line for line in block if line.strip()]
    sectioned = bool(lines) and _HEADING.match(lines[0]) is not None
    return any(
        _VOICE.search(_QUOTED.sub(" ", line))
        for line in lines
        if not _HEADING.match(line) and not (sectioned and _LABELLED.match(line))
    )


def program_line(line: str) -> bool:
    """Whether ``line`` is one a program wrote: an error label, a log line's clock time,
    an error page's title."""
    return _PROGRAM_LINE.match(line) is not None


def _output(block: list[str]) -> bool:
    """Whether ``block`` says by its lines that a program wrote it: it opens with a
    shell prompt (a command, then its output), or a line of it is an error or a log line."""
    lines = [line for line in block if line.strip()]
    return bool(lines) and (_PROMPT.match(lines[0]) is not None or any(map(program_line, lines)))


def _fragment(line: str) -> bool:
    """A line of a log or an error page: not a list item, and not ended as a sentence."""
    return _ITEM.match(line) is None and _SENTENCE_END.search(line) is None


def _shaped_alike(block: list[str]) -> bool:
    """Whether every line of ``block`` is a heading, an item or a fragment, with no voice:
    a short piece of the document beside it, where a question or a sentence is the user's."""
    lines = [line for line in block if line.strip()]
    return not _voiced(lines) and all(_STRUCTURED.match(x) or _fragment(x) for x in lines)


def _document(block: list[str]) -> bool:
    """Whether ``block`` is shaped as a pasted document or log: several lines, most of
    them headings, items or fragments, and no voice of a writer anywhere."""
    lines = [line for line in block if line.strip()]
    if len(lines) < MIN_LINES or _voiced(lines):
        return False
    shaped = sum(1 for line in lines if _STRUCTURED.match(line) or _fragment(line))
    return 2 * shaped >= len(lines)


def _heading_at(lines: list[str], k: int) -> bool:
    """Whether ``lines[k]`` is a heading: a ``#`` line, or a short capitalised line with
    no sentence end, at the start of a block, with a line of text right after it."""
    line = lines[k]
    if _HEADING.match(line):
        return True
    if not _PLAIN_HEADING.match(line) or _SENTENCE_END.search(line) or _ITEM.match(line):
        return False
    if len(line.split()) > _PLAIN_HEADING_WORDS or _LABELLED.match(line):
        return False  # a sentence cut short, or a "Label: value" item
    if line.rstrip().endswith(":"):
        return False  # the user's lead-in to what follows ("Write a script that:")
    opens = k == 0 or not lines[k - 1].strip()
    return opens and k + 1 < len(lines) and bool(lines[k + 1].strip())


def _document_span(lines: list[str]) -> tuple[int, int] | None:
    """Where a whole pasted document lies in a turn's ``lines`` (first line, one past
    its last), or None when the turn is not one: fewer headings or document-shaped
    lines than a pasted document has, or mostly prose between its headings."""
    heads = [k for k in range(len(lines)) if lines[k].strip() and _heading_at(lines, k)]
    if len(heads) < DOC_HEADINGS:
        return None
    end = heads[-1] + 1
    # The last section holds its first block, and the blocks of items right after it.
    while end < len(lines) and not lines[end].strip():
        end += 1
    first_block = True
    while end < len(lines):
        stop = end
        while stop < len(lines) and lines[stop].strip():
            stop += 1
        block = lines[end:stop]
        if not first_block and not all(_STRUCTURED.match(x) for x in block):
            break
        first_block = False
        end = stop
        while end < len(lines) and not lines[end].strip():
            end += 1
    span = [x for x in lines[heads[0] : end] if x.strip()]
    shaped = sum(1 for x in span if _STRUCTURED.match(x) or _ITEM.match(x))
    body = len(span) - len(heads)
    if shaped < DOC_SHAPED_LINES or 2 * shaped < body:
        return None
    return heads[0], _closing_apart(lines, heads, end)


def _prose(line: str) -> bool:
    """A line of the user's prose: no heading, item or label, ended as a sentence."""
    return (
        _SENTENCE_END.search(line) is not None
        and not _STRUCTURED.match(line)
        and not _ITEM.match(line)
        and not _HEADING.match(line)
    )


def _closing_apart(lines: list[str], heads: list[int], end: int) -> int:
    """Where a pasted document's span ends once the user's closing words after it are
    left out: prose lines typed right under its last items with no blank line between,
    or, when the user's words also stand before the document, a last block of prose that
    is all its last heading holds and all that is left of the turn."""
    last = end
    while last > heads[-1] + 1 and not lines[last - 1].strip():
        last -= 1
    start = last
    while start > heads[-1] + 1 and lines[start - 1].strip():
        start -= 1
    block = lines[start:last]
    cut = len(block)
    while cut > 0 and _prose(block[cut - 1]):
        cut -= 1
    if 0 < cut < len(block) and any(_STRUCTURED.match(x) or _ITEM.match(x) for x in block[:cut]):
        return start + cut  # "- Contents: commits, tests\nAlso, I prefer tabs …"
    framed = any(x.strip() for x in lines[: heads[0]])
    only = start > heads[-1] + 1 and not any(x.strip() for x in lines[heads[-1] + 1 : start])
    if cut == 0 and framed and only and not any(x.strip() for x in lines[end:]):
        return start  # "## (and so on)" then the user's "After that, explain how to run it."
    return end


# The user's own voice in the first person singular: an error page's "our team has been
# notified" is the program's, a user's "I get this on every reload" is not.
_OWN_VOICE = lazyre.compile(r"\b(?:i|i'm|i've|i'd|i'll|im|me|my|please|pls)\b(?![-/.@]\w)", re.I)


def _users_closing_line(line: str) -> bool:
    """Whether ``line``, right under a program's output with no blank line between, is the
    user's: a sentence voiced in the first person, not a program's line."""
    text = _QUOTED.sub(" ", line)
    if not _OWN_VOICE.search(text) or program_line(line) or _HEADING.match(line):
        return False
    return _SENTENCE_END.search(line) is not None


def _users_closing_apart(block: list[str]) -> list[list[str]]:
    """A block of a program's output with the user's closing line typed right under it:
    that line as a block apart. A lead-in above the output ("got this when I signed
    out:") only points at it, and goes with it."""
    if len(block) < 2 or not _users_closing_line(block[-1]) or not _output(block[:-1]):
        return [block]
    return [block[:-1], block[-1:]]


def without_pasted(lines: list[str]) -> list[str]:
    """A user's turn ``lines`` without its pasted documents and logs (blank lines keep
    the paragraphs apart); a block with the user's own voice is always kept, unless the
    whole turn is a pasted document (then only the words around it are the user's)."""
    span = _document_span(lines)
    if span is not None:
        lines = [*lines[: span[0]], "", *lines[span[1] :]]
    blocks = [piece for block in _blocks(lines) for piece in _users_closing_apart(block)]
    text = [k for k, block in enumerate(blocks) if block[0].strip()]
    pasted = {k for k in text if _document(blocks[k]) or _output(blocks[k])}
    # A block of fragments beside a pasted one belongs to it ("1 of 1 error").
    for at, k in enumerate(text):
        near = {text[at - 1] if at else -1, text[at + 1] if at + 1 < len(text) else -1}
        if k not in pasted and near & pasted and _shaped_alike(blocks[k]):
            pasted.add(k)
    return [
        line
        for k, block in enumerate(blocks)
        if k not in pasted
        for line in block
        if not _CHECKLIST_ITEM.match(line)
    ]
