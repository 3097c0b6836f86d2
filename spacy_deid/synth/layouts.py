"""Note layouts: which sections, in which order, with which header spellings.

A section has header spellings and a body kind ("narrative", "fields",
"list", "mse", "block": one multi-line template); a layout is an ordered list of (section, probability) with
an id and a half (A/B, alternating), like the templates. Header styles,
field separators and bullets vary per note on top of that.
"""
from dataclasses import dataclass
from typing import Dict, Tuple

from .families import FAMILIES
from .template import HALVES


@dataclass(frozen=True)
class Section:
    key: str
    headers: Tuple[str, ...]
    kind: str  # narrative | fields | list | mse | title | block
    pool: str = ""
    count: Tuple[int, int] = (1, 1)  # sentences or lines, scaled by the note's verbosity
    plain_pool: str = ""  # PHI-free sentences mixed into a narrative section
    plain_share: float = 0.0
    field_pool: str = ""  # attribute-value lines that may replace the narrative
    field_share: float = 0.0  # probability of the attribute-value variant


SECTIONS: Dict[str, Section] = {s.key: s for s in (
    Section("title", ("Psychiatric Intake Evaluation", "INITIAL PSYCHIATRIC EVALUATION",
                      "Outpatient Psychiatry Intake", "Behavioral Health Intake Assessment",
                      "Psychiatry Initial Consultation", "ADULT PSYCHIATRIC INTAKE NOTE",
                      "Comprehensive Psychiatric Evaluation", "New Patient Psychiatric Assessment",
                      "Intake Note - Outpatient Mental Health", "PSYCHIATRY ADMISSION NOTE",
                      "Psychiatric Emergency Evaluation", "Dual Diagnosis Intake"), "title"),
    Section("header", (), "fields", "header", (4, 9)),
    Section("id", ("Identifying Data", "IDENTIFYING INFORMATION", "ID", "Identification",
                   "Patient Identification", "ID/CC", "Demographics"), "narrative", "id_intro", (1, 2)),
    Section("cc", ("Chief Complaint", "CHIEF COMPLAINT", "CC", "Reason for Referral",
                   "REASON FOR VISIT", "Presenting Problem", "Reason for Evaluation"), "narrative", "cc", (1, 1)),
    Section("hpi", ("History of Present Illness", "HISTORY OF PRESENT ILLNESS", "HPI",
                    "History of Presenting Problem", "Present Illness", "Hx of Present Illness",
                    "Interval History", "HPI/Reason for Referral", "History of the Present Illness",
                    "Current Symptoms", "PRESENTING PROBLEM"), "narrative", "hpi", (6, 20), "hpi_plain", 0.72),
    Section("collateral", ("Collateral", "COLLATERAL INFORMATION", "Collateral Information",
                           "Collateral Contacts"), "narrative", "collateral", (1, 3)),
    Section("past_psych", ("Past Psychiatric History", "PAST PSYCHIATRIC HISTORY", "PPH",
                           "Psychiatric History", "Prior Psychiatric Treatment",
                           "Past Psych Hx", "Psychiatric Treatment History", "Prior Treatment"),
            "narrative", "past_psych", (3, 11), "psych_plain", 0.55,
            "psych_fields", 0.4),
    Section("meds_trials", ("Past Medication Trials", "MEDICATION TRIALS", "Prior Medications",
                            "Psychotropic Trials"), "list", "med_trials", (2, 6)),
    Section("meds", ("Current Medications", "MEDICATIONS", "Meds", "Outpatient Medications",
                     "Medications on Admission", "Current Meds"), "list", "med_trials", (1, 6)),
    Section("substance", ("Substance Use History", "SUBSTANCE ABUSE HISTORY", "Substance Use",
                          "Drug and Alcohol History", "Substance Hx", "ALCOHOL/DRUG USE"), "fields", "substance", (3, 9)),
    Section("substance_narr", ("Substance Use History", "SUBSTANCE USE", "Substance Abuse Hx",
                               "Alcohol and Drug History"), "narrative", "substance_narr", (3, 7), "substance_plain", 0.6),
    Section("medical", ("Past Medical History", "PAST MEDICAL HISTORY", "PMH", "Medical History",
                        "Medical Problems"), "narrative", "medical_narr", (1, 4)),
    Section("family", ("Family History", "FAMILY HISTORY", "FHx", "Family Psychiatric History",
                       "Family Hx"), "narrative", "family_hx", (2, 7), "family_plain", 0.5),
    Section("social", ("Social History", "SOCIAL HISTORY", "SHx", "Psychosocial History",
                       "Social Hx", "Personal and Social History", "Psychosocial",
                       "Social/Developmental History", "Personal History"), "narrative", "social", (4, 13), "social_plain", 0.62,
            "social_fields", 0.4),
    Section("developmental", ("Developmental History", "DEVELOPMENTAL HISTORY", "Early History",
                              "Developmental/Educational History"), "narrative", "developmental", (1, 3)),
    Section("legal", ("Legal History", "LEGAL HISTORY", "Legal", "Legal Hx",
                      "Legal/Forensic History"), "narrative", "legal", (1, 2)),
    Section("trauma", ("Trauma History", "TRAUMA HISTORY", "Trauma/Abuse History",
                       "History of Trauma"), "narrative", "trauma", (1, 2)),
    Section("ros", ("Review of Systems", "REVIEW OF SYSTEMS", "ROS"), "fields", "ros", (3, 7)),
    Section("mse", ("Mental Status Exam", "MENTAL STATUS EXAMINATION", "MSE", "Mental Status",
                    "Mental Status Examination", "Exam"), "mse", "mse_free", (1, 3)),
    Section("labs", ("Labs", "LABORATORY DATA", "Data", "Pertinent Results", "Labs/Studies"), "fields", "labs", (1, 3)),
    Section("risk", ("Risk Assessment", "RISK ASSESSMENT", "Safety Assessment", "Suicide Risk Assessment",
                     "Risk Formulation", "SAFETY"), "narrative", "risk", (3, 9), "risk_plain", 0.65),
    Section("formulation", ("Assessment", "ASSESSMENT AND FORMULATION", "Impression", "Formulation",
                            "IMPRESSION", "Assessment/Formulation", "Diagnostic Impression"), "narrative", "formulation", (3, 7), "formulation_plain", 0.6,
            "dx_axes", 0.25),
    Section("plan", ("Plan", "PLAN", "Recommendations", "Treatment Plan", "RECOMMENDATIONS",
                     "Plan/Recommendations", "Disposition"), "list", "plan", (3, 8), "plan_plain", .62),
    Section("telehealth", ("Contact Information", "Telehealth", "Communication", "Patient Contact"),
            "narrative", "telehealth", (1, 2)),
    Section("signature", (), "fields", "signature", (1, 3)),
    Section("checklist", ("Symptom Checklist", "Review of Psychiatric Symptoms", "PSYCHIATRIC ROS",
                          "Symptoms"), "checklist", "", (3, 7)),
    Section("mse_narr", ("Mental Status Exam", "MENTAL STATUS EXAM", "MSE", "Mental Status"),
            "narrative", "mse_narr", (4, 8)),
    Section("interventions", ("Interventions", "Psychotherapy", "Treatment Provided", "Counseling",
                              "Discussion"), "narrative", "interventions", (2, 5)),
    # sections of the other note types (layouts 012-021)
    Section("title_progress", ("Psychiatry Progress Note", "PROGRESS NOTE", "Outpatient Follow-up Visit",
                               "Medication Management Visit", "Interval Note", "Follow-Up Note"), "title"),
    Section("title_consult", ("Psychiatry Consultation", "CONSULTATION NOTE", "Consultation-Liaison Psychiatry Note",
                              "Psychiatric Consult", "Initial Consult", "C/L PSYCHIATRY CONSULT"), "title"),
    Section("title_discharge", ("Discharge Summary", "DISCHARGE SUMMARY", "Psychiatric Discharge Summary",
                                "Inpatient Discharge Summary", "Discharge Note"), "title"),
    Section("interval", ("Interval History", "INTERVAL HISTORY", "Subjective", "SUBJECTIVE", "Since Last Visit",
                         "Progress"), "narrative", "hpi", (3, 10), "hpi_plain", 0.7),
    Section("hospital_course", ("Hospital Course", "HOSPITAL COURSE", "Course in Hospital",
                                "Summary of Hospitalization"), "narrative", "hospital_course", (3, 8),
            "hpi_plain", 0.4),
    Section("discharge", (), "fields", "discharge", (3, 7)),
    Section("followup", ("Follow-up Appointments", "FOLLOW-UP", "Aftercare Plan", "Appointments"),
            "fields", "followup", (1, 3)),
    Section("letter_body", (), "narrative", "letter_body", (4, 8), "hpi_plain", 0.3),
    Section("letterhead", (), "block", "letterhead"),
    Section("salutation", (), "block", "salutation"),
    Section("sig_block", (), "block", "sig_block"),
    Section("dictation", (), "block", "dictation"),
    Section("goals", ("Treatment Goals", "Goals", "GOALS", "Strengths and Barriers",
                      "Treatment Plan Goals"), "list", "goals", (2, 5)),
)}


@dataclass(frozen=True)
class Layout:
    id: str
    half: str
    sections: Tuple[Tuple[str, float], ...]
    weight: float = 1.0  # sampling weight against the other layouts of the half
    upper: bool = False  # the whole note in capitals (dictation transcripts)
    note_type: str = "intake"


_LAYOUT_SECTIONS = (
    # 0: classic outpatient intake
    (("title", .8), ("header", 1), ("id", .9), ("cc", .9), ("hpi", 1), ("past_psych", .9), ("meds_trials", .4),
     ("meds", .8), ("substance", .8), ("medical", .8), ("family", .8), ("social", 1), ("developmental", .4),
     ("legal", .5), ("trauma", .4), ("mse", .6), ("mse_narr", .5), ("risk", .9), ("formulation", 1),
     ("interventions", .5), ("plan", 1), ("goals", .4), ("telehealth", .1), ("signature", .9)),
    # 1: ED / emergency evaluation, short
    (("title", .9), ("header", 1), ("cc", 1), ("hpi", 1), ("collateral", .6), ("past_psych", .8),
     ("substance_narr", .7), ("meds", .6), ("medical", .5), ("social", .8), ("mse", 1), ("labs", .6),
     ("risk", 1), ("formulation", .9), ("plan", 1), ("signature", .8)),
    # 2: inpatient admission note
    (("title", 1), ("header", 1), ("id", 1), ("cc", .7), ("hpi", 1), ("collateral", .5), ("past_psych", 1),
     ("substance", .9), ("medical", .9), ("meds", .9), ("family", .9), ("social", 1), ("legal", .6),
     ("ros", .6), ("mse", 1), ("labs", .7), ("risk", 1), ("formulation", 1), ("plan", 1), ("signature", 1)),
    # 3: social-history-first psychosocial assessment (social work intake)
    (("title", .7), ("header", 1), ("id", .9), ("cc", .6), ("social", 1), ("developmental", .7),
     ("family", 1), ("trauma", .7), ("legal", .7), ("hpi", .9), ("substance", .8), ("past_psych", .7),
     ("mse_narr", .8), ("risk", .9), ("formulation", .7), ("goals", .8), ("plan", 1), ("interventions", .4),
     ("telehealth", .15), ("signature", .8)),
    # 4: dual diagnosis / addiction intake
    (("title", .9), ("header", 1), ("cc", 1), ("hpi", 1), ("checklist", .4), ("substance", 1), ("substance_narr", .8),
     ("past_psych", .8), ("medical", .8), ("meds", .7), ("legal", .8), ("family", .7), ("social", 1),
     ("mse", .7), ("mse_narr", .4), ("risk", 1), ("formulation", .8), ("interventions", .6), ("plan", 1),
     ("goals", .5), ("signature", .9)),
    # 5: consult-liaison note
    (("title", .8), ("header", 1), ("id", .8), ("hpi", 1), ("collateral", .4), ("past_psych", .8),
     ("medical", 1), ("meds", 1), ("labs", .8), ("substance_narr", .6), ("social", .7), ("ros", .5),
     ("mse", 1), ("formulation", 1), ("risk", .8), ("plan", 1), ("signature", 1)),
    # 6: telehealth intake
    (("title", .6), ("header", 1), ("telehealth", .8), ("id", 1), ("cc", .8), ("hpi", 1), ("checklist", .3),
     ("past_psych", .8), ("meds_trials", .5), ("family", .8), ("social", .9), ("substance", .7),
     ("mse_narr", .9), ("risk", 1), ("formulation", .9), ("interventions", .7), ("plan", 1), ("signature", .7)),
    # 7: long comprehensive evaluation
    (("title", 1), ("header", 1), ("id", 1), ("cc", 1), ("hpi", 1), ("checklist", .5), ("collateral", .5), ("past_psych", 1),
     ("meds_trials", .7), ("meds", .8), ("substance", .7), ("substance_narr", .6), ("medical", 1),
     ("family", 1), ("developmental", .8), ("social", 1), ("legal", .7), ("trauma", .8), ("ros", .6),
     ("mse", 1), ("mse_narr", .5), ("labs", .5), ("risk", 1), ("formulation", 1), ("interventions", .6),
     ("plan", 1), ("goals", .6), ("telehealth", .1), ("signature", 1)),
)

_LAYOUT_SECTIONS += (
    # 8: questionnaire-style intake form: many attribute-value lines
    (("title", .9), ("header", 1), ("cc", .9), ("checklist", .7), ("hpi", .8), ("past_psych", 1),
     ("substance", 1), ("medical", .6), ("meds", .8), ("family", .7), ("social", 1), ("ros", .7),
     ("mse", 1), ("risk", .9), ("formulation", .9), ("plan", 1), ("signature", .9)),
    # 9: geriatric / memory consult
    (("title", .8), ("header", 1), ("id", 1), ("hpi", 1), ("collateral", .8), ("medical", 1),
     ("meds", 1), ("past_psych", .6), ("family", .8), ("social", .9), ("mse_narr", .7), ("mse", .6),
     ("labs", .7), ("formulation", 1), ("risk", .7), ("plan", 1), ("signature", .9)),
    # 10: young adult / college counseling intake
    (("title", .7), ("header", 1), ("id", .9), ("cc", 1), ("hpi", 1), ("developmental", .8),
     ("social", 1), ("family", .9), ("substance_narr", .8), ("trauma", .6), ("past_psych", .8),
     ("mse_narr", .8), ("risk", 1), ("formulation", .9), ("goals", .6), ("plan", 1), ("interventions", .5),
     ("telehealth", .2), ("signature", .7)),
    # 11: brief crisis evaluation
    (("title", .9), ("header", 1), ("cc", 1), ("hpi", 1), ("collateral", .7), ("substance_narr", .6),
     ("past_psych", .7), ("mse", 1), ("risk", 1), ("formulation", .8), ("plan", 1), ("signature", .8)),
)

# Other note types (the "note_type" family): two variants each, so that each
# template half has every type; (note type, sections, whole note in capitals).
_NOTE_TYPE_LAYOUTS = (
    # 12, 13: progress notes
    ("progress", (("title_progress", .9), ("header", 1), ("interval", 1), ("meds", .6), ("mse", .7),
      ("mse_narr", .4), ("risk", .6), ("formulation", .8), ("plan", 1), ("signature", .6),
      ("sig_block", .5)), False),
    ("progress", (("title_progress", .8), ("header", 1), ("interval", 1), ("substance_narr", .4), ("labs", .4),
      ("mse_narr", .8), ("formulation", .9), ("plan", 1), ("goals", .3), ("sig_block", .8)), False),
    # 14, 15: consult notes
    ("consult", (("title_consult", 1), ("header", 1), ("cc", .8), ("hpi", 1), ("past_psych", .7),
      ("medical", 1), ("meds", .9), ("labs", .8), ("mse", 1), ("formulation", 1), ("plan", 1),
      ("signature", .6), ("sig_block", .6)), False),
    ("consult", (("title_consult", .9), ("header", 1), ("id", .8), ("hpi", 1), ("collateral", .5),
      ("medical", .9), ("labs", .7), ("mse_narr", .9), ("risk", .8), ("formulation", 1),
      ("plan", 1), ("sig_block", .9)), False),
    # 16, 17: discharge summaries
    ("discharge", (("title_discharge", 1), ("header", 1), ("discharge", 1), ("id", .6), ("hpi", .8),
      ("past_psych", .6), ("social", .5),
      ("hospital_course", 1), ("meds", 1), ("mse", .6), ("risk", .7), ("followup", 1),
      ("sig_block", .9)), False),
    ("discharge", (("title_discharge", 1), ("discharge", 1), ("cc", .6), ("hospital_course", 1),
      ("labs", .6), ("meds", 1), ("formulation", .7), ("plan", 1), ("followup", .9),
      ("signature", .5), ("sig_block", .7)), False),
    # 18, 19: letters
    ("letter", (("letterhead", 1), ("salutation", 1), ("letter_body", 1), ("hpi", .9),
      ("past_psych", .6), ("social", .6), ("formulation", .8), ("plan", .9), ("sig_block", 1)), False),
    ("letter", (("letterhead", .8), ("salutation", 1), ("letter_body", 1), ("hpi", .9), ("meds", .5),
      ("family", .5), ("social", .6), ("mse_narr", .4), ("formulation", .7), ("plan", .9),
      ("sig_block", 1)), False),
    # 20, 21: dictations transcribed in capitals
    ("dictation", (("title", .6), ("header", 1), ("hpi", 1), ("past_psych", .8), ("social", .8), ("mse", .8),
      ("formulation", 1), ("plan", 1), ("dictation", 1)), True),
    ("dictation", (("title_consult", .6), ("header", 1), ("cc", .8), ("hpi", 1), ("medical", .7),
      ("family", .6), ("mse_narr", .8), ("formulation", 1), ("plan", 1), ("dictation", 1)), True),
)

# Intake notes end with a multi-line signature block ("Last, First, MD" /
# department / facility) this often, after or instead of the signature lines.
INTAKE_SIGNATURE_BLOCK = 0.25

LAYOUTS = tuple(Layout(f"layout.{i:03d}", HALVES[i % 2], sections + (("sig_block", INTAKE_SIGNATURE_BLOCK),))
                for i, sections in enumerate(_LAYOUT_SECTIONS)) + tuple(
    Layout(f"layout.{i:03d}", HALVES[i % 2], sections, FAMILIES["note_type"].weight, upper, kind)
    for i, (kind, sections, upper) in enumerate(_NOTE_TYPE_LAYOUTS, start=len(_LAYOUT_SECTIONS)))

# Header styles: how a header line is written; "{h}" is the spelling.
HEADER_STYLES = {
    # "HPIPatient reports": glued to the first word (the glued_header family; the writer
    # falls back to "inline" where the tokenizer would not split the case change)
    "glued_inline": ("{h}", 100 * FAMILIES["glued_header"].weight / 2),
    "upper_glued_inline": ("{H}", 100 * FAMILIES["glued_header"].weight / 2),
    "colon_line": ("{h}:", 30),         # header alone on its line, colon
    "upper_colon_line": ("{H}:", 20),   # upper-cased
    "bare_line": ("{h}", 12),           # no colon
    "inline": ("{h}: ", 25),           # text follows on the same line
    "upper_inline": ("{H}: ", 8),
    "dashes": ("--- {h} ---", 3),
    "underlined": ("{h}\n" + "-" * 20, 2),
}
FIELD_SEPARATORS = {": ": 60, ":  ": 8, ":": 6, " - ": 8, ":\t": 6, " = ": 2}
BULLETS = {"": 30, "- ": 25, "* ": 10, "• ": 6, "#": 14, "#)": 6}
