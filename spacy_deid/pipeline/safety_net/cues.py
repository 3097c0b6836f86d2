"""The safety net's cue words, read once from `data/safety_net_cues.json`.

Lower-cased token texts. Why each list: the comment above it. The family
roles and credentials are shared with the reconciler (`shared_words`).
"""

import re
from typing import Dict, FrozenSet

import srsly

from ... import labels
from ...data_files import DATA_DIR
from ..shared_words import behaviour_heads, generic_job_heads, role_words

CUES_PATH = DATA_DIR / "safety_net_cues.json"
_CUES = srsly.read_json(CUES_PATH)


def _cue_list(name: str) -> FrozenSet[str]:
    return frozenset(_CUES[name])


# Contexts in which a capitalised word is a person's name far more often than not.
TITLES = _cue_list("titles")
DOCTOR_TITLES = _cue_list("doctor_titles")
RELATIONS = role_words("family", "safety_net")
# Words allowed between a relation word and the name ("her son, named Tom").
RELATION_GAP = _cue_list("relation_gap")
# Normalised attribute names (data/attribute_names.jsonl) whose values are names.
NAME_ATTRIBUTES = _cue_list("name_attributes")
DOCTOR_ATTRIBUTES = _cue_list("doctor_attributes")
# First word of a signature line.
SIGNATURE_STARTS = _cue_list("signature_starts")
# First words of a signature line that are verbs: the line is a signature only
# with "by" or ":" right after ("Reviewed by", "Signed:"), not "Reviewed risks".
SIGNATURE_VERBS = _cue_list("signature_verbs")
ID_CUES = _cue_list("id_cues")
ID_ATTRIBUTES = _cue_list("id_attributes")
# Sentence and line ends: a capitalised word after these is not evidence of a name.
SENTENCE_ENDS = _cue_list("sentence_ends")
# Credentials after a comma mark a signature line ("Ann Lee-Ray, MD"); the name
# is what comes before the first comma.
CREDENTIALS = role_words("credential", "safety_net")
# Words that join the parts of an institution's name ("Institute of Technology").
INSTITUTION_JOINERS = _cue_list("institution_joiners")
# Head words of institution names -> the label a name ending in them gets. A
# capitalised run with a head on one line is a name ("Quorvale County Family
# Court", "ANXIETY DISORDERS TEAM", "Department of Psychiatry"); without a head, it
# needs an institution word and a rare word ("Quarrytown VA Medical"), else it
# is a heading ("Psychiatric Evaluation").
INSTITUTION_HEADS: Dict[str, str] = {
    word: label for label, words in _CUES["institution_heads"].items() for word in words
}
# Labels of entities whose capitalised neighbours on the line are part of the name.
INSTITUTION_LABELS = frozenset(
    {labels.HOSPITAL, labels.DEPARTMENT, labels.ORGANIZATION, labels.LOCATION_OTHER}
)
# Entities an institution's name may contain: places and institutions.
RUN_THROUGH_LABELS = INSTITUTION_LABELS | {labels.CITY, labels.STATE, labels.COUNTRY, labels.STREET}
# Heads that name an institution on their own ("joined the Army").
SINGLE_HEADS = _cue_list("single_heads")
# First words of attribute names with a head word ("Date of Service", "Level of care").
ATTRIBUTE_STARTS = _cue_list("attribute_starts")
# Words after a capitalised word that make it an eponym, not a person
# ("Cushing's syndrome", "Lewy body dementia", "Babinski sign").
EPONYM_NOUNS = _cue_list("eponym_nouns")
# Words just before an occupation ("is a", "works as", "retired", "(44, ",
# "47 yo married attending anesthesiologist").
OCCUPATION_CUES = _cue_list("occupation_cues")
# "a"/"an" is an occupation cue only after one of COPULAS ("she is a teacher",
# "his wife, a teacher"), not after "has a lawyer", "saw a counselor".
ARTICLE_CUES = _cue_list("article_cues")
COPULAS = _cue_list("copulas")
# Plural subjects before "are" ("parents are welders").
PLURAL_COPULAS = _cue_list("plural_copulas")
# Head nouns of the job-title lists that are no evidence of an occupation, and
# behaviours, not jobs ("former pipe smoker", "is a runner").
GENERIC_JOB_HEADS = generic_job_heads()
BEHAVIOUR_HEADS = behaviour_heads()
# Job titles have a few modifiers ("retired furniture upholsterer").
MAX_JOB_MODIFIERS = 3
# Units after a number that make it a quantity, not a room ("bed 10 hours").
QUANTITY_WORDS = _cue_list("quantity_words")
# Shapes that are codes, not identifiers: ICD-10 codes ("F43.21", "F34.1").
NOT_AN_ID = re.compile(r"^[A-TV-Z][0-9][0-9AB](\.[0-9A-TV-Z]{1,4})?$")
# The country the notes are written in names no one ("came to the United States").
HOME_COUNTRY = _cue_list("home_country")
QUOTES = _cue_list("quotes")
# Words after which a short run of capitals is a person's initials.
INITIALS_CUES = _cue_list("initials_cues")
# Words before a room or bed number ("bed 12-3", "Ward 4C", "room 214").
ROOM_CUES = _cue_list("room_cues")
# Charting-style cues (charting.py). Verbs before "in <town>" ("lives alone in ...").
RESIDENCE_VERBS = _cue_list("residence_verbs")
# A patient called out or moved to or from a place ("c/o to <ward>", "admitted
# from <town>"; the moves of the PHI patterns' TRANSFER_CUE).
CALL_OUT_CUES = _cue_list("call_out_cues")
# Words after a number opening a line that make it an age ("93 s/p fall").
HISTORY_CUES = _cue_list("history_cues")
# A place name after "in" or "to" never starts with these ("in a home", "to her room").
DETERMINERS = _cue_list("determiners")
# Role abbreviations a clinician's surname follows in one-case notes ("W/MD QUENNELL");
# the reconciler's pattern `clinician-after-role-one-case` reads the same ones.
ROLE_ABBREVIATIONS = _cue_list("role_abbreviations")
# Names joined to a titled name ("<name> AND DRS <name>"): the joining words
# and the titles (plurals too) after them.
COORDINATORS = _cue_list("coordinators")
COORDINATED_TITLES = _cue_list("coordinated_titles")
# Words that end a place name's run ("in <town> with her son", "to <ward> tomorrow");
# spaCy's English stop words end it too.
PLACE_RUN_STOPS = _cue_list("place_run_stops")
# The cue words themselves are never part of a name.
CUE_WORDS = TITLES | RELATIONS | SIGNATURE_STARTS | ID_CUES | CREDENTIALS
# Never part of an institution's name ("N. Crowder, PsyD and X Hospital", "Unit No").
NOT_IN_NAMES = TITLES | ID_CUES | CREDENTIALS | _cue_list("more_credentials_not_in_names")
