"""Non-PHI vocabulary for the notes: drugs, doses, symptoms, scores.

Many of these are traps on purpose: numbers that look like dates or IDs
(blood pressure 120/80, "500/250", "9/10 pain"), durations, eponymous
diseases. They are never annotated.
"""
DRUGS = (
    "sertraline", "fluoxetine", "escitalopram", "citalopram", "paroxetine", "venlafaxine",
    "duloxetine", "bupropion", "mirtazapine", "trazodone", "lithium", "lamotrigine",
    "valproate", "divalproex", "carbamazepine", "oxcarbazepine", "quetiapine", "olanzapine",
    "risperidone", "aripiprazole", "ziprasidone", "lurasidone", "haloperidol", "clozapine",
    "paliperidone", "lorazepam", "clonazepam", "alprazolam", "diazepam", "buspirone",
    "hydroxyzine", "gabapentin", "prazosin", "propranolol", "methylphenidate",
    "amphetamine salts", "atomoxetine", "guanfacine", "clonidine", "naltrexone",
    "buprenorphine", "buprenorphine/naloxone", "methadone", "disulfiram", "acamprosate",
    "Zoloft", "Prozac", "Lexapro", "Celexa", "Paxil", "Effexor", "Cymbalta", "Wellbutrin",
    "Remeron", "Seroquel", "Zyprexa", "Risperdal", "Abilify", "Latuda", "Haldol", "Ativan",
    "Klonopin", "Xanax", "Adderall", "Ritalin", "Suboxone", "Depakote", "Lamictal",
    "Tegretol", "Neurontin", "Vistaril", "Ambien", "melatonin", "levothyroxine",
    "metformin", "lisinopril", "atorvastatin", "omeprazole", "albuterol", "ibuprofen",
)
DOSES = ("5 mg", "10 mg", "12.5 mg", "20 mg", "25 mg", "37.5 mg", "40 mg", "50 mg", "75 mg",
         "100 mg", "150 mg", "200 mg", "300 mg", "400 mg", "450 mg", "600 mg", "900 mg",
         "0.5 mg", "1 mg", "2 mg", "0.25 mg", "1200 mg", "15 mg", "30 mg", "8 mg/2 mg")
FREQUENCIES = ("daily", "BID", "TID", "QHS", "q AM", "q6h PRN", "twice a day", "at bedtime",
               "every morning", "PRN anxiety", "qd", "q8h", "nightly")
COMBO_DOSES = ("Augmentin 500/125", "Augmentin 875/125 mg", "amoxicillin-clavulanate 500/125",
               "Percocet 5/325", "Norco 10/325", "hydrocodone/APAP 5/325 mg", "Sinemet 25/100",
               "carbidopa-levodopa 25/250", "Advair 250/50", "Symbicort 160/4.5", "Suboxone 8/2 mg",
               "buprenorphine-naloxone 8/2", "Zubsolv 5.7/1.4", "losartan-HCTZ 100/25",
               "lisinopril-HCTZ 20/12.5", "Bactrim DS 800/160", "Janumet 50/500", "Vytorin 10/20")
SYMPTOMS = (
    "low mood", "anhedonia", "poor sleep", "early morning awakening", "decreased appetite",
    "increased appetite", "poor concentration", "fatigue", "guilt", "hopelessness",
    "irritability", "racing thoughts", "decreased need for sleep", "pressured speech",
    "impulsivity", "panic attacks", "constant worry", "nightmares", "flashbacks",
    "hypervigilance", "avoidance", "auditory hallucinations", "paranoia",
    "ideas of reference", "social withdrawal", "tearfulness", "psychomotor slowing",
    "anxiety", "obsessive thoughts", "checking behaviors", "binge eating", "restricting",
    "self-injurious behavior", "cutting", "passive death wish", "mood swings",
    "anger outbursts", "low energy", "feelings of worthlessness", "derealization",
)
DIAGNOSES = (
    "major depressive disorder, recurrent, severe", "major depressive disorder, single episode",
    "bipolar I disorder, most recent episode depressed", "bipolar II disorder",
    "generalized anxiety disorder", "panic disorder", "posttraumatic stress disorder",
    "obsessive-compulsive disorder", "schizophrenia", "schizoaffective disorder, bipolar type",
    "alcohol use disorder, severe", "opioid use disorder, in early remission",
    "cannabis use disorder, moderate", "cocaine use disorder", "ADHD, combined type",
    "borderline personality disorder", "adjustment disorder with depressed mood",
    "persistent depressive disorder", "social anxiety disorder", "anorexia nervosa",
    "bulimia nervosa", "unspecified psychotic disorder", "insomnia disorder",
    "autism spectrum disorder", "unspecified neurocognitive disorder",
)
MEDICAL = (
    "hypertension", "type 2 diabetes", "asthma", "hypothyroidism", "migraines", "GERD",
    "chronic back pain", "obesity", "hyperlipidemia", "seizure disorder", "hepatitis C",
    "HIV", "sleep apnea", "irritable bowel syndrome", "fibromyalgia", "COPD", "anemia",
    "traumatic brain injury", "chronic kidney disease", "psoriasis", "eczema",
)
SUBSTANCES = ("Alcohol", "Tobacco", "Cannabis", "Marijuana", "Cocaine", "Crack", "Heroin",
              "Opiates", "Prescription opioids", "Benzodiazepines", "Stimulants",
              "Methamphetamine", "Hallucinogens", "LSD", "MDMA", "Ecstasy", "PCP", "Inhalants",
              "Caffeine", "Nicotine vaping", "Kratom", "K2/Spice", "Gambling")
SUBSTANCE_VALUES = ("no", "No", "denies", "Denies", "none", "never", "neg", "no use",
                    "occasional", "socially", "rare", "daily", "tried once", "in remission",
                    "remote use", "past use, none in 5 years", "quit 2 years ago", "yes", "Yes",
                    "+", "-", "not assessed", "experimented in high school", "denies current use")
DURATIONS = ("for 2 weeks", "for the past 3 months", "for about 6 weeks", "for several years",
             "for 10 days", "x 2 years", "over the last 4-5 months", "for 1 year",
             "for the past 18 months", "for 3 days", "for several weeks", "for 20 years",
             "x 6 months", "for 48 hours", "over the past 2 weeks")
MSE_LINES = (
    ("Appearance", ("well-groomed, appropriately dressed", "disheveled, malodorous",
                    "casually dressed, fair hygiene", "appears stated age, good hygiene",
                    "thin, poor eye contact", "obese, wearing hospital gown")),
    ("Behavior", ("calm, cooperative", "guarded but cooperative", "restless, fidgety",
                  "psychomotor retardation", "good eye contact, engaged", "intrusive at times")),
    ("Speech", ("normal rate, volume and tone", "soft, slow", "pressured, loud",
                "spontaneous, fluent", "latent, decreased prosody", "rapid but interruptible")),
    ("Mood", ('"depressed"', '"anxious"', '"okay"', '"not good"', '"tired"', '"fine"',
              '"stressed out"', '"angry"')),
    ("Affect", ("constricted, tearful", "dysthymic, congruent", "euthymic, full range",
                "labile", "flat", "anxious, reactive", "irritable", "blunted")),
    ("Thought process", ("linear, goal-directed", "circumstantial", "tangential at times",
                         "disorganized", "logical", "loose associations")),
    ("Thought content", ("no SI/HI, no delusions", "passive SI without plan or intent",
                         "preoccupied with finances", "paranoid ideation about neighbors",
                         "ruminative about breakup", "denies SI, HI, AH, VH")),
    ("Perception", ("denies AH/VH", "endorses AH of a critical voice", "no evidence of RTIS",
                    "not responding to internal stimuli")),
    ("Cognition", ("alert and oriented x3", "A&O x 4", "grossly intact", "MoCA 26/30",
                   "MMSE 28/30", "attention intact, recalls 3/3 at 5 minutes", "oriented x2")),
    ("Insight", ("fair", "limited", "good", "poor", "partial")),
    ("Judgment", ("fair", "impaired", "good", "poor", "improving")),
)
TIMES = ("3:15 PM", "10:30 am", "0830", "14:45", "9 AM", "noon", "11:20 p.m.", "7:05",
         "1600", "2 pm")

# ICD-10 codes shown next to diagnoses: code-shaped, never PHI.
ICD10 = {
    "major depressive disorder, recurrent, severe": "F33.2",
    "major depressive disorder, single episode": "F32.9",
    "bipolar I disorder, most recent episode depressed": "F31.30",
    "bipolar II disorder": "F31.81", "generalized anxiety disorder": "F41.1",
    "panic disorder": "F41.0", "posttraumatic stress disorder": "F43.10",
    "obsessive-compulsive disorder": "F42.2", "schizophrenia": "F20.9",
    "schizoaffective disorder, bipolar type": "F25.0", "alcohol use disorder, severe": "F10.20",
    "opioid use disorder, in early remission": "F11.21", "cannabis use disorder, moderate": "F12.20",
    "cocaine use disorder": "F14.20", "ADHD, combined type": "F90.2",
    "borderline personality disorder": "F60.3", "adjustment disorder with depressed mood": "F43.21",
    "persistent depressive disorder": "F34.1", "social anxiety disorder": "F40.10",
    "anorexia nervosa": "F50.01", "bulimia nervosa": "F50.2", "unspecified psychotic disorder": "F29",
    "insomnia disorder": "G47.00", "autism spectrum disorder": "F84.0",
    "unspecified neurocognitive disorder": "R41.9",
}
BILLING = ("CPT 90791", "CPT 90792", "90792", "99205", "CPT 90837 + 90785", "Time spent: 60 minutes",
           "Total time 75 min, >50% counseling", "Billing code 90791")
