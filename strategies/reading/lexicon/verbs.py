"""Verb lists: frequent verbs of findings, verbs of reporting, verbs of a work's own procedure."""

from __future__ import annotations

# Auxiliaries and frequent verbs (base and third person): a sentence needs one of these, or a
# past-tense form, to count as a statement rather than a heading or a label.
# Source: hand-kept: English auxiliaries, then the verbs findings sentences use most, then the past
# forms too short for the "-ed" rule (``text.is_past_form``) or irregular.
VERBISH = frozenset(
    """is are was were be been being am has have had do does did can could may might will would
    shall should must show shows showed reduce reduces lower lowers increase increases retain
    retains provide provides offer offers require requires need needs remain remains cover
    covers hold holds make makes help helps support supports depend depends suggest suggests
    indicate indicates find finds found fall falls fell rise rises rose exceed exceeds take
    takes took give gives gave keep keeps kept cut cuts store stores capture captures use uses
    weigh weighs survive survives attract attracts protect protects create creates apply applies
    mean means lose loses lost led run runs ran stay stays grow grows grew become becomes became
    allow allows contribute contributes extend extends delay delays vary varies affect affects
    cool cools occur occurs carry carries reach reaches cause causes explain explains combine
    combines include includes compare compares measure measures report reports estimate
    estimates propose proposes recommend recommends
    used made said paid sent went came told felt held won saw met got""".split()
)

# Verbs setting one thing against another, which a question's subject is followed by ("Does LoRA
# *outperform* full fine-tuning?"); VERBISH, which decides what counts as a statement, leaves them out.
# Source: hand-kept, general English: verbs of comparison, base and third person.
COMPARISON_VERBS = frozenset(
    """outperform outperforms underperform underperforms beat beats surpass surpasses exceed exceeds
    match matches rival rivals trail trails outscore outscores outrank outranks improve improves
    generalise generalises generalize generalizes scale scales""".split()
)

# Verbs a question asks what a document says with ("what did it find?"): they name no topic.
# Source: hand-kept, general English: verbs of reporting, in their usual forms.
REPORTING_VERBS = frozenset(
    """find finds found show shows showed shown conclude concludes concluded state states stated argue
    argues argued suggest suggests suggested claim claims claimed recommend recommends recommended identify
    identifies identified describe describes described mention mentions mentioned""".split()
)

# Source: hand-kept from papers' and briefs' sentences about themselves ("This brief proposes"), as stems.
PROCEDURE_VERB_PATTERN = (
    r"(?:propos|present|describ|outlin|introduc|discuss|examin|investigat|explor|review|summari[sz]|search|"
    r"collect|conduct|us|focus|aim|consider|address|set|sets|organi[sz]|structur|begin|start|conclud|"
    r"compil|screen|select|includ|exclud|extract|gather|interview|recruit|surve|analy[sz]|assess|evaluat|"
    r"provid|offer|detail|cover|follow)\w*"
)

# Verbs a question asks how a value is given with ("how do you specify the API key?"): a line of code
# or configuration setting that key answers it (``strategies.reading.value_lines``).
# Source: hand-kept, general English: verbs of setting a value, in their usual forms.
SETTING_VERBS = frozenset(
    """set sets setting specify specifies specified specifying pass passes passed passing configure
    configures configured configuring supply supplies supplied provide provides provided providing
    enter enters entered define defines defined override overrides overridden assign assigns
    assigned""".split()
)

# Verbs of putting, sending or keeping a thing somewhere, which a yes/no question and the sentence that
# answers it use interchangeably ("Should the token *go* in the query string?" / "Never *send* the token
# in the query string"): one of them denied of the asked things denies another. A verb of another action
# ("log", "cache") is never taken for one of these.
# Source: hand-kept, general English: verbs of placement and transfer, in their usual forms.
PLACING_VERBS = frozenset(
    """go goes going went gone put puts putting place places placed placing send sends sending sent
    pass passes passed passing include includes included including add adds added adding insert inserts
    inserted inserting embed embeds embedded embedding append appends appended appending attach attaches
    attached attaching submit submits submitted submitting transmit transmits transmitted
    transmitting""".split()
)

# Verbs a question puts its action under ("How much did Corvid *agree* to pay?", "how many staff does it
# *plan* to hire?"): what a party agreed, planned or was ordered to do is a different fact from what it
# did or was made to do, so a value's sentence must say the same one (``strategies.reading.binding``).
# Verbs of need or permission ("needed to train") are left out: a sentence saying what was used answers.
# Source: hand-kept, general English: catenative verbs of intent, obligation and attempt, base forms.
CATENATIVE_VERBS = frozenset(
    """agree refuse decline plan intend expect promise pledge vow decide offer fail attempt hope aim
    threaten seek undertake order oblige compel urge""".split()
)
