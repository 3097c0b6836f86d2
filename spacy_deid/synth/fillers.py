"""Non-PHI vocabulary for the notes: drugs, doses, symptoms, scores, traps.

Many of these are traps on purpose: numbers that look like dates or IDs
(blood pressure 120/80, "500/250", "9/10 pain"), durations, eponymous
diseases, rating-scale scores. They are never annotated. The words live in
`data/synth/fillers.jsonl`, one record per entry (`list`, `value`, ...).
"""
from .tables import filler_records, filler_values

DRUGS = filler_values("drugs")
DOSES = filler_values("doses")
FREQUENCIES = filler_values("frequencies")
COMBO_DOSES = filler_values("combination_doses")
SYMPTOMS = filler_values("symptoms")
DIAGNOSES = filler_values("diagnoses")
# ICD-10 codes shown next to diagnoses: code-shaped, never PHI.
ICD10 = {record["value"]: record["icd10"] for record in filler_records("diagnoses")}
MEDICAL = filler_values("medical")
SUBSTANCES = filler_values("substances")
SUBSTANCE_VALUES = filler_values("substance_values")
DURATIONS = filler_values("durations")
# Mental status exam lines: (attribute, the values it takes).
MSE_LINES = tuple((record["attribute"], tuple(record["values"])) for record in filler_records("mse_lines"))
TIMES = filler_values("times")
BILLING = filler_values("billing")

# Traps next to names and ages (the clinical_trap family).
CLINICAL_ABBREVIATIONS = filler_values("clinical_abbreviations")
LAB_TRAPS = filler_values("lab_traps")
DURATIONS_SHORT = filler_values("durations_short")
SCORE_TRAPS = filler_values("score_traps")
# Rating scales and tests as notes write them, with the top of their range: a
# number after one is a score, never an age or a room ("AUDIT 10", "AQ: 38").
SCALES = tuple((record["value"], record["top"]) for record in filler_records("scales"))
SCORE_FORMS = filler_values("score_forms")

# Nursing notes (issue 25): drips with rate ranges ("{i:600-1800}" an integer,
# "{r:0.02-0.3}" a decimal, filled by the `drip` slot), antibiotics, charting
# systems, and the words around vitals. Never PHI.
DRIPS = filler_values("drips")
ANTIBIOTICS = filler_values("antibiotics")
CHARTING_SYSTEMS = filler_values("charting_systems")
SPUTUM_AMOUNTS = filler_values("sputum_amounts")
SPUTUM_COLORS = filler_values("sputum_colors")
TUBE_FEEDS = filler_values("tube_feeds")
DISPOSITIONS = filler_values("dispositions")
IV_DOSES = filler_values("iv_doses")
UNIT_TYPES = filler_values("unit_types")
SHIFTS = filler_values("shifts")
