"""The project rules a user points the agent to by name: ``@never-skip-tests.mdc``.

In Cursor a user holds the agent to one of the project's rule files by mentioning it
(``@name.mdc``, a file of ``.cursor/rules``), often as the whole turn ("@changelog-
entries.mdc" after the agent wrote release notes) or tacked onto a request ("fix the
flaky test @never-skip-tests.mdc"). Read as prose such a turn says nothing, and the
sentence it is tacked onto is mostly a task of the moment; yet which rules the user
insists on is what an agent should know next time. The mention is told by its shape
alone (an ``@`` and a ``.mdc`` file name, in any language): one memory per rule file
a session names, "The user points the agent to the project rule @name.mdc.", once per
session. Other ``@file`` mentions (a source file, a plan) are pointers of the moment
and give nothing.
"""

from __future__ import annotations

import re
from datetime import datetime

from dreamgit import lazyre
from dreamgit.dream.gather.salience import salience
from dreamgit.extract.candidate import TOPIC_TYPES, Candidate

__all__ = ["rule_pointers", "without_rule_files_after"]

# "@never-skip-tests.mdc", "@rules/testing.mdc": an at sign, a file name, ".mdc".
_RULE_FILE = lazyre.compile(r"(?<![\w@])@(?P<name>[\w][\w./-]{0,80}?)\.mdc\b")
_CONFIDENCE = 0.8
# Rule files tacked onto the end of a sentence: "… before any merge @ci-first.mdc".
_TACKED_ON = lazyre.compile(rf"(?:\s*(?:{_RULE_FILE.pattern})[\s,;]*)+(?P<stop>[.!?]?)\s*$")
# A word that takes the mention as its object: "as set out in @ci-first.mdc", "like @x.mdc".
_TAKES_OBJECT = lazyre.compile(
    r"\b(?:as|at|by|in|of|on|to|per|see|use|like|with|from|under|follow|following|read)\s*$",
    re.IGNORECASE,
)


def without_rule_files_after(sentence: str) -> str:
    """``sentence`` without the rule-file mentions tacked onto its end (each its own
    memory, by :func:`rule_pointers`): what is left is the sentence as a sentence. A
    mention a word before it takes as its object ("as set out in @ci-first.mdc") stays."""
    m = _TACKED_ON.search(sentence)
    if m is None or _TAKES_OBJECT.search(sentence, 0, m.start()):
        return sentence
    return sentence[: m.start()] + m["stop"]


def rule_pointers(
    paragraphs: list[str],
    named: set[str],
    *,
    subject: str,
    speaker: str,
    session_id: str,
    created: datetime,
    turn: int,
) -> list[Candidate]:
    """The memories of the rule files ``paragraphs`` (a user's turn) name that the session
    has not named before (``named`` grows with them)."""
    out = []
    for paragraph in paragraphs:
        for m in _RULE_FILE.finditer(paragraph):
            name = m["name"]
            if name in named:
                continue
            named.add(name)
            lead = f"{subject} points the agent to the project rule"
            text = f"{lead} @{name}.mdc."
            out.append(
                Candidate(
                    text=text,
                    topic="instructions",
                    priority="normal",
                    type=TOPIC_TYPES["instructions"],
                    tags=("rule-file",),
                    key=None,
                    confidence=_CONFIDENCE,
                    session_id=session_id,
                    created=created,
                    change=None,
                    pattern="rule-pointer",
                    kind="instruction",
                    salience=salience(text, "instruction", dated=False),
                    speaker=speaker,
                    turn=turn,
                    subject=subject,
                    # the lead is every such memory's: only the rule's name is news
                    attribution=lead,
                )
            )
    return out
