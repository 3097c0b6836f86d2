"""Attribute-value line templates ("MRN: 1234567", "Cocaine: no"), by pool.

Same conventions as sentences.py: ids by position, halves alternate,
append at the end. A field line is "<attribute><separator><value>"; the
separator (": ", ":", " - ", tab) is chosen by the layout.
"""
from .template import make_pool

# pool name -> (attribute, value) templates, made into FIELD_POOLS below;
# "|" inside [] chooses the attribute spelling.
_FIELD_SOURCES = {
    "header": (
        ("[Patient Name|Patient|Name|Pt Name|PATIENT]", "{pt_header}"),
        ("[MRN|Medical Record #|MR#|Med Rec No|Unit No|Medical Record Number]", "{id:mrn}"),
        ("[DOB|Date of Birth|D.O.B.|Birth Date]", "{date:dob}"),
        ("[Date of Service|DOS|Date of Evaluation|Visit Date|Date|Date of Intake|Admission Date]", "{date:visit}"),
        ("[Age|AGE|Age/Sex]", "{age}"),
        ("[Attending|Attending Psychiatrist|Clinician|Evaluator|Provider|Author]", "{dr:att/full_cred}"),
        ("[Location|Facility|Site|Clinic]", "{hosp:here}"),
        ("[Unit|Service|Department|Program]", "{dept}"),
        ("[Room|Bed|Rm]", "{room}"),
        ("[Referral source|Referred by|Referring provider|Referral]", "[{dr:new}|{dr:pcp}|self|{org}|{dr_hosp:new}]"),
        ("[PCP|Primary Care|Primary care physician]", "{dr:pcp}"),
        ("[Outpatient psychiatrist|Psychiatrist]", "{dr:psych}"),
        ("[Therapist|Outpatient therapist|Counselor]", "{dr:ther}"),
        ("[Accompanied by|Informants|Source of information]", "[patient and {his} {rel} {rel_name}|self|{his} {rel}, {rel_name}|patient, chart, {dr:any}]"),
        ("[Insurance|Payer|Insurance ID|Member ID]", "[Medicaid|Medicare|BCBS|Tufts|Aetna|self-pay] [#|ID] {id:healthplan}"),
        ("[Phone|Home phone|Cell|Contact number|Tel]", "{phone}"),
        ("[Emergency contact|Next of kin|NOK]", "{rel_name} ({rel}) {phone}"),
        ("[Address|Home address]", "{address}"),
        ("[SSN|Social Security #|SS#]", "{id:ssn}"),
        ("[Account #|Acct|Billing account|Account number]", "{id:account}"),
        ("[Encounter #|Visit ID|CSN|Order #]", "{id:idnum}"),
        ("[Language|Primary language]", "[English|Spanish|Portuguese|Haitian Creole|Vietnamese|Mandarin|Cape Verdean Creole]"),
        ("[Sex|Gender]", "[{sex}|{he:male}|{sex}]"),
        ("[Legal status|Status]", "[voluntary|Section 12|conditional voluntary|CV]"),
        ("[Marital status]", "[single|married|divorced|separated|widowed]"),
        ("[Occupation|Employment]", "[{prof}|{prof} at {org:employer}|unemployed|disabled|retired {prof}]"),
        ("[Email|E-mail]", "{email:pt}"),
        ("[Time|Time seen|Time in]", "{time}"),
        ("[Fax|Fax #|Clinic fax]", "{phone:fax}"),
        ("[Encounter IDs|Visit #s|Order numbers|Ref #]", "{ids}"),
        ("[Portal username|Patient portal ID|MyChart user]", "{username:pt}"),
        ("[Telehealth IP|Connected from IP|Session IP|Remote IP]", "{ip}"),
        # second spellings of rare identifiers, so that both template halves have them
        ("[Hospital #|Chart #|Patient ID|MR]", "{id:mrn}"),
        ("[Soc Sec #|SSN#|SS No.]", "{id:ssn}"),
        ("[Acct #|Financial #|FIN]", "{id:account}"),
        ("[Policy #|Subscriber ID|Plan ID]", "{id:healthplan}"),
        ("[Specimen #|Lab accession #]", "{id:bioid}"),
        ("[Room #|Bed #|Bed/Room]", "{room}"),
        ("[Implant serial|Device serial|Pacemaker serial #]", "{id:device}"),
        ("[Prescriber DEA|Provider license]", "{id:license}"),
    ),

    "substance": (
        ("{substance}", "{subst_value}"),
        ("[Alcohol|ETOH|EtOH]", "[{subst_value}|1-2 drinks/week|3-4 beers on weekends|a pint of vodka daily|{num:1-12} drinks/day, last drink {date:recent}|started at age {age:teen}, heaviest use in {date:year}|none since {date:past}]"),
        ("[Cocaine|Crack|Heroin|Opiates|Benzos]", "[{subst_value}|last use {date:recent}|used from {date:year} to {date:year}|first use at age {age:teen}]"),
        ("[Cannabis|Marijuana|THC]", "[{subst_value}|2-3 joints/day|daily since age {age:teen}|{num:1-5} joints/day, last {date:weekday}]"),
        ("[Tobacco|Nicotine|Cigarettes]", "[{subst_value}|1 ppd|1/2 ppd|{num:10-40} pack-years|{num:1-2} ppd {duration}|quit {date:year}]"),
        ("[Longest sobriety|Longest period of sobriety]", "[{duration}|{date:past} to {date:past}|never]"),
        ("[Detox history|Prior detoxes]", "[none|{num:1-9}, last at {hosp} {date:year}|{hosp:new} {date:month_year}]"),
        ("[IVDU|IV drug use]", "[denies|no|yes, last {date:past}|never]"),
        ("[Withdrawal history|History of withdrawal]", "[no seizures or DTs|seizure in {date:year}|denies]"),
    ),

    "mse_free": (
        ("[Orientation|Oriented]", "[x3|x 3|to person, place, time|to self only]"),
        ("[Memory|Recall]", "[2/3 at 5 minutes|3/3 immediate, 2/3 delayed|intact|impaired]"),
        ("[Attention|Concentration]", "[serial 7s intact|WORLD backwards correct|DLROW|impaired]"),
        ("[Fund of knowledge]", "[average|adequate|below average]"),
        ("[Abstraction]", "[concrete|intact|proverbs interpreted appropriately]"),
        ("[Vitals|VS]", "{vitals}"),
        ("[Pain]", "{scale}"),
        ("[BP|Blood pressure]", "{bp}"),
    ),

    "ros": (
        ("[Constitutional|General]", "[denies fevers, chills|fatigue|weight loss of 10 lbs|negative]"),
        ("[Cardiovascular|CV]", "[palpitations with panic|denies chest pain|negative]"),
        ("[Neuro|Neurological]", "[headaches|tremor|denies seizures|negative]"),
        ("[GI]", "[nausea|constipation on clozapine|negative]"),
        ("[Sleep]", "[initial insomnia|4-5 hours/night|hypersomnia|nightmares]"),
        ("[Appetite]", "[decreased|increased|unchanged|poor]"),
        ("[Energy]", "[low|decreased|good|variable]"),
    ),

    "signature": (
        ("[Electronically signed by|Signed|Signed by|Attending]", "{dr:att/full_cred} [on|] {date:visit} [at|] {time}"),
        ("[Pager|Pgr|Beeper|Pager #]", "{phone:pager}"),
        ("[Cosigned by|Supervising physician|Reviewed with]", "{dr:new/full_cred}"),
        ("[Clinic phone|Office|Phone]", "{phone:ext}"),
        ("[Fax|Fax number]", "{phone:fax}"),
        ("[License|License #|DEA #|NPI]", "{id:license}"),
        ("[cc|CC|Copy to]", "{dr:pcp}, {hosp:new}"),
        ("[Dictated by|Transcribed by]", "{dr:att/initials}/{dr:new/initials}"),
        ("[Department]", "{dept}, {hosp:here}"),
        ("[Email|Provider email]", "{email:dr}"),
        ("[Billing|Service|Visit type]", "{billing}"),
        ("[Staff ID|Provider ID|Employee #]", "{id:idnum}"),
        ("[License #|Lic #|MA license]", "{id:license}"),
    ),

    "labs": (
        ("[Labs|Lab results] ({date:recent})", "[Na 139, K 4.1, Cr 0.9|TSH 2.1, B12 450|WBC 7.2, Hgb 13.5, Plt 240|AST 45, ALT 52, GGT 88|UDS positive for THC|BAL 0.12]"),
        ("[Specimen|Sample ID|Accession #]", "{id:bioid}"),
        ("[EKG|ECG]", "[QTc {num:400-480} ms on {date:recent}|NSR, QTc {num:400-470}|not done]"),
        ("[Head CT|MRI brain]", "[negative ({date:past})|unremarkable {date:year}|not done]"),
    ),

    # Attribute-value variants of narrative sections (many intake forms are
    # questionnaires rendered as "Attribute: value" lines).
    "psych_fields": (
        ("[Previous diagnoses|Prior diagnoses|Past diagnoses]", "{dx}[; {dx}|]"),
        ("[Hospitalizations|Psychiatric hospitalizations|Inpatient admissions]", "[none|{hosp} {date:year}|{hosp} ({date:month_year}), {hosp:new} ({date:year})|{num:2-9}, most recently {hosp} {date:past}]"),
        ("[Suicide attempts|Suicide attempt history|Past attempts]", "[none|denies|overdose {date:year}|{num:1-4}, last {date:past} by overdose|cut wrists at age {age:teen}]"),
        ("[Self-injurious behavior|SIB|Self-harm]", "[none|cutting from age {age:teen} to {age:teen}|denies|burning, last {date:year}]"),
        ("[Outpatient treatment|Outpatient providers|Current treaters]", "[{dr:psych} (psychiatrist), {dr:ther} (therapist)|{dr_hosp:psych}|none|{dr:ther} at {hosp:new}]"),
        ("[Past medication trials|Medication trials|Prior meds]", "{drug}, {drug}, {drug}"),
        ("[Violence|History of violence]", "[none|fights in high school|assault charge {date:year}|denies]"),
        ("[ECT/TMS|ECT]", "[none|ECT at {hosp} {date:year}|TMS {date:past}]"),
        ("[Age at first treatment|First psychiatric contact]", "[{age:teen}|age {age:event}|{date:year}]"),
    ),
    "social_fields": (
        ("[Born|Birthplace|Place of birth]", "[{city_state:birth}|{country:birth}|{city:birth}, {country:birth}]"),
        ("[Raised by|Raised]", "[parents|mother|grandparents|{his} {rel:grandmother} {rel_name}|{his} {rel:aunt} {rel_name}|foster care] [in {city}|]"),
        ("[Education|Highest level of education|School]", "[{school_years} years|high school diploma|GED|some college at {org:school}|BA from {org:school} ({date:year})|graduated {org:school} {date:year}]"),
        ("[Employment|Work|Occupation|Current job]", "[{prof}|{prof} at {org:employer}|unemployed since {date:past}|on disability since {date:year}|retired {prof}]"),
        ("[Marital status|Relationship status|Relationships]", "[single|married to {person} since {date:year}|divorced ({date:year})|long-term partner {person}|widowed]"),
        ("[Children|Kids]", "[none|{num:1-4}, ages {age:child} and {age:child}|son ({age:child})|daughter {person}, {age:child}]"),
        ("[Living situation|Lives with|Housing]", "[alone in {city:home}|with {his} {rel} in {city:home}|shelter|with roommates|with {his} {rel} {rel_name}]"),
        ("[Military|Military history|Military service]", "[none|{org:military}, {date:year} to {date:year}|denies|{org:military}, deployed to {country}]"),
        ("[Religion|Spirituality|Faith]", "[Catholic|none|Baptist|Jewish|Muslim|{org:church}|spiritual]"),
        ("[Legal|Legal history|Legal issues]", "[none|OUI {date:year}|on probation until {date:future}|pending charges]"),
        ("[Trauma|Trauma history|Abuse history]", "[denies|physical abuse by father|sexual abuse at age {age:event}|witnessed DV as a child]"),
        ("[Hobbies|Interests|Leisure]", "[fishing|reading|music|none currently|video games|walking {his} dog]"),
        ("[Supports|Social supports]", "[{his} {rel} {rel_name}|few|church|AA sponsor {person}|friends]"),
        ("[Finances|Income]", "[SSDI|SSI|employed|unemployment|supported by family]"),
        ("[Guns|Firearms|Access to weapons]", "[none|denies|hunting rifle at {his} {rel}'s home]"),
        ("[Transportation|Car|Vehicle]", "[none|bus|own car (plate {id:vehicle})|{his} {rel}'s car|drives, plate {id:vehicle}]"),
    ),
    "dx_axes": (
        ("Axis I", "{dx}[; {dx}|]"),
        ("Axis II", "[deferred|none|cluster B traits|borderline personality disorder|V71.09]"),
        ("Axis III", "[{medical}|none|{medical}, {medical}|deferred]"),
        ("Axis IV", "[problems with primary support group|occupational problems|housing problems|economic problems|legal problems|moderate psychosocial stressors]"),
        ("Axis V", "[GAF {num:25-70}|GAF = {num:25-70}|current GAF {num:25-65}, highest past year {num:50-80}]"),
    ),

    # --- phenomenon families (families.py): header and signature lines, "fam_<family>_line" ---------
    "fam_department_line": (
        ("[Department|Dept|Service|Program|Unit|Division|Clinic]", "{dept_name}"),
        ("[DEPARTMENT|SERVICE|PROGRAM|UNIT]", "{dept_name:upper}"),
        ("[Location|Site]", "{dept_name}, {hosp:here}"),
        ("[Service/Unit|Unit/Room|Location]", "{dept_name}, {room_line}"),
        ("[Team|Treatment team|Attending service]", "{dept_name}"),
        ("[Program|Level of care|Clinic]", "[{dept_name:lower}|{dept_name:title}]"),
    ),
    "fam_room_line": (
        ("[Location|Bed assignment|Current location]", "{room_line}"),
        ("[Unit/Bed|Bed|Room]", "{dept_name}[ -|,] {room_line}"),
        ("[Seen in|Visit location]", "{room_line:bare}"),
        ("[Location|Loc]", "{hosp:here}, {room_line}"),
    ),
    "fam_signature_block_line": (
        ("[Electronically signed by|Signed|E-signed by|Attending]", "{doc_name:att/last_first_cred}[ {uid}|]"),
        ("[cc|CC|Copies to|Distribution]", "{doc_name:pcp/last_first_mi}; {doc_name:new/last_first_cred}"),
        ("[Treatment team|Team members]", "{doc_name:att/last_first_cred} (attending), {doc_name:new/last_first_mi} [(resident)|(NP)|(SW)]"),
        ("[Dictated by|Author|Note by]", "{doc_name:att/upper_last_first_cred} {uid}"),
        ("[Cosigner|Supervising]", "{doc_name:new/last_first} {uid}"),
        ("[Reviewed by|Co-signed]", "{doc_name:new/last_first_mi} {uid}"),
    ),
    "fam_cued_identifier_line": (
        ("[Ref|Reference|Related]", "{cued_id}"),
        ("[Order|Study|Imaging]", "{cued_id:accession}"),
        ("[Court|Legal]", "{cued_id:case}"),
        ("[Prior auth|Authorization]", "{cued_id:claim}"),
    ),

    # --- other note types (layouts 012-021) -------------------------------------------------------
    "discharge": (
        ("[Admission date|Date of admission|Admitted]", "{date:recent}"),
        ("[Discharge date|Date of discharge|Discharged]", "{date:visit}"),
        ("[Discharge diagnosis|Discharge diagnoses|Final diagnosis]", "{dx}[; {dx}|]"),
        ("[Discharged to|Disposition]", "[home with {his} {rel}|{hosp:new}|a sober house in {town}|shelter|{dept_name}]"),
        ("[Discharge attending|Attending of record]", "{doc_name:att/last_first_cred}"),
        ("[Condition at discharge|Condition]", "[stable|improved|fair]"),
        ("[Length of stay|LOS]", "{num:3-30} days"),
        ("[Unit|Service]", "{dept_name}"),
        ("[Patient|Name]", "{pt_header}"),
        ("[MRN|Unit No]", "{id:mrn}"),
    ),
    "followup": (
        ("[Psychiatry|Medication management|Psychiatrist]", "{dr:new/full_cred}, {dept_name}, {date:future} at {time}[, {room_line}|]"),
        ("[Therapy|Therapist|Counseling]", "{dr:ther} at {hosp:new} on {date:future}"),
        ("[PCP|Primary care]", "{dr:pcp}, {date:future}[, {phone}|]"),
        ("[Program|IOP|PHP]", "{dept_name} at {hosp:new}, starting {date:future}"),
        ("[Labs|Lithium level|Blood work]", "{trap:dur} at {hosp:here}"),
    ),
}
FIELD_POOLS = {name: make_pool(name, sources) for name, sources in _FIELD_SOURCES.items()}
