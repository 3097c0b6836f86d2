"""Word lists that more than one component reads, kept once as data.

- Role words (`data/role_words.jsonl`): family roles ("son", "sister"), the
  words a note calls the patient by ("pt") and credentials ("md", "lcsw").
  One line per word says which components use it (`used_by`): the
  reconciler's `family_role_cues`/`patient_cues`/`credential_cues` and the
  safety net's relation and credential cues are the same words, with a few
  each component reads and the other does not (each keeps its own set).
  The patient's words are apart from the family roles because they are no
  evidence that a word near them is a name: a nursing note opens sentence
  after sentence with "Pt" ("Pt tired. Ambulated to chair.").
- Job head nouns (`spacy-deid.JobHeadNouns.v1`): the last words of the shipped
  job titles, picked by the rules in `data/job_heads.json`; read by the
  safety net (occupations) and the rule tagger (ages before an occupation).
"""
from collections import Counter
from functools import lru_cache
from typing import Any, Dict, FrozenSet, List

import srsly
from spacy.util import registry

from ..data_files import DATA_DIR, read_jsonl
from ..surrogates import lists

ROLE_WORDS_PATH = DATA_DIR / "role_words.jsonl"
RECONCILER_LISTS_PATH = DATA_DIR / "reconciler_lists.json"
JOB_HEADS_PATH = DATA_DIR / "job_heads.json"
ROLES = ("family", "patient", "credential")
USERS = ("reconciler", "safety_net")


def _role_word(entry: Any) -> Dict[str, Any]:
    if not isinstance(entry, dict) or not isinstance(entry.get("word"), str) or not entry["word"]:
        raise ValueError("expected an object with a non-empty 'word'")
    if entry.get("role") not in ROLES:
        raise ValueError(f"'role' must be one of {ROLES}")
    used_by = entry.get("used_by")
    if not isinstance(used_by, list) or not used_by or not set(used_by) <= set(USERS):
        raise ValueError(f"'used_by' must be a non-empty list of {USERS}")
    return entry


@lru_cache(maxsize=None)
def role_words(role: str, used_by: str) -> FrozenSet[str]:
    """The lower-case words of `role` ("family", "patient", "credential") that `used_by`
    ("reconciler", "safety_net") reads."""
    if role not in ROLES or used_by not in USERS:
        raise ValueError(f"role must be one of {ROLES} and used_by one of {USERS}")
    entries = read_jsonl(ROLE_WORDS_PATH, _role_word, what="role words")
    return frozenset(
        e["word"].lower() for e in entries if e["role"] == role and used_by in e["used_by"]
    )


@lru_cache(maxsize=1)
def job_head_rules() -> Dict[str, Any]:
    """The settings and word lists of `data/job_heads.json`."""
    return srsly.read_json(JOB_HEADS_PATH)


def generic_job_heads() -> FrozenSet[str]:
    """Head nouns of job titles that are no evidence of an occupation ("member")."""
    return frozenset(job_head_rules()["generic_heads"])


def behaviour_heads() -> FrozenSet[str]:
    """Agent nouns that name a behaviour, not a job ("smoker", "runner")."""
    return frozenset(job_head_rules()["behaviour_heads"])


@registry.misc("spacy-deid.JobHeadNouns.v1")
def load_job_heads() -> List[str]:
    """Head nouns of the shipped job-title lists (find-job-titles, BLS occupations):
    last words of at least `min_titles` titles with an agent-noun ending, or of
    any title with a strong one ("upholsterer"); no generic or -ment words."""
    rules = job_head_rules()
    suffixes, rare_suffixes = tuple(rules["suffixes"]), tuple(rules["rare_suffixes"])
    excluded = generic_job_heads() | behaviour_heads()
    counts: Counter = Counter()
    for title in lists.words("job_titles.txt") + lists.words("professions.txt"):
        last = title.split()[-1].lower()
        if last.isalpha() and len(last) >= rules["min_length"]:
            counts[last] += 1
    return sorted(
        word
        for word, n in counts.items()
        if word not in excluded
        and not word.endswith("ment")
        and (
            (n >= rules["min_titles"] and word.endswith(suffixes))
            or (len(word) >= rules["min_rare_length"] and word.endswith(rare_suffixes))
        )
    )


@lru_cache(maxsize=None)
def reconciler_list(name: str) -> FrozenSet[str]:
    """One lower-case word list of `data/reconciler_lists.json` that another
    component reads too (the safety net's call-outs read `care_settings`)."""
    lists_by_name = srsly.read_json(RECONCILER_LISTS_PATH)
    if name not in lists_by_name or name.startswith("_"):
        raise ValueError(f"{RECONCILER_LISTS_PATH.name} has no list {name!r}")
    return frozenset(str(word).lower() for word in lists_by_name[name])
