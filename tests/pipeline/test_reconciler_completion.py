"""Span completion (the reconciler's `complete` step): table tests, positive
and negative, through the deid_reconciler component."""
import pytest
import spacy
from spacy.tokens import Span

from spacy_deid import labels
from spacy_deid.pipeline.reconciler.completion import complete_mentions  # noqa: F401 (public step)

# A small lexicon: places, occupations (the lexicon-guarded growths read it).
LEXICONS = {
    "COUNTRY": ["Bosnia and Herzegovina", "Trinidad and Tobago"],
    "CITY": ["Boston", "Chicago"],
    "LAST": ["Stone"],
    "JOB": ["medical equipment sales representative", "sales representative",
            "middle school guidance counselor", "associate program director"],
}
ONLY_COMPLETE = {"merge": False, "correct": False, "reconcile": False, "propagate": False,
                 "complete": True}


def make_nlp(complete=True):
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons=LEXICONS, frequencies={})
    nlp.add_pipe("deid_reconciler", config=dict(ONLY_COMPLETE, complete=complete)).initialize()
    return nlp


def run(nlp, text, ner):
    """Entities after the reconciler, given NER spans as (substring, label, nth)."""
    doc = nlp.get_pipe("deid_lexicon")(nlp.make_doc(text))
    spans = []
    for item in ner:
        piece, label = item[0], item[1]
        nth = item[2] if len(item) > 2 else 0
        start = -1
        for _ in range(nth + 1):
            start = text.index(piece, start + 1)
        span = doc.char_span(start, start + len(piece), label=label)
        assert span is not None
        spans.append(span)
    doc.ents = spans
    doc = nlp.get_pipe("deid_reconciler")(doc)
    return [(ent.text, ent.label_) for ent in doc.ents]


P, D, O, H, C, PR, DE = (labels.PATIENT, labels.DOCTOR, labels.ORGANIZATION, labels.HOSPITAL,
                         labels.COUNTRY, labels.PROFESSION, labels.DEPARTMENT)

CASES = [
    # name_hyphen
    ("Seen with Dr. Okafor-Lindgren today.", [("Okafor", D)], [("Okafor-Lindgren", D)]),
    ("Seen with Dr. Okafor-Lindgren today.", [("Lindgren", D)], [("Okafor-Lindgren", D)]),
    ("Her father, Omar al-Rashid, called.", [("Rashid", P)], [("al-Rashid", P)]),
    ("Garcia-Lopez-Ruiz was admitted.", [("Garcia", P)], [("Garcia-Lopez-Ruiz", P)]),
    # negatives: a lower-case piece is no name; a spaced hyphen is a dash
    ("History of Parkinson-like tremor.", [("Parkinson", P)], [("Parkinson", P)]),
    ("Met Smith - Jones was absent.", [("Smith", P)], [("Smith", P)]),
    # trim_english: in a note typed in one case, trailing English words are the sentence
    ("SEEN BY DR. FORMBY AWARE OF PLAN.", [("FORMBY AWARE", D)], [("FORMBY", D)]),
    ("DR QUENNELL PRONOUNCED AT NOON.", [("QUENNELL PRONOUNCED", D)], [("QUENNELL", D)]),
    ("pt seen by dr quennell today, aware.", [("quennell today", D)], [("quennell", D)]),
    # negatives: an initial, a surname the lists know, one word, a note in mixed case
    ("CC: QUENNELL, ABEL T MD", [("QUENNELL, ABEL T", D)], [("QUENNELL, ABEL T", D)]),
    ("SEEN BY DR. ABEL STONE TODAY.", [("ABEL STONE", D)], [("ABEL STONE", D)]),
    ("PT SEEN BY DR. WELL.", [("WELL", D)], [("WELL", D)]),
    ("Seen by Dr. Formby Aware today.", [("Formby Aware", D)], [("Formby Aware", D)]),
    # last_comma_first
    ("Signed: Smith, John\nDate: today", [("Smith", D)], [("Smith, John", D)]),
    ("Smith, John, MD\nAttending", [("Smith", D)], [("Smith, John", D)]),
    ("Smith, John MD", [("Smith", D)], [("Smith, John", D)]),
    ("Brown, Maria L\nnext line", [("Brown", P)], [("Brown, Maria L", P)]),
    # negatives: a sentence going on after the comma, a lower-case word
    ("Smith, Jones and others came to the meeting.", [("Smith", P)], [("Smith", P)]),
    ("Smith, however, refused.", [("Smith", P)], [("Smith", P)]),
    # inner_word
    ("Referred to the Office on Aging for support.", [("Office", O)], [("Office on Aging", O)]),
    ("Works at Smith & Rowe LLP downtown.", [("Smith", O)], [("Smith & Rowe LLP", O)]),
    ("Member of the Board of Health since May.", [("Board", O)], [("Board of Health", O)]),
    # negatives: nothing capitalised after the word; a person's name is not grown
    ("Called the Office on behalf of her son.", [("Office", O)], [("Office", O)]),
    ("Smith of Boston called.", [("Smith", P)], [("Smith", P)]),
    # places joined by "and": one place only if the lexicon says so
    ("Born in Bosnia and Herzegovina in 1990.", [("Bosnia", C), ("Herzegovina", C)],
     [("Bosnia and Herzegovina", C)]),
    ("Lived in Boston and Chicago.", [("Boston", labels.CITY), ("Chicago", labels.CITY)],
     [("Boston", labels.CITY), ("Chicago", labels.CITY)]),
    # job_phrase
    ("She is a medical equipment sales representative now.", [("sales representative", PR)],
     [("medical equipment sales representative", PR)]),
    ("Father is a middle school guidance counselor.", [("guidance counselor", PR)],
     [("middle school guidance counselor", PR)]),
    # negative: words outside the occupation title stay out
    ("Good sales representative skills.", [("sales representative", PR)],
     [("sales representative", PR)]),
    # inner_word to the left, hyphenated institution and place names
    ("Seen in the Gender and Sexuality Health Program today.", [("Sexuality Health Program", DE)],
     [("Gender and Sexuality Health Program", DE)]),
    ("MOOD AND ANXIETY CLINIC\nIntake", [("ANXIETY CLINIC", DE)], [("MOOD AND ANXIETY CLINIC", DE)]),
    # over "for" to the right only in a note written in mixed case
    ("PT TRANSFERRED TO KMH FOR CATH TODAY", [("KMH", H)], [("KMH", H)]),
    ("Transferred to Hospital for Special Surgery today", [("Hospital", H)], [("Hospital for Special Surgery", H)]),
    ("Born at Brigham and Women's Hospital.", [("Women's Hospital", H)], [("Brigham and Women's Hospital", H)]),
    ("Insured by Tri-County Health Alliance.", [("County Health Alliance", O)], [("Tri-County Health Alliance", O)]),
    ("Moved to Winston-Salem in May.", [("Salem", labels.CITY)], [("Winston-Salem", labels.CITY)]),
    # negatives: a person's name before "and" is no part of it; lower-case words; a hyphen to a lower-case word
    ("Seen by Dr. Lee and Mercy Hospital staff.", [("Lee", D), ("Mercy Hospital", H)],
     [("Lee", D), ("Mercy Hospital", H)]),
    ("Calls her mom and Mercy Hospital daily.", [("Mercy Hospital", H)], [("Mercy Hospital", H)]),
    ("A Boston-based firm.", [("Boston", labels.CITY)], [("Boston", labels.CITY)]),
    # trim_lowercase: trailing lower-case words describe an institution, they are not its name
    ("Saw a therapist at Harlow University counseling center in May.",
     [("Harlow University counseling center", O)], [("Harlow University", O)]),
    ("Call Northgate Trust Bank fraud department today.", [("Northgate Trust Bank fraud department", O)],
     [("Northgate Trust Bank", O)]),
    # ... and an occupation title among them becomes the PROFESSION
    ("Works at Mount Alder Hospital and associate program director there.",
     [("Mount Alder Hospital and associate program director", H)],
     [("Mount Alder Hospital", H), ("associate program director", PR)]),
    # negatives: a name ending in a capitalised word; a note typed all in lower case
    ("Attends Our Lady of Hope Church weekly.", [("Our Lady of Hope Church", O)],
     [("Our Lady of Hope Church", O)]),
    ("saw a therapist at harlow university counseling center in may",
     [("harlow university counseling center", O)], [("harlow university counseling center", O)]),
    # ... nor a hospital's own name word typed in lower case
    ("Pt transferred from Saint Abel memorial today.", [("Saint Abel memorial", H)],
     [("Saint Abel memorial", H)]),
    ("Pt transferred from Okeby general this am.", [("Okeby general", H)], [("Okeby general", H)]),
    # trim_stop_word: a place's or an institution's name ends in no function word, in any case
    ("AIRLIFTED TO OKEBY MEMORIAL WHERE HE WAS CATHED.", [("OKEBY MEMORIAL WHERE", DE)], [("OKEBY MEMORIAL", DE)]),
    ("Moved to Wendlock Vale with her son.", [("Wendlock Vale with", labels.LOCATION_OTHER)],
     [("Wendlock Vale", labels.LOCATION_OTHER)]),
    ("Niece flies home to Okeby tonight.", [("Okeby tonight", labels.CITY)], [("Okeby", labels.CITY)]),
    # negatives: a postal code in capitals, a piece glued to the word before, a person
    ("LIVES IN OKEBY FALLS ME NOW.", [("OKEBY FALLS ME", labels.CITY)], [("OKEBY FALLS ME", labels.CITY)]),
    ("Lives at the Wendlock's now.", [("Wendlock's", labels.LOCATION_OTHER)], [("Wendlock's", labels.LOCATION_OTHER)]),
    ("Seen with Abel Will today.", [("Abel Will", P)], [("Abel Will", P)]),
    # hospital_department: "<Hospital> <Department>" on one line
    ("Ashby Hospital Sleep Medicine\nRecord date: today", [("Ashby Hospital Sleep Medicine", H)],
     [("Ashby Hospital", H), ("Sleep Medicine", DE)]),
    ("Seen at Saint Brigid's Medical Center Urology Clinic.", [("Saint Brigid's Medical Center Urology Clinic", H)],
     [("Saint Brigid's Medical Center", H), ("Urology Clinic", DE)]),
    # negatives: the head word ends the name; a name that starts with it
    ("Admitted to Boston Children's Hospital yesterday.", [("Boston Children's Hospital", H)],
     [("Boston Children's Hospital", H)]),
    ("Transferred from Hospital Sant Pau Barcelona.", [("Hospital Sant Pau Barcelona", H)],
     [("Hospital Sant Pau Barcelona", H)]),
    ("Seen at Grand River Health Center today.", [("Grand River Health Center", H)],
     [("Grand River Health Center", H)]),
    # nickname: a name with a nickname in quotes is one mention
    ('Her son Dario "Dee" Kowalczyk visits.', [("Dario", P), ("Dee", P), ("Kowalczyk", P)],
     [('Dario "Dee" Kowalczyk', P)]),
    ('Her son Dario "Dee" Kowalczyk visits.', [("Dario", P), ("Kowalczyk", P)],
     [('Dario "Dee" Kowalczyk', P)]),
    ("Friend Amara \u201cMimi\u201d Osei called.", [("Amara", P), ("Osei", P)],
     [("Amara \u201cMimi\u201d Osei", P)]),
    # negatives: a lower-case quote, a quote not followed by a name, a spaced quote
    ('Told Dario "stop" Kowalczyk said.', [("Dario", P), ("Kowalczyk", P)], [("Dario", P), ("Kowalczyk", P)]),
    ('Asked Dario "Why" and left.', [("Dario", P)], [("Dario", P)]),
    ('Dario " Dee " Kowalczyk', [("Dario", P), ("Kowalczyk", P)], [("Dario", P), ("Kowalczyk", P)]),
    # trim_title: a title or role word before the name is left out
    ("Pastor Okonkwo encouraged care.", [("Pastor Okonkwo", P)], [("Okonkwo", P)]),
    ("Daughter Ines to bring photos.", [("Daughter Ines", P)], [("Ines", P)]),
    ("Spoke with Sgt. Ruiz today.", [("Sgt. Ruiz", P)], [("Ruiz", P)]),
    # negatives: a name that is no title; a title alone; a lower-case word
    ("Grace Okonkwo encouraged care.", [("Grace Okonkwo", P)], [("Grace Okonkwo", P)]),
    ("Called the Pastor today.", [("Pastor", P)], [("Pastor", P)]),
    # a care-team role in capitals before the name; "Ho" as a surname stays
    ("Pt seen by HO Quennell at noon.", [("HO Quennell", D)], [("Quennell", D)]),
    ("Plan discussed with NP Abel Formby.", [("NP Abel Formby", D)], [("Abel Formby", D)]),
    ("Seen by Ho Quennell at noon.", [("Ho Quennell", D)], [("Ho Quennell", D)]),
    ("HO paged twice.", [("HO", D)], [("HO", D)]),
    # job_phrase: a capitalised title over "of" and its field
    ("Works as Senior Manager of Education at the museum.", [("Senior Manager", PR)],
     [("Senior Manager of Education", PR)]),
    ("Is Director of Clinical Operations\nsince May", [("Director", PR)], [("Director of Clinical Operations", PR)]),
    # negatives: a lower-case title; the field is another mention
    ("Works as a manager of Ruby's store.", [("manager", PR)], [("manager", PR)]),
    ("Is Director of Ashby Hospital now.", [("Director", PR), ("Ashby Hospital", H)],
     [("Director", PR), ("Ashby Hospital", H)]),
    # glued_handle: a user name has no space in it
    ("Posts as mattie-quennell on Discord.", [("mattie", labels.USERNAME)],
     [("mattie-quennell", labels.USERNAME)]),
    ("Posts as mattie-quennell on Discord.", [("quennell", labels.USERNAME)],
     [("mattie-quennell", labels.USERNAME)]),
    # negatives: a spaced dash, a person's name, a sentence's period
    ("Posts as mattie - quennell on Discord.", [("mattie", labels.USERNAME)],
     [("mattie", labels.USERNAME)]),
    ("Posts as mattie-quennell on Discord.", [("mattie", P)], [("mattie", P)]),
    ("Posts as mattiequennell. Then left.", [("mattiequennell", labels.USERNAME)],
     [("mattiequennell", labels.USERNAME)]),
]


@pytest.mark.parametrize("text,ner,expected", CASES)
def test_span_completion(text, ner, expected):
    assert run(make_nlp(), text, ner) == expected


@pytest.mark.parametrize("text,ner,expected", CASES[:3])
def test_switched_off(text, ner, expected):
    assert run(make_nlp(complete=False), text, ner) == [(t, l) for t, l, *_ in ner]


def test_provenance_records_the_growth():
    nlp = make_nlp()
    doc = nlp.get_pipe("deid_lexicon")(nlp.make_doc("Seen with Dr. Okafor-Lindgren today."))
    doc.ents = [Span(doc, 3, 4, label=D)]
    doc = nlp.get_pipe("deid_reconciler")(doc)
    assert doc.ents[0]._.phi_source.endswith("complete:name_hyphen")
