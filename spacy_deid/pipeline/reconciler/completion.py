"""Span completion: the reconciler's step that finishes mentions found in part.

The largest error class on notes the generator did not write is a boundary
error: part of a multi-token mention found, the rest released. This step
grows a mention over the parts that belong to it, each growth guarded and
recorded in the mention's provenance ("complete:<kind>"):

- name_hyphen: a person's name (and an institution's or place's: "Tri-County",
  "Winston-Salem") across a hyphen to a glued capitalised piece,
  or to a name particle ("Okafor" -> "Okafor-Lindgren", "Rashid" ->
  "al-Rashid"); a lower-case piece ("Parkinson-like") is no name;
- last_comma_first: "Last, First" and "Last, First M" of signature and list
  lines, when the first name is followed by the end of the line, a comma, a
  credential ("MD") or a middle initial;
- inner_word: an organisation, hospital, department or other location over
  an inner "of", "on", "for", "&" followed by capitalised words on the same
  line (in notes written in mixed case only: in capitals "KMH FOR CATH" is
  no name) ("Office" -> "Office on Aging", "Smith" -> "Smith & Rowe LLP"), or
  over an inner "and", "&", "of", "for", "on" to the capitalised words
  before it ("Sexuality Health Program" -> "Gender and Sexuality Health
  Program", "Disease Control" -> "Centers for Disease Control"; in a note
  typed in one case only over "and", "&", "of"), and
  two place mentions joined by "and" when the whole is one place in the
  lexicon ("Bosnia and Herzegovina");
- job_phrase: a profession over adjacent words that the lexicon knows as
  part of an occupation title ("sales representative" -> "medical equipment
  sales representative"), and a capitalised title over "of" and its field
  ("Senior Manager" -> "Senior Manager of Education").

- glued_handle: a user name over the words glued to it by a period, an
  underscore or a hyphen ("mattie" -> "mattie-quennell"): a user name has
  no space in it, and the tokenizer cuts a hyphen between two words;
- nickname: a person's name written with a nickname in quotes, found in
  parts, becomes one mention ('Mateo "Teo" Villanueva').
- one_case_name: a person's name typed in one case, found in part: a first
  name takes the surname after it, when a surname list knows that word and it
  is no English word ("dr. abel quennell"), and a first-and-last name the
  first name before it ("abel rosalind quennell").

Repairs of the opposite kind, where a mention ran too far:

- trim_title: a title or role word before a person's name ("Pastor",
  "Daughter", "Sgt.", or a care-team role in capitals: "HO", "NP") is left
  out, as annotators do;

- trim_lowercase: an institution's name is capitalised; trailing lower-case
  words are a description, not part of it ("Harlow University counseling
  center" -> "Harlow University"). Only in notes written in mixed case;
- trim_english: in a note typed in one case, a person's name ends at its
  last word that a name list knows or that is no English word; trailing
  English words are the sentence ("DR. FORMBY AWARE" -> "FORMBY", "DR
  QUENNELL PRONOUNCED" -> "QUENNELL");
- trim_stop_word: a place's or an institution's name does not end in a
  function word or a word of time; trailing ones the NER took in are the
  sentence ("AIRLIFTED TO OKEBY MEMORIAL WHERE" -> "OKEBY MEMORIAL", "home to
  Okeby tonight" -> "Okeby"), in any case;
- hospital_department: a hospital's name followed on the same line by
  capitalised words is a hospital and one of its departments ("Ashby
  Hospital Sleep Medicine" -> HOSPITAL "Ashby Hospital" + DEPARTMENT
  "Sleep Medicine").

The lexicon-guarded growths use `Token._.lexicon` (the `deid_lexicon`
component); without it they do not fire.
"""
import re
from typing import List, Optional, Sequence, Tuple

from spacy.tokens import Doc, Token

from ... import labels
from .. import lexicon
from ...clinical_lexicon import CLINICAL_LIST, ENGLISH_LIST, STOP_WORDS_LIST
from ...extensions import has_token_feature
from .rules import RuleSet
from .steps import (
    NOT_NAME_LISTS, PERSON_LABELS, Mention, _guard_or_cue_word, _joined, _name_word, lexicon_tags,
    mixed_case,
)

# Lower-case particles that open a surname glued by a hyphen ("al-Rashid").
NAME_PARTICLES = frozenset({"al", "el", "ul", "bin", "ben", "ibn", "abu", "da", "de", "di", "du", "le", "la"})
INNER_WORD_LABELS = (labels.ORGANIZATION, labels.HOSPITAL, labels.DEPARTMENT, labels.LOCATION_OTHER)
PLACE_LABELS = (labels.CITY, labels.COUNTRY, labels.STATE, labels.LOCATION_OTHER)
# Words inside an institution's name; "and" only between places the lexicon knows as one.
INNER_WORDS = frozenset({"of", "on", "for", "&"})
# In a note typed in one case a head grows only over "and", "&", "of"
# ("BRIGHAM AND WOMEN'S"): over "on" or "for" it takes a clause, since every
# word there looks capitalised ("RESP DISTRESS ON <ward> 6").
ONE_CASE_HEAD_JOINERS = frozenset({"of", "and", "&"})
# Corporate suffixes that end an organisation's name ("Smith & Rowe LLP").
ORGANIZATION_SUFFIXES = frozenset({"llp", "llc", "inc", "inc.", "co", "co.", "corp", "corp.", "pc", "p.c."})
MAX_INNER_TAIL = 4
MAX_JOB_WORDS = 6
MAX_JOB_FIELD_WORDS = 3
TRIM_LABELS = (labels.ORGANIZATION, labels.HOSPITAL, labels.DEPARTMENT)
# Words of a hospital's own name that notes type in lower case ("<Saint> <Name>
# memorial"): no description, so trim_lowercase keeps them.
HOSPITAL_QUALIFIERS = frozenset({"memorial", "general", "regional"})
# Lower-case words trim_lowercase never cuts from the end of a name.
KEPT_LOWER_CASE_WORDS = ORGANIZATION_SUFFIXES | HOSPITAL_QUALIFIERS
# Care-team roles written in capitals before a name ("HO", "NP", "RN"; reconciler list).
CLINICIAN_ABBREVIATIONS = "clinician_abbreviations"
# Lexicon categories of a person's name words: a word tagged so is never trimmed.
NAME_TAGS = frozenset({"FIRST", "LAST"})
# Words that end a hospital's own name; what follows on the line is a department.
HOSPITAL_HEADS = frozenset({"hospital", "hospitals", "infirmary", "sanatorium"})
CENTER_HEADS = frozenset({"center", "centre"})
CENTER_QUALIFIERS = frozenset({"medical", "health", "hospital"})
# The reconciler list of US state names and postal codes.
US_STATES = "us_states"
# Words of time a sentence puts after a place ("back to Okeby tomorrow").
TRAILING_TIME_WORDS = frozenset({"today", "tonight", "tomorrow", "yesterday", "overnight", "later"})
# Places and institutions, whose names end in a word that is no function word.
STOP_WORD_TRIM_LABELS = INNER_WORD_LABELS + (labels.CITY, labels.COUNTRY)
# Joiners a trim may leave at the end ("... Hospital and").
TRIM_JOINERS = INNER_WORDS | {"and", ","}
# What joins the parts of a user name the tokenizer cut ("abel-formby").
HANDLE_JOINERS = frozenset({".", "_", "-"})
OPEN_QUOTES = frozenset({'"', "\u201c", "'", "\u2018"})
CLOSE_QUOTES = frozenset({'"', "\u201d", "'", "\u2019"})

# A one-letter initial with its period ("Q.", "q."), as the tokenizer keeps it.
INITIAL = re.compile(r"^[A-Za-z]\.$")


def complete_mentions(
    doc: Doc, mentions: List[Mention], rules: RuleSet, cased: Optional[bool] = None
) -> List[Mention]:
    """Grow mentions over the parts that belong to them; merges two mentions
    where one growth reaches another ("and" between places). Returns the new list."""
    owner: List[Optional[Mention]] = [None] * len(doc)
    for mention in mentions:
        for i in range(mention.start, mention.end):
            owner[i] = mention
    removed = set()
    if cased is None:
        cased = mixed_case(doc)
    added: List[Mention] = []
    for mention in sorted(mentions, key=lambda m: m.start):
        if id(mention) in removed:
            continue
        if mention.label in STOP_WORD_TRIM_LABELS:
            _shrink(mention, owner, _trailing_stop_words_start(doc, mention, rules), "trim_stop_word")
        if cased and mention.label in TRIM_LABELS:
            old_end = mention.end
            _shrink(mention, owner, _trim_lowercase(doc, mention), "trim_lowercase")
            job = _trailing_job(doc, mention, old_end, len(mentions) + len(added))
            if job is not None:
                for i in range(job.start, job.end):
                    owner[i] = job  # later growths must not take its words
                added.append(job)
        if mention.label == labels.HOSPITAL:
            department = _hospital_department(doc, mention, owner, len(mentions) + len(added))
            if department is not None:
                added.append(department)
        if mention.label in PERSON_LABELS + INNER_WORD_LABELS + PLACE_LABELS:
            _grow(mention, owner, _name_hyphen(doc, mention, owner), "name_hyphen")
        if mention.label == labels.USERNAME:
            _grow(mention, owner, _glued_handle(doc, mention, owner), "glued_handle")
        if mention.label in INNER_WORD_LABELS + PLACE_LABELS:
            _grow(mention, owner, _inner_head(doc, mention, owner, rules, cased), "inner_word")
        if mention.label in PERSON_LABELS:
            if not cased:
                _shrink(mention, owner, _english_tail_start(doc, mention, rules), "trim_english")
            _shrink_left(mention, owner, _title_end(doc, mention, rules), "trim_title")
            for other in _nickname_parts(doc, mention, owner):
                removed.add(id(other))
                _grow(mention, owner, (mention.start, other.end), "nickname", absorb=other)
            _grow(mention, owner, _last_comma_first(doc, mention, owner, rules), "last_comma_first")
            _grow(mention, owner, _one_case_name(doc, mention, owner, rules), "one_case_name")
        elif mention.label == labels.PROFESSION:
            _grow(mention, owner, _job_phrase(doc, mention, owner), "job_phrase")
        # In a note typed in one case every word looks capitalised: "KMH FOR CATH".
        if cased and mention.label in INNER_WORD_LABELS:
            _grow(mention, owner, _inner_tail(doc, mention, owner, rules), "inner_word")
        if mention.label in PLACE_LABELS:
            other = _joined_place(doc, mention, owner)
            if other is not None:
                removed.add(id(other))
                _grow(mention, owner, (mention.start, other.end), "inner_word", absorb=other)
    kept = [m for m in mentions if id(m) not in removed]
    return sorted(kept + added, key=lambda m: m.start) if added else kept


def _shrink(mention: Mention, owner: List[Optional[Mention]], end: Optional[int], kind: str) -> None:
    if end is None or end == mention.end:
        return
    for i in range(end, mention.end):
        owner[i] = None
    mention.end = end
    mention.provenance.append(f"complete:{kind}")


def _shrink_left(mention: Mention, owner: List[Optional[Mention]], start: Optional[int], kind: str) -> None:
    if start is None or start == mention.start:
        return
    for i in range(mention.start, start):
        owner[i] = None
    mention.start = start
    mention.provenance.append(f"complete:{kind}")


def _title_end(doc: Doc, mention: Mention, rules: RuleSet) -> Optional[int]:
    """Where the name starts after a leading title or role word ("Pastor Akinola",
    "Daughter Rose", "Sgt. Ruiz"), which annotators leave out; None if none."""
    start = mention.start
    if not doc[start].is_alpha or not _is_title_word(doc[start], rules):
        return None
    start += 1
    if start < mention.end and doc[start].text == "." and _glued(doc, start - 1):
        start += 1
    if start >= mention.end or _joined(doc, start - 1) != " " or not _capitalised(doc[start]):
        return None
    return start


def _is_title_word(token: Token, rules: RuleSet) -> bool:
    if token.is_upper and token.lower_ in rules.lists.get(CLINICIAN_ABBREVIATIONS, ()):
        return True  # "HO Quennell", "NP Formby": a care-team role in capitals
    return token.is_title and any(
        token.lower_ in rules.lists.get(name, ()) for name in NOT_NAME_LISTS + ("name_titles",)
    )


def _one_case_name(doc: Doc, mention: Mention, owner, rules: RuleSet) -> Optional[Tuple[int, int]]:
    """A person's name typed in one case, found in part: a first name found
    alone takes the surname after it ("dr. abel quennell" found as "abel"), a
    first-and-last name, or an initial and a surname, the first name before it
    ("abel rosalind quennell" found as "rosalind quennell", "ABEL Q. FORMBY, RRT"
    as "Q. FORMBY"). Capitals cannot tell a name from a word there, so the
    lexicon decides: the word after must be a surname that is no English word,
    the word before a first name."""
    if not has_token_feature(doc, "lexicon"):
        return None
    words = doc[mention.start: mention.end]
    initial = len(words) >= 2 and INITIAL.match(words[0].text) is not None
    if not (initial or all(t.is_alpha for t in words)) or not (words.text.islower() or words.text.isupper()):
        return None
    lower = words.text.islower()
    start, end = mention.start, mention.end
    if not initial and _name_neighbour(doc, end, lower, rules) and _joined(doc, end - 1) == " " \
            and "FIRST" in lexicon_tags(doc[end - 1]) and "LAST" in lexicon_tags(doc[end]) \
            and doc[end].lower_ not in rules.lists.get(ENGLISH_LIST, ()) and _free(owner, end, end + 1):
        end += 1
    before = start - 1
    # _name_neighbour turns away cue and guard words ("WILL A. FORMBY": the verb).
    first_name_before = initial or "FIRST" in lexicon_tags(doc[start])
    if end - start >= 2 and first_name_before and _name_neighbour(doc, before, lower, rules) \
            and _joined(doc, before) == " " and "FIRST" in lexicon_tags(doc[before]) \
            and _free(owner, before, start):
        start = before
    return (start, end)


def _name_neighbour(doc: Doc, i: int, lower: bool, rules: RuleSet) -> bool:
    """Whether token i is a word of the mention's case that may be a name's:
    no stop word, no clinical word, no cue word."""
    if not 0 <= i < len(doc):
        return False
    token = doc[i]
    if not token.is_alpha or len(token) < 2 or not (token.is_lower if lower else token.is_upper):
        return False
    return token.lower_ not in rules.lists.get(CLINICAL_LIST, ()) and not _guard_or_cue_word(token, rules)


def _nickname_parts(doc: Doc, mention: Mention, owner) -> List[Mention]:
    """The mentions of a name written with a nickname in quotes, after its
    first part: 'Mateo "Teo" Villanueva' found as three names is one."""
    quote = mention.end
    if quote + 3 >= len(doc) or doc[quote].text not in OPEN_QUOTES or _joined(doc, quote - 1) != " ":
        return []
    nick, close, last = quote + 1, quote + 2, quote + 3
    if doc[close].text not in CLOSE_QUOTES or not _capitalised(doc[nick]) \
            or not _glued(doc, quote) or not _glued(doc, nick) or _joined(doc, close) != " ":
        return []
    surname = owner[last]
    if surname is None or surname.start != last or surname.label not in PERSON_LABELS \
            or not _free(owner, quote, quote + 1) or not _free(owner, close, close + 1):
        return []
    inner = owner[nick]
    if inner is not None and (inner.start != nick or inner.end != close):
        return []
    return [m for m in (inner, surname) if m is not None]


def _trim_lowercase(doc: Doc, mention: Mention) -> Optional[int]:
    """The end without trailing lower-case words, if a capitalised word stays."""
    end = mention.end
    while end - 1 > mention.start and doc[end - 1].is_alpha and doc[end - 1].is_lower \
            and doc[end - 1].lower_ not in KEPT_LOWER_CASE_WORDS:
        end -= 1
    while end - 1 > mention.start and doc[end - 1].lower_ in TRIM_JOINERS:
        end -= 1
    if end == mention.end or not any(_capitalised(t) for t in doc[mention.start: end]):
        return None
    return end


def _trailing_stop_words_start(doc: Doc, mention: Mention, rules: RuleSet) -> Optional[int]:
    """Where trailing stop words and words of time start ("... MEMORIAL WHERE",
    "... Okeby tonight"), if a word that is none stays."""
    stop_words = rules.lists.get(STOP_WORDS_LIST, frozenset())
    states = rules.lists.get(US_STATES, frozenset())
    end = mention.end
    while end - 1 > mention.start and _is_sentence_word(doc, end - 1, stop_words, states):
        end -= 1
    return end if end != mention.end else None


def _is_sentence_word(doc: Doc, i: int, stop_words, states) -> bool:
    """A word of time, or a whole stop word: a piece glued to the word before
    ("'s") or a state's postal code in capitals ("CA", "IN", "ME") is none."""
    token = doc[i]
    if token.lower_ in TRAILING_TIME_WORDS:
        return True
    if not (token.is_alpha and token.lower_ in stop_words and doc[i - 1].whitespace_):
        return False
    return not (token.is_upper and token.lower_ in states)


def _english_tail_start(doc: Doc, mention: Mention, rules: RuleSet) -> Optional[int]:
    """Where trailing English words that no name list holds start, if a word
    stays; None without `deid_lexicon`, which alone tells a surname from a word."""
    if not has_token_feature(doc, "lexicon"):
        return None
    english = rules.lists.get(ENGLISH_LIST, frozenset())
    end = mention.end
    # An initial ("SIMON T") is a name's, whatever a word list says of the letter.
    while end - 1 > mention.start and doc[end - 1].is_alpha and len(doc[end - 1]) > 1 \
            and doc[end - 1].lower_ in english and not NAME_TAGS & set(lexicon_tags(doc[end - 1])):
        end -= 1
    return end if end != mention.end else None


def _trailing_job(doc: Doc, mention: Mention, old_end: int, order: int) -> Optional[Mention]:
    """The trimmed words, as a PROFESSION, when they end in an occupation
    title the lexicon knows ("... Hospital and associate program director")."""
    if old_end <= mention.end or lexicon.JOB not in lexicon_tags(doc[old_end - 1]):
        return None
    start = old_end - 1
    while start > mention.end and doc[start - 1].is_alpha and doc[start - 1].is_lower \
            and lexicon.JOB in lexicon_tags(doc[start - 1]) and old_end - start < MAX_JOB_WORDS:
        start -= 1
    return Mention(start, old_end, labels.PROFESSION,
                   provenance=list(mention.provenance) + ["complete:trim_job"], order=order)


def _hospital_head_end(doc: Doc, mention: Mention) -> Optional[int]:
    """The end of the hospital's own name inside the mention: after "Hospital"
    or "Medical/Health Center", when capitalised words follow it."""
    for i in range(mention.start + 1, mention.end - 1):
        word = doc[i].lower_
        head = word in HOSPITAL_HEADS or (word in CENTER_HEADS and doc[i - 1].lower_ in CENTER_QUALIFIERS)
        if head and _capitalised(doc[i]):
            return i + 1
    return None


def _hospital_department(doc: Doc, mention: Mention, owner, order: int) -> Optional[Mention]:
    """Split "<Hospital> <Department>" on one line into two mentions; returns the department."""
    split = _hospital_head_end(doc, mention)
    if split is None or not _one_line(doc, mention.start, mention.end):
        return None
    tail = doc[split: mention.end]
    if not all(_capitalised(t) or t.lower_ in INNER_WORDS or t.text in ("-", "&") for t in tail) \
            or not _capitalised(tail[0]):
        return None
    department = Mention(split, mention.end, labels.DEPARTMENT,
                         provenance=list(mention.provenance) + ["complete:hospital_department"], order=order)
    for i in range(split, mention.end):
        owner[i] = department
    mention.end = split
    mention.provenance.append("complete:hospital_department")
    return department


def _grow(mention: Mention, owner: List[Optional[Mention]], bounds: Optional[Tuple[int, int]],
          kind: str, absorb: Optional[Mention] = None) -> None:
    if bounds is None or bounds == (mention.start, mention.end):
        return
    start, end = bounds
    for i in range(start, end):
        owner[i] = mention
    mention.start, mention.end = start, end
    mention.provenance.append(f"complete:{kind}")
    if absorb is not None:
        mention.provenance.append(f"complete:absorbed:{absorb.provenance_string or absorb.label}")


def _free(owner: Sequence[Optional[Mention]], start: int, end: int) -> bool:
    return 0 <= start and end <= len(owner) and all(owner[i] is None for i in range(start, end))


def _glued(doc: Doc, left: int) -> bool:
    return 0 <= left < len(doc) - 1 and _joined(doc, left) == ""


def _line_ends(doc: Doc, end: int) -> bool:
    """Whether the line ends right before token `end` (or the doc does)."""
    if end >= len(doc):
        return True
    before, token = doc[end - 1], doc[end]
    return "\n" in before.whitespace_ or (token.is_space and "\n" in token.text)


def _one_line(doc: Doc, start: int, end: int) -> bool:
    """Whether tokens start..end-1 stand on one line."""
    return not any("\n" in doc[i].whitespace_ or doc[i].is_space for i in range(start, end - 1))


def _capitalised(token: Token) -> bool:
    return token.is_alpha and (token.is_title or (token.is_upper and len(token) > 1))


def _handle_piece(token: Token) -> bool:
    """A word or a number: the pieces a joiner may glue into a user name."""
    return token.is_alpha or token.is_digit


def _glued_handle(doc: Doc, mention: Mention, owner) -> Optional[Tuple[int, int]]:
    """A user name has no space in it: the words, digits and joiners glued to
    both sides of the mention ("abel" in "abel-formby" -> "abel-formby"), a
    joiner only between two glued pieces (a sentence's period stays out)."""
    start, end = mention.start, mention.end
    while (
        start >= 2 and _glued(doc, start - 1) and doc[start - 1].text in HANDLE_JOINERS
        and _glued(doc, start - 2) and _handle_piece(doc[start - 2])
        and _free(owner, start - 2, start)
    ):
        start -= 2
    while (
        end + 1 < len(doc) and _glued(doc, end - 1) and doc[end].text in HANDLE_JOINERS
        and _glued(doc, end) and _handle_piece(doc[end + 1])
        and _free(owner, end, end + 2)
    ):
        end += 2
    return start, end


def _name_hyphen(doc: Doc, mention: Mention, owner) -> Optional[Tuple[int, int]]:
    start, end = mention.start, mention.end
    # right: Okafor -> Okafor-Lindgren (repeatable: Garcia-Lopez-Ruiz)
    while end + 1 < len(doc) and doc[end].text in ("-", "'") and _glued(doc, end - 1) \
            and _glued(doc, end) and _capitalised(doc[end + 1]) and _free(owner, end, end + 2):
        end += 2
    # left: Lindgren -> Okafor-Lindgren, Rashid -> al-Rashid
    while start >= 2 and doc[start - 1].text in ("-", "'") and _glued(doc, start - 2) \
            and _glued(doc, start - 1) and _free(owner, start - 2, start):
        piece = doc[start - 2]
        if not (_capitalised(piece) or piece.lower_ in NAME_PARTICLES or piece.text in ("O", "D")):
            break
        start -= 2
    return start, end


def _last_comma_first(doc: Doc, mention: Mention, owner, rules: RuleSet) -> Optional[Tuple[int, int]]:
    """"Smith" + ", John" (+ " M") when the line then ends or a credential follows."""
    comma, first = mention.end, mention.end + 1
    if mention.end - mention.start != 1 or first >= len(doc) or doc[comma].text != ",":
        return None
    if not _glued(doc, comma - 1) or _joined(doc, comma) != " " or not _free(owner, comma, first + 1):
        return None
    name = doc[first]
    if not _name_word(name, rules) and not (name.is_upper and name.is_alpha and len(name) > 1):
        return None
    end = first + 1
    # a middle initial: "Smith, John M" / "Smith, John M."
    if end < len(doc) and _joined(doc, end - 1) == " " and len(doc[end]) == 1 and doc[end].is_upper \
            and _free(owner, end, end + 1):
        after = end + 1
        if after < len(doc) and doc[after].text == "." and _glued(doc, end):
            after += 1
        if _line_ends(doc, after) or doc[after].text == ",":
            end += 1
    if _line_ends(doc, end):
        return mention.start, end
    following = doc[end]
    credentials = rules.lists.get("credential_cues", ())
    if following.text == "," or following.lower_ in credentials:
        return mention.start, end
    return None


def _job_phrase(doc: Doc, mention: Mention, owner) -> Optional[Tuple[int, int]]:
    start, end = mention.start, mention.end
    while start > 0 and mention.end - start < MAX_JOB_WORDS and _joined(doc, start - 1) == " " \
            and doc[start - 1].is_alpha and lexicon.JOB in lexicon_tags(doc[start - 1]) \
            and _free(owner, start - 1, start):
        start -= 1
    while end < len(doc) and end - start < MAX_JOB_WORDS and _joined(doc, end - 1) == " " \
            and doc[end].is_alpha and lexicon.JOB in lexicon_tags(doc[end]) and _free(owner, end, end + 1):
        end += 1
    return start, _title_of_field(doc, end, owner, start)


def _title_of_field(doc: Doc, end: int, owner, start: int) -> int:
    """A capitalised title's field after "of": "Manager" + " of Education",
    "Director" + " of Clinical Operations" (same line, capitalised words only)."""
    if not doc[end - 1].is_title or end + 1 >= len(doc) or doc[end].lower_ != "of" \
            or _joined(doc, end - 1) != " " or _joined(doc, end) != " ":
        return end
    last = end + 1
    while last < len(doc) and last - end <= MAX_JOB_FIELD_WORDS and _capitalised(doc[last]) \
            and _free(owner, end, last + 1):
        if _joined(doc, last) != " ":
            last += 1
            break
        last += 1
    return last if last > end + 1 else end


def _inner_tail(doc: Doc, mention: Mention, owner, rules: RuleSet) -> Optional[Tuple[int, int]]:
    """"Office" + " on Aging", "Smith" + " & Rowe LLP"."""
    word = mention.end
    if word + 1 >= len(doc) or doc[word].lower_ not in INNER_WORDS or not _capitalised(doc[word - 1]):
        return None
    if _joined(doc, word - 1) != " " or _joined(doc, word) != " ":
        return None
    end = word + 1
    not_names = set().union(*(rules.lists.get(name, ()) for name in NOT_NAME_LISTS))
    while end < len(doc) and end - word <= MAX_INNER_TAIL and _free(owner, end, end + 1) \
            and (_capitalised(doc[end]) or doc[end].lower_ in ORGANIZATION_SUFFIXES) \
            and doc[end].lower_ not in not_names and doc[end].lower_ not in rules.guard_words:
        end += 1
        if end < len(doc) and _joined(doc, end - 1) != " ":
            break
    if end == word + 1 or not _free(owner, word, end):
        return None
    return mention.start, end


def _inner_head(
    doc: Doc, mention: Mention, owner, rules: RuleSet, cased: bool
) -> Optional[Tuple[int, int]]:
    """"Sexuality Health Program" + "Gender and " before it, "Women's Hospital" +
    "Brigham and ": an institution's name over an inner "and", "&", "of" (in
    mixed case also "for", "on") to the capitalised words before it on the
    same line."""
    word = mention.start - 1
    if mention.label not in INNER_WORD_LABELS or word < 1 or not _capitalised(doc[mention.start]):
        return None
    joiners = INNER_WORDS | {"and"} if cased else ONE_CASE_HEAD_JOINERS
    if doc[word].lower_ not in joiners:
        return None
    if _joined(doc, word - 1) != " " or _joined(doc, word) != " ":
        return None
    not_names = set().union(*(rules.lists.get(name, ()) for name in NOT_NAME_LISTS))
    start = word
    while start > 0 and word - start < MAX_INNER_TAIL and _free(owner, start - 1, start) \
            and _capitalised(doc[start - 1]) and doc[start - 1].lower_ not in not_names \
            and doc[start - 1].lower_ not in rules.guard_words and not _job_title_word(doc[start - 1]):
        start -= 1
        if start > 0 and _joined(doc, start - 1) != " ":
            break
    if start == word or not _free(owner, start, word + 1):
        return None
    return start, mention.end


def _job_title_word(token: Token) -> bool:
    """A word of a job's title that names no institution ("CEO", "Director",
    "Chief" of "CEO of QMX", "Director of Nursing"): the person's post, not the
    name of the institution after "of"."""
    tags = lexicon_tags(token)
    return lexicon.JOB in tags and lexicon.INSTITUTION not in tags


def _joined_place(doc: Doc, mention: Mention, owner) -> Optional[Mention]:
    """The place mention right after "<mention> and", when the lexicon knows
    the whole as one place of the same kind ("Bosnia and Herzegovina")."""
    word = mention.end
    if word + 1 >= len(doc) or doc[word].lower_ != "and" or owner[word] is not None:
        return None
    other = owner[word + 1]
    if other is None or other.start != word + 1 or other.label != mention.label:
        return None
    shared = set(lexicon_tags(doc[mention.start]))
    for i in range(mention.start, other.end):
        shared &= set(lexicon_tags(doc[i]))
    return other if shared & {lexicon.COUNTRY, lexicon.CITY, lexicon.STATE} else None
