"""Table-driven tests of the PHI patterns of `deid_phi_rules`.

Positives: (text, exact expected span text, subtype). Negatives: texts in
which a subtype (or any PHI) must not be found. All strings are invented.
"""
import json
from typing import List, Tuple

import pytest
import spacy

from spacy_deid import labels
from spacy_deid.pipeline.phi_rules import DEFAULT_SPANS_KEY


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_phi_rules")
    nlp.initialize()
    return nlp


def hits(nlp, text: str) -> List[Tuple[str, str]]:
    doc = nlp(text)
    return [(s.text, s.label_) for s in doc.spans[DEFAULT_SPANS_KEY]]


def assert_found(nlp, text: str, expected: str, label: str) -> None:
    found = hits(nlp, text)
    assert (expected, label) in found, found


def assert_absent(nlp, text: str, label: str = None) -> None:
    found = hits(nlp, text)
    if label is None:
        assert found == [], found
    else:
        assert all(lab != label for _, lab in found), found


# --- CONTACT -----------------------------------------------------------------
CONTACT_POSITIVES = [
    ("Call her at 447-742-0756 tomorrow.", "447-742-0756", labels.PHONE),
    ("Clinic (692) 673 3025 for refills.", "(692) 673 3025", labels.PHONE),
    ("Clinic (692)673-3025.", "(692)673-3025", labels.PHONE),
    ("Cell 917070-7689.", "917070-7689", labels.PHONE),
    ("Work 678-233-5033, x 549 weekdays.", "678-233-5033, x 549", labels.PHONE),
    ("Work 678.233.5033 ext. 12 weekdays.", "678.233.5033 ext. 12", labels.PHONE),
    ("Sister (+1 416-555-0101) is aware.", "+1 416-555-0101", labels.PHONE),
    ("Phone: 6175550123.", "6175550123", labels.PHONE),
    ("Office phone 555-0182 after 5.", "555-0182", labels.PHONE),
    ("Page him, pager 07516.", "07516", labels.PHONE),
    ("Fax 447-742-0757 for records.", "447-742-0757", labels.FAX),
    ("Fax: (692) 673 3026", "(692) 673 3026", labels.FAX),
    ("Office 447-742-0756 / Fax 447-742-0799", "447-742-0756", labels.PHONE),
    ("Office 447-742-0756 / Fax 447-742-0799", "447-742-0799", labels.FAX),
    ("Send to jdoe@clinic.example.org today.", "jdoe@clinic.example.org", labels.EMAIL),
    ("See www.womensmentalhealth.org for more.", "www.womensmentalhealth.org", labels.URL),
    ("Portal https://portal.example.org/v/AB12.", "https://portal.example.org/v/AB12", labels.URL),
    ("Her blog is sketchbook.art now.", "sketchbook.art", labels.URL),
    ("Login from 192.168.10.4 flagged.", "192.168.10.4", labels.IPADDR),
    ("Signed by Dr. Roe [hpp2] 10:41", "hpp2", labels.USERNAME),
    ("Portal username: river_ab12", "river_ab12", labels.USERNAME),
    ("Message from user sam_peters sent.", "sam_peters", labels.USERNAME),
    ("Beeper - #44080", "#44080", labels.PHONE),
    ("Pager #: 5-0885", "5-0885", labels.PHONE),
    ("Fax #: 3812981015", "3812981015", labels.FAX),
    ("Call the after-hours line 966-2675 tonight.", "966-2675", labels.PHONE),
    ("See http://www.example.net. Then", "http://www.example.net", labels.URL),
]

CONTACT_NEGATIVES = [
    ("BP 120/80, HR 72.", None),
    ("Depakote 500/250 mg bid.", None),
    ("Pain 9/10 today.", None),
    ("MMSE 13/30 today.", None),
    ("Na 136, K 4.1, glucose 102.", None),
    ("Available 24/7 by phone.", None),
    ("Oriented x3.", None),
    ("Adherence about 85%.", None),
    ("e.g. sleep, i.e. rest.", labels.URL),
    ("Dx F32.1 and Z63.0.", None),
    ("Lithium level 0.8 on 1.2.3 protocol", labels.IPADDR),
    ("Takes 1 (one) tab [am2] daily.", labels.PHONE),
]


@pytest.mark.parametrize("text,expected,label", CONTACT_POSITIVES)
def test_contact_positive(nlp, text, expected, label):
    assert_found(nlp, text, expected, label)


@pytest.mark.parametrize("text,label", CONTACT_NEGATIVES)
def test_contact_negative(nlp, text, label):
    assert_absent(nlp, text, label)


# --- ID ----------------------------------------------------------------------
ID_POSITIVES = [
    ("MRN: 2418195", "2418195", labels.MEDICALRECORD),
    ("MRN 55-12-3344", "55-12-3344", labels.MEDICALRECORD),
    ("Medical record number: ABC-0012345", "ABC-0012345", labels.MEDICALRECORD),
    ("Record #: XYZ-QA-11223", "XYZ-QA-11223", labels.MEDICALRECORD),
    ("SSN 123-45-6789 on file", "123-45-6789", labels.SSN),
    ("SSN (last 4): 6789", "6789", labels.SSN),
    ("DOE, JANE LAST 4: 6789", "6789", labels.SSN),
    ("Health plan ID: ABC-123-45-6789", "ABC-123-45-6789", labels.HEALTHPLAN),
    ("Medicaid ID: QW1234567", "QW1234567", labels.HEALTHPLAN),
    ("Insurance: Some County Plan, ID ZX9988776", "ZX9988776", labels.HEALTHPLAN),
    ("account 1234-5678-9012 was closed", "1234-5678-9012", labels.ACCOUNT),
    ("Acct #: 99887766", "99887766", labels.ACCOUNT),
    ("Medical license: NY MD-123456 (active)", "MD-123456", labels.LICENSE),
    ("License number XF-1747210-9837.", "XF-1747210-9837", labels.LICENSE),
    ("DEA# AB1234567", "AB1234567", labels.LICENSE),
    ("car (NJ plate 8KX-449) towed", "8KX-449", labels.VEHICLE),
    ("pacemaker serial number PQ-7731-22X; checked", "PQ-7731-22X", labels.DEVICE),
    ("loop recorder (device ID ABC-1234-567R)", "ABC-1234-567R", labels.DEVICE),
    ("interpreter ID #40517;", "40517", labels.IDNUM),
    ("Case #: PC-12-345678", "PC-12-345678", labels.IDNUM),
    ("Devon Pharm ID: 50970046433", "50970046433", labels.IDNUM),
    ("Med Rec No: 2881772", "2881772", labels.MEDICALRECORD),
    ("MR#: 183 61 00", "183 61 00", labels.MEDICALRECORD),
    ("Order #: #044312", "#044312", labels.IDNUM),
    ("License #: LICSW 91163", "LICSW 91163", labels.LICENSE),
    ("NPI: MD57743", "MD57743", labels.LICENSE),
    ("Accession #: S08-4502", "S08-4502", labels.BIOID),
    ("car registration 2PTR451 was towed", "2PTR451", labels.VEHICLE),
    ("Member ID: Acme ID 444787514926", "444787514926", labels.HEALTHPLAN),
    ("Lic #: LICSW 21624", "LICSW 21624", labels.LICENSE),
    ("Soc Sec # = 858894004", "858894004", labels.SSN),
    ("SSN#: 192012047", "192012047", labels.SSN),
    ("MR: 397-54-00", "397-54-00", labels.MEDICALRECORD),
    ("Patient ID: 3458532", "3458532", labels.MEDICALRECORD),
    ("Financial #: A18092851", "A18092851", labels.ACCOUNT),
    ("FIN: 0066360298", "0066360298", labels.ACCOUNT),
    ("Has an insulin pump (serial SN33380878) placed", "SN33380878", labels.DEVICE),
    ("Encounter IDs - 6237-3352, MH-979465", "MH-979465", labels.IDNUM),
]

ID_NEGATIVES = [
    ("Record date: 2067-05-03", labels.MEDICALRECORD),
    ("Medical record reviewed in full.", labels.MEDICALRECORD),
    ("Licensed in 2015 as a nurse.", labels.LICENSE),
    ("No ID on him at arrival.", labels.IDNUM),
    ("Her account of events was vague.", labels.ACCOUNT),
    ("Billing: 90792", labels.ACCOUNT),
    ("A serial killer film.", labels.DEVICE),
    ("Depakote 500/250 mg", None),
    ("Dx code F41.1 and 296.32.", None),
    ("x3 sessions, 24/7 supervision", None),
]


@pytest.mark.parametrize("text,expected,label", ID_POSITIVES)
def test_id_positive(nlp, text, expected, label):
    assert_found(nlp, text, expected, label)


@pytest.mark.parametrize("text,label", ID_NEGATIVES)
def test_id_negative(nlp, text, label):
    assert_absent(nlp, text, label)


# --- LOCATION ----------------------------------------------------------------
LOCATION_POSITIVES = [
    ("Born in Austin, Texas; raised there.", "Texas", labels.STATE),
    ("Moved to Florida last year.", "Florida", labels.STATE),
    ("Grew up in Santa Fe, New Mexico.", "New Mexico", labels.STATE),
    ("Sister lives in Georgia now.", "Georgia", labels.STATE),
    ("Lives in Albany, New York with his aunt.", "New York", labels.STATE),
    ("Lives in Quincy, MA. Works nights.", "MA", labels.STATE),
    ("Lives in Portland, ME (since 2001).", "ME", labels.STATE),
    ("Retired to FL in the winter.", "FL", labels.STATE),
    ("Lives at 12 Elm Road, Dover, MD 21201.", "MD", labels.STATE),
    ("Lives at 12 Elm Road, Dover, MD 21201.", "21201", labels.ZIP),
    ("Address: Salem, OR 97301-1234", "97301-1234", labels.ZIP),
    ("Lives at 82 Brook Drive with her son.", "82 Brook Drive", labels.STREET),
    ("Address: 300 Maple Lane, Apt 4B, Salem", "300 Maple Lane, Apt 4B", labels.STREET),
    ("Office at 1200 N. Oak St, suite", "1200 N. Oak St", labels.STREET),
    ("Picked up at a pharmacy on Juniper Avenue.", "Juniper Avenue", labels.STREET),
    ("Mail to P.O. Box 1234 only.", "P.O. Box 1234", labels.STREET),
    ("Truck (TX plate ABC-1234) towed", "TX", labels.STATE),
    ("Grew up in Omaha NE and moved.", "NE", labels.STATE),
    ("Born in Roanoke Virginia and raised there.", "Virginia", labels.STATE),
    ("He was born in OR and raised in WA.", "OR", labels.STATE),
    ("Lived in KS and FL before.", "FL", labels.STATE),
    ("Lives at 9 Elm Way in Dover, 19901.", "19901", labels.ZIP),
    ("Lives at 44 Patriot Rd. in town.", "44 Patriot Rd.", labels.STREET),
    ("BORN: LAREDO TX\n", "TX", labels.STATE),
    ("GREW UP IN POCATELLO IDAHO AND MOVED.", "IDAHO", labels.STATE),
]

LOCATION_NEGATIVES = [
    ("Seen by Jane Roe, MD today.", labels.STATE),
    ("Discussed with Ann Lee, PA-C.", labels.STATE),
    ("Case reviewed with Sam Poe, MA, LMHC.", labels.STATE),
    ("History of MI in 2010 and CA of the colon.", labels.STATE),
    ("Head CT in ED was normal; admitted to OR.", labels.STATE),
    ("Studied at University of Texas.", labels.STATE),
    ("Treated at Texas Children's Hospital.", labels.STATE),
    ("His wife Virginia visits daily.", labels.STATE),
    ("Went to New York for a concert.", labels.STATE),
    ("Room for 3 weeks at a friend's place.", labels.STREET),
    ("Main Street Clinic referral.", labels.STREET),
    ("Glucose 12345 was a typo.", labels.ZIP),
    ("Head CT: negative.", labels.STATE),
    ("Sex: Female\nID: 30 yo woman", labels.STATE),
    ("Taken to OR for repair.", labels.STATE),
    ("Denies SI. Denies HI. Sleep fair.", labels.STATE),
    ("Feels OK most days.", labels.STATE),
    ("Jane Roe, MD and John Doe, PhD attended.", labels.STATE),
    ("Followed by Jane Roe, MD since 2010.", labels.STATE),
    ("DENIES INTENT OR PLAN. DENIES SI, HI, INTENT.", labels.STATE),
    ("SUSPENDED; CAR PLATE 4MBY614 IMPOUNDED.", labels.STATE),
    ("COUNSELOR AT WEST VIRGINIA STATE UNIVERSITY.", labels.STATE),
    # rooms: a kind of room, a duration or a dose is no room number
    ("Clutter rating: living room 7, kitchen 6.", labels.ROOM),
    ("Sat in the waiting room 4 hours.", labels.ROOM),
    ("Stayed in bed 3 days after the news.", labels.ROOM),
    ("Back in bed by 10 most nights.", labels.ROOM),
    ("Advised bed rest.", labels.ROOM),
    ("Bedroom 2 is cluttered.", labels.ROOM),
    ("Clutter: Living Room 7, Kitchen 6.", labels.ROOM),
]

ROOM_POSITIVES = [
    # a capitalised cue is part of the mention, as annotators write it
    ("Seen in Rm 2207 today.", "Rm 2207"),
    ("Admitted to Room 5, Bed B overnight.", "Room 5, Bed B"),
    ("Moved to Bay 9 of the ED.", "Bay 9"),
    ("DETOX UNIT, ROOM 8219", "ROOM 8219"),
    ("Remained in Unit A, Bed 17 through Monday.", "Unit A, Bed 17"),
    ("Now on Hall 3 North, Pod A, Bed 22.", "Pod A, Bed 22"),
    # after a lower-case cue, a colon or a kind of room: the number alone
    ("Met in interview room D-3.", "D-3"),
    ("Geriatric unit, bed 5-12.", "5-12"),
    ("Room: 412B", "412B"),
    ("Room #: 24", "24"),
    ("Seen in exam room 268 with her mother.", "268"),
]


PERSON_POSITIVES = [
    ("Signed: Ann Lee, MD\n", "Ann Lee"),
    ("B. Cruz-Lind, MD\nAttending", "B. Cruz-Lind"),
    ("Ann Quist-Loh, MD, PGY-2", "Ann Quist-Loh"),
    ("Met Jon A. Roe, LICSW weekly.", "Jon A. Roe"),
    ("Supervising physician - Ana Maria Roe, NP", "Ana Maria Roe"),
    ("Evaluated by Dr. Oswin Tremb (clinic).", "Oswin Tremb"),
    ("She follows with Dr Abdiş Pietrzyk at the clinic.", "Abdiş Pietrzyk"),
    ("Seen by Dr. Lee-Park today.", "Lee-Park"),
    ("Dr. Ann Lee Mercy Hospital", "Ann Lee"),
    ("Dr. Smith Tuesday at noon", "Smith"),
    # an inner capital after O', Mc or Mac
    ("Dr. Ann Lee and Dr. Oswin O'Tremb spoke with the family.", "Oswin O'Tremb"),
    ("Seen by Dr. McQuennell today.", "McQuennell"),
    ("Ann MacTremb-Loh, MD\nAttending", "Ann MacTremb-Loh"),
]
PERSON_NEGATIVES = [
    "Per Lee, MD the dose stays.",
    "Dictated by Dr Buchanan, MD",
    "Denies SI, HI.",
    "Case reviewed with the team, MD to follow.",
    "Dr. Lee CTs reviewed today.",
]


@pytest.mark.parametrize("text,expected", PERSON_POSITIVES)
def test_person_positive(nlp, text, expected):
    assert_found(nlp, text, expected, labels.DOCTOR)


@pytest.mark.parametrize("text", PERSON_NEGATIVES)
def test_person_negative(nlp, text):
    wrong = {"Per Lee", "Dr Buchanan", "SI", "HI", "Case", "Lee CTs"}
    assert not [t for t, lab in hits(nlp, text) if lab == labels.DOCTOR and t in wrong]


INSTITUTION_POSITIVES = [
    ("Deployed to Iraq twice.", "Iraq", labels.COUNTRY),
    ("Moved from Mexico in 2010.", "Mexico", labels.COUNTRY),
    ("Born in Bosnia and Herzegovina.", "Bosnia and Herzegovina", labels.COUNTRY),
    ("Served in the US Army 2066-2078.", "US Army", labels.ORGANIZATION),
    ("Joined the Army at 18.", "Army", labels.ORGANIZATION),
    ("Father was in the Marine Corps.", "Marine Corps", labels.ORGANIZATION),
    # a school, congregation or museum by its own name and its kind
    ("Her son attends Okeby Ridge Elementary now.", "Okeby Ridge Elementary", labels.ORGANIZATION),
    ("BA in design, Westmarch Polytechnic.", "Westmarch Polytechnic", labels.ORGANIZATION),
    ("Moved to Okeby Ridge Elementary School in May.", "Okeby Ridge Elementary School",
     labels.ORGANIZATION),
    ("Family attends New Dawn Fellowship weekly.", "New Dawn Fellowship", labels.ORGANIZATION),
    ("Volunteers at the Quennell Museum of Art.", "Quennell Museum", labels.ORGANIZATION),
]
INSTITUTION_NEGATIVES = [
    ("Lives in New Mexico now.", labels.COUNTRY),
    ("Visited Mexico City in May.", labels.COUNTRY),
    ("Fished in the Gulf of Mexico.", labels.COUNTRY),
    ("Her friend Jordan came.", labels.COUNTRY),
    ("Ate turkey and rice.", labels.COUNTRY),
    ('His son, Malcolm "Mali", visits.', labels.COUNTRY),
    ("An army of ants in the kitchen.", labels.ORGANIZATION),
    ("Her navy blue coat.", labels.ORGANIZATION),
    # a generic kind, a court, or a lower-case kind word
    ("Went to the Police Academy after college.", labels.ORGANIZATION),
    ("Took her to the Natural History Museum.", labels.ORGANIZATION),
    ("Hearing at Okeby District Court next week.", labels.ORGANIZATION),
    ("Attends a small Okeby academy.", labels.ORGANIZATION),
]


@pytest.mark.parametrize("text,expected,label", INSTITUTION_POSITIVES)
def test_institution_positive(nlp, text, expected, label):
    assert_found(nlp, text, expected, label)


@pytest.mark.parametrize("text,label", INSTITUTION_NEGATIVES)
def test_institution_negative(nlp, text, label):
    assert_absent(nlp, text, label)


def test_countries_that_are_names_or_words_are_left_to_the_ner():
    from spacy_deid.pipeline.phi_rules.fragments import _unambiguous_countries

    countries = set(_unambiguous_countries())
    assert {"Mexico", "Iraq", "Canada"} <= countries
    assert not {"Jordan", "Turkey", "Georgia", "Israel"} & countries


DEPARTMENT_CASES = [
    ("Inpatient stay at Mercy (Ward 4C) in May.", "Ward 4C"),
    ("TRANSFERRED TO WARD 12 TODAY", "WARD 12"),
    # named programs, clinics, teams and units on header lines
    ("Oakmere Medical Center\nYOUTH BIPOLAR DISORDERS PROGRAM - INTAKE NOTE\n", "YOUTH BIPOLAR DISORDERS PROGRAM"),
    ("Record date: today\nFirst Episode and Early Psychosis Program\nPatient: x", "First Episode and Early Psychosis Program"),
    ("Larch Street Health Center - Mood and Anxiety Clinic\nRecord date", "Mood and Anxiety Clinic"),
    ("Corran Hospital, Inpatient Eating Disorders Unit (5 North), bed 12", "Inpatient Eating Disorders Unit"),
]


@pytest.mark.parametrize("text,expected", DEPARTMENT_CASES)
def test_department_positive(nlp, text, expected):
    assert_found(nlp, text, expected, labels.DEPARTMENT)


@pytest.mark.parametrize("text", [
    "Went toward 7 people.", "Ward off 2 attacks", "Wardrobe 3 is full.",
    # generic team names alone, and program words inside running text or before a colon
    "Treatment Team\nDr. Ann Lee, attending", "Care Team\n", "Plan reviewed with the treatment team.",
    "She joined a Weight Loss Program in May.", "PROGRAM:\nweekly groups",
])
def test_department_negative(nlp, text):
    assert_absent(nlp, text, labels.DEPARTMENT)


@pytest.mark.parametrize("text,expected", ROOM_POSITIVES)
def test_room_positive(nlp, text, expected):
    assert_found(nlp, text, expected, labels.ROOM)


@pytest.mark.parametrize("text,expected,label", LOCATION_POSITIVES)
def test_location_positive(nlp, text, expected, label):
    assert_found(nlp, text, expected, label)


@pytest.mark.parametrize("text,label", LOCATION_NEGATIVES)
def test_location_negative(nlp, text, label):
    assert_absent(nlp, text, label)


# --- AGE ---------------------------------------------------------------------
AGE_POSITIVES = [
    ("Patient aged 82 years was seen.", "82", labels.AGE),
    ("He is a 42 yo man.", "42", labels.AGE),
    ("A 42-year-old woman.", "42", labels.AGE),
    ("A 42 year old woman.", "42", labels.AGE),
    ("A 7 y/o boy.", "7", labels.AGE),
    ("HPI: 35 y.o. female", "35", labels.AGE),
    ("An eighty-one-year-old widow.", "eighty-one", labels.AGE),
    ("Thirty-two-year-old man.", "Thirty-two", labels.AGE),
    ("Onset in her 40s after a move.", "40s", labels.AGE),
    ("Drank heavily in his late twenties.", "twenties", labels.AGE),
    ("Age: 67", "67", labels.AGE),
    ("First drink at age 13 with friends.", "13", labels.AGE),
    ("Moved here at the age of 9.", "9", labels.AGE),
    ("She was 52 years of age.", "52", labels.AGE),
    ("Enlisted at 18 after school.", "18", labels.AGE),
    ("Father died at fifty, of MI.", "fifty", labels.AGE),
    ("Moved when she was ten.", "ten", labels.AGE),
    ("He turned 21 in jail.", "21", labels.AGE),
    ("ID: 44M accountant", "44", labels.AGE),
    ("Sister Maya (47, nurse) helps.", "47", labels.AGE),
    ("Son (Tomas, 19, student) helps.", "19", labels.AGE),
    ("Two children (11, 6) at home.", "11", labels.AGE),
    ("Two children (11, 6) at home.", "6", labels.AGE),
    ("Has a sister (75) with asthma.", "75", labels.AGE),
    ("Her uncle (eight, a retired inspector) lives nearby.", "eight", labels.AGE),
    ("Lives with her brother (52, a roofer).", "52", labels.AGE),
    ("Worried about her mother, 60, who is ill.", "60", labels.AGE),
    ("Her father is 53 and lives nearby.", "53", labels.AGE),
    ("His brother, who is 57, helps out.", "57", labels.AGE),
    ("Ms. Doe, 53, a retired teacher.", "53", labels.AGE),
    ("Episodes at ages 9 and 21 resolved.", "21", labels.AGE),
    ("Cutting from age 13 to 18 only.", "18", labels.AGE),
    ("Age at first treatment: 15", "15", labels.AGE),
    ("Age/Sex - twenty-three", "twenty-three", labels.AGE),
]

AGE_NEGATIVES = [
    "Drank for 3 years, sober 2 years ago.",
    "Completed 12 years of schooling.",
    "Seen at 3 pm, again at 10:30.",
    "Started at 10 mg, now 20 mg.",
    "Rated anxiety at 7/10.",
    "Room for 3 weeks until lease ends.",
    "PHQ-9 score of 14 (moderate).",
    "Temp 99 F, afebrile otherwise.",
    "Stage 2 hypertension.",
    "At one point he left.",
    "Falls asleep at 2, wakes at 7.",
    "Her mother, who is ill, visits.",
    "His sister (see above) helps.",
    "Her sister (2nd of 3, married) helps.",
]


@pytest.mark.parametrize("text,expected,label", AGE_POSITIVES)
def test_age_positive(nlp, text, expected, label):
    assert_found(nlp, text, expected, label)


@pytest.mark.parametrize("text", AGE_NEGATIVES)
def test_age_negative(nlp, text):
    assert_absent(nlp, text, labels.AGE)


# --- DATE --------------------------------------------------------------------
DATE_POSITIVES = [
    ("Seen 3/14/2019 in clinic.", "3/14/2019", labels.DATE),
    ("Seen 3-14-19 in clinic.", "3-14-19", labels.DATE),
    ("Discharged 12/05/71; stable.", "12/05/71", labels.DATE),
    ("Record date: 2067-05-03", "2067-05-03", labels.DATE),
    ("Last labs 6/2019 were normal.", "6/2019", labels.DATE),
    ("Follow up on 4/7 with her.", "4/7", labels.DATE),
    ("No use since 1/6 (hospital).", "1/6", labels.DATE),
    ("RTC in 2 weeks (12/6).", "12/6", labels.DATE),
    ("Visit date: March 3, 2019", "March 3, 2019", labels.DATE),
    ("DATE OF NOTE: JUN 03, 2088", "JUN 03, 2088", labels.DATE),
    ("Seen Thursday, September 9, 2060 at home.", "Thursday, September 9, 2060", labels.DATE),
    ("Seen Mon 11/29/2083 at home.", "Mon 11/29/2083", labels.DATE),
    ("ED visit on May 21 after a fight.", "May 21", labels.DATE),
    ("Group starts Feb 3.", "Feb 3", labels.DATE),
    ("DOS: 3 Jan 2063", "3 Jan 2063", labels.DATE),
    ("Born 12-Jan-2000 in town.", "12-Jan-2000", labels.DATE),
    ("Started in August 2070 per records.", "August 2070", labels.DATE),
    ("Worse since August when he lost his job.", "August", labels.DATE),
    ("Drinking more in late March.", "March", labels.DATE),
    ("Calls every Sunday at noon.", "Sunday", labels.DATE),
    ("Attends group on Tuesdays.", "Tuesdays", labels.DATE),
    ("Drinks on Fri/Sat nights.", "Fri", labels.DATE),
    ("Drinks on Fri/Sat nights.", "Sat", labels.DATE),
    ("Spent Christmas alone.", "Christmas", labels.DATE),
    ("Estranged since Christmas 2088.", "Christmas 2088", labels.DATE),
    ("Panic attack on Labor Day.", "Labor Day", labels.DATE),
    ("Over Thanksgiving he relapsed.", "Thanksgiving", labels.DATE),
    ("Her husband died in spring of 2069.", "spring of 2069", labels.DATE),
    ("Declining since fall 2067.", "fall 2067", labels.DATE),
    ("Using more since this spring.", "spring", labels.DATE),
    ("Plans to return in the fall.", "fall", labels.DATE),
    ("Back to school for the spring semester.", "spring", labels.DATE),
    ("Diagnosed 2068 by neurology.", "2068", labels.DATE),
    ("Quit drinking in 2015.", "2015", labels.DATE),
    ("Served 2066-2078 in the Army.", "2066", labels.DATE),
    ("Served 2066-2078 in the Army.", "2078", labels.DATE),
    ("As a child in the 2030s.", "2030s", labels.DATE),
    ("Crack: last use 8/5", "8/5", labels.DATE),
    ("Next appt: 11/22 at 3 PM.", "11/22", labels.DATE),
    ("Visit Date: 7.7.84", "7.7.84", labels.DATE),
    ("Treated from 2044 to '48, then moved.", "'48", labels.DATE),
    ("Records (June) show the same.", "June", labels.DATE),
    ("Cigarettes: quit 2015\nLSD: none", "2015", labels.DATE),
    ("UNTIL AROUND MAY OF 2005 WHEN", "MAY OF 2005", labels.DATE),
    ("COURT DATE ON FEBRUARY 21ST THAT", "FEBRUARY 21ST", labels.DATE),
    ("LAST TUESDAY SHE DID NOT GO.", "TUESDAY", labels.DATE),
    ("SOBER SINCE MAY. RELAPSED IN DEC AND JAN.", "MAY", labels.DATE),
    ("SOBER SINCE MAY. RELAPSED IN DEC AND JAN.", "DEC", labels.DATE),
    ("SEEN IN MAR WHEN SHE FELL.", "MAR", labels.DATE),
]

DATE_NEGATIVES = [
    # in capitals, the verb and the charting short forms, not the months
    "THIS MAY BE DUE TO PRESSORS.",
    "PLAN TO DEC TF RATE.",
    "DOSES GIVEN AS PER MAR LIST.",
    "BP 120/80 and 148/94.",
    "Depakote 500/250 mg.",
    "Pain 9/10 today, anxiety (7/10).",
    "MMSE 13/30 (was 19/30).",
    "Takes 1/2 tab at night.",
    "Supervision 24/7, oriented x3.",
    "Drank for 3 weeks in a row.",
    "Seen at 10:30 and again at 7 pm.",
    "Completed 12 years of school.",
    "Had a fall at home last week.",
    "May need a higher dose.",
    "Sodium 136, glucose 2000 mg/dL rechecked.",
    "Room 2012 on the unit.",
    "Dx F43.10, ICD 296.32.",
    "Takes 1500 mg daily.",
    "Stopped at 2100 hours.",
    "Penelope Sunday is a 30 yo woman.",
    "Transfer of care from Dr June Roe.",
    "Signed: Vikram Friday, MD",
    # a season naming a kind of time or thing: a habit, not a date
    "Lives up north in the summer months.",
    "During the winter break he stayed home.",
    "Went to summer camp as a child.",
    "Pt Name: Ada April",
    "Starts IOP at Easter Institute soon.",
]


@pytest.mark.parametrize("text,expected,label", DATE_POSITIVES)
def test_date_positive(nlp, text, expected, label):
    assert_found(nlp, text, expected, label)


@pytest.mark.parametrize("text", DATE_NEGATIVES)
def test_date_negative(nlp, text):
    assert_absent(nlp, text, labels.DATE)


# --- text glued together by EHR exports ----------------------------------------
# The regexes find the PHI inside glued text; the package tokenizer
# (conjoined-token splitter) makes its edges token boundaries.
GLUED_POSITIVES = [
    ("Link https://care.example.org/v/8KQ2-77TDSession IP", "https://care.example.org/v/8KQ2-77TD", labels.URL),
    ("Email:a.b-c@mail.example.comPhone:", "a.b-c@mail.example.com", labels.EMAIL),
    ("Name DoeMRN:1234567DOB:01/02/2060", "1234567", labels.MEDICALRECORD),
    ("MRN:QRS-7654321Age:40", "QRS-7654321", labels.MEDICALRECORD),
    ("Student ID:XY2090-12345DOB:", "XY2090-12345", labels.IDNUM),
    ("Sex:MAge:31Race:", "31", labels.AGE),
    ("DOB:02/27/2073Age:29", "02/27/2073", labels.DATE),
    ("Signed 06/08/206203:15", "06/08/2062", labels.DATE),
]


@pytest.fixture(scope="module")
def nlp_deid():
    if "spacy-deid.Tokenizer.v1" not in spacy.registry.tokenizers:
        pytest.skip("the package tokenizer is not available")
    nlp = spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": "spacy-deid.Tokenizer.v1"}}})
    nlp.add_pipe("deid_phi_rules")
    nlp.initialize()
    return nlp


@pytest.mark.parametrize("text,expected,label", GLUED_POSITIVES)
def test_glued_positive(nlp_deid, text, expected, label):
    assert_found(nlp_deid, text, expected, label)


PROFESSION_CASES = [
    ("ID: 61 yo married high school shop teacher, no psych hx", "high school shop teacher"),
    ("He is a 28 yo single backend software developer at a bank.", "backend software developer"),
    ("She is a 67 yo never-married retired library cataloger who lives alone.", "library cataloger"),
    ("A 32-year-old divorced electrician with low mood.", "electrician"),
    ("55 yo F actuary, referred by PCP.", "actuary"),
]


@pytest.mark.parametrize("text,expected", PROFESSION_CASES)
def test_profession_positive(nlp, text, expected):
    assert_found(nlp, text, expected, labels.PROFESSION)


@pytest.mark.parametrize("text", [
    # a family role, no occupation word, an occupation not right after the age line's words
    "45 yo married mother of two, presents with low mood.",
    "19 yo college student with anxiety.",
    "He is a 70 year old retired Navy veteran.",
    "32 yo man with depression; his brother is a teacher.",
    "Takes 20 mg at bedtime; teacher called.",
])
def test_profession_negative(nlp, text):
    assert_absent(nlp, text, labels.PROFESSION)


# --- the fragments file ------------------------------------------------------------


@pytest.mark.parametrize(
    "line,message",
    [
        ('{"name": "lower", "regex": "a"}', "expected an object with an UPPER_SNAKE_CASE"),
        ('{"name": "GOOD_NAME", "regex": 3}', "'regex' must be a string"),
    ],
)
def test_a_bad_fragment_line_names_the_file_and_line(tmp_path, monkeypatch, line, message):
    from spacy_deid.data_files import DataFileError
    from spacy_deid.pipeline.phi_rules import fragments

    path = tmp_path / "phi_fragments.jsonl"
    path.write_text('{"name": "OK", "regex": "a"}\n' + line + "\n", encoding="utf-8")
    monkeypatch.setattr(fragments, "FRAGMENTS_FILE", path)
    with pytest.raises(DataFileError) as err:
        fragments._written_fragments()
    assert f"line 2: {message}" in str(err.value) and "phi_fragments.jsonl" in str(err.value)


def test_a_fragment_written_and_built_is_an_error(tmp_path, monkeypatch):
    from spacy_deid.pipeline.phi_rules import fragments

    path = tmp_path / "phi_fragments.jsonl"
    path.write_text('{"name": "MONTH_FULL", "regex": "a"}\n', encoding="utf-8")
    monkeypatch.setattr(fragments, "FRAGMENTS_FILE", path)
    with pytest.raises(fragments.FragmentError, match="MONTH_FULL"):
        fragments._all_fragments()


def test_every_written_fragment_says_why_or_is_plain():
    from spacy_deid.pipeline.phi_rules import fragments

    rows = [json.loads(line) for line in fragments.FRAGMENTS_FILE.read_text().splitlines() if line]
    assert len({r["name"] for r in rows}) == len(rows)
    groups = {"boundaries", "dates", "ages", "contact", "identifiers", "locations", "names"}
    assert {r["group"] for r in rows} <= groups
    assert set(fragments.FRAGMENTS) >= {r["name"] for r in rows}
