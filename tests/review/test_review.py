"""The review page (spacy_deid/review): content, self-containedness, the CLI, and
a real headless Chromium (Debian's `chromium` package) opening it.

The browser is driven over the Chrome DevTools Protocol on a pipe
(`--remote-debugging-pipe`: JSON messages ending in NUL on file descriptors 3
and 4), so no browser-automation package is needed. Tests that need Chromium
skip, with the reason, where it is not installed (tests/chromium.py).
The annotation view (accept, reject, relabel, add, export) is tested in
tests/review/test_review_annotate.py.
"""

import base64
import hashlib
import json
from html.parser import HTMLParser
from typing import Any, Dict, List

import pytest
import spacy
from chromium import DevTools, needs_chromium
from spacy.tokens import Span, SpanGroup

from spacy_deid import labels
from spacy_deid.extensions import PROVENANCE_KEY, REJECTED_KEY, SCORES_ATTR
from spacy_deid.review.page import NOTICE, render_page, review_note

# A fixture note: (start, end, label, score, provenance) of its removed spans.
FIXTURE_TEXT = (
    "Seen by Dr. Lee on 4/17/2094 at Oak Clinic.\nHer son Tom called <back> & left 617-555-0199."
)
FIXTURE_SPANS = [
    ("Lee", labels.DOCTOR, 0.97, "ner"),
    ("4/17/2094", labels.DATE, 0.99, "rule:date-numeric-mdy|merge:ner_agrees"),
    ("Oak Clinic", labels.HOSPITAL, 0.41, "ner"),
    ("Tom", labels.PATIENT, 0.3, "safety_net:relation"),
    ("617-555-0199", labels.PHONE, 0.95, "rule:phone_nanp"),
]


def fixture_doc():
    nlp = spacy.blank("en")
    doc = nlp(FIXTURE_TEXT)
    spans = []
    for text, label, _, provenance in FIXTURE_SPANS:
        start = FIXTURE_TEXT.index(text)
        spans.append(doc.char_span(start, start + len(text), label=label, span_id=provenance))
    doc.ents = spans
    doc.spans[PROVENANCE_KEY] = SpanGroup(
        doc, name=PROVENANCE_KEY, spans=spans, attrs={SCORES_ATTR: [s[2] for s in FIXTURE_SPANS]}
    )
    called = doc.char_span(FIXTURE_TEXT.index("called"), FIXTURE_TEXT.index("called") + 6)
    rejected = [Span(doc, called.start, called.end, label=labels.PATIENT, span_id="ner_candidate")]
    doc.spans[REJECTED_KEY] = SpanGroup(
        doc, name=REJECTED_KEY, spans=rejected, attrs={SCORES_ATTR: [0.2]}
    )
    return doc


class MarkCollector(HTMLParser):
    """(text, data-label, data-removed) of every <mark class="phi"> in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.marks: List[Dict[str, Any]] = []
        self._depth = 0
        self._in_label = False
        self.external: List[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("src", "href"):
            value = attrs.get(key) or ""
            if value and not value.startswith("#"):
                self.external.append(value)
        if tag == "mark":
            self.marks.append(
                {
                    "text": "",
                    "label": attrs.get("data-label"),
                    "removed": attrs.get("data-removed"),
                    "score": attrs.get("data-score"),
                    "title": attrs.get("title"),
                }
            )
            self._depth = 1
        elif self._depth and tag == "span":
            self._depth += 1
            self._in_label = True

    def handle_endtag(self, tag):
        if tag == "span" and self._depth > 1:
            self._depth -= 1
            self._in_label = False
        elif tag == "mark":
            self._depth = 0

    def handle_data(self, data):
        if self._depth == 1 and not self._in_label:
            self.marks[-1]["text"] += data


def test_page_shows_every_span_with_label_score_and_provenance():
    page = render_page([review_note(fixture_doc(), "note-1")])
    parser = MarkCollector()
    parser.feed(page)
    removed = [m for m in parser.marks if m["removed"] == "true"]
    assert [(m["text"], m["label"]) for m in removed] == [
        (t, lab) for t, lab, _, _ in FIXTURE_SPANS
    ]
    for mark, (_, label, score, provenance) in zip(removed, FIXTURE_SPANS):
        assert mark["score"] == f"{score:.2f}"
        assert label in mark["title"] and provenance in mark["title"]
    assert [m["text"] for m in parser.marks if m["removed"] == "false"] == ["called"]
    assert NOTICE in page


def test_page_is_self_contained_and_escapes_text():
    page = render_page([review_note(fixture_doc(), "note-<1>")])
    parser = MarkCollector()
    parser.feed(page)
    assert parser.external == []
    assert "@import" not in page and "url(" not in page
    # Two scripts: the notes as JSON data, and the page's own code, allowed by its hash.
    assert page.count("<script") == 2 and " src=" not in page
    assert '<script type="application/json" id="review-data">' in page
    digest = base64.b64encode(hashlib.sha256(page_script(page).encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in page
    assert "&lt;back&gt; &amp; left" in page and "<back>" not in page
    # In the JSON data, no "<" can end the script element.
    data = page.split('id="review-data">')[1].split("</script>")[0]
    assert "<" not in data and "\\u003cback>" in data
    assert "note-&lt;1&gt;" in page
    assert "default-src 'none'" in page


def page_script(page: str) -> str:
    return page.split("<script>")[1].split("</script>")[0]


@pytest.mark.parametrize("sort,first", [("uncertainty", "unsure"), ("input", "sure")])
def test_notes_ordered_by_uncertainty(sort, first):
    nlp = spacy.blank("en")
    sure, unsure = nlp("Ann came."), nlp("Ann came.")
    for doc, score in ((sure, 0.99), (unsure, 0.5)):
        doc.ents = [Span(doc, 0, 1, label=labels.PATIENT)]
        doc.spans[PROVENANCE_KEY] = SpanGroup(
            doc, spans=list(doc.ents), attrs={SCORES_ATTR: [score]}
        )
    page = render_page([review_note(sure, "sure"), review_note(unsure, "unsure")], sort=sort)
    sections = [part.split('"')[0] for part in page.split('data-note-id="')[1:]]
    assert sections[0] == first


def test_low_confidence_spans_are_marked():
    page = render_page([review_note(fixture_doc(), "n")], low_score=0.5)
    # "Oak Clinic" (0.41) and "Tom" (0.3) are low; the others are not.
    assert page.count('class="phi cat-location low"') == 1
    assert page.count('class="phi cat-name low"') == 1
    assert page.count(' low"') == 2


def test_bad_sort_is_refused():
    with pytest.raises(ValueError):
        render_page([], sort="alphabetical")


# --- Chromium -------------------------------------------------------------------


MARKS_JS = """JSON.stringify(Array.from(document.querySelectorAll('mark.phi')).map(m => ({
  text: m.firstChild.textContent, label: m.querySelector('.phi-label').textContent,
  shown: m.getBoundingClientRect().width > 0 && getComputedStyle(m).visibility !== 'hidden',
  removed: m.dataset.removed})))"""


@needs_chromium
def test_chromium_renders_every_span_of_the_fixture_note(tmp_path):
    page_path = tmp_path / "review.html"
    page_path.write_text(render_page([review_note(fixture_doc(), "note-1")]), encoding="utf-8")
    browser = DevTools(tmp_path / "profile")
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.send(f"{domain}.enable", session=session)
        browser.send("Page.navigate", {"url": page_path.as_uri()}, session=session)
        browser.wait_for("Page.loadEventFired")
        marks = json.loads(
            browser.send(
                "Runtime.evaluate", {"expression": MARKS_JS, "returnByValue": True}, session=session
            )["result"]["value"]
        )
        notice = browser.send(
            "Runtime.evaluate",
            {"expression": "document.getElementById('notice').innerText", "returnByValue": True},
            session=session,
        )["result"]["value"]
        shot = browser.send(
            "Page.captureScreenshot",
            {"format": "png", "captureBeyondViewport": True},
            session=session,
        )
    finally:
        browser.close()
    (tmp_path / "review.png").write_bytes(base64.b64decode(shot["data"]))
    assert (tmp_path / "review.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    removed = [(m["text"], m["label"]) for m in marks if m["removed"] == "true"]
    assert removed == [(t, lab) for t, lab, _, _ in FIXTURE_SPANS]
    assert all(m["shown"] for m in marks)
    assert notice.strip() == NOTICE
    errors = [
        e
        for e in browser.events
        if e.get("method") == "Runtime.exceptionThrown"
        or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")
        or (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] == "error")
    ]
    assert errors == [], f"{len(errors)} browser error(s)"
    requests = [
        e["params"]["request"]["url"]
        for e in browser.events
        if e.get("method") == "Network.requestWillBeSent"
    ]
    assert all(url.startswith("file://") for url in requests), "the page asked for a resource"


# --- the command -----------------------------------------------------------------


@pytest.fixture(scope="module")
def rules_pipeline(tmp_path_factory):
    """A pipeline without NER: rules, reconciler, safety net and scores."""
    nlp = spacy.blank("en")
    for name in (
        "deid_sections",
        "deid_phi_rules",
        "deid_reconciler",
        "deid_safety_net",
        "deid_confidence",
    ):
        nlp.add_pipe(name)
    nlp.initialize()
    path = tmp_path_factory.mktemp("review") / "rules"
    nlp.to_disk(path)
    return path


def test_review_command_writes_a_private_page(rules_pipeline, tmp_path):
    from typer.testing import CliRunner

    from spacy_deid.cli import app

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text("Call 617-555-0199 on 4/17/2094.\n", encoding="utf-8")
    (notes / "b.txt").write_text("Her son Brandolf visited.\n", encoding="utf-8")
    (notes / "c.txt").write_text("No PHI here.\n", encoding="utf-8")
    out = tmp_path / "review.html"
    args = ["review", str(notes), str(out), "--model", str(rules_pipeline)]
    result = CliRunner().invoke(app, args + ["--operating-point", "recall"])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert NOTICE in page and "Operating point: recall" in page
    assert all(f'data-note-id="{n}"' in page for n in ("a", "b", "c"))
    assert 'data-label="PHONE"' in page and "safety_net:relation" in page
    assert out.stat().st_mode & 0o077 == 0  # owner only: it holds note text
    assert "617-555-0199" not in result.output and "Brandolf" not in result.output
    result = CliRunner().invoke(app, args + ["--sample", "2", "--sort", "input"])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").count('<section class="note"') == 2


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--sort", "alphabetical"], "--sort"),
        (["--operating-point", "loose"], "operating point"),
    ],
)
def test_review_command_refuses_bad_options(rules_pipeline, tmp_path, extra, message):
    from typer.testing import CliRunner

    from spacy_deid.cli import app

    (tmp_path / "n.txt").write_text("Text.\n", encoding="utf-8")
    args = [
        "review",
        str(tmp_path / "n.txt"),
        str(tmp_path / "o.html"),
        "--model",
        str(rules_pipeline),
    ]
    result = CliRunner().invoke(app, args + extra)
    assert result.exit_code == 1 and message in result.output
    assert not (tmp_path / "o.html").exists()


def test_review_command_names_a_missing_folder(rules_pipeline, tmp_path):
    from typer.testing import CliRunner

    from spacy_deid.cli import app

    missing = tmp_path / "nowhere"
    result = CliRunner().invoke(
        app, ["review", str(missing), str(tmp_path / "o.html"), "--model", str(rules_pipeline)]
    )
    assert result.exit_code == 1 and "nowhere" in result.output


@pytest.mark.parametrize(
    "make_output,message",
    [
        (lambda tmp: tmp / "out", "is a folder"),  # an existing folder given as the page
        (lambda tmp: tmp / "a-file" / "review.html", "is a file, not a folder"),
        (lambda tmp: tmp / "locked" / "review.html", "not writable"),
    ],
)
def test_review_command_refuses_an_unwritable_output_clearly(
    rules_pipeline, tmp_path, make_output, message
):
    import os

    from typer.testing import CliRunner

    from spacy_deid.cli import app

    (tmp_path / "out").mkdir()
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    (tmp_path / "locked").mkdir(mode=0o500)
    if message == "not writable" and os.access(tmp_path / "locked", os.W_OK):
        pytest.skip("running as a user (root) whom a read-only folder does not stop")
    (tmp_path / "n.txt").write_text("Text.\n", encoding="utf-8")
    output = make_output(tmp_path)
    result = CliRunner().invoke(
        app, ["review", str(tmp_path / "n.txt"), str(output), "--model", str(rules_pipeline)]
    )
    assert result.exit_code == 1 and message in " ".join(result.output.split())
    assert result.exception is None or isinstance(result.exception, SystemExit)
