"""Named regex fragments that the PHI patterns (spacy_deid/data/phi_patterns_*.jsonl) are built from.

A pattern writes `{NAME}` where it needs a fragment; `expand()` substitutes the
fragments (recursively) before the pattern is compiled, once, by the
`deid_phi_rules` component. Fragment names are UPPER_SNAKE_CASE, so they never
collide with regex quantifiers such as `\\d{3}` or `{1,2}`. The patterns are
compiled with the `regex` package (variable-width lookbehind, scoped flags).

Each fragment says in a comment why it looks the way it does. Dictionaries
(state names, holidays) are package data.
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
_FRAGMENTS: Dict[str, str] = {
    # ---- boundaries
    # A number starts here: not glued to a word, another number, a decimal or
    # fraction part, a currency sign, a hash or a hyphen ("HU2096" is no year).
    "NUM_START": r"(?<![\w.,/#$+\-–])",
    # A number ends here: no more digits, decimal part, fraction or hyphenated
    # continuation. Letters may follow: EHR exports glue fields ("2073Age").
    "NUM_END": r"(?!\d|[.,/:]\d|[-–]\d)",
    # A word starts here (letters only; digits may be glued before a field name).
    "WORD_START": r"(?<![A-Za-z])",
    # ---- dates
    "MONTH_FULL": _alternation(_title_and_upper(MONTHS_FULL)),
    # Abbreviated month, optional period; not the start of a longer word ("Marching").
    "MONTH_ABBR": _alternation(_title_and_upper(MONTHS_ABBR)) + r"\.?(?![A-Za-z])",
    "MONTH": r"(?:{MONTH_FULL}(?![A-Za-z])|{MONTH_ABBR})",
    # Day of month 1-31, leading zero allowed.
    "DAY": r"(?:0?[1-9]|[12]\d|3[01])",
    # Day with an optional ordinal suffix ("3rd").
    "DAY_ORD": r"(?:{DAY}(?i:st|nd|rd|th)?)",
    # Month number 1-12 (US order: month first).
    "MONTH_NUM": r"(?:0?[1-9]|1[0-2])",
    # Four-digit years 1900-2199: i2b2-style corpora shift dates into the
    # 2000s/2100s; 4-digit numbers outside this range are doses, counts, codes.
    "YEAR4": r"(?:19|20|21)\d\d",
    # Year after a numeric month/day: four digits or two.
    "YEAR_NUMERIC": r"(?:{YEAR4}|\d\d)",
    # A date may be glued to a following clock time in EHR exports ("...2062" "03:15").
    "GLUED_TIME": r"(?=\d{1,2}:\d\d)",
    # A weekday, singular or plural ("on Tuesdays").
    "WEEKDAY_FULL": _alternation(
        [f for w in WEEKDAYS_FULL for f in (w, w.upper(), w.lower())]
    ) + r"(?:s|S)?(?![A-Za-z])",
    "WEEKDAY_ABBR": _alternation(_title_and_upper(WEEKDAYS_ABBR)) + r"\.?(?![A-Za-z])",
    "HOLIDAY": _alternation(HOLIDAYS).replace("'", "['’]") + r"(?![A-Za-z])",
    # Seasons; "fall" is kept apart because it is also an event ("a fall at home").
    "SEASON": r"(?i:spring|summer|winter|autumn)(?![a-z])",
    "SEASON_ANY": r"(?i:spring|summer|winter|autumn|fall)(?![a-z])",
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
    # Hedges between a cue and the date ("since about March", "around ~May").
    "DATE_HEDGE": r"(?:(?i:about|around|approximately|approx\.?|roughly|~|mid-?)\s*)",
    # Words after a number that make it a quantity, not a year.
    "UNIT_WORD": (
        r"(?i:mg|mcg|µg|ug|g|gm|grams?|kg|lbs?|pounds|ml|cc|l|units?|iu|calories|kcal|cal|"
        r"steps|ft|feet|miles?|km|meters?|m|hours?|hrs?|h|mmhg|cells|copies|ng|pg|meq|mmol|"
        r"dollars|usd|words|points|pts|patients|people|members|students|times|minutes|mins?|"
        r"seconds|secs?|x|ms|bpm|%)(?![A-Za-z])"
    ),
    # Words right before a month/day ("last filled 9/12", "Next appt: 4/3").
    "DATE_CUE_MD": (
        r"(?i:last|recently|seen|filled|refilled|appointment|appt|visit|use|used|drink|sober|"
        r"dated|next|follow-?up|f/u|rtc|return|returns|due|discharged|admitted|started|stopped|"
        r"quit|effective|date)"
    ),
    # Not right after a name or a title: weekday and month names are also
    # first names and surnames ("Penelope Sunday", "Dr June Roe"). Sentence-initial
    # prepositions are fine.
    "NOT_IN_NAME": (
        r"(?:(?<=(?<![A-Za-z])(?:In|On|Every|Each|Last|Next|This|By|Until|Since|Through|Before|"
        r"After|Over|During|From|Till|Around|Early|Late|Mid)\s)|(?<![A-Z][a-z][A-Za-z'\-]*\s))"
        r"(?<!(?:Dr|Mr|Ms|Mrs|Miss|Mx|Prof)\.?\s)"
    ),
    # Not followed by a surname ("Sunday Allison"); a following title-case
    # word that starts a date ("Sunday, June 19") is matched by longer patterns.
    "NOT_BEFORE_NAME": r"(?![ \t]+[A-Z][a-z])",
    # Rooms, wards and numbered things: a following 4-digit number is no year.
    "NUMBERED_THING": (
        r"(?i:room|rm|ward|unit|bed|suite|ste|apt|apartment|floor|building|bldg|ext|extension|"
        r"box|route|rte|no|number|#)\.?\s*"
    ),
    # ---- ages
    "NUMBER_WORD": _number_word(),
    # Age as a number (0-119) or in words.
    "AGE_NUM": r"(?:{NUM_START}(?:1[01]\d|\d{1,2}){NUM_END}|{NUMBER_WORD})",
    # Decades of life: "40s", "40's", "forties".
    "DECADE": r"(?:[1-9]0['’]?s(?![a-z])|(?i:" + "|".join(DECADE_WORDS) + r")(?![a-z]))",
    # "-year-old", " years old", " yo", "y/o", "y.o.", " yr old".
    "YEARS_OLD": (
        r"(?:\s?[-–]?\s?(?i:years?|yrs?\.?|yr\.?)\s?[-–]?\s?(?i:old)(?![a-z])"
        r"|\s?[-–]?\s?(?i:y/o|y\.\s?o\.?|yo)(?![a-z]))"
    ),
    # What may follow a bare age number ("at 15,", "at 15 after...", "was ten when").
    "AGE_FOLLOW": (
        r"(?=\s*(?:[,;()\]\n]|\.(?!\d)|$)"
        r"|\s+(?i:by|after|and|when|with|in|from|for|but|while|until|due|because|following|"
        r"he|she|they|then|as|at|per|years?|yrs?|y/o|yo|or|before)(?![a-z]))"
    ),
    # Verbs and nouns after which "at 7" is a clock time, not an age.
    "TIME_CONTEXT": (
        r"(?<![A-Za-z])(?i:wakes?|woke|waking|awake|asleep|sleeps?|slept|bed|bedtime|up|rises?|arrives?|"
        r"arrived|leaves?|left|starts?|started|ends?|ended|home|work|school|dinner|lunch|"
        r"breakfast|meds?|dose|doses|class|shift|appointment|visit|session|noon|night|pm|am)"
    ),
    # Family members and other people whose age a note gives.
    "RELATIVE": (
        r"(?i:mother|father|mom|dad|sister|brother|son|daughter|husband|wife|partner|boyfriend|"
        r"girlfriend|fianc[eé]e?|spouse|aunt|uncle|cousin|niece|nephew|grandmother|grandfather|"
        r"grandson|granddaughter|grandparent|step-?father|step-?mother|step-?son|step-?daughter|"
        r"step-?brother|step-?sister|half-?brother|half-?sister|half-?sibling|sibling|child|kid|"
        r"baby|friend|roommate|neighbou?r|guardian|twin)s?(?![a-z])"
    ),
    # A bare age: 0-119 in digits, or in words.
    "AGE_BARE": r"(?:{NUM_START}(?:1[01]\d|\d{1,2})(?![\d]|[.,/:]\d)|{NUMBER_WORD})",
    # ---- contact
    # Separator inside a phone number.
    "PHONE_SEP": r"[ .\-–]",
    # The 10-digit NANP body: "(692) 673 3025", "692-673-3025", "692.673.3025",
    # and the glued "692673-3025".
    "PHONE_BODY": (
        r"(?:\(\d{3}\)\s?\d{3}{PHONE_SEP}?\d{4}"
        r"|\d{3}{PHONE_SEP}\d{3}{PHONE_SEP}\d{4}"
        r"|\d{6}[\-–]\d{4})"
    ),
    # Country code: "+1 ", "1-".
    "PHONE_COUNTRY": r"(?:\+?1{PHONE_SEP}?)",
    # Extension: " x402", ", x 549", " ext. 12".
    "PHONE_EXT": r"(?:\s?,?\s?(?i:x|ext\.?|extension)\s?\.?\s?\d{1,5}(?!\d))",
    "PHONE_NUMBER": r"(?:{NUM_START}{PHONE_COUNTRY}?{PHONE_BODY}{PHONE_EXT}?(?![\d\-]))",
    # Words that introduce a phone number written without separators.
    "PHONE_CUE": (
        r"(?i:phone|ph|tel|telephone|cell|mobile|call|contact|reached\s+at|home|work|"
        r"office|number|callback|pager|text|line|hotline)"
    ),
    "TLD_LOWER": (
        r"(?:com|org|net|edu|gov|mil|io|us|info|biz|art|co|me|health|app|ly|tv|uk|ca|int|"
        r"care|clinic|online|site|xyz)"
    ),
    # Top-level domain of an e-mail: lower case unless the whole address is in caps;
    # a capital right after it is a glued field name ("...eduCell:").
    "EMAIL_TLD": r"(?:[a-z]{2,24}(?![a-z])|[A-Z]{2,24}(?![A-Za-z]))",
    "EMAIL_ADDRESS": r"(?<![\w.%+\-])[^\W_][\w.%+\-]*@(?:[A-Za-z0-9\-]+\.)+{EMAIL_TLD}",
    # A URL path, taken as short as possible up to the end of the URL: before
    # sentence punctuation and a space, or before a capitalised field label
    # glued on by an EHR export ("/v/8KQ2-77TDSession IP").
    "URL_PATH": (
        r"(?:/[\w\-./?=&%#~+:@]*?(?<![.,;:!?])"
        r"(?=[.,;:!?)\]}'\"]*(?:\s|$|[<>()])|(?<=[A-Z0-9])[A-Z][a-z]{2,}(?:\s|:|$)))"
    ),
    "OCTET": r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)",
    # ---- identifiers
    # An identifier value: capitals, digits and inner hyphens, at least 3
    # digits. It ends before a glued field name ("8810245DOB:", "...284Age").
    "ID_VALUE": (
        r"(?:(?<![A-Za-z0-9\-])(?=(?:[A-Z\-]*\d){3})[A-Z0-9]+(?:-[A-Z0-9]+)*"
        r"(?:(?<=\d)(?=[A-Z][A-Za-z]*:|[A-Z][a-z])|(?![A-Za-z0-9:])))"
    ),
    # "number", "no.", "#", "ID" after the name of an identifier.
    "ID_WORD": r"(?:\s*(?i:numbers?|nums?|nos?\.?|#s?|ids?)(?![a-z]))",
    # Between an identifier's name and its value.
    "ID_SEP": r"(?:\s*(?:[:#=.]|\s-)?\s*(?:(?i:is)\s+)?)",
    # ---- locations
    # A capital may follow: a glued field label ("KentuckyFAMILY HX").
    "STATE_NAME_PLAIN": _state_names("plain") + r"(?![a-z])",
    # ---- occupations: a job head noun, no family role ("teacher", "cataloger")
    "JOB_HEAD": _alternation(_job_heads()) + r"(?![A-Za-z\-])",
    # ---- countries (GeoNames, via the shipped countries.txt), the unambiguous ones
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
    # A place name in capitals before a postal code ("LAREDO TX").
    "CITY_WORDS_UPPER": r"(?:[A-Z]{3,}(?:[ \-][A-Z]{2,}){0,2})",
    # A place name before ", ST": one to three capitalised words.
    "CITY_WORDS": r"(?:[A-Z][a-z]+(?:[ \-](?:[A-Z][a-z]+)){0,2})",
    # After a state: a ZIP, sentence punctuation, a bracket, end of line or a lower-case word.
    "AFTER_STATE": r"(?=\s{1,2}\d{5}(?!\d)|\s*[.,;:)\]|/]|[ \t]*(?:\r?\n|$)|\s+[a-z(])",
    # Not the state part of a credential list ("Jane Doe, MA, LMHC").
    "NOT_CREDENTIALS": r"(?!\s*,\s*(?:[A-Z]{2,6}(?![a-z])|Ph\.?D|Psy\.?D|Ed\.?D))",
    "ZIP_CODE": r"(?:\d{5}(?:-\d{4})?(?![\d\-]))",
    # Street suffixes written out; strong enough to name a street without a number.
    "STREET_SUFFIX_STRONG": (
        r"(?:Street|Avenue|Road|Boulevard|Drive|Lane|Parkway|Highway|Terrace|Turnpike)"
    ),
    "STREET_SUFFIX_FULL": (
        r"(?:Street|Avenue|Road|Drive|Lane|Boulevard|Court|Place|Way|Terrace|Circle|Parkway|"
        r"Highway|Square|Trail|Path|Row|Alley|Bend|Crossing|Loop|Pike|Turnpike|Plaza|Run|"
        r"Walk|Ridge|Point|Hollow|Grove|Glen|Heights|Hill|Park|Landing|Commons|Crescent|"
        r"Expressway|Gardens|Green|Harbor|Manor|Meadow|Pass|Pines|Shore|Summit|Trace|View|"
        r"Vista|Woods)(?![A-Za-z])"
    ),
    # Abbreviated suffixes, with their period (part of the abbreviation).
    "STREET_SUFFIX_ABBR": (
        r"(?:St|Ave|Av|Rd|Dr|Ln|Blvd|Ct|Pl|Ter|Cir|Pkwy|Hwy|Sq|Trl)(?![A-Za-z])\.?"
    ),
    # Street name words: capitalised words or ordinals ("5th").
    "STREET_NAME": (
        r"(?:(?:[NSEW]\.?\s)?(?:[A-Z][a-z]+|\d+(?:st|nd|rd|th))"
        r"(?:[ \-](?:[A-Z][a-z]+|\d+(?:st|nd|rd|th))){0,2})"
    ),
    # Unit after a street address: ", Apt 7F", " Suite 200", " #3".
    "STREET_UNIT": r"(?:,?\s(?:Apt|Apartment|Unit|Suite|Ste|Fl|Floor|#)\.?\s?#?[A-Z0-9\-]{1,6}(?![A-Za-z0-9]))",
}

FRAGMENTS: Mapping[str, str] = _FRAGMENTS


class FragmentError(ValueError):
    """A pattern refers to a fragment that does not exist, or fragments refer to each other in a loop."""


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
