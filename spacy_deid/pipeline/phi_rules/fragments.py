"""Named regex fragments that the PHI patterns (spacy_deid/data/phi_patterns_*.jsonl) are built from.

A pattern writes `{NAME}` where it needs a fragment; `expand()` substitutes the
fragments (recursively) before the pattern is compiled, once, by the
`deid_phi_rules` component. Fragment names are UPPER_SNAKE_CASE, so they never
collide with regex quantifiers such as `\\d{3}` or `{1,2}`. The patterns are
compiled with the `regex` package (variable-width lookbehind, scoped flags).

The fragments written out as regexes are data (`data/phi_fragments.jsonl`:
name, group, regex and why it looks the way it does); those built from word
lists (months, weekdays, holidays, number words, states, countries, job head
nouns) are built below. Dictionaries (state names, holidays) are package data.
"""
from functools import lru_cache
from typing import Any, Dict, Iterable, List, Mapping, Tuple

import regex

from ...data_files import DATA_DIR, read_jsonl
from ...surrogates import formats, lists
from ..shared_words import load_job_heads, role_words

STATES_FILE = DATA_DIR / "phi_us_states.jsonl"

_REFERENCE = regex.compile(r"\{([A-Z][A-Z0-9_]*)\}")


def _alternation(words: Iterable[str]) -> str:
    """The words as one group that prefers the longest ("West Virginia" over "Virginia").

    Written as a prefix tree ("(?:Ju(?:ly|ne)|...)" rather than
    "(?:July|June|...)"): at each position the `regex` engine then follows
    one branch per character instead of trying every word, which makes the
    month, weekday, state and country patterns scan several times faster.
    It matches what the longest-first list of words matches, in the same
    order of preference: a word that continues is tried before the word it
    continues (greedy `?`), and sibling branches start with different
    characters, so at most one of them applies (case-sensitively; the
    fragments are never used under `(?i)`).
    """
    tree: Dict[str, Any] = {}
    for word in set(words):
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[_WORD_END] = {}
    return "(?:" + _prefix_tree(tree) + ")"


_WORD_END = ""  # the key that marks a word ending at a node of the prefix tree


def _prefix_tree(node: Dict[str, Any]) -> str:
    branches = [regex.escape(char) + _prefix_tree(node[char]) for char in sorted(node) if char != _WORD_END]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if _WORD_END not in node:
        return body
    return ("(?:" + body + ")" if len(branches) == 1 else body) + "?"


def _title_and_upper(words: Iterable[str]) -> List[str]:
    """Notes write month and day names Capitalised or in CAPS headers ("JUN 03")."""
    return [form for word in words for form in (word, word.upper())]


# Country names that are also everyday English words ("turkey", "china").
COUNTRIES_AS_WORDS = frozenset({"turkey", "china", "jersey", "guinea", "chad", "reunion", "jordan", "niger"})


def _unambiguous_countries() -> List[str]:
    """Country names that are no first name ("Israel", "Kenya", "India"), no
    everyday word ("Turkey") and no US state ("Georgia"): those need more
    than the name alone."""
    first_names = {w.lower() for name in ("first_names_female.txt", "first_names_male.txt")
                   for w in lists.words(name)}
    states = {name.lower() for name, _ in us_states()}
    return [c for c in lists.words("countries.txt")
            if c.lower() not in first_names | states | COUNTRIES_AS_WORDS]


# Family and care roles end job titles too ("house father"), but after an age
# they say who the patient is, not what they do.
NOT_OCCUPATIONS = frozenset({"caregiver", "caretaker", "homemaker", "parent", "grandparent"})


def _job_heads() -> List[str]:
    """Job head nouns (`spacy-deid.JobHeadNouns.v1`: the last words of the shipped
    job titles) that are no family or care role."""
    relations = role_words("family", "safety_net")
    return [w for w in load_job_heads() if w not in relations and w not in NOT_OCCUPATIONS]


@lru_cache(maxsize=1)
def us_states() -> Tuple[Tuple[str, str], ...]:
    """(name, postal abbreviation) pairs from package data."""
    return tuple((row["name"], row["abbr"]) for row in read_jsonl(STATES_FILE, what="US states"))


# --- words -------------------------------------------------------------------
# Month, weekday and holiday names are kept once (surrogates.formats, the
# holidays list); the abbreviations add the spellings notes use.
MONTHS_FULL = tuple(formats.MONTHS)
MONTHS_ABBR = tuple(m[:3] for m in MONTHS_FULL if m != "May") + ("Sept",)
WEEKDAYS_FULL = tuple(formats.WEEKDAYS)
WEEKDAYS_ABBR = tuple(d[:3] for d in WEEKDAYS_FULL) + ("Tues", "Thur", "Thurs")
HOLIDAYS = lists.words("holidays.txt")
NUMBER_WORDS_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
NUMBER_WORDS_TEENS = (
    "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
    "seventeen", "eighteen", "nineteen",
)
NUMBER_WORDS_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
DECADE_WORDS = ("teens", "twenties", "thirties", "forties", "fifties", "sixties", "seventies",
                "eighties", "nineties")
# Full state names that are also common first names: they need a place cue
# ("in", "moved to", "City, ___").
STATE_NAMES_PERSON_LIKE = ("Georgia", "Virginia", "Indiana", "Montana", "Nevada")
# Full state names that more often name the city (or a person): they need a
# stronger cue ("City, ___", "state of ___", "___ State").
STATE_NAMES_CITY_LIKE = ("New York", "Washington")
# Postal codes that are also credentials after a name ("Jane Doe, MD", ", PA-C",
# ", MS"): after "City," they count only with a ZIP code following.
STATE_ABBRS_CREDENTIAL_LIKE = ("MD", "PA", "MS", "DE")
# Postal codes that are ordinary words or clinical abbreviations ("in OR", "in
# ME", "hx of MI", "CT scan", "VA clinic", "in LA" (a city), "under GA"): never
# taken after a bare preposition.
STATE_ABBRS_WORD_LIKE = (
    "IN", "OR", "ME", "OK", "HI", "OH", "PA", "MD", "MS", "CT", "VA", "LA", "CO",
    "DE", "ID", "MI", "CA", "SC", "AL", "GA",
)
# Postal codes that are never taken after a bare capitalised word (no comma):
# imaging, hospitals, credentials, identifiers, findings and words
# ("Head CT", "Boston VA", "Jane Roe MD", "Patient ID", "Breast CA",
# "Denies HI" (homicidal ideation), "feels OK", "Call ME", "Sign IN").
STATE_ABBRS_NOT_AFTER_BARE_NAME = (
    "CT", "VA", "MD", "PA", "MS", "DE", "ID", "CA", "HI", "OK", "ME", "IN",
)


def _state_names_upper() -> str:
    """State names in capitals, for notes written in CAPS ("LIVES IN OHIO")."""
    return _alternation(name.upper() for name, _ in us_states())


def _state_names(which: str) -> str:
    names = [name for name, _ in us_states()]
    ambiguous = set(STATE_NAMES_PERSON_LIKE) | set(STATE_NAMES_CITY_LIKE)
    if which == "plain":
        names = [n for n in names if n not in ambiguous]
    elif which == "person_like":
        names = [n for n in names if n in STATE_NAMES_PERSON_LIKE]
    elif which == "city_like":
        names = [n for n in names if n in STATE_NAMES_CITY_LIKE]
    return _alternation(names)


def _state_abbrs(exclude: Iterable[str] = ()) -> str:
    excluded = set(exclude)
    return _alternation(a for _, a in us_states() if a not in excluded)


def _number_word() -> str:
    """Number words 1-99 as ages are written ("eighty-one", "Twenty two")."""
    # Prefix trees of lower-case words under (?i): sibling branches start with
    # different letters in either case. Teens and units share one tree: the
    # closing (?![a-z]) lets at most one of "six"/"sixteen" match anywhere.
    units = _alternation(NUMBER_WORDS_UNITS)
    tens = _alternation(NUMBER_WORDS_TENS)
    teens_or_units = _alternation(NUMBER_WORDS_TEENS + NUMBER_WORDS_UNITS)
    return f"(?i:{tens}(?:[- ]{units})?|{teens_or_units})(?![a-z])"


# --- the fragments -------------------------------------------------------------
# name -> regex. Order does not matter; references are resolved by expand().
FRAGMENTS_FILE = DATA_DIR / "phi_fragments.jsonl"
_FRAGMENT_NAME = regex.compile(r"^[A-Z][A-Z0-9_]*$")


def _fragment_entry(entry: Any) -> Dict[str, Any]:
    if not isinstance(entry, dict) or not _FRAGMENT_NAME.match(str(entry.get("name", ""))):
        raise ValueError("expected an object with an UPPER_SNAKE_CASE 'name'")
    if not isinstance(entry.get("regex"), str):
        raise ValueError("'regex' must be a string")
    return entry


def _written_fragments() -> Dict[str, str]:
    """The fragments written out as regexes, each with why it looks the way it
    does (data/phi_fragments.jsonl: name, group, regex, why)."""
    entries = read_jsonl(FRAGMENTS_FILE, _fragment_entry, what="regex fragments")
    return {entry["name"]: entry["regex"] for entry in entries}


def _date_and_age_fragments() -> Dict[str, str]:
    """The fragments built from word lists: months, weekdays, holidays, number words."""
    return {
        "MONTH_FULL": _alternation(_title_and_upper(MONTHS_FULL)),
        # Abbreviated month, optional period; not the start of a longer word ("Marching").
        "MONTH_ABBR": _alternation(_title_and_upper(MONTHS_ABBR)) + r"\.?(?![A-Za-z])",
        # A weekday, singular or plural ("on Tuesdays").
        "WEEKDAY_FULL": _alternation(
            [f for w in WEEKDAYS_FULL for f in (w, w.upper(), w.lower())]
        ) + r"(?:s|S)?(?![A-Za-z])",
        "WEEKDAY_ABBR": _alternation(_title_and_upper(WEEKDAYS_ABBR)) + r"\.?(?![A-Za-z])",
        "HOLIDAY": _alternation(HOLIDAYS).replace("'", "['’]") + r"(?![A-Za-z])",
        # Words before a month, weekday-less date or season that make it a point in time.
        # (as a prefix tree: every use is followed by whitespace, so only a whole
        # word can match and the order of preference among the words is moot)
        "DATE_CUE": "(?i:"
        + _alternation(
            "in on since from until till til by during through thru to of early late mid last next "
            "this that around about before after starting started beginning began begins every "
            "each throughout over circa dated".split()
        )
        + r"|as\s+of)",
        "NUMBER_WORD": _number_word(),
        # Decades of life: "40s", "40's", "forties".
        "DECADE": r"(?:[1-9]0['’]?s(?![a-z])|(?i:" + "|".join(DECADE_WORDS) + r")(?![a-z]))",
    }


def _place_and_job_fragments() -> Dict[str, str]:
    """The fragments built from the state, country and job-title data."""
    return {
        # A capital may follow: a glued field label ("KentuckyFAMILY HX").
        "STATE_NAME_PLAIN": _state_names("plain") + r"(?![a-z])",
        # A job head noun, no family role ("teacher", "cataloger").
        "JOB_HEAD": _alternation(_job_heads()) + r"(?![A-Za-z\-])",
        # Countries (GeoNames, via the shipped countries.txt), the unambiguous ones.
        "COUNTRY_NAME": _alternation(_unambiguous_countries()),
        "STATE_NAME_PERSON_LIKE": _state_names("person_like") + r"(?![a-z])",
        "STATE_NAME_CITY_LIKE": _state_names("city_like") + r"(?![a-z])",
        "STATE_NAME": _state_names("all") + r"(?![a-z])",
        "STATE_NAME_UPPER": _state_names_upper() + r"(?![A-Za-z])",
        "STATE_ABBR": _state_abbrs() + r"(?![A-Za-z0-9\-])",
        "STATE_ABBR_AFTER_CITY": _state_abbrs(STATE_ABBRS_CREDENTIAL_LIKE) + r"(?![A-Za-z0-9\-])",
        "STATE_ABBR_CREDENTIAL_LIKE": _alternation(STATE_ABBRS_CREDENTIAL_LIKE) + r"(?![A-Za-z0-9\-])",
        "STATE_ABBR_IN_PROSE": _state_abbrs(STATE_ABBRS_WORD_LIKE) + r"(?![A-Za-z0-9\-])",
        "STATE_ABBR_AFTER_BARE_NAME": _state_abbrs(STATE_ABBRS_NOT_AFTER_BARE_NAME)
        + r"(?![A-Za-z0-9\-])",
    }


def _all_fragments() -> Dict[str, str]:
    fragments = _written_fragments()
    for built in (_date_and_age_fragments(), _place_and_job_fragments()):
        twice = sorted(set(fragments) & set(built))
        if twice:
            raise FragmentError(f"regex fragments defined twice: {twice}")
        fragments.update(built)
    return fragments


class FragmentError(ValueError):
    """A pattern refers to a fragment that does not exist, or fragments refer to each other in a loop."""


_FRAGMENTS: Dict[str, str] = _all_fragments()
FRAGMENTS: Mapping[str, str] = _FRAGMENTS


def expand(template: str, fragments: Mapping[str, str] = FRAGMENTS) -> str:
    """Replace every `{NAME}` in a pattern template by its fragment, recursively."""
    return _expand(template, fragments, ())


def _expand(template: str, fragments: Mapping[str, str], stack: Tuple[str, ...]) -> str:
    def substitute(match: "regex.Match[str]") -> str:
        name = match.group(1)
        if name not in fragments:
            raise FragmentError(f"unknown regex fragment {{{name}}}")
        if name in stack:
            raise FragmentError(f"regex fragment {{{name}}} refers to itself")
        return _expand(fragments[name], fragments, stack + (name,))

    return _REFERENCE.sub(substitute, template)
