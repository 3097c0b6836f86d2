"""The review page as an annotation view, in a real headless Chromium
(tests/chromium.py), and its export read back: by `spacy-deid convert` and by
`spacy-deid review` (continuing a review).

The note has a character outside the Basic Multilingual Plane before its
spans, so offsets that count UTF-16 units instead of code points would show.
"""
import json
import zipfile
from pathlib import Path

import pytest
import spacy
from chromium import DevTools, needs_chromium
from spacy.tokens import DocBin, SpanGroup
from typer.testing import CliRunner

from spacy_deid import labels
from spacy_deid.cli import app
from spacy_deid.extensions import PROVENANCE_KEY, SCORES_ATTR
from spacy_deid.review.export import ExportError, is_export, read_export, unpacked
from spacy_deid.review.page import ACCEPTED, ADDED, PENDING, render_page, review_note

TEXT = "Seen by Dr. Lee \U0001F600 on 4/17/2094 at Oak Clinic.\nHer son Tom called; sister Ann too."
SPANS = [
    ("Lee", labels.DOCTOR, 0.97),
    ("4/17/2094", labels.DATE, 0.99),
    ("Oak Clinic", labels.HOSPITAL, 0.41),
    ("Tom", labels.PATIENT, 0.3),
]
OTHER_TEXT = "Follow up with Dr. Kerr."


def annotated_doc(nlp, text, spans):
    doc = nlp(text)
    ents = []
    for surface, label, _ in spans:
        start = text.index(surface)
        ents.append(doc.char_span(start, start + len(surface), label=label, span_id="ner"))
    doc.ents = ents
    doc.spans[PROVENANCE_KEY] = SpanGroup(
        doc, name=PROVENANCE_KEY, spans=ents, attrs={SCORES_ATTR: [s[2] for s in spans]}
    )
    return doc


def write_page(path: Path) -> Path:
    nlp = spacy.blank("en")
    notes = [
        review_note(annotated_doc(nlp, TEXT, SPANS), "note-1.txt"),
        review_note(annotated_doc(nlp, OTHER_TEXT, [("Kerr", labels.DOCTOR, 0.99)]), "n/2"),
    ]
    path.write_text(render_page(notes, export_name="corrected.zip"), encoding="utf-8")
    return path


MARKS = """JSON.stringify(Array.from(document.querySelectorAll('mark.phi')).map(m => [
  m.querySelector('.t').textContent, m.dataset.label, m.dataset.state]))"""
CENTRE = """(() => {{ const m = Array.from(document.querySelectorAll('mark.phi'))
  .find(m => m.querySelector('.t').textContent === {text!r});
  m.scrollIntoView({{block: 'center'}}); const r = m.querySelector('.t').getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2]; }})()"""
# The screen positions of the first and last character of a text in the note.
TEXT_ENDS = """(() => {{ const piece = Array.from(document.querySelectorAll('#note-0 .t'))
  .find(t => t.textContent.includes({text!r}));
  piece.scrollIntoView({{block: 'center'}});
  const node = piece.firstChild, at = node.data.indexOf({text!r}), range = document.createRange();
  range.setStart(node, at); range.setEnd(node, at + 1); const a = range.getBoundingClientRect();
  range.setStart(node, at + {n} - 1); range.setEnd(node, at + {n}); const b = range.getBoundingClientRect();
  return [a.left + 1, a.top + a.height / 2, b.right - 1, b.top + b.height / 2]; }})()"""


class Reviewer:
    """Mouse and keyboard input to one tab."""

    def __init__(self, browser: DevTools, session: str) -> None:
        self.browser, self.session = browser, session

    def mouse(self, kind: str, x: float, y: float, buttons: int = 0, count: int = 1) -> None:
        self.browser.send(
            "Input.dispatchMouseEvent",
            {"type": kind, "x": x, "y": y, "button": "left" if kind != "mouseMoved" or buttons
             else "none", "buttons": buttons, "clickCount": count},
            session=self.session,
        )

    def click(self, x: float, y: float) -> None:
        self.mouse("mousePressed", x, y, 1)
        self.mouse("mouseReleased", x, y, 0)

    def click_span(self, text: str) -> None:
        self.click(*self.browser.evaluate(self.session, CENTRE.format(text=text)))

    def drag_over(self, text: str) -> None:
        x1, y1, x2, y2 = self.browser.evaluate(
            self.session, TEXT_ENDS.format(text=text, n=len(text))
        )
        self.mouse("mousePressed", x1, y1, 1)
        self.mouse("mouseMoved", (x1 + x2) / 2, y2, 1)
        self.mouse("mouseMoved", x2, y2, 1)
        self.mouse("mouseReleased", x2, y2, 0)

    def key(self, key: str, code: str, key_code: int, text: str = "") -> None:
        down = {"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": key_code}
        if text:
            down["text"] = text
        self.browser.send("Input.dispatchKeyEvent", down, session=self.session)
        self.browser.send(
            "Input.dispatchKeyEvent",
            {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": key_code},
            session=self.session,
        )

    def letter(self, letter: str) -> None:
        self.key(letter, f"Key{letter.upper()}", ord(letter.upper()), letter)

    def type_text(self, text: str) -> None:
        self.browser.send("Input.insertText", {"text": text}, session=self.session)

    def marks(self):
        return [tuple(m) for m in json.loads(self.browser.evaluate(self.session, MARKS))]


EXPECTED_MARKS = [
    ("Lee", labels.DOCTOR, ACCEPTED),
    ("4/17/2094", labels.DATE, PENDING),
    ("Oak Clinic", labels.ORGANIZATION, ACCEPTED),
    ("Tom", labels.PATIENT, "rejected"),
    ("Ann", labels.PATIENT, ADDED),
    ("Kerr", labels.DOCTOR, PENDING),
]
# What the export holds: the note's text and its spans after review, nothing else.
EXPECTED_MENTIONS = [
    ("Lee", labels.DOCTOR),
    ("4/17/2094", labels.DATE),
    ("Oak Clinic", labels.ORGANIZATION),
    ("Ann", labels.PATIENT),
]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    """Review the page in Chromium: accept, reject, relabel, add; reload; export."""
    folder = tmp_path_factory.mktemp("annotate")
    page = write_page(folder / "review.html")
    downloads = folder / "downloads"
    downloads.mkdir()
    browser = DevTools(folder / "profile")
    try:
        browser.send(
            "Browser.setDownloadBehavior",
            {"behavior": "allow", "downloadPath": str(downloads), "eventsEnabled": True},
        )
        session = browser.open_page(page.as_uri())
        user = Reviewer(browser, session)
        before = user.marks()
        user.click_span("Lee")
        user.letter("a")  # accept
        user.click_span("Tom")
        user.letter("x")  # reject
        user.click_span("Oak Clinic")
        user.letter("l")  # change the subtype: type it, Enter
        user.type_text(labels.ORGANIZATION)
        user.key("Enter", "Enter", 13, "\r")
        user.drag_over("Ann")
        user.letter("m")  # mark the selection as PHI (the default subtype, PATIENT)
        edited = user.marks()
        browser.events.clear()
        browser.send("Page.reload", session=session)
        browser.wait_for("Page.loadEventFired")
        reloaded = user.marks()
        user.click(*browser.evaluate(session, EXPORT_BUTTON))
        finished = finished_download(browser)
        # The same decisions as JSONL: pick the format, then press e.
        browser.evaluate(session, PICK_JSONL)
        user.letter("e")
        finished_jsonl = finished_download(browser)
        errors, requests = browser.errors(), browser.requested_urls()
    finally:
        browser.close()
    return {
        "before": before,
        "edited": edited,
        "reloaded": reloaded,
        "download": finished["params"]["state"],
        "download_jsonl": finished_jsonl["params"]["state"],
        "files": sorted(downloads.iterdir()),
        "errors": errors,
        "requests": requests,
        "folder": folder,
    }


def finished_download(browser: DevTools) -> dict:
    """The next download's last progress event (its state: completed or canceled)."""
    while True:
        event = browser.wait_for("Browser.downloadProgress", timeout=30)
        browser.events.remove(event)
        if event["params"]["state"] != "inProgress":
            return event


PICK_JSONL = """(() => { const s = document.getElementById('export-format');
  s.value = 'jsonl'; s.dispatchEvent(new Event('change')); s.blur(); return s.value; })()"""
EXPORT_BUTTON = """(() => { const r = document.getElementById('export').getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2]; })()"""


@needs_chromium
def test_reviewer_edits_show_and_survive_a_reload(reviewed):
    assert reviewed["before"] == [(t, lab, PENDING) for t, lab, _ in SPANS] + [
        ("Kerr", labels.DOCTOR, PENDING)
    ]
    assert reviewed["edited"] == EXPECTED_MARKS
    assert reviewed["reloaded"] == EXPECTED_MARKS
    assert reviewed["errors"] == [], f"{len(reviewed['errors'])} browser error(s)"
    assert all(url.startswith("file://") for url in reviewed["requests"]), "a request left"


def exported(reviewed, suffix: str) -> Path:
    (path,) = [p for p in reviewed["files"] if p.suffix == suffix]
    return path


def assert_converts_with_the_reviewers_changes(export, out):
    """`spacy-deid convert` reads the export back with exactly the reviewer's edits."""
    result = CliRunner().invoke(app, ["convert", str(export), str(out)])
    assert result.exit_code == 0, result.output
    assert "Wrote 2 notes with 5 PHI mentions" in result.output
    docs = {doc.text: doc for doc in DocBin().from_disk(out).get_docs(spacy.blank("en").vocab)}
    assert set(docs) == {TEXT, OTHER_TEXT}
    assert [(e.text, e.label_) for e in docs[TEXT].ents] == EXPECTED_MENTIONS
    assert [(e.text, e.label_) for e in docs[OTHER_TEXT].ents] == [("Kerr", labels.DOCTOR)]


@needs_chromium
def test_export_converts_with_exactly_the_reviewers_changes(reviewed):
    assert reviewed["download"] == "completed"
    assert [p.name for p in reviewed["files"]] == ["corrected.jsonl", "corrected.zip"]
    export = exported(reviewed, ".zip")
    with zipfile.ZipFile(export) as archive:
        assert archive.testzip() is None
        assert sorted(archive.namelist()) == ["n_2.xml", "note-1.xml"]
    out = reviewed["folder"] / "corrected.spacy"
    assert_converts_with_the_reviewers_changes(export, out)


@needs_chromium
def test_jsonl_export_converts_with_exactly_the_reviewers_changes(reviewed):
    assert reviewed["download_jsonl"] == "completed"
    export = exported(reviewed, ".jsonl")
    lines = export.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in export.read_text(encoding="utf-8").split("\n")[:-1]]
    assert len(lines) == len(records) == 2
    assert [(r["note_id"], r["review"]) for r in records] == [
        ("note-1.txt", "in progress"), ("n/2", "in progress")
    ]
    first = records[0]
    assert first["text"] == TEXT
    assert [(s["text"], s["label"], s["review"], s.get("was")) for s in first["spans"]] == [
        ("Lee", labels.DOCTOR, "accepted", None),
        ("4/17/2094", labels.DATE, "unreviewed", None),
        ("Oak Clinic", labels.ORGANIZATION, "accepted", labels.HOSPITAL),
        ("Ann", labels.PATIENT, "added", None),
    ]
    out = reviewed["folder"] / "corrected-jsonl.spacy"
    assert_converts_with_the_reviewers_changes(export, out)


@needs_chromium
@pytest.mark.parametrize("suffix", [".zip", ".jsonl"])
def test_export_reopens_with_the_reviewers_decisions(reviewed, tmp_path, suffix):
    export = exported(reviewed, suffix)
    assert is_export(export)
    notes = {n.note_id: n for n in read_export(export)}
    states = [
        (TEXT[s.start_char : s.end_char], s.label, s.review_state, s.was)
        for s in notes["note-1" if suffix == ".zip" else "note-1.txt"].spans
    ]
    assert states == [
        ("Lee", labels.DOCTOR, ACCEPTED, None),
        ("4/17/2094", labels.DATE, PENDING, None),
        ("Oak Clinic", labels.ORGANIZATION, ACCEPTED, labels.HOSPITAL),
        ("Ann", labels.PATIENT, ADDED, None),
    ]
    # Continuing: the new page starts from the export, no model needed.
    page = tmp_path / "again.html"
    result = CliRunner().invoke(app, ["review", str(export), str(page), "--model", "nowhere"])
    assert result.exit_code == 0, result.output
    data = json.loads(page.read_text().split('id="review-data">')[1].split("</script>")[0])
    spans = {n["id"]: n["spans"] for n in data["notes"]}[
        "note-1" if suffix == ".zip" else "note-1.txt"
    ]
    assert [(s["label"], s["state"]) for s in spans] == [(lab, st) for _, lab, st, _ in states]


def test_export_folder_and_zip_read_alike(tmp_path):
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "a.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<!-- spacy-deid review: done -->\n'
        '<deIdi2b2>\n<TEXT><![CDATA[Ann came.]]></TEXT>\n<TAGS>\n'
        '<NAME id="P0" start="0" end="3" text="Ann" TYPE="PATIENT" comment="review=added" />\n'
        "</TAGS>\n</deIdi2b2>\n",
        encoding="utf-8",
    )
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zip_:
        zip_.write(folder / "a.xml", "a.xml")
    for path in (folder, archive):
        (note,) = read_export(path)
        assert note.done and [(s.label, s.review_state) for s in note.spans] == [
            (labels.PATIENT, ADDED)
        ]
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "b.xml").write_text(
        (folder / "a.xml").read_text().replace("<!-- spacy-deid review: done -->\n", "")
    )
    assert is_export(folder) and is_export(archive) and not is_export(plain)


@pytest.mark.parametrize(
    "member,message",
    [("../evil.xml", "outside"), ("/abs.xml", "outside"), (None, "not a readable ZIP")],
)
def test_bad_archives_are_refused_by_name(tmp_path, member, message):
    archive = tmp_path / "export.zip"
    if member is None:
        archive.write_bytes(b"not a zip")
    else:
        with zipfile.ZipFile(archive, "w") as zip_:
            zip_.writestr(member, "<deIdi2b2/>")
    with pytest.raises(ExportError, match=message):
        with unpacked(archive):
            pass


def test_unpacked_folder_is_removed_afterwards(tmp_path):
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zip_:
        zip_.writestr("a.xml", "x")
    with unpacked(archive) as folder:
        assert (folder / "a.xml").read_text() == "x"
    assert not folder.exists()


def jsonl_export(path: Path, review: str = "done") -> Path:
    record = {
        "note_id": "a", "text": "Ann came with Bob.", "review": review,
        "spans": [
            {"start": 0, "end": 3, "label": "PATIENT", "text": "Ann", "review": "added"},
            {"start": 14, "end": 17, "label": "DOCTOR", "review": "accepted", "was": "PATIENT",
             "score": 0.412},
        ],
    }
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


def test_review_continues_from_a_jsonl_export(tmp_path):
    export = jsonl_export(tmp_path / "export.jsonl")
    assert is_export(export) and is_export(tmp_path)
    (note,) = read_export(export)
    assert note.done and [
        (s.label, s.review_state, s.was, s.score) for s in note.spans
    ] == [(labels.PATIENT, ADDED, None, None), (labels.DOCTOR, ACCEPTED, labels.PATIENT, 0.412)]
    page = tmp_path / "again.html"
    result = CliRunner().invoke(app, ["review", str(export), str(page), "--model", "nowhere"])
    assert result.exit_code == 0, result.output
    assert "Continuing the review" in result.output
    data = json.loads(page.read_text().split('id="review-data">')[1].split("</script>")[0])
    (again,) = data["notes"]
    assert again["done"] and [(s["label"], s["state"], s["was"]) for s in again["spans"]] == [
        (labels.PATIENT, ADDED, None), (labels.DOCTOR, ACCEPTED, labels.PATIENT)
    ]


def test_plain_jsonl_notes_are_not_an_export(tmp_path):
    plain = tmp_path / "notes.jsonl"
    plain.write_text(json.dumps({"text": "Ann came."}) + "\n", encoding="utf-8")
    assert not is_export(plain)
    assert not is_export(tmp_path / "missing.jsonl")


def test_bad_jsonl_export_names_file_and_line(tmp_path):
    export = jsonl_export(tmp_path / "export.jsonl")
    export.write_text(
        export.read_text() + json.dumps({"text": "Zed", "review": "done",
                                         "spans": [{"start": 0, "end": 9, "label": "CITY"}]})
    )
    with pytest.raises(ExportError, match="line 2: tag #0: offsets 0-9") as caught:
        read_export(export)
    assert "Zed" not in str(caught.value)
