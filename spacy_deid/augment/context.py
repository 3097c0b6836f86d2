"""Context augmentation (PHICON): synonym replacement and random insertion.

Changes the words around the PHI, never the PHI itself:

- synonym replacement (SR): a non-stopword noun, verb, adjective or adverb
  becomes a WordNet synonym of the same part of speech;
- random insertion (RI): a random adverb goes in front of a verb or an
  adjective, a random adjective in front of a noun.

Without a tagger in the training pipeline, a word's part of speech is its most
frequent one in WordNet (SemCor lemma counts). Only words written in their
base form are replaced ("report", not "reports"), so a replacement never
needs inflecting; insertion works before inflected words too. Inserted words
come from WordNet's frequent single-word adverbs and adjectives.
"""
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, List, Optional, Sequence, Tuple

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc

NOUN, VERB, ADJ, ADV = "n", "v", "a", "r"
SATELLITE = "s"  # WordNet's adjective satellites count as adjectives
# What may be inserted in front of a word of each part of speech.
INSERT_BEFORE = {VERB: ADV, ADJ: ADV, NOUN: ADJ}
# Words shorter than this are mostly abbreviations in clinical notes.
MIN_WORD_LENGTH = 3
# An inserted word must occur this often in SemCor: no obscure words.
MIN_INSERT_COUNT = 5

SYNONYM = "synonym"
INSERTION = "insertion"

Span3 = Tuple[int, int, str]


@dataclass(frozen=True)
class ContextEdit:
    """One change: the token it applies to, the kind, the new words."""

    token: int
    kind: str  # SYNONYM (replaces the token) or INSERTION (goes before it)
    text: str


class WordNetLexicon:
    """The WordNet lookups context augmentation needs, cached."""

    def __init__(self, wordnet: Any) -> None:
        self.wordnet = wordnet
        self.part_of_speech = lru_cache(maxsize=None)(self._part_of_speech)
        self.synonyms = lru_cache(maxsize=None)(self._synonyms)
        self._pools: Dict[str, Tuple[str, ...]] = {}

    def _part_of_speech(self, word: str) -> Optional[str]:
        """The word's most frequent part of speech (of its base form)."""
        counts: Dict[str, float] = {}
        for pos in (NOUN, VERB, ADJ, ADV):
            base = self.wordnet.morphy(word, pos)
            if base is None:
                continue
            for lemma in self.wordnet.lemmas(base, pos):
                # + a little per sense, so words SemCor never saw still rank
                counts[pos] = counts.get(pos, 0.0) + lemma.count() + 0.01
        return max(counts, key=lambda pos: (counts[pos], pos)) if counts else None

    def _synonyms(self, word: str, pos: str) -> Tuple[str, ...]:
        """Single-word, lower-case synonyms of `word` (base form) as `pos`."""
        found = []
        for synset in self.wordnet.synsets(word, pos):
            for name in synset.lemma_names():
                if name != word and name.isalpha() and name.islower() and name not in found:
                    found.append(name)
        return tuple(found)

    def pool(self, pos: str) -> Tuple[str, ...]:
        """Frequent single-word lemmas of `pos`, in a fixed order."""
        if pos not in self._pools:
            words = set()
            for synset in self.wordnet.all_synsets(pos):
                for lemma in synset.lemmas():
                    name = lemma.name()
                    if name.isalpha() and name.islower() and lemma.count() >= MIN_INSERT_COUNT:
                        words.add(name)
            self._pools[pos] = tuple(sorted(words))
        return self._pools[pos]


def _coarse(pos: Optional[str]) -> Optional[str]:
    return ADJ if pos == SATELLITE else pos


def _written_like(word: str, like: str) -> str:
    return word[0].upper() + word[1:] if like[:1].isupper() else word


def plan_context_edits(
    doc: Doc,
    phi_tokens: Sequence[bool],
    lexicon: WordNetLexicon,
    rng: random.Random,
    synonym_rate: float,
    insertion_rate: float,
) -> List[ContextEdit]:
    """The edits for `doc`: each eligible non-PHI word gets an insertion in
    front with probability `insertion_rate` and is replaced by a synonym with
    probability `synonym_rate`."""
    edits: List[ContextEdit] = []
    for token in doc:
        if phi_tokens[token.i]:
            continue
        word = token.text
        # lower case or capitalised words only: ALL-CAPS are headers, acronyms
        if not (word.isalpha() and len(word) >= MIN_WORD_LENGTH):
            continue
        if not (word.islower() or (word[0].isupper() and word[1:].islower())):
            continue
        lower = word.lower()
        if lower in STOP_WORDS:
            continue
        pos = _coarse(lexicon.part_of_speech(lower))
        if pos is None:
            continue
        # not in front of a capitalised word: the sentence would start lower-case
        if rng.random() < insertion_rate and pos in INSERT_BEFORE and word.islower():
            pool = lexicon.pool(INSERT_BEFORE[pos])
            if pool:
                edits.append(ContextEdit(token.i, INSERTION, rng.choice(pool)))
        if rng.random() < synonym_rate and lexicon.wordnet.morphy(lower, pos) == lower:
            synonyms = lexicon.synonyms(lower, pos)
            if synonyms:
                edits.append(ContextEdit(token.i, SYNONYM, _written_like(rng.choice(synonyms), word)))
    return edits


def apply_context_edits(
    doc: Doc, spans: Sequence[Span3], edits: Sequence[ContextEdit]
) -> Tuple[str, List[Span3]]:
    """The text of `doc` with `edits` applied and `spans` ((start, end,
    label) character offsets in doc.text, on token boundaries) moved with it."""
    by_token: Dict[int, List[ContextEdit]] = {}
    for edit in edits:
        by_token.setdefault(edit.token, []).append(edit)
    starts = {start: (end, label) for start, end, label in spans}
    pieces: List[str] = []
    length = 0
    moved: List[Span3] = []
    open_span: Optional[Tuple[int, int, str]] = None  # (new start, old end, label)
    for token in doc:
        text = token.text
        for edit in by_token.get(token.i, ()):
            if edit.kind == INSERTION:
                pieces.append(edit.text + " ")
                length += len(edit.text) + 1
            else:
                text = edit.text
        if token.idx in starts:
            old_end, label = starts[token.idx]
            open_span = (length, old_end, label)
        pieces.append(text)
        length += len(text)
        if open_span is not None and token.idx + len(token.text) == open_span[1]:
            moved.append((open_span[0], length, open_span[2]))
            open_span = None
        pieces.append(token.whitespace_)
        length += len(token.whitespace_)
    if len(moved) != len(spans):
        raise ValueError("PHI spans must start and end on token boundaries")
    return "".join(pieces), moved
