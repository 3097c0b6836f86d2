"""The documentation stands alone: a short README, no pointer outside the
repository, and relative links that lead to files that exist."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# A README a newcomer reads in five minutes; docs as a reference, not a diary.
README_LIMIT = 6000
PAGE_LIMIT = 25_000
DOCS_LIMIT = 150_000
CHANGELOG_LIMIT = 10_000
# The design notes the project started from sit beside a checkout, never in
# it: a user of the package does not have them.
OUTSIDE_PATTERN = re.compile(r"\.\./shared|shared/design")
# [text](target) and ![alt](target); the target ends at whitespace or ")".
LINK_PATTERN = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EXTERNAL_PREFIXES = ("http://", "https://", "mailto:", "#")
TEXT_SUFFIXES = {".md", ".py", ".json", ".jsonl", ".txt", ".tsv", ".cfg", ".yml", ".toml"}


def _linked_docs():
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"] + sorted(
        (ROOT / "docs").glob("*.md")
    )


def _relative_links(text):
    """Link targets that should be files of the repository (anchors removed)."""
    targets = []
    for target in LINK_PATTERN.findall(text):
        if target.startswith(EXTERNAL_PREFIXES):
            continue
        targets.append(target.split("#", 1)[0])
    return [target for target in targets if target]


def _searched_files():
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    for folder in ("spacy_deid", "docs"):
        files += [
            path
            for path in sorted((ROOT / folder).rglob("*"))
            if path.is_file() and path.suffix in TEXT_SUFFIXES
        ]
    return files


def test_readme_is_short():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text) <= README_LIMIT, f"README.md has {len(text)} characters"


def test_docs_are_a_reference_of_bounded_size():
    pages = sorted((ROOT / "docs").glob("*.md"))
    sizes = {page.name: len(page.read_text(encoding="utf-8")) for page in pages}
    assert (ROOT / "docs" / "index.md") in pages
    assert {name: size for name, size in sizes.items() if size > PAGE_LIMIT} == {}
    assert sum(sizes.values()) <= DOCS_LIMIT
    assert len((ROOT / "CHANGELOG.md").read_text(encoding="utf-8")) <= CHANGELOG_LIMIT


def test_nothing_points_outside_the_repository():
    offenders = []
    for path in _searched_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE_PATTERN.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}")
    assert offenders == []


@pytest.mark.parametrize("doc", _linked_docs(), ids=lambda path: str(path.relative_to(ROOT)))
def test_relative_links_lead_to_files(doc):
    if not doc.exists():
        pytest.fail(f"{doc.relative_to(ROOT)} is missing")
    text = doc.read_text(encoding="utf-8")
    broken = [
        target for target in _relative_links(text) if not (doc.parent / target).exists()
    ]
    assert broken == []


@pytest.mark.parametrize(
    "text,expected",
    [
        ("see [labels](docs/labels.md) and [x](https://spacy.io)", ["docs/labels.md"]),
        ("[anchor](#measures) [page](recall.md#operating-points)", ["recall.md"]),
        ("![plot](recall-pr-curve-dev.png)", ["recall-pr-curve-dev.png"]),
        ("no links, just (parentheses) and [brackets]", []),
        ("[mail](mailto:someone@example.org)", []),
    ],
)
def test_link_finder(text, expected):
    assert _relative_links(text) == expected


@pytest.mark.parametrize(
    "line,found",
    [
        ("Levels (../shared/design/evaluation.md): strict", True),
        ("the design note shared/design/architecture.md", True),
        ("Levels (docs/evaluation.md): strict", False),
        ("nothing is shared between patients", False),
    ],
)
def test_outside_pattern(line, found):
    assert bool(OUTSIDE_PATTERN.search(line)) is found
