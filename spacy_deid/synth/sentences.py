"""Narrative sentence templates, by pool (see template.py for the syntax).

Pools are lists; a template's id is `pool.NNN` by position and its half
alternates A/B, so append new templates at the end of a pool. Slots are
documented in slots.py. Sentences stay generic: no sentence, name, place
or number here is taken from any evaluation note.
"""
from .template import make_pool

POOLS = {}


def pool(name, *sources):
    POOLS[name] = make_pool(name, sources)


pool(
    "id_intro",
    "{pt} is a {age:yo} [single|married|divorced|separated|widowed] {he:man} [with a history of {dx}|with no prior psychiatric history|with a long history of {dx}] who [presents|presented|was referred|comes in] [for an intake evaluation|for initial psychiatric evaluation|to establish care|for evaluation of {symptom}].",
    "[Patient|Pt] is a {age:yo} [white|Black|Hispanic|Asian|biracial|Caucasian|Latina|Latino|Haitian-American|Vietnamese-American] {he:male} [who lives in {city:home}|living in {city_state:home}|from {city:home}] [with {his} {rel}|alone|with roommates|in a group home|in a sober house].",
    "{pt_formal} is a {age}-year-old [retired|unemployed|employed|disabled|recently separated|recently divorced] {he:man} [referred by {dr:pcp}|self-referred|referred by {his} therapist, {dr:ther}|brought in by {his} {rel}] for [worsening depression|anxiety|evaluation of mood|medication management|psychotic symptoms|substance use].",
    "This is a {age:yo} {he:man}, [currently working as a {prof}|employed as a {prof} at {org:employer}|on disability, previously a {prof}|a former {prof}], [presenting with|who reports] {symptom} and {symptom}.",
    "ID: {age:yo} [M|F|{he:male}], [single|married|divorced], [domiciled|lives] in {city:home}, [employed|works] as a {prof}.",
    "{pt} is a {age:yo} [SWM|SWF|MWM|MWF|DWM|DWF|{he:man}] [who was seen|seen] [today|on {date:visit}] [in the {dept}|at {hosp:here}|at the {dept} of {hosp:here}].",
    "{pt_header} is a {age:yo} [mother of two|father of three|graduate student|veteran|retiree|{prof}] [from {country}|born in {country:birth}|originally from {city_state:birth}] who [immigrated in {date:year}|moved to {city:home} in {date:year}|has lived in {state:home} since {date:year}].",
    "{age:yo} {he:male} with [h/o|hx of|PMH significant for] {dx} and {medical}, [presenting|admitted|transferred from {hosp:new}] [on {date:recent}|{date:recent}|after {date:weekday}] [for|with] {symptom}.",
)

pool(
    "cc",
    '"[I can\'t sleep|I have been really down|I need help with my drinking|My anxiety is through the roof|I don\'t want to be here anymore|My doctor told me to come|I keep hearing things|I need to get back on my meds|I\'ve been having panic attacks|Everything is falling apart]."',
    '"[I just can\'t get out of bed|I have no energy for anything|I\'m scared all the time|I\'m not crazy, my {rel} made me come|I want to stop using|Things have been bad since {date:holiday}]"',
    "[Depression|Anxiety|Worsening mood|Suicidal ideation|Insomnia|Panic attacks|Paranoia|Alcohol use|Medication evaluation] {duration}.",
    '[Referred by|Per] {dr:new} for evaluation of {symptom} and {symptom}.',
    "[Patient states|Pt reports|In {his} words]: \"[I've been stressed since I lost my job at {org:employer}|My {rel} is worried about me|I started feeling this way last {date:bare_season}|Ever since {date:month} I haven't been myself]\".",
    "[Establish care|Transfer of care] from {dr:psych} [at|of] {hosp}.",
)

pool(
    "hpi",
    "[{pt}|{he:He}|The patient|Pt] reports {symptom} [that began|starting] [around|in|on] {date:past}, [in the context of|following|after] [a breakup|the death of {his} {rel}|job loss|financial stress|a move to {city}|an injury at work|a conflict with {his} {rel}].",
    "[{he:He}|{pt}] [describes|endorses|notes] {symptom}, {symptom}, and {symptom} {duration}.",
    "[Symptoms|These symptoms] [worsened|intensified|became much worse] [after|around] {date:holiday}[, when {he}| and {he}] [stopped taking {drug}|lost {his} housing|relapsed on alcohol|was left by {his} {rel}].",
    "[On|Last] {date:weekday} {he} [had a panic attack at work|called {his} {rel} {rel_name} crying|went to the {dept} at {hosp:new}|did not go to work|stayed in bed all day].",
    "{he:He} rates {his} [mood|anxiety|depression] as {scale} [today|this week|at its worst] and [reports|notes] {his} pain is {scale}.",
    "[{he:He} was seen|Pt was evaluated] in the [{dept} at {hosp:new}|ED at {hosp}] on {date:recent} [after|following] [an overdose of {drug}|a fight with {his} {rel}|expressing suicidal thoughts to {his} {rel}|a panic attack] and was [discharged|referred here|advised to follow up with outpatient psychiatry].",
    "[Per|According to] {his} {rel} {rel_name}, [{he} has been isolating|{he} has not been eating|{he} has been up all night|{he} has been talking to himself|things got worse] since {date:past}.",
    "{he:He} [denies|reports] {symptom} and [denies|endorses] {symptom}.",
    "[Sleep is|Sleep has been] [poor|fragmented|about 4 hours a night|10-12 hours a day] {duration}; appetite [is decreased|is increased|is variable] with a [15|20|10|30] lb weight [loss|gain] since {date:month}.",
    "[{he:He} started|Pt began] {drug} {dose} {freq} [with {dr:pcp}|prescribed by {dr:pcp}|in {date:year}] and [found it helpful|had no benefit|stopped due to side effects|self-discontinued] after [2|3|6|8] weeks.",
    "[Since|Starting in] {date:season}, {he} has [been unable to work as a {prof}|missed many classes at {org:school}|been drinking more|withdrawn from friends|had trouble concentrating].",
    "[{he:He} reports|Pt notes] passive thoughts of death [since|around] {date:past} but denies plan or intent.",
    "[{he:He} last used|Last use was] [cocaine|alcohol|heroin|cannabis|pills] on {date:recent} [at a friend's apartment in {city}|with {person}|alone at home|at a party].",
    "[The patient|{he:He}] [was recently discharged|was released] from {hosp} on {date:recent} after a [5|7|10|14|21]-day [admission|stay] for {dx}.",
    "[{he:He} describes|Reports] [a stressful|a difficult|an overwhelming] [few months|year|summer] at {org:employer}, where {he} [works|worked] as a {prof} [until {date:past}|for the past 3 years|since {date:year}].",
    "{he:He} [moved|relocated] from {city_state} to {city:home} in {date:month_year} [to be closer to {his} {rel}|for a job|after {his} divorce|after being evicted].",
    "Anxiety [is|has been] [worst|most severe] in the mornings and at night; [{he} has|{he} reports] panic attacks [2-3 times a week|daily|every few days] lasting [5-10|15-20|about 30] minutes.",
    "{he:He} [was in his usual state of health|was doing well|felt stable] until [around|approximately] {date:past}[ when {he} began to experience {symptom}| when {his} {rel} was diagnosed with {eponym}].",
    "[Of note,|Notably,] {he} [called|texted] {his} therapist {dr:ther} on {date:weekday} [stating|saying] {he} [\"could not go on\"|felt unsafe|wanted to stop treatment].",
    "[Over|During] the past [week|month], {he} [has had|reports] {symptom} [nearly every day|most days|on and off].",
    "[{he:He} reports|The patient endorses] {symptom} [that is worse|that worsened] [around the anniversary of {his} {rel}'s death on {date:past}|since the assault in {date:month_year}|since returning from {country}].",
    "[This is|It is] {his} [first|second|third] [episode|presentation] of [depression|mania|psychosis|this kind]; the [first|prior] episode was in {date:year} [at age {age:event}|when {he} was {age:event}|in college].",
    "{he:He} spent {date:holiday} [alone|with {his} {rel}|in {city}|at {his} {rel}'s home in {city_state}] and [felt worse afterwards|drank heavily|had a conflict with family].",
    "[{he:He} drove|{he:He} took a bus] to {loc} on {date:recent} [intending to jump|to \"clear {his} head\"|and sat there for hours] before [calling 911|calling {his} {rel}|being found by police].",
    "[Around|In] {date:past} [{he} began|{he} started] hearing a [voice|male voice|female voice] [that comments on|criticizing|telling {him} to hurt] {him}[; {he} believes it belongs to {person}|].",
    "[Stressors|Current stressors] [include|are] [finances|housing|custody issues with {his} ex|{his} {rel}'s illness|pending court date on {date:future}|work conflict at {org:employer}].",
    "[{he:He} presented|Presented] to [the|an] [urgent care|walk-in clinic|{dept}] on {date:weekday} with chest pain; [work-up|EKG] was negative and {he} was told it was anxiety.",
    "[{he:He} tried|{he:He} has tried] therapy with {dr:ther} [at|through] {hosp:new} [for about a year|in {date:year}|briefly in {date:month_year}] [but stopped when {his} insurance changed|and found it helpful|without much benefit].",
    "{he:He} drinks [2-3|4-5|6-8] beers [a night|on weekends|daily], [last drink|most recently] {date:recent}, and denies history of withdrawal seizures or DTs.",
    "[{he:He} has been|{he:He} was] on leave from {org:employer} since {date:recent} [at the recommendation of {dr:pcp}|after a conflict with {his} manager|due to panic attacks].",
)

pool(
    "past_psych",
    "[{he:He} was first|First] [hospitalized|admitted psychiatrically] at {hosp} in {date:year} [at age {age:event}|after a suicide attempt|for mania|for psychosis].",
    "[Prior hospitalizations|Previous admissions]: {hosp} ({date:year}), {hosp:new} ({date:past}), [and {hosp:new} ({date:year})|].",
    "[{he:He} has|History of] [one|two|three|several|no] prior suicide attempt[s|][, most recently by overdose on {drug} in {date:month_year}|, the first at age {age:teen}|].",
    "[{he:He} was treated|Treated] by {dr:psych} [at|of] {hosp} from {date:year} to {date:year} [for depression|for ADHD|with medication management].",
    "[Outpatient treaters|Current treaters]: psychiatrist {dr:psych}; therapist {dr:ther}; PCP {dr:pcp}.",
    "[{he:He} denies|No] history of psychiatric hospitalization[ but was seen in the ED at {hosp:new} in {date:year}|].",
    "[{he:He} was diagnosed with|Diagnosed with] [ADHD|depression|bipolar disorder|an eating disorder|OCD] [at age {age:event}|as a teenager|in {date:year}] by {dr:new}[ {hosp:new}|].",
    "[{he:He} has a history of|Hx] self-injurious behavior ([cutting|burning|scratching]) [starting at age {age:teen}|from age {age:teen} to {age:teen}|in high school], last in {date:past}.",
    "[{he:He} attended|Completed] a [partial hospital program|PHP|IOP|residential program] at {hosp} in {date:past}[ and followed up with {dr_hosp:any}|].",
    "ECT: [none|{num:6-12} treatments at {hosp} in {date:year} with good response|declined when offered in {date:year}].",
    "[Seen|Evaluated] by {dr_hosp:any} [in {date:year}|{date:past}|last {date:bare_season}] [for a second opinion|for a medication consult|for neuropsychological testing].",
    "[Past diagnoses|Prior diagnoses]: {dx}; {dx}.",
)

pool(
    "med_trials",
    "{drug} {dose} {freq} [({date:year})|- stopped {date:past}|- {duration}|- ineffective|- weight gain|- sexual side effects|- helpful].",
    "{drug} [up to|titrated to] {dose} [with partial response|without benefit|- stopped due to nausea|- caused akathisia].",
    "{drug} {dose} {freq}, [prescribed by {dr:psych}|started {date:recent}|last filled {date:recent}|per {dr:pcp}].",
    "{drug} {dose} {freq}",
    "{combo} {freq} [for pain|for infection|PRN|as needed|per PCP]",
    "[Lithium|Depakote] level [0.6|0.8|1.1|72|88] on {date:recent}.",
)

pool(
    "substance_narr",
    "[{he:He} began|First] drinking [at age {age:teen}|in high school|at {age:teen}] and [drank heavily|binge drank] [through college|in {his} 20s|until {date:year}].",
    "[{he:He} has|History of] [no|one|two|multiple] detox admissions, [most recently at {hosp} in {date:month_year}|the last at {hosp:new} {date:past}|].",
    "[{he:He} smokes|Smokes] [1 ppd|half a pack a day|1/2 ppd|10 cigarettes a day] {duration} ([20|15|30|40] pack-years).",
    "[{he:He} was sober from|Sober] {date:past} [to|until] {date:recent} [with AA|with the help of {his} sponsor {person}|after treatment at {hosp}].",
    "[{he:He} attends|Attends] AA meetings at {org:church} [on {date:weekday}s|weekly|3 times a week] [and has a sponsor|].",
    "[{he:He} denies|Denies] IV drug use[, cocaine, or other illicit drugs|]; [last|most recent] cannabis use {date:recent}.",
    "[{he:He} was|Was] on methadone [at {hosp:new}|through a clinic in {city}] from {date:year} to {date:year}, now on buprenorphine/naloxone {dose} {freq}.",
)

pool(
    "medical_narr",
    "[PMH|Medical history] [is significant for|includes] {medical}, {medical}, and {medical}.",
    "[{he:He} follows with|PCP is] {dr:pcp} at {hosp:new} [for|who manages {his}] {medical}.",
    "[{he:He} had|History of] [a concussion|a head injury|loss of consciousness] [in a car accident in {date:year}|playing football at age {age:teen}|during an assault in {date:past}].",
    "[{his} {rel} has|Family history notable for] {eponym}[; no personal history of seizures|].",
    "[{he:He} was evaluated|Evaluated] for {eponym} by {dr:new} [in {date:year}|at {hosp:new}], which was [ruled out|not confirmed|felt unlikely].",
    "[{he:He} has|Has] [a pacemaker|a vagus nerve stimulator|an insulin pump|a cochlear implant] (serial {id:device}) placed [in {date:year}|at {hosp:new}].",
    "[Allergies|Allergy]: [NKDA|penicillin (rash)|sulfa|codeine (nausea)|none known].",
    "[Last physical exam|Last PCP visit|Last labs] {date:past}[; up to date on vaccines|; no acute issues|].",
)

pool(
    "family_hx",
    "{his:His} {rel:family} [has|had|suffers from] [depression|bipolar disorder|schizophrenia|alcoholism|anxiety|{eponym}|dementia][ and was hospitalized at {hosp:new}| and died by suicide in {date:year}| and committed suicide at age {rel_age}|].",
    "[Maternal|Paternal] [grandmother|grandfather|aunt|uncle] with {eponym}.",
    "[{his} {rel:family}|{his:His} {rel:mother}], {rel_name}, [is|was] a {rel_prof} [in {rel_city}|who lives in {rel_city}|now retired].",
    "{his:His} {rel:family} ({rel_age}) [is healthy|has {medical}|struggles with alcohol|is estranged from the family].",
    "[{he:He} reports|Reports] that {his} {rel:family} [used drugs|drank heavily|was abusive] and [left the family when {he} was {age:event}|died in {date:year} of an overdose|was incarcerated in {state}].",
    "No family history of [suicide|psychosis|substance use|mental illness] [that {he} is aware of|known].",
    "[Family history|FHx] [is notable for|includes] {dx} in {his} {rel:family} and {eponym} in a grandparent.",
    "{his:His} {rel:family}, a {rel_age}-year-old {rel_prof}, [was diagnosed with|has] [bipolar disorder|depression|OCD] [and takes lithium|and is stable on medication|but refuses treatment].",
)

pool(
    "social",
    "{he:He} was born in {city_state:birth} and raised [by {his} {rel:mother}|by both parents|by {his} grandparents|in foster care] [in {city}|].",
    "[{he:He} was born|Born] in {country:birth} and [came to the US|immigrated to the United States|moved to {city_state}] [at age {age:event}|in {date:year}|as a teenager].",
    "[{he:He} completed|Completed] {school_years} years of school[ and graduated from {org:school} in {date:year}| and left {org:school} in the 11th grade|].",
    "[{he:He} graduated|Graduated] from {org:school} [with a degree in [nursing|business|engineering|psychology|history]|] in {date:year} and [worked as a {prof}|became a {prof}|worked as a {prof} at {org}].",
    "[{he:He} currently works|Currently works|{he:He} is employed] as a {prof} at {org:employer}[, a job {he} has held since {date:year}|, on the night shift|, part-time|].",
    "[{he:He} lives|Lives] with {his} {rel}, {rel_name}, [who works as a {rel_prof}|a {rel_prof}|who is {rel_age}] [in an apartment in {city:home}|in {city:home}|in a house in {city_state:home}].",
    "[{he:He} has|Has] [two|three|one] [children|kids] ([ages {age:child} and {age:child}|a son, {age:child}, and a daughter, {age:child}|{age:child}]) [who live with {his} ex-wife in {city}|who live with {him}|who are in DCF custody].",
    "[{he:He} was married|Married] to {person} from {date:year} to {date:year}; [they divorced|the marriage ended] [after {his} relapse|amicably|because of domestic violence].",
    "[{he:He} served|Served] in {org:military} from {date:year} to {date:year}[, including a deployment to {country}|, honorably discharged|] and [works|worked] as a {prof} after discharge.",
    "[{he:He} identifies as|Religion:] [Catholic|Baptist|Muslim|Jewish|Christian|spiritual but not religious] and attends {org:church} [in {city:home}|weekly|on holidays].",
    "[{he:He} enjoys|Hobbies include] [fishing|painting|video games|hiking at {loc}|basketball|music|gardening] [and volunteers at {org:church}|with {his} friend {person}|].",
    "[{he:He} is|Currently] [on SSDI|unemployed|receiving unemployment|on medical leave] since {date:past}; previously [worked as a {prof} for {num:2-20} years|a {prof} at {org}].",
    "[{he:He} has|Has] a [girlfriend|boyfriend|partner] of [two|five|several] years, {person}, [who is a {prof:new}|who is supportive|with whom {he} argues frequently].",
    "[{he:He} was|Was] [evicted|homeless] in {date:year} and [stayed at {loc}|lived in {his} car|couch-surfed in {city}] [for a few weeks|until {date:recent}].",
    "[Home address|{he:He} lives at] {street} in {city:home}[, {zip}|].",
    "[{his} {rel:mother}|{his:His} {rel}] [is|was] a {rel_prof} and {his} [father|stepfather] [worked as a {prof:new}|was a {prof:new}] [in {city}|for {org}|].",
    "[{he:He} worked|Worked] [as a|as an] {prof} [for|at] {org} [until {date:past}|from {date:year} to {date:year}|for about {num:2-15} years] [and then|before] [was laid off|quit|became a {prof:new}].",
    "{he:He} [spends time with|is close to] {his} {rel} {rel_name}[, who lives in {rel_city}|], and a friend, {person}.",
)

pool(
    "developmental",
    "[Born|{he:He} was born] [full term|at 34 weeks|premature] [at {hosp:new}|in {city_state:birth}] [without complications|via C-section|after a difficult pregnancy].",
    "[Developmental milestones|Milestones] were [met on time|delayed for speech|reportedly normal]; [{he} repeated|repeated] [1st|3rd|7th] grade [at {org}|].",
    "[{he:He} had|Had] an IEP [for ADHD|for a learning disability|starting in 4th grade] at {org:school}[ and was evaluated by {dr:new}|].",
    "[{he:He} was|Was] [bullied in middle school|a good student until high school|suspended at age {age:teen}|in special education classes] [at {org}|].",
    "[{he:He} describes|Describes] {his} childhood as [chaotic|happy|lonely|unstable] [with frequent moves between {city} and {city}|and {he} lived with {his} {rel} in {city}|].",
)

pool(
    "legal",
    "[{he:He} was arrested|Arrested] [for OUI|for assault|for possession|for shoplifting] in {date:year}[ in {city}| at age {age:event}|] and [served probation|served {num:3-24} months|charges were dropped].",
    "[{he:He} has|Has] a court date on {date:future} [in {city} District Court|for a restraining order hearing|regarding custody].",
    "[{he:He} is|Currently] on probation [until {date:future}|through {date:year}]; probation officer is {person}[ ({phone})|].",
    "[No legal history|Denies legal history|No arrests or convictions][.|; no pending charges.]",
    "[{his} license was suspended|License suspended] after a DUI on {date:past}; [vehicle|car] [plate|registration] {id:vehicle} was [impounded|towed].",
    "[{he:He} has|There is] a restraining order [against {his} ex-partner {person}|taken out by {his} {rel}] [since {date:past}|issued {date:recent}].",
)

pool(
    "trauma",
    "[{he:He} reports|Reports] [physical|sexual|emotional] abuse by a [uncle|stepfather|neighbor|babysitter|coach] [from age {age:event} to {age:event}|at age {age:event}|as a child].",
    "[{he:He} witnessed|Witnessed] [domestic violence|a shooting|{his} {rel}'s overdose] [as a child|in {date:year}|at age {age:event}] [in {city}|].",
    "[{he:He} was|Was] [assaulted|mugged|in a serious car accident] on {date:past} [near {loc}|in {city}|on the way home from {org:employer}].",
    "[{he:He} denies|Denies] history of [trauma|abuse] [other than|except] [the death of {his} {rel} in {date:year}|a car accident in {date:year}|bullying].",
)

pool(
    "risk",
    "[{he:He} denies|Denies] [current|active] SI, HI, [intent|plan] [or access to firearms|and contracts for safety|].",
    "[Risk factors|Static risk factors] include [prior attempts|male sex|{his} age|chronic illness|substance use|recent loss|family history of suicide] and [impulsivity|hopelessness|social isolation|access to {drug}].",
    "[Protective factors|Protective factors include] [{his} children|religious faith|future orientation|engagement in treatment|support from {his} {rel}|{his} job at {org:employer}].",
    "[Firearms|Guns]: [none in the home|{his} {rel} keeps a hunting rifle, which will be removed|denies access].",
    "[Overall|Acute] risk [is assessed as|judged to be] [low|moderate|high|low to moderate] [and {he} is appropriate for outpatient care|; inpatient level of care recommended|].",
    "[Safety plan|A safety plan] [reviewed|completed] [with {him}|with {him} and {his} {rel} {rel_name}] [on {date:visit}|today]; [crisis line 988 provided|{he} has the crisis line number|crisis line {phone} provided|emergency numbers reviewed].",
    "[{he:He} reports|Reports] last suicidal thoughts [on|around] {date:recent} [while intoxicated|after an argument with {his} {rel}|at night].",
    "C-SSRS: [negative|positive for passive ideation|wish to be dead, no plan]. PHQ-9 score [12|18|22|7|15]; GAD-7 [9|14|19|6].",
)

pool(
    "formulation",
    "{pt} is a {age:yo} {he:man} with {dx} who presents with {symptom} {duration} in the setting of [job loss|relationship stress|ongoing substance use|medication nonadherence|a move to {city}].",
    "[In summary|Summary], {pt_formal} is a {age}-year-old [{prof}|{he:man}] [with symptoms most consistent with {dx}|whose presentation is consistent with {dx}], [complicated by|without] {medical}.",
    "[{his} symptoms appear|The current episode appears] [triggered|worsened] by [the loss of {his} {rel}|stress at {org:employer}|a recent move|{his} {rel}'s illness with {eponym}].",
    "[Differential includes|DDx]: {dx}[ and {dx}|, {dx}, and substance-induced mood disorder|, {dx}, and medical causes such as thyroid disease].",
    "[Diagnosis|Dx|DSM-5]: {dx}; {dx}[; rule out {dx}|].",
)

pool(
    "plan",
    "[Start|Begin] {drug} {dose} {freq}[ and titrate to {dose} in 1 week|, risks and benefits discussed|].",
    "[Continue|Cont] {drug} {dose} {freq}[; decrease {drug} to {dose}|].",
    "[Refer|Referred] to [therapy with|individual therapy with] {dr:ther} [at {hosp:new}|at {hosp}|in {city}].",
    "[Follow up|F/u|RTC] [with {dr:att}|with me|with {dr:psych}] [in 2 weeks|in 4 weeks|in 1 month] [on|(] {date:future}[)|].",
    "[Labs|Check] [CBC, CMP, TSH|lithium level and BMP|A1c and lipids] [today|prior to next visit|on {date:future}].",
    "[Records|Prior records] requested from {hosp} [(fax {phone:fax})|; fax {phone:fax}|].",
    "[Coordinate|Will coordinate] care with {dr:pcp}[ ({phone})|||] and {his} therapist {dr:ther}[ ({phone:ext})|||].",
    "[Patient|{he:He}] [was given|was provided] [the clinic number|our number][ {phone}|||] [and the crisis line|and the after-hours line][ 988|| 988| {phone}][ and instructed to call 911 or go to the nearest ED if unsafe|].",
    "[Next appointment|Next appt]: {date:future} at {time} with {dr:att}.",
    "[Discussed|Encouraged] [AA|NA|SMART Recovery|DBT skills group] [at {org}|at {hosp:new}|] [on {date:weekday}s|weekly].",
    "[Letter|Note] for work ({org:employer}) [provided|completed] [excusing {him} through {date:future}|for FMLA paperwork].",
    "[Case management|CM] referral for [housing|benefits|transportation] [to {org:agency}|through {org:agency}]; {person}[ ({phone})|||] is {his} current case worker.",
    "[Admit|Admission] to {dept} [at {hosp:here}|], [room|bed] {room}, [on a voluntary basis|under Section 12|pending bed availability].",
)

pool(
    "collateral",
    "[Collateral|Spoke with] [obtained from|] {his} {rel} {rel_name}[ ({phone})|||] [on {date:visit}|today|by phone], who [confirms the history|reports {he} has been more irritable|is worried about {his} drinking|notes that {he} has not slept in days].",
    "[Collateral from|Per] {dr:psych} [at|of] {hosp}: [{he} missed several appointments since {date:past}|compliant with medication|last seen {date:recent}].",
    "[Left a message for|Called] {his} [therapist|case manager|PCP] {dr:any}[ at {phone:ext}| on {phone}|||][; awaiting call back|].",
    "[{his} {rel}|{his:His} {rel}], {rel_name}, [states|reports] that {he} [has been giving away belongings|told {rel_name} {he} \"wanted to die\"|has been sleeping all day] since {date:weekday}.",
)

pool(
    "telehealth",
    "[Visit conducted|This visit was conducted] via [video|telehealth|Zoom] [with {him} at home in {city:home}|from {his} car|from {his} {rel}'s house in {city_state}]; [connection|session] [IP {ip}|from IP address {ip}|logged from {ip}].",
    "[Patient portal message|Message] from [username|user] {username:pt} [received|sent] on {date:recent} [at {time}|].",
    "[{he:He} can be reached|Contact] [by e-mail at|via email:] {email:pt} [or {phone}|].",
    "[{he:He} shared|Shared] [a link to|] [{his} blog|a support group website|an article] [at|:] {url}.",
    "[Resources given|Handout]: {url}[ and {url}|].",
)

# --- sentences without PHI (most of a real note), traps included ---------------------------
pool(
    "hpi_plain",
    "[{he:He}|The patient|Pt] [reports|describes|endorses] [worsening|persistent|fluctuating] {symptom} {duration}.",
    "[{he:He} notes|{he:He} reports|Reports] that [{his} sleep has been poor|{he} wakes up at 3 or 4 in the morning|{he} has trouble falling asleep|{he} sleeps 12 hours and still feels tired].",
    "[{he:He} denies|Denies] [manic symptoms such as|symptoms of mania including] decreased need for sleep, grandiosity, or pressured speech.",
    "[{he:He} has|Has] [lost interest in|stopped enjoying] [activities {he} used to enjoy|music|cooking|going out with friends|exercise] and [spends most days|spends much of the day] [in bed|watching TV|on {his} phone].",
    "[{he:He} describes|Describes] {his} mood as [\"numb\"|\"empty\"|\"on edge\"|\"up and down\"|\"heavy\"] and rates it {scale}, with 10 being the best {he} has felt.",
    "[Anxiety|Worry] [is|has been] [present most days|constant|worse in social situations] and [interferes with|affects] {his} [work|sleep|relationships].",
    "[{he:He} endorses|Endorses] [guilt|worthlessness|hopelessness] and [poor concentration|difficulty making decisions], [but|and] [denies|reports] thoughts of self-harm.",
    "[{he:He} reports|Reports] [taking|that {he} takes] {drug} {dose} {freq} [with partial benefit|as prescribed|inconsistently|but misses doses several times a week].",
    "[Panic attacks|Episodes] [are characterized by|involve] [palpitations, shortness of breath, and tingling|chest tightness and a fear of dying|sweating and shaking] and last [about 10 minutes|several minutes|up to an hour].",
    "[{he:He} has been|Has been] [drinking|using cannabis|using] more [to cope|to sleep|to manage anxiety] {duration}.",
    "[{he:He} denies|No] [AH/VH|hallucinations], [paranoia|ideas of reference], or [thought insertion|thought broadcasting].",
    "[{he:He} reports|Reports] a [{num:10-30} lb weight loss|{num:10-40} pound weight gain] {duration} [without trying|related to poor appetite|with increased snacking at night].",
    "[Energy|{his:His} energy] is [low|very low|fair], and {he} [struggles to|has difficulty] [complete tasks at home|keep up with work|care for {his} children].",
    "[The patient|{he:He}] [was|is] [tearful|guarded|irritable|calm] [during the interview|throughout the evaluation] and [became tearful|appeared anxious] when discussing {his} family.",
    "[{he:He} reports|Reports] {his} [pain|back pain|headaches] [as|at] {scale} [today|on most days], which [worsens|affects] {his} mood.",
    "[{he:He} has not|Has not] [been able to work|left the house much|seen friends] {duration}.",
    "[Symptoms|These symptoms] [have|had] [gradually|steadily] [worsened|improved somewhat] [over the past several weeks|since starting medication|despite therapy].",
    "[{he:He} notes|Notes] [increased|worsening] irritability[, snapping at {his} family|, including yelling at coworkers|] and [feels guilty afterwards|has punched a wall].",
    "[{he:He} endorses|Endorses] [nightmares|intrusive memories|flashbacks] [several times a week|nightly|when reminded of the event] and [avoids|tries to avoid] [crowds|driving|talking about it].",
    "[{he:He} describes|Describes] [obsessive thoughts|intrusive worries] about [contamination|harm coming to family|making mistakes] and [checks locks|washes {his} hands] [many times a day|for up to 2 hours daily].",
    "[Sleep|{his:His} sleep] [is|has been] [about|approximately] {num:3-6} hours [per night|a night] with [frequent awakenings|early morning awakening|nightmares].",
    "[{he:He} denies|Denies] [recent|any] [binge eating|purging|restricting], though {he} [skips meals|eats once a day] when stressed.",
    "[{he:He} drinks|Drinks] [{num:2-6} cups of coffee|several energy drinks] [per day|daily] and [smokes|vapes] [when anxious|throughout the day].",
    "[{he:He} acknowledges|Acknowledges] [that {his} drinking has caused problems|missing work because of hangovers|driving after drinking] [but|and] [wants to cut down|is ambivalent about stopping|is interested in treatment].",
    "[{he:He} spends|Spends] [most of {his} time|hours each day] [ruminating about|thinking about] [{his} past mistakes|the breakup|money|{his} health].",
)

pool(
    "psych_plain",
    "[{he:He} has|Has] [been in outpatient treatment|had therapy] [on and off|intermittently] [for many years|since adolescence|since {his} early 20s].",
    "[{he:He} has|Has] tried [several|multiple|two] antidepressants [without lasting benefit|with partial response|but could not tolerate side effects].",
    "[{he:He} denies|Denies] [any|prior] [psychiatric hospitalizations|suicide attempts|self-harm] [and has never been in treatment|].",
    "[{he:He} reports|Reports] [a history of|] [cutting|self-harm] [in adolescence|as a teenager] but none [in many years|as an adult|recently].",
    "[{he:He} was|Was] [previously|once] [diagnosed|told {he} had] [ADHD|bipolar disorder|borderline personality disorder|PTSD] but [disagrees with|is unsure about] this diagnosis.",
    "[{he:He} reports|Reports] [{num:1-4}|several|many] [prior|past] [psychiatric admissions|ED visits for suicidal thoughts] [, the last one|] [more than a year ago|several years ago].",
    "[Medication adherence|Adherence] has been [poor|inconsistent|good|fair], [in part due to|largely because of] [side effects|cost|forgetfulness|ambivalence about medication].",
)

pool(
    "social_plain",
    "[{he:He} completed|Completed] {school_years} years of school and [describes {himself} as|was] [an average student|a strong student|a struggling student].",
    "[{he:He} has|Has] [a few close friends|few friends|a supportive network of friends|no close friends] and [spends time|socializes] [mostly online|with coworkers|with family].",
    "[{he:He} denies|Denies] [access to firearms|owning guns] and [lives|resides] in [an apartment|a house|a rented room|a group residence].",
    "[{he:He} describes|Describes] {his} relationship with {his} [parents|family|siblings] as [close|strained|distant|conflictual].",
    "[{he:He} has|Has] [never been married|been married for {num:2-30} years|been divorced for {num:1-10} years] and [has no children|has {num:1-4} children].",
    "[Finances are|Money is] [tight|a major stressor|stable], and {he} [receives disability|relies on {his} family|works two jobs|has significant debt].",
    "[{he:He} is|Is] [an avid reader|a runner|a gamer|musically inclined|a skilled cook] and [used to play guitar|still runs daily|cooks for {his} family|paints on weekends].",
    "[{he:He} denies|No] [military history|history of military service].",
    "[{he:He} reports|Reports] [spending|that {he} spends] [about|roughly] {num:2-10} hours a day [on social media|playing video games|watching TV].",
    "[{he:He} drives|Does not drive] and [relies on|uses] [public transportation|rides from family|the bus] [to get to appointments|for errands].",
    "[{he:He} left|Left] school in [the 10th|the 11th|the 9th|the 12th] grade and later [earned a GED|completed a GED|did not complete a GED].",
)

pool(
    "family_plain",
    "[Family history|FHx] [is significant for|includes] [depression in {his} mother|alcohol use disorder in {his} father|anxiety on both sides|bipolar disorder in a sibling].",
    "[{he:He} is|Is] [unsure of|unaware of] [much of|] {his} [biological family's|father's side's] [psychiatric|medical] history.",
    "[{his} parents|{his:His} parents] [divorced when {he} was young|remain married|separated after years of conflict].",
    "[{he:He} has|Has] [one|two|three|four] [siblings|brothers|sisters] and is [the oldest|the youngest|a middle child].",
    "[Maternal|Paternal] [uncle|aunt|grandfather] [with|had] [{eponym}|alcoholism|schizophrenia|suicide|depression].",
)

pool(
    "risk_plain",
    "[{he:He} denies|Denies] [suicidal ideation, intent, or plan|current SI/HI|thoughts of harming {himself} or others].",
    "[{he:He} endorses|Endorses] [passive SI|fleeting thoughts of not waking up] but [denies|no] [active plan or intent|intent or preparatory behavior].",
    "[{he:He} is|Is] future oriented, [citing|and cites] [{his} children|{his} pets|{his} faith|plans to return to school] as reasons for living.",
    "[Means restriction|Lethal means] [was discussed|counseling provided]; [{he} agreed to|plan to] [give medications to family|remove firearms from the home|lock up medications].",
    "[{he:He} has|Has] [no|a remote] history of violence [and denies homicidal ideation|toward others|].",
    "[{he:He} knows|Knows] to call 988 or 911 or go to the nearest emergency room if [{he} feels unsafe|thoughts worsen|{he} has thoughts of suicide].",
    "[Risk|{his:His} risk] is [elevated|mitigated] by [{his} recent discharge|ongoing substance use|engagement in care|strong family support].",
)

pool(
    "formulation_plain",
    "[{his} presentation|The presentation] is [most consistent with|suggestive of] {dx}, [with|and] [comorbid|co-occurring] {dx}.",
    "[Contributing factors|Predisposing factors] include [family history of mood disorder|early trauma|chronic stress|substance use|medical illness].",
    "[Perpetuating factors:|Perpetuating factors include] [ongoing substance use|isolation|poor sleep|unemployment|medication nonadherence].",
    "[{he:He} would benefit from|Recommend] [medication management|psychotherapy|a higher level of care|an intensive outpatient program] [and close follow-up|].",
    "[Rule out|R/O] [substance-induced mood disorder|thyroid disease|{eponym}|a neurocognitive disorder].",
    "[{his} cognitive symptoms|Memory complaints] are [likely|probably] related to depression rather than {eponym}, [though|but] [neuropsychological testing may help|this will be monitored].",
)

pool(
    "plan_plain",
    "[Increase|Titrate] {drug} [to|by] {dose} [daily|at bedtime|BID].",
    "[Discussed|Reviewed] risks, benefits, and alternatives of {drug}; [{he} agrees to start|{he} prefers to wait|{he} consents].",
    "[Psychoeducation|Education] provided regarding [sleep hygiene|the diagnosis|medication side effects|alcohol and medication interactions].",
    "[Return to clinic|Follow-up] in [2|3|4|6] weeks[ or sooner as needed|].",
    "[Encourage|Encouraged] [regular exercise|AA attendance|abstinence from alcohol|a regular sleep schedule].",
    "[Safety plan|Crisis plan] [reviewed|updated]; [{he} will call 988|{he} knows to go to the ED] if [unsafe|symptoms worsen].",
    "[Obtain|Check] [BMP|CBC|TSH|lipid panel|A1c|EKG for QTc] [prior to starting|before titrating] {drug}.",
    "[Hold|Discontinue|Taper off] {drug} [given|because of] [sedation|weight gain|lack of benefit|interaction concerns].",
    "[Referral|Refer] to [DBT|CBT for insomnia|group therapy|neuropsychological testing|vocational rehabilitation].",
    "[Continue|Cont] {drug} {dose} {freq}.",
)

pool(
    "substance_plain",
    "[{he:He} denies|Denies] [use of|using] [cocaine, heroin, or other illicit drugs|IV drugs|prescription misuse].",
    "[{he:He} reports|Reports] drinking [{num:2-12} drinks|{num:1-3} bottles of wine|{num:6-18} beers] [per week|on weekends|most nights] {duration}.",
    "[{he:He} has|Has] [never had|no history of] [withdrawal seizures|DTs|blackouts], [but|and] [reports|denies] morning drinking.",
    "[{he:He} smokes|Smokes] cannabis [daily|a few times a week|nightly] [to sleep|for anxiety|recreationally] {duration}.",
    "CAGE [0/4|1/4|2/4|3/4|4/4]; AUDIT-C [score of |]{num:0-12}.",
)


def extend(name, *sources):
    """Append templates to an existing pool (ids continue, halves alternate)."""
    start = len(POOLS[name])
    POOLS[name].extend(make_pool(name, ("",) * start + sources)[start:])


# --- ages, countries and states, which real intake notes mention often ------------------------
extend(
    "hpi_plain",
    "[{he:He} first|First] [experienced|noticed] [depression|anxiety|panic attacks|mood swings] [at age {age:teen}|at {age:teen}|around age {age:event}|when {he} was {age:event}].",
    "[{he:He} started|Started] drinking at age {age:teen} and [smoking cannabis|using pills] at {age:teen}.",
    "[{he:He} reports|Reports] similar episodes at ages {age:event} and {age:event}, [each lasting several months|both after losses|which resolved without treatment].",
    "[{his} {rel}|{his:His} {rel}], who is {rel_age}, [has been|is] [{his} main support|worried about {him}|staying with {him}].",
    "[{he:He} returned|Returned] from [a trip to|visiting family in|a deployment in] {country} [{num:2-11} months|{num:2-6} weeks|a year] ago[ and has had jet lag and poor sleep since|].",
    "[{he:He} has been thinking about|Describes worry about] [{his} {rel} in {country}|family back in {country}|{his} {rel}, {rel_age}, who is ill].",
)
extend(
    "social_plain",
    "[{he:He} grew up|Grew up] in {city_state} and moved to {state} at age {age:event}.",
    "[{he:He} was born in|Born in] {country:birth}[ and came to the US at age {age:event}|, moved to {state} at age {age:event}|; family emigrated when {he} was {age:event}].",
    "[{he:He} left home|Moved out] at {age:teen} and [lived with {his} {rel}|was in foster care|lived on {his} own] until {age:event}.",
    "[{his} parents|{his:His} parents] are from {country}[ and {country}|] and speak [Spanish|Portuguese|Vietnamese|Creole|Arabic|Polish] at home.",
    "[{he:He} has|Has] [a son|a daughter] ({age:child}) and [a son|a daughter] ({age:child}) [who live in {state}|who live nearby|from {his} first marriage].",
    "[{he:He} married|Married] at {age:event} and [divorced|separated] [a few years later|after {num:2-20} years|last year].",
    "[{he:He} lived in|Spent {his} 20s in] {state} and {state} before [settling|moving] [in {city_state}|back home].",
)
extend(
    "family_plain",
    "[{his} {rel:family}|{his:His} {rel:family}] ({rel_age}) [lives in {country}|lives in {state}|lives nearby] [and has {eponym}|and is in good health|].",
    "{his:His} {rel:mother} [died|passed away] at age {rel_age} [of {eponym}|of cancer|by suicide]; {his} {rel:father} is {rel_age} and [lives in {state}|lives in {country}|has {medical}].",
    "[{he:He} has|Has] [a brother|a sister] ({age:sib}) [with autism|with {dx}|who is healthy] and [a half-sibling|a brother] ({age:sib}) in {state}.",
)
extend(
    "id_intro",
    "{pt} is a {age:yo} {he:man} [born in {country:birth}|originally from {state:birth}|raised in {state}] who [lives with {his} {rel}|lives alone] in {city_state:home}.",
    "[Patient|Pt] is [a|an] {age}-year-old [{he:male}|{he:man}] [from {country}|from {state}] [presenting for|seeking] [treatment of|help with] {symptom}.",
)
extend(
    "formulation_plain",
    "[This|The patient] is a {age:yo} with [recurrent|chronic|first-episode] {dx}[ since age {age:teen}|, onset at {age:event}|].",
)
extend(
    "risk_plain",
    "[{he:He} has|Has] a history of [an overdose|a suicide attempt|cutting] at age {age:teen}[ and again at {age:event}|], [none since|no attempts since].",
)


# --- PHI-free sections: what fills most of a real note between the PHI -----------------------
pool(
    "mse_narr",
    "{he:He} [is|was] [a|an] [well-groomed|disheveled|casually dressed|thin|overweight|tired-appearing] {he:man} [who appears {his} stated age|appearing older than stated age|in no acute distress], [with|and] [good|fair|poor|intermittent] eye contact.",
    "[{he:He} was|Was] [calm and cooperative|guarded|irritable but redirectable|restless|tearful at times] [throughout the interview|for most of the interview|with the examiner].",
    "Speech [was|is] [normal in rate and volume|soft and slow|rapid and pressured|monotone|latent], [without|with mild] [dysarthria|word-finding difficulty].",
    "{he:He} described {his} mood as [\"depressed\"|\"anxious\"|\"fine\"|\"exhausted\"|\"hopeless\"]; affect was [constricted|congruent|blunted|labile|anxious|dysphoric] and [mood-congruent|reactive|tearful].",
    "Thought process was [linear and goal-directed|circumstantial|tangential|concrete|disorganized at times]; thought content [was notable for|included] [guilt|hopelessness|worry about finances|paranoid themes|somatic preoccupation].",
    "{he:He} [denied|endorsed] [auditory|visual] hallucinations and did not appear to be responding to internal stimuli.",
    "{he:He} was alert and oriented to person, place, and time; [attention|concentration] was [intact|mildly impaired|impaired] [on serial 7s|on months backwards].",
    "Insight [is|was] [fair|limited|poor|good] and judgment [is|was] [fair|impaired|intact], [as evidenced by|given] [{his} willingness to engage in treatment|recent impulsive behavior|{his} help-seeking].",
)
pool(
    "interventions",
    "[Supportive therapy|Psychoeducation|Motivational interviewing] [was|were] [provided|used] [around|regarding] [{his} ambivalence about treatment|sleep hygiene|coping strategies|medication adherence].",
    "[We discussed|Discussed] [the diagnosis|treatment options|the expected course of treatment|the risks of untreated depression] and {he} [asked appropriate questions|was receptive|expressed understanding].",
    "[{he:He} was|Was] [encouraged|coached] to [use|practice] [grounding techniques|deep breathing|behavioral activation|a thought record] [daily|when anxious|between sessions].",
    "[{he:He} identified|Identified] [three|several|a few] [coping skills|pleasant activities|supports] [to use|to rely on] [this week|before the next visit|when distressed].",
    "[Consent|Informed consent] for {drug} was obtained after discussing [common side effects|the black box warning|metabolic monitoring|the risk of serotonin syndrome].",
    "[{he:He} was|Was] [given|provided] written information about [the medication|crisis resources|local support groups|the diagnosis].",
)
pool(
    "goals",
    "[Reduce|Decrease] [depressive symptoms|panic attacks|alcohol use|suicidal thoughts] [as measured by|per] [PHQ-9|GAD-7|self-report|weekly logs].",
    "[Improve|Restore] [sleep to 7 hours nightly|daily functioning|attendance at work|engagement with family].",
    "[Maintain|Achieve] [abstinence from alcohol|medication adherence|safety] [over the next 3 months|through the next visit|long term].",
    "[{he:He} would like to|Patient's goal is to] [\"feel like myself again\"|return to work|go back to school|get {his} kids back|stop drinking|sleep through the night].",
    "[Strengths|Patient strengths] include [insight into {his} illness|motivation for treatment|a supportive family|stable housing|a sense of humor|employment].",
    "[Barriers|Limitations] include [transportation|cost of medication|limited insurance|language|work schedule|ambivalence about treatment].",
)

extend(
    "social_plain",
    "[{he:He} describes|Describes] {his} upbringing as [strict|loving but chaotic|marked by frequent moves|stable until {his} parents divorced].",
    "[{he:He} is|Is] [currently|presently] [single|in a relationship|separated|engaged] and [not sexually active|sexually active with one partner|reports no concerns about {his} relationship].",
    "[{he:He} spends|Spends] {his} days [looking for work|caring for {his} children|at home|volunteering|at the library] and [rarely|occasionally|frequently] [leaves the house|sees friends].",
    "[{he:He} has|Has] [stable|unstable|temporary] housing and [pays rent with help from family|is behind on rent|receives a housing voucher].",
    "[{he:He} identifies|Identifies] as [heterosexual|gay|bisexual|queer|straight] and [uses {he:he}/{him} pronouns|has not disclosed this to family|reports family acceptance].",
    "[{he:He} enjoys|Enjoys] [cooking|fishing|drawing|writing poetry|watching sports|woodworking|church activities] [but has not done so recently|and finds it calming|when {his} mood is better].",
    "[{he:He} has|Has] [a dog|two cats|no pets|a service dog] [that {he} is very attached to|which is a reason for living|].",
    "[Work history|Employment history] is [limited|sporadic|steady], with [several short-term jobs|long periods of unemployment|the same job for many years].",
    "[{he:He} does not|Doesn't] [have|own] a car and [walks|takes the bus|gets rides] [to work|to appointments|everywhere].",
    "[{he:He} is|Is] [the primary caregiver for|helping care for] [{his} elderly parent|{his} grandchildren|a disabled sibling], which [adds to {his} stress|is very demanding].",
)
extend(
    "family_plain",
    "[There is|Positive] family history of [substance use|alcoholism|depression|anxiety] on [both sides|the maternal side|the paternal side].",
    "[{he:He} describes|Describes] {his} family as [supportive|distant|chaotic|close-knit] and [speaks to them|visits them] [daily|weekly|rarely].",
    "[No|Denies] family history of [suicide|bipolar disorder|psychosis|dementia|seizures].",
)
extend(
    "psych_plain",
    "[{he:He} has|Has] [never|not] been on a mood stabilizer or antipsychotic.",
    "[{he:He} found|Found] [therapy|CBT|group therapy] [helpful in the past|somewhat helpful|not helpful] and is [open to|hesitant about|interested in] resuming it.",
    "[{he:He} has|Has] no history of [ECT|TMS|ketamine treatment] [and is not interested|but has read about it|].",
)

extend(
    "hpi",
    "[{he:He} works|Works] [as a|as] {prof} [in {city}|in {city:home}|near {city}] and [has been unable to keep up|was recently written up|has missed {num:2-10} shifts] {duration}.",
    "[{his} {rel}|{his:His} {rel}], a {rel_prof}, [drove {him} to the appointment|encouraged {him} to seek care|has been checking on {him} daily].",
    "[{he:He} recently|Recently] [lost {his} job as a {prof}|was demoted from {prof}|started a new job as a {prof:new}] [at {org:employer}|in {city}], which [triggered|worsened] {his} symptoms.",
    "[{he:He} traveled|Traveled] to {city_state} [for {his} {rel}'s funeral|for a family wedding|to visit {his} {rel}] on {date:recent} and [felt overwhelmed|drank heavily|did not sleep] [there|while away].",
    "[{he:He} lives|Lives] in {city:home} [and commutes to {city} for work|near {his} {rel}|with {his} {rel}] and [rarely leaves|feels unsafe in] {his} neighborhood.",
)
extend(
    "family_hx",
    "{his:His} {rel:father} [worked as a|was a] {rel_prof} and {his} {rel:mother} [was a|worked as a] {rel_prof}.",
    "[{his} {rel:family}|{his:His} {rel:family}] [is a|works as a] {rel_prof} in {rel_city} and [has depression|has no psychiatric history|drinks heavily].",
)
extend(
    "social",
    "[{he:He} previously worked|Previously worked] as a {prof} and [then as|later as] a {prof:new} before [going on disability|being laid off|returning to school].",
    "[{he:He} grew up|Grew up] in {city}, [moved to|then] {city} [for college|as a teenager|after high school], and [now lives|has lived] in {city:home} [since {date:year}|for {num:2-20} years].",
)

# --- more contexts per pool (diversity) ---------------------------------------------------------
extend(
    "past_psych",
    "[{he:He} was|Was] [sectioned|admitted involuntarily|placed on a hold] in {date:month_year} [after police found {him} at {loc}|after an overdose|for erratic behavior at work] and spent [two|three|several] weeks at {hosp}.",
    "[{he:He} saw|Saw] a school counselor at {org:school} [at age {age:teen}|in {date:year}|in middle school] for [anxiety|anger|grief after {his} {rel} died].",
    "[Last|Most recent] [admission|hospitalization]: {hosp}, {date:past} to {date:recent}, for [SI with plan|psychotic depression|alcohol withdrawal|mania].",
    "[{he:He} has been|Has been] followed by {dr:psych} [since {date:year}|for about {num:2-12} years|since age {age:event}] and was last seen {date:recent}.",
    "[{his} first|First] psychiatric contact was at age {age:teen}, when {he} was [brought to the {dept} at {hosp:new}|evaluated at {org:school}|seen by {dr:new}] for [cutting|an overdose|school refusal].",
    "[{he:He} attempted|Attempted] suicide [by hanging|by overdose|by cutting|by jumping] [on {date:past}|in {date:month_year}|on {date:holiday}] and was treated in the ICU at {hosp:new}.",
)
extend(
    "plan",
    "[Release of information|ROI] signed for {dr:ther} and {hosp}; [records to be faxed|will request notes].",
    "[Will|Plan to] [call|contact] {his} {rel} {rel_name} [with {his} permission|tomorrow|after the visit] to [review the safety plan|obtain collateral|coordinate transportation].",
    "[Patient|{he:He}] [will start|to start] IOP at {hosp:new} on {date:future}[ ({date:weekday})|].",
    "[Bridge|Interim] prescription sent to [CVS|Walgreens|the hospital pharmacy|Rite Aid] in {city:home} [for {drug} {dose}|for a 2-week supply].",
    "[Discussed with|Staffed with] {dr:new/dr_last}[, attending,|] who agrees with the plan.",
)
extend(
    "id_intro",
    "[The patient|{he:He}] is a {age:yo} [right-handed|left-handed] {he:man} [who works as a {prof}|on disability] [referred by {dr:pcp} at {hosp:new}|referred from the {dept}] for [diagnostic clarification|treatment recommendations|a second opinion].",
    "{pt_formal}, {age}, [is a|a] [retired|former|part-time|laid-off] {prof} [from {city_state:home}|living in {city:home}] [seen today|who presents today] [with|accompanied by] {his} {rel}.",
    "[Pt|Patient] is [{age} yo|a {age:yo}] [{he:male}|{he:man}][, a {prof} at {org:employer},|] [admitted to {dept}|seen in consultation] on {date:visit}.",
)
extend(
    "cc",
    "\"[My {rel} said I needed to talk to someone|I keep messing up at work|I can't stop thinking about what happened in {date:month_year}|I just want to feel normal again].\"",
    "[Referred|Sent] by {org:school} for [behavioral concerns|declining grades|threats made at school].",
)
extend(
    "collateral",
    "[Spoke with|Called] {his} [employer|supervisor] at {org:employer}[ ({phone})||] [with consent|per patient's request], who [reports a decline in performance since {date:month_year}|was unaware of any problems].",
    "[Records from|Chart review of] {hosp} ({date:past}) [document|show] [a similar presentation|a diagnosis of {dx}|good response to {drug}].",
)
extend(
    "legal",
    "[{he:He} spent|Spent] [a night|{num:2-30} days|{num:2-18} months] in [jail|the {city} County House of Correction|juvenile detention] [in {date:year}|at age {age:teen}] for [a fight|a probation violation|drug possession].",
    "[{he:He} is|Is] [involved with|under investigation by] [DCF|{org:agency}] [regarding {his} children|since {date:month_year}|after a report from {org:school}].",
)
extend(
    "trauma",
    "[{he:He} lost|Lost] {his} {rel} [to an overdose|in a car accident|to suicide|to cancer] in {date:year}, when {he} was {age:event}, and [never grieved|still thinks about it daily|has nightmares about it].",
    "[{he:He} served|Served] in {country} [with {org:military}|in the military] in {date:year} and [witnessed combat|lost friends|was injured by an IED].",
)
extend(
    "medical_narr",
    "[{he:He} was|Was] [hospitalized|admitted] at {hosp:new} in {date:month_year} for [pneumonia|a seizure|pancreatitis|a diabetic emergency|cellulitis].",
    "[{he:He} sees|Sees] [a neurologist|an endocrinologist|a cardiologist|a pain specialist], {dr:new}, [for|who manages {his}] {medical}.",
)
extend(
    "developmental",
    "[{he:He} was|Was] raised [in {city_state}|in {country}|on a farm outside {city}] and [attended|went to] {org:school} [through {date:year}|until age {age:teen}].",
)
extend(
    "formulation",
    "{pt_formal} [has|carries] a [longstanding|recent|probable] diagnosis of {dx} [made at {hosp} in {date:year}|first made at age {age:event}] and presents [today|now] with [worsening|new] {symptom}.",
    "[Given|In light of] [{his} recent discharge from {hosp}|the anniversary of {his} {rel}'s death on {date:past}|{his} upcoming court date on {date:future}], [close follow-up is warranted|risk is elevated in the short term].",
)
extend(
    "risk",
    "[{he:He} agreed|Agreed] to [stay with {his} {rel} {rel_name} in {city}|have {his} {rel} hold {his} medications|call {dr:ther} if unsafe] [until the next visit|through the weekend|until {date:future}].",
)
extend(
    "telehealth",
    "[{he:He} was|Was] [connected|seen] by video from {street} [in {city:home}|]; [emergency location confirmed|address confirmed at the start of the visit].",
)

extend(
    "plan_plain",
    "[Social work|The social worker|Case management|Nursing] [to assist with|will help with|consulted for] [housing|benefits|transportation|discharge planning].",
    "[Discussed with|Reviewed with] the [attending psychiatrist|treatment team|nurse practitioner|therapist] who [agrees|concurs] with the plan.",
    "[Will|Plan to] [obtain|request] [outside records|collateral|a neuropsychological evaluation] [with consent|as able].",
)
extend(
    "hpi",
    "[{he:He} was|Was] [working|employed] as a {prof} [until|through] {date:month_year}, when {he} [stopped going to work|was fired|took medical leave] because of {symptom}.",
    "[{his} {rel}|{his:His} {rel}] ({rel_prof}) [noticed|reported] that {he} [stopped eating|was talking to {himself}|had not left the apartment] [around|after] {date:holiday}.",
    "[On|Around] {date:past} {he} [was brought to|presented to|walked into] {hosp:new} [by police|by ambulance|with {his} {rel}] [after|because of] [a fight at {org}|threats to {his} {rel}|intoxication].",
    "[{he:He} has|Has] been [sleeping at|staying at] {his} {rel}'s [house|apartment] in {city_state} since {date:recent} [because of|after] [a fire|conflict with {his} partner|eviction].",
)
extend(
    "social",
    "[{he:He} is|Is] [a|in {his}] [sophomore|junior|senior|first year] at {org:school}[ in {city}|], [studying|majoring in] [nursing|biology|business|art|computer science], and [works part-time as a {prof}|lives in a dorm|commutes from home].",
    "[{he:He} retired|Retired] [from {org:employer}|as a {prof}] in {date:year} [after {num:10-40} years|at age {age:event}] and [misses the structure|has been isolated since].",
    "[{his} {rel}|{his:His} {rel}], {rel_name}, is a {rel_prof} [and the main breadwinner|who works nights|who recently lost a job]." ,
)

# --- further contexts (written for diversity of the words around PHI) ----------------------------
extend(
    "hpi",
    "[Things|Matters] [came to a head|got worse] [last|on] {date:weekday} when {his} {rel} [found|discovered] [empty pill bottles|a note|{him} intoxicated] and called {dr:ther}.",
    "[{he:He} describes|Describes] {date:season} as \"the worst time of my life\" [after|following] [the loss of {his} job at {org:employer}|{his} divorce|a miscarriage|{his} {rel}'s arrest].",
    "[Per the ED note from|According to records from] {hosp:new}, {he} [arrived|presented] [at {time}|by ambulance] on {date:recent} with a [BAL of 0.2|heart rate of 130|BP of {bp}] and was [medically cleared|admitted to medicine].",
    "[{he:He} was|Was] [doing well|stable] on {drug} prescribed by {dr_hosp:psych} until [{date:month_year}|{date:past}], when [{his} insurance lapsed|{he} ran out|{he} moved to {city}].",
    "[Since|After] [the move from|leaving] {country} [in|around] {date:year}, {he} has [felt isolated|struggled with English|worked two jobs as a {prof}] and [misses {his} {rel}|has no friends here].",
    "[{he:He} reports|Reports] that {he} [was fired|was suspended|quit] from {org:employer} on {date:recent} [after an argument with {his} supervisor|for missing shifts|after a panic attack at work].",
    "[{he:He} and {his} {rel}|The patient and {his} {rel}] [argued|had a physical altercation] on {date:holiday}, [after which|and then] {he} [left for {city}|drove around all night|stayed at a motel in {city}].",
    "[Over|During] the [Thanksgiving|Christmas|winter|summer] break {he} [stayed with|visited] {his} {rel} {rel_name} in {city_state} and [was noted to be withdrawn|did not get out of bed|drank daily].",
    "[{he:He} left|Left] a voicemail for {dr:att/dr_last} on {date:weekday} [stating|saying] that {he} [had stopped {drug}|was not safe|wanted to restart treatment].",
    "[{he:He} was|Was] [seen|evaluated] by the [mobile crisis team|crisis team] [from {hosp:new}|of {city}] at {his} home on {date:recent} and [referred for intake|given this appointment].",
)
extend(
    "social",
    "[{he:He} came|Came] to the United States from {country} [as a refugee|on a student visa|with {his} parents] in {date:year} and [became a citizen in {date:year}|is a permanent resident|is undocumented].",
    "[{he:He} was|Was] raised [Catholic|Baptist|Muslim|Jewish|Pentecostal] and [still attends|stopped attending] {org:church} [in {city}|] [with {his} {rel}|].",
    "[{he:He} has worked|Has worked] [several jobs|on and off] since age {age:teen}, [most recently as a {prof} at {org:employer}|including as a {prof} and a {prof:new}].",
    "[{his} closest relationship|{his:His} closest relationship] is with {his} {rel}, {rel_name}, [who lives in {rel_city}|a {rel_prof}|whom {he} talks to daily].",
    "[{he:He} lived|Lived] in {city_state} [until {date:year}|until age {age:event}|for most of {his} childhood] [before moving to {city:home}|then moved to {state}].",
    "[{he:He} is|Is] [engaged to|in a relationship with|living with] {person}, [a {prof:new}|who is {age:other}|whom {he} met at {org}], [and they live in {city:home}|and they plan to marry in {date:year}|].",
)
extend(
    "past_psych",
    "[{he:He} was|Was] [in a residential program|in a group home|in foster care] [at {hosp}|through {org:agency}] from age {age:teen} to {age:teen}.",
    "[Most recent|Last] outpatient psychiatrist was {dr:new} at {hosp:new}, [who prescribed {drug}|last seen {date:past}|until {he} moved from {city}].",
    "[{he:He} completed|Completed] [a 28-day program|detox and rehab|a dual-diagnosis program] at {hosp} [in {date:month_year}|after {date:holiday}|in {date:year}].",
    "[{he:He} has|Has] been [in and out of treatment|seen at several clinics] [in {city} and {city}|since {date:year}|since moving from {state}].",
)
extend(
    "substance_narr",
    "[{he:He} first used|First used] [opioids|pills|heroin] after [a back injury at work as a {prof}|knee surgery at {hosp:new}|a car accident] in {date:year}.",
    "[{he:He} has been|Has been] sober since {date:past}[ with support from AA at {org:church}|, a date {he} celebrates|].",
    "[{he:He} overdosed|Overdosed] [on|in] {date:month_year} [in {city}|at a friend's place] and was revived with Narcan [by EMS|by {his} {rel}].",
    "[{he:He} drinks|Drinks] [mostly|only] [on weekends|after work|with coworkers from {org:employer}] and [blacked out|got an OUI] on {date:holiday}.",
)
extend(
    "formulation",
    "{pt} is [a|an] {age:yo} {prof} [with|who has] {dx}[, previously treated at {hosp}|, in partial remission|] who [presents|returns] after [a relapse|a suicide attempt on {date:recent}|losing {his} job].",
    "[Considering|Given] [{his} history of attempts in {date:year}|the family history of suicide in {his} {rel}|{his} recent move from {city}], [risk is moderate|{he} needs close follow-up].",
)
extend(
    "medical_narr",
    "[{he:He} had|Had] [a TBI|a stroke|a seizure] at age {age:event} [and was treated at {hosp:new}|with residual memory problems|without sequelae].",
    "[{he:He} has|Has] [a follow-up|an appointment|a procedure] with {dr:new} at {hosp:new} on {date:future} [for {medical}|for a sleep study|for an MRI].",
)
extend(
    "developmental",
    "[{he:He} was|Was] adopted from {country} at age {age:event} [and raised in {city_state}|by a family in {state}].",
    "[{he:He} was|Was] held back in [kindergarten|2nd grade] at {org:school} and [diagnosed with dyslexia|placed in special education] at age {age:event}.",
)
extend(
    "cc",
    "[Evaluation requested by|Consult requested by] {dr:new} [for|re:] [depression|agitation|capacity|SI] [in the setting of {medical}|after overdose].",
    "\"[I got out of {hosp} on {date:weekday} and I need a doctor|Since I lost my job at {org:employer} I can't cope|I want my kids back]\".",
)
extend(
    "collateral",
    "[Spoke with|Phone call with] {his} [probation officer|case manager|DCF worker], {person}, [on {date:recent}|today], who [confirms|reports] [recent positive urine screens|good compliance|missed check-ins].",
    "[{his} {rel}|{his:His} {rel}] [emailed|sent a letter] on {date:recent} [describing|expressing concern about] {his} [behavior|drinking|isolation] [since {date:holiday}|over the past month].",
)
extend(
    "risk",
    "[{he:He} has|Has] a [planned|scheduled] [trip to {country}|visit with {his} {rel} in {city}|court date on {date:future}] that {he} [looks forward to|identifies as a reason to stay safe|is anxious about].",
)

# --- phenomenon families (families.py): one pool per family, "fam_<family>" ---------------------
# A section named in a family's `sections` gets one of these with the family's weight.
pool(
    "fam_room",
    "[{he:He} was|Pt was] [seen|interviewed|evaluated] in {room_line:bare} [with {his} {rel} present|alone|with the door open].",
    "[{he:He} was|Patient was] [moved|transferred] to {room_line} [for closer observation|after an altercation with a peer|on {date:recent}].",
    "[Currently|Now] [on|in] {dept_name}, {room_line}[, on 15-minute checks|, with a sitter|, awaiting placement].",
    "[{he:He} remained|Remained] in {room_line} [overnight|through the evening] [without incident|on 1:1 observation].",
    "Interview [conducted|took place] in {room_line:bare}[ of the {dept_name}| on {dept_name}|].",
    "[Follow-up|Next visit] [scheduled|booked] in {room_line} [of the {dept_name}|at {hosp:here}] on {date:future}[ at {time}|].",
    "[{he:He} shares|Shares] {room_line} with another patient and [reports poor sleep|has had no conflicts].",
    "[{he:He} was placed|Placed] in {room_line:bare} [after striking staff|for agitation] and [calmed within an hour|required PRN {drug}].",
)
pool(
    "fam_social_handle",
    "[{he:He} posts|Posts] on {platform} as {handle} [and has many followers|about {his} mood|daily].",
    "{his:His} {rel} [showed us|forwarded] [posts|messages] from {his} {platform} account ({handle}) [that worried the family|referencing suicide].",
    "[{he:He} was|Was] [harassed|bullied] online by [a classmate|an ex-partner|a coworker] under the name {handle:rel}.",
    "[{platform} handle|{platform} username|Username on {platform}]: {handle}.",
    "[{he:He} met|Met] {his} {rel} through {platform} ({handle:rel}).",
    "[{he:He} has|Has] a [gaming|music|art] channel, {handle}, [with about 300 subscribers|which {he} updates nightly].",
)
pool(
    "fam_cued_identifier",
    "[{he:He} was|Was] arrested on {date:past} and booked at the {city} jail ({cued_id:booking}).",
    "[Police|Officers] [filed|wrote] {cued_id:incident} after [the altercation|the call] on {date:recent}.",
    "[{his} court|{his:His} court] [case|hearing] ({cued_id:case}) [is scheduled for|is set for|continues on] {date:future}.",
    "CT head, {cued_id:accession}, [was unremarkable|showed no acute findings] ({date:recent}).",
    "[MRI brain|EEG|CXR], {cued_id:accession}, [pending|reviewed with radiology].",
    "Prior authorization [approved|requested] ({cued_id:claim}) [through {date:future}|for 30 days].",
    "[{his} nursing|{his:His} professional|{his:His} commercial] license ({cued_id:license}) was [suspended|put on probation] in {date:year}[ after an OUI|].",
    "[Outside records|Records from {hosp:new}] ({cued_id:mrn}) [reviewed|requested].",
    "[Insurance verified|Coverage confirmed], {cued_id:plan}, [active|no copay|through {date:future}].",
    "[{he:He} has|Has] an open {cued_id:case} with [DCF|the probation department|family court].",
)
pool(
    "fam_multiword_town",
    "[{he:He} grew up|Grew up] in {town:state} and [moved to {city:home} in {date:year}|still has family there].",
    "{his:His} {rel} lives in {town} [and visits monthly|and they rarely speak].",
    "[{he:He} lived|Lived] in {town:state} [until {date:year}|for {num:2-15} years|as a child].",
    "[{he:He} drove|Drove] to {town} on {date:recent} [to see {his} {rel}|without telling anyone].",
    "[{he:He} works|Works] [in|near] {town} and commutes from {city:home}.",
    "[Born in|Raised in|Originally from] {town:state}.",
)
pool(
    "fam_foreign_place",
    "[{he:He} was born|Born] in {foreign_place} and [came to the US|immigrated] [in {date:year}|at age {age:event}].",
    "{his:His} family [fled|left] {foreign_place:country} [in {date:year}|during the war] [and lived in a camp|when {he} was {age:event}].",
    "[{he:He} spent|Spent] [{his} childhood|several years] in {foreign_place} [with {his} grandparents|before moving to {city_state}].",
    "[{he:He} returns|Returns] to {foreign_place} [every summer|each year] to visit {his} {rel}.",
)
pool(
    "fam_function_word_org",
    "[{he:He} receives|Receives] [home-delivered meals|case management|a home aide] through {fw_org}.",
    "[{he:He} works|Works] [part-time|full-time] [for|at] {fw_org} as a {prof}.",
    "[{he:He} is|Is] a member of {fw_org} and [has been on strike|receives union benefits|was recently laid off].",
    "[A complaint|A report] was [filed with|made to] {fw_org} [in {date:month_year}|by {his} {rel}].",
    "[{he:He} has|Has] [a lawyer|an attorney] at {fw_org} [for {his} custody case|for the eviction|for a disability claim].",
    "[Referral made to|Will refer to] {fw_org} [for|regarding] [housing support|elder services|benefits].",
    "[{he:He} volunteers|Volunteers] with {fw_org} [on weekends|twice a month].",
)
pool(
    "fam_multiword_profession",
    "[{he:He} has worked|Has worked] as a {prof_long} [for {num:2-25} years|since {date:year}|at {org:employer}].",
    "{his:His} {rel} is a {prof_long} [in {city}|and works long hours|who travels for work].",
    "[{he:He} was|Was] [hired as|laid off as|trained as] a {prof_long} [at {org}|in {date:month_year}].",
    "[Occupation|Employment]: {prof_long}[ at {org:employer}|].",
    "[{he:He} previously worked|Formerly worked] as a {prof_long} before [{his} injury|the layoffs in {date:year}].",
    "[{he:He} is training|Is training] to become a {prof_long}.",
)
pool(
    "fam_caps_name",
    "[Seen|Met] with {caps_name:rel} [today|this afternoon] [at {his} request|for collateral].",
    "[Spoke|Phone call] with {his} {rel} {caps_name:rel}[, who confirms the history|, who is worried|].",
    "[Discussed with|Case reviewed with] DR. {caps_name:new} [who agrees|who will follow].",
    "[{he:He} was|Was] brought in by [{his} {rel}|a friend], {caps_name:other}[, who found {him} on the floor|].",
    "[Emergency contact|Contact person] is {caps_name:rel} ({rel}).",
    "{caps_name:pt} [denies|endorses] {symptom} [today|this week].",
    "[Per|According to] {caps_name:other} [from the shelter|at the group home], {he} [has not been sleeping|has been isolating].",
)
pool(
    "fam_nickname",
    "{nick_name:pt} is a {age:yo} [{he:man}|{prof}] [seen for follow-up|presenting with {symptom}].",
    "[{his} {rel}|{his:His} {rel}], {nick_name:rel}, [lives nearby|is {his} main support|drinks heavily].",
    "[{he:He} is close to|Is close to] {his} {rel} {nick_name:rel}[, who lives in {city}|].",
    "[Friend|Roommate|Sponsor]: {nick_name:other}.",
)
pool(
    "fam_lone_name",
    "{lone_first:rel} [called|texted] on {date:weekday} [to report missed doses|worried about {his} drinking|about {his} mood].",
    "[{he:He} lives|Lives] with {his} {rel} {lone_first:rel} [and two cats|in an apartment].",
    "[Spoke with|Called] {formal_unusual}, {his} [landlord|neighbor|employer|teacher], [who reports|who confirms] [noise complaints|missed rent|absences].",
    "[Discussed with|Per] {formal_unusual:dr} [from neurology|from the ED|covering tonight].",
    "{formal_unusual:dr} [will see|saw] {him} [on {date:future}|last week] [for {medical}|in clinic].",
    "[{he:He} says|Says] {lone_first:other} [is the only one {he} trusts|has been helping {him}].",
)
pool(
    "fam_clinical_trap",
    "{pt_formal} [with|has] {trap:abbr} and {trap:abbr}[, s/p {trap:abbr} in {date:year}|]; follow up with {dr:pcp} {trap:dur}.",
    "[Labs|BMP] notable for {trap:lab}; [recheck|repeat] {trap:dur}[ per {dr:pcp}|].",
    "{trap:score} [today|on intake][, down from {trap:score}|][ per {dr:ther}|].",
    "[RTC|Return to clinic|F/u with {dr:att/dr_last}] {trap:dur}.",
    "{pt} [screened|scored] {trap:score}; [hx|h/o] {trap:abbr}, {trap:abbr}.",
    "[Seen by|Per] {dr:new} for {trap:abbr}[, CPAP recommended|]; [sleep study|echo] {trap:dur}.",
    "{trap:lab} [on {date:recent}|today]; [{dr:pcp} aware|will repeat {trap:dur}].",
    "[{his} {rel}|{his:His} {rel}] {rel_name} has {trap:abbr} and {trap:abbr}; {he} [visits|calls] {trap:dur}.",
)

# --- other note types (layouts 012-021) -------------------------------------------------------
pool(
    "letter_body",
    "Thank you for referring {pt_formal}, a {age:yo} {prof}, whom I saw in the {dept_name} on {date:visit}.",
    "I had the pleasure of seeing {pt} [in consultation|for follow-up] at {hosp:here} on {date:visit}.",
    "As you know, {he} has a history of {dx} and was last admitted to {hosp} in {date:month_year}.",
    "I have recommended that {he} [continue|start] {drug} {dose} {freq} and return to see me {trap:dur}.",
    "Please do not hesitate to contact me at {phone:ext}[ or {email:dr}|] with any questions.",
    "{he:He} was accompanied by {his} {rel}, {rel_name}, [who provided collateral|who drove {him}].",
    "[I will|We will] see {him} again on {date:future} in {room_line} of the {dept_name}.",
    "[This letter confirms that|Please excuse] {pt_formal} [was under my care|was seen] from {date:past} to {date:recent}[ and may return to work at {org:employer}|].",
)
pool(
    "hospital_course",
    "{pt_formal} was admitted to {dept_name} at {hosp:here} on {date:recent} [after|for] {symptom}.",
    "[On hospital day {num:2-9}|On {date:recent}], {he} was [started on|titrated to] {drug} {dose}.",
    "[{he:He} was|Was] [moved|transferred] to {room_line} [on {date:recent}|after an incident with a peer].",
    "[Psychology|Neurology|Medicine] was consulted; {dr:new} [recommended|felt] [an MRI|no changes|a sleep study].",
    "[{he:He} attended|Attended] groups on {dept_name} and [met with|worked with] {dr:new/full_cred} [daily|three times a week].",
    "[Family meeting|A family meeting was] held on {date:recent} with {his} {rel} {rel_name} and {dr:att/dr_last}.",
    "By {date:recent} {he} [was sleeping well|denied SI|was future oriented] and was [discharged|cleared for discharge].",
    "[{he:He} required|Required] [restraint|seclusion|PRN {drug}] on {date:recent} in {room_line} and [none thereafter|once more on {date:weekday}].",
)
# Multi-line blocks (section kind "block"): letterheads, salutations, signature blocks, dictation footers.
pool(
    "letterhead",
    "{hosp:here}\n{dept_name}\n{address}\n[Tel|Phone] {phone}[  Fax {phone:fax}|]",
    "{dept_name:upper}\n{hosp:here}\n{date:visit}",
    "{hosp:here} - {dept_name}\n{street}, {city_state:home}",
    "{dept_name}\n{hosp:here}\n[Tel|Phone] {phone:ext}",
)
pool(
    "salutation",
    "{date:visit}\n\n{dr:pcp/full_cred}\n{hosp:new}\n{address}\n\nRe: {pt_header} (DOB {date:dob})\n\nDear {dr:pcp/dr_last},",
    "Re: {pt_header}, MRN {id:mrn}\n\nDear {dr:pcp/dr_last},",
    "{date:visit}\n\nTo whom it may concern:\n\nRe: {pt_header}",
    "RE: {pt_header}\nDOB: {date:dob}\n\nDear Dr. {caps_name:pcp}:",
)
pool(
    "sig_block",
    "{doc_name:att/last_first_cred}\n[Attending Psychiatrist|Staff Psychiatrist|Psychiatry Attending|Consultation-Liaison Psychiatrist]\n{dept_name}\n{hosp:here}",
    "[Electronically signed by|Signed by|E-signed]: {doc_name:att/last_first_mi} {uid}\n{date:visit} {time}",
    "{doc_name:att/upper_last_first_cred}\n{dept_name:upper}\n{hosp:here}[\n{phone:ext}|]",
    "Dictated by: {doc_name:att/last_first_cred} {uid}\nD: {date:recent}  T: {date:visit}\n{dept_name}",
    "[Sincerely|Regards|Respectfully],\n\n{dr:att/full_cred}\n[{dept_name}|{dept_name}, {hosp:here}]\n[{phone:ext}|{email:dr}]",
    "{doc_name:att/last_first_cred} {uid}\n{doc_name:new/last_first_cred} (resident) {uid}\n{dept_name}[, {room_line}|]",
    "cc: {doc_name:pcp/last_first_mi}; {doc_name:new/last_first_cred}\n{dept_name}",
    "[Attending|Author]: {doc_name:att/last_first} {uid}\n[Service|Team]: {dept_name}",
)
pool(
    "dictation",
    "DICTATED BY: {doc_name:att/upper_last_first_cred}\nD: {date:recent}\nT: {date:visit}",
    "Dictated by {dr:att/full_cred} {uid}\nDictated: {date:visit} {time}  Transcribed: {date:visit}\ncc: {doc_name:pcp/last_first_mi}",
    "{doc_name:att/last_first_cred}\n{dept_name}\nD: {date:visit}  T: {date:visit}  Job {cued_id:claim}",
    "Electronically signed: {doc_name:att/last_first_mi} {uid} {date:visit} {time}\ncc: {doc_name:pcp/last_first_cred}, {hosp:new}",
)
