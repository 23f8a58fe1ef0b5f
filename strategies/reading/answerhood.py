"""Does this sentence answer this question? The reading the offline answer makes of its sentences.

The judge (``judge.py``) says whether sentences state a *claim*; a question is no claim, so three
readings of a question against a sentence are made here:

- **polarity on the asked predicate** (``polarity``): "Can I apply X through the API?" is answered
  "Yes" by a sentence that states the predicate ("apply") of the question's subject, "No" by one that
  denies it ("X cannot be applied"), and not at all by a sentence that covers the question's words
  but negates something else ("the request does not need a header"). A negation governs the first
  content word after it, within its clause (``_denials``; "not all" / "not always" deny a sweep, not
  the predicate); an instruction answers as a statement does ("Never send the token in the query
  string": No to "Should the token go in the query string?", a verb of placing standing for another),
  and a clause denying another action of the asked things gives no answer (``_clause_denial``); a
  question giving a figure is answered by the sentence's figure of the same thing ("up to 600
  requests" answers "Can a token make 1000 requests…?" No: ``_figure_answer``);
- **about the document, not the subject** (``about_the_document``): "This brief proposes that…",
  "We searched four bibliographic databases…", "In this section we describe…" say what a document or
  its authors do, not what is known about the subject; such a sentence does not lead an answer unless
  the question asks about the work itself ("what method did they use", "how was the data
  collected": ``asks_about_the_work``);
- **about the text itself** (``about_the_text``): how the document is laid out ("In Section 2, we give
  details…", "The rest of this paper is organised…"), what its authors plan or hope ("We will also
  continue to…", "Our hope with the release of X is…") or where they publish it ("Code is available
  at https://…") is never a finding about the subject, whatever the question's words, unless the
  question asks for exactly that (``asks_about_the_text``);
- **the question's names** (``missing_name``): a name, acronym or identifier the question asks about
  ("BERT", "GPT-4", "max_tokens") that no chosen sentence, nor its document's title or section, holds
  is not answered by them, however many other words they share (the judge's ``names`` check, applied
  to the question).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from research.verdict import Verdict
from strategies.reading.claim_checks import Meaning, holds, names, same_value, swap_problem
from strategies.reading.judge import judge
from strategies.reading.lexicon.documents import DOCUMENT_NOUN_PATTERN
from strategies.reading.lexicon.function_words import AUXILIARIES
from strategies.reading.lexicon.negation import AVOIDANCE, CONTRACTED_NEGATIONS, LIGHT, NEGATED, NOUN_NEGATION, PARTIAL
from strategies.reading.lexicon.quantities import COUNTED
from strategies.reading.lexicon.question_words import QUESTION_WORDS
from strategies.reading.lexicon.verbs import PLACING_VERBS, PROCEDURE_VERB_PATTERN
from strategies.reading.negations import adverb
from strategies.reading.numbers import Mention, mentions
from strategies.reading.shares import share_answer, stated_share, without_quantifier
from strategies.reading.text import (
    content_stems,
    content_words,
    lemma,
    lemmas,
    matched,
    spelled_out,
    stem,
    stems_match,
    stopwords,
    strip_question,
    words,
)
from strategies.reading.tuning import TUNING

from .question_types import AnswerType

if TYPE_CHECKING:  # the parsed question is read with this module's readings of a question
    from .question import ParsedQuestion

# Where a negation's reach ends: a clause break, or a conjunction or subordinator opening another clause
# ("Never log the token, but send it…"; "does not change the output when applied…").
_CLAUSE_BREAK = re.compile(
    r"[;:()]|\s[–—-]\s|,\s*(?:and|or|so|then)\s|,?\s+(?:but|while|whereas|although|though|because|unless|if|when|"
    r"once|since|until|after|before)\s",
    re.I,
)


# Words before "to" that pass a negation on to the verb after it.
_BEFORE_TO = frozenset({"used", "allowed", "permitted", "meant", "designed", "supposed", "able"})
_ASIDE = re.compile(r"\([^()]*\)")
_PLACING = frozenset(lemma(w) for w in PLACING_VERBS)
_PLACING_STEMS = frozenset(stem(w) for w in PLACING_VERBS)


def _question_negated(question: str) -> bool:
    """ "Can I not…", "Should I never…", "Should I avoid…": the question asks of a denial."""
    return bool(re.search(r"\b(?:not|never|no)\b|n['’]t\b", question, re.I)) or any(
        w in AVOIDANCE for w in words(question)
    )


def predicate_stems(question: str) -> list[str]:
    """What a yes/no question asks of its subject: its content stems without the names it gives (its
    capitalised words after the first) and question words ("apply", "direct", "call" of "Can I
    directly apply Claude's prompt caching through an API call?")."""
    tokens = re.findall(r"[\w'’-]+", question)
    given = {stem(w) for w in tokens[1:] if w[:1].isupper()} | {stem(w) for w in QUESTION_WORDS}
    return [s for s in dict.fromkeys(content_stems(question)) if s not in given]


def polarity(asked: ParsedQuestion, sentence: str) -> str | None:
    """ "Yes" when ``sentence`` states what the yes/no question asks (its words, most of its
    predicate, no negation governing them), "No" when a negation governs one of the question's
    words, None when it does not speak of the asked predicate, or the question asks no yes or no."""
    if asked.type.kind is not AnswerType.YES_NO:
        return None
    if asked.majority is not None:
        # "Did most of the papers …?": the sentence's share of the whole answers, not the predicate alone.
        stated = _polarity(without_quantifier(asked.clause), sentence)
        return share_answer(asked.majority, stated, stated_share(sentence))
    return _polarity(asked.clause, sentence)


def _polarity(question: str, sentence: str) -> str | None:
    q_stems = list(dict.fromkeys(content_stems(question)))
    if not q_stems:
        return None
    # An abbreviation in the sentence says the words it stands for ("SOTA": "state of the art").
    sentence = spelled_out(question, sentence)
    predicate = _stated_predicate(question, sentence, q_stems)
    if predicate is None:
        return None
    asked = [
        lemma(w)
        for w in content_words(question)
        if stem(w) in set(predicate) and not NEGATED.fullmatch(w) and w not in AVOIDANCE
    ]
    figures = _figure_answer(question, sentence)
    if figures is not None:
        # The asked figure against the sentence's: "Can a token make 1000 requests per minute?" is
        # answered "No" by "Each token may make up to 600 requests per minute", never "Yes".
        return figures if figures != "open" and not _question_negated(question) else None
    denies = _clause_denial(asked or [lemma(s) for s in predicate], sentence)
    if denies is None:
        return None  # another action is denied of the asked things: neither stated nor denied
    return "No" if denies != _question_negated(question) else "Yes"


def _stated_predicate(question: str, sentence: str, q_stems: list[str]) -> list[str] | None:
    """The stems of what the question asks of its things (its predicate) when the sentence covers the
    question's words and that predicate with its own terms; None when it does not."""
    s_stems = frozenset(content_stems(sentence))
    # A verb putting or sending a thing somewhere stands for another ("go" / "send": ``PLACING_VERBS``).
    if s_stems & _PLACING_STEMS:
        s_stems |= _PLACING_STEMS
    if sum(1 for s in q_stems if matched(s, s_stems)) / len(q_stems) < TUNING.judge.question_coverage:
        return None
    predicate = predicate_stems(question) or q_stems
    if sum(1 for s in predicate if matched(s, s_stems)) / len(predicate) < TUNING.judge.predicate_coverage:
        return None  # the question's names are there, what it asks of them is not
    if swap_problem(strip_question(question), sentence, set(s_stems)) is not None:
        return None  # another term where the question has its own: "massage therapy" for "physical therapy"
    return predicate


# "Can…", "Could…", "May…", "Is it possible / allowed…": the question asks whether a figure is within
# what the sentence allows, so a bound ("up to 600") answers it both ways.
_CAPABILITY = re.compile(r"^\s*(?:can|could|may|might)\b|\b(?:able|allowed|permitted|possible)\b", re.I)
_FIGURE_THING = re.compile(r"\s*([A-Za-z][\w-]*)")
# "7 of the 9 tasks": the first figure counts the tasks, the second their whole.
_PART_OF = re.compile(r"\s+of\s+(?:the\s+|all\s+)?\d[\d,.]*\s+([A-Za-z][\w-]*)", re.I)
_WHOLE_AFTER = re.compile(r"\d[\d,.]*\s+of\s+(?:the\s+|all\s+)?$", re.I)
_TIME_PREPOSITION = re.compile(r"\b(?:in|since|during|until|by)\s+$", re.I)


def _figure_answer(question: str, sentence: str) -> str | None:
    """How the sentence's figure of the thing a yes/no question counts answers the question's own
    figure: None when the sentence gives none of that thing, or gives the asked one (the words decide);
    "No" when it gives another ("12 visits" for "20 visits?"); for a question of what is possible, a
    bound decides ("up to 600" answers 500 "Yes", 1000 "No"; "at least 8 GB" answers 4 GB "No"); "open"
    when the figures differ but neither reading is safe (the question bounds its figure, the sentence
    negates, a minimum below the asked figure)."""
    if _other_named_year(question, sentence):
        return "open"  # "the 2018 policy" is another policy than the asked "2020 policy"
    asked = [(m, thing) for m in mentions(question) if (thing := _counted(m, question))]
    if not asked:
        return None
    stated = [(m, _counted(m, sentence)) for m in mentions(sentence)]
    for q, thing in asked:
        same = [m for m, t in stated if t == thing]
        if same:
            return _figure_verdict(question, sentence, q, same)
    return None


def _figure_verdict(question: str, sentence: str, q: Mention, same: list[Mention]) -> str | None:
    """How the sentence's figures ``same`` of the asked thing answer the question's figure ``q``
    (see ``_figure_answer``)."""
    if any(same_value(q, m) for m in same):
        return None
    s = same[0]
    if q.bound != "exact" or _denials(sentence):
        return "open"
    if _CAPABILITY.search(question) and s.bound == "upper":
        return "Yes" if q.value <= s.value else "No"
    if _CAPABILITY.search(question) and s.bound == "lower":
        return "No" if q.value < s.value else "open"
    return "No"


def _counted(m: Mention, text: str) -> str:
    """What a figure counts: its unit, the word after a bare number ("600 *requests*"), "year" for a year
    a time preposition leads ("finished *in 1990*"); "" for a number on its own or a year naming a thing
    ("the 2020 policy"), which are not compared."""
    if m.unit:
        return m.unit
    if _is_year(m):
        return "year" if _TIME_PREPOSITION.search(text, 0, m.start) else ""
    part = _PART_OF.match(text, m.end)
    if part:
        return lemma(part.group(1).lower())
    after = _FIGURE_THING.match(text, m.end)
    if after and _WHOLE_AFTER.search(text, 0, m.start):
        return "whole " + lemma(after.group(1).lower())
    return lemma(after.group(1).lower()) if after else ""


def _is_year(m: Mention) -> bool:
    return not m.unit and m.value.is_integer() and 1800 <= m.value <= 2100


def _named_years(text: str) -> dict[str, set[float]]:
    """The years that name a thing ("the *2020* policy"), by the thing they name."""
    named: dict[str, set[float]] = {}
    for m in mentions(text):
        after = _FIGURE_THING.match(text, m.end)
        if _is_year(m) and after and not _TIME_PREPOSITION.search(text, 0, m.start):
            named.setdefault(lemma(after.group(1).lower()), set()).add(m.value)
    return named


def _other_named_year(question: str, sentence: str) -> bool:
    """The sentence names the asked thing by another year only ("the 2018 policy" for "the 2020 policy"):
    it speaks of another thing, so it neither states nor denies what is asked."""
    stated = _named_years(sentence)
    return any(thing in stated and not years & stated[thing] for thing, years in _named_years(question).items())


def _clause_denial(predicate: Sequence[str], sentence: str) -> bool | None:
    """Whether a clause of ``sentence`` holding most of the asked ``predicate`` (lemmas) denies it: True
    when its negation governs the question's verb ("Avoid *sending*…") or, both verbs putting or
    sending a thing somewhere (``PLACING_VERBS``), another of that kind ("Never *send* the token in the
    query string" for "Should the token *go* in the query string?"); None when it denies another action
    of the asked things ("Never *log* the token in the query string"): the sentence neither states nor
    denies what is asked; False when no clause speaks of the asked things under a negation."""
    placing = [w for w in predicate if w in _PLACING]
    things = [w for w in predicate if w not in _PLACING] or list(predicate)
    # An aside in brackets ("cannot be used to identify (i.e., name) people") breaks no clause.
    for clause in _CLAUSE_BREAK.split(_ASIDE.sub(" ", sentence)):
        denied = _denials(clause)
        if not denied or _share(things, lemmas(clause)) < TUNING.judge.predicate_coverage:
            continue  # no negation here, or one of other things
        for verb in denied:
            if any(stems_match(verb, w) for w in predicate) or (placing and verb in _PLACING):
                return True  # the asked verb, or one of placing for the question's own ("avoid sending")
            return None
    return False


def _share(wanted: Sequence[str], held: frozenset[str]) -> float:
    return sum(1 for w in wanted if any(stems_match(w, h) for h in held)) / len(wanted) if wanted else 0.0


def _denials(clause: str) -> list[str]:
    """The lemma each negation of a clause governs (as ``negated_terms``): a verbal negation ("does not
    send", "don't send", "never send" at an imperative's head), a negated noun ("no *way* to apply",
    "without a header") or a verb of abstention ("avoid sending"); a negated sweep ("not all") denies
    nothing."""
    toks = [t.replace("’", "'") for t in words(clause)]
    stops = stopwords()
    out: list[str] = []
    for k in range(len(toks)):
        if not _negates(toks, k):
            continue
        following = toks[k + 1 :]
        if any(w in PARTIAL for w in following[:2]):
            continue
        governed = _governed_word(following, stops)
        if governed is not None:
            out.append(lemma(governed))
    return out


def _negates(toks: list[str], k: int) -> bool:
    """Word ``k`` negates: "not" or "never" after an auxiliary or opening an imperative, a contracted
    negation ("don't"), a word negating the noun after it ("no", "without") or a verb of abstention."""
    tok = toks[k]
    verbal = tok in CONTRACTED_NEGATIONS or (tok in ("not", "never") and (k == 0 or toks[k - 1] in AUXILIARIES))
    return verbal or tok in NOUN_NEGATION or tok in AVOIDANCE


def _governed_word(following: list[str], stops: frozenset[str]) -> str | None:
    """The first word after a negation that carries meaning (no auxiliary, function word, adverb or
    light verb), within its reach: the word it denies."""
    # "cannot be *used to* identify", "is not *allowed to* send": the verb after "to" is denied.
    passed = {i for i, w in enumerate(following[:-1]) if w in _BEFORE_TO and following[i + 1] == "to"}
    return next(
        (
            w
            for i, w in enumerate(following[: TUNING.judge.negation_reach + 2 * len(passed)])
            if not (i in passed or w in AUXILIARIES or w in stops or adverb(w) or w in LIGHT)
        ),
        None,
    )


# --- about the document rather than the subject ------------------------------------------------------------

# "This brief proposes…", "The present study examines…", "In this paper, we…", "We searched…",
# "Section 3 describes…", "Here we present…". Verbs of findings ("shows", "found", "concludes") are
# left out: "This study shows that roofs retain half the rain" states a finding.
_ABOUT_THE_DOCUMENT = re.compile(
    rf"^\W*(?:(?:this|the present|the current|our|the following)\s+(?:\w+\s+)?{DOCUMENT_NOUN_PATTERN}s?\s+{PROCEDURE_VERB_PATTERN}"
    rf"|(?:in|throughout)\s+(?:this|the present|our|the following)\s+(?:\w+\s+)?{DOCUMENT_NOUN_PATTERN}\b"
    rf"|(?:section|chapter|appendix)\s+\d"
    rf"|(?:here\s+|first\s+|then\s+|next\s+|finally\s+|also\s+)?(?:we|i)\s+(?:\w+ly\s+)?{PROCEDURE_VERB_PATTERN}"
    rf"|(?:the\s+)?authors?\s+{PROCEDURE_VERB_PATTERN})"
    # ... a procedure in the passive: "Studies were included if…", "Data were collected from…"
    rf"|^\W*(?:[\w-]+\s+){{0,3}}(?:was|were)\s+(?:then\s+|first\s+|also\s+)?(?:included|excluded|selected|screened|"
    rf"collected|recruited|searched|extracted|coded|interviewed|sampled|retrieved)\b"
    # ... or, anywhere, what the document does with its subject: "… are presented in this brief as …".
    rf"|\b(?:presented|proposed|described|discussed|outlined|introduced|summari[sz]ed|reviewed)\s+(?:in|by)\s+"
    rf"(?:this|the present|our)\s+{DOCUMENT_NOUN_PATTERN}\b",
    re.I,
)
# A question about the work itself: its method, data, procedure or what its authors do.
_ASKS_ABOUT_THE_WORK = re.compile(
    r"\b(?:they|their|them|we|our|authors?|"
    # "this paper", "the policy brief", "the second report": a document named by its kind.
    r"(?:this|that|the|each|every) (?:\w+ ){0,2}(?:paper|study|work|brief|report|article|document|review|guide|"
    r"handbook|manual|thesis|page|authors?)|method\w*|methodolog\w*|approach\w*|procedure\w*|"
    r"protocol\w*|data\s*sets?|data|corpus|corpora|sample\w*|experiment\w*|search\w*|collect\w*|propos\w*|"
    r"purpose|aim|goal|objective|scope|design\w*|measur\w*|evaluat\w*|assess\w*|survey\w*)\b",
    re.I,
)


def about_the_document(sentence: str) -> bool:
    """The sentence says what its document or its authors do ("This brief proposes…", "We searched
    four databases…"), not what is known about the subject."""
    return bool(_ABOUT_THE_DOCUMENT.search(sentence))


# How the document is laid out, what its authors plan or hope, and where they publish their work.
_LAYOUT_VERB = (
    r"(?:give|describe|present|discuss|introduce|detail|outline|review|provide|explain|summari[sz]e|report|define)"
)
_ABOUT_THE_TEXT = re.compile(
    # "In Section 2, we give some details…", "Section 3 describes…" (but "In Section 4 we show that X
    # improves Y" states a finding).
    rf"^\W*(?:in\s+)?(?:section|chapter|appendix|§)\s*[\d.]+,?\s+(?:we\s+)?{_LAYOUT_VERB}s?\b(?!\s+that)"
    r"|\b(?:the\s+)?(?:rest|remainder)\s+of\s+(?:this|the)\s+(?:paper|article|chapter|report|thesis)\b"
    r"|\bis\s+organi[sz]ed\s+as\s+follows\b"
    r"|^\W*(?:(?:in\s+(?:the\s+)?future(?:\s+work)?|finally|next|also),?\s+)?(?:we|i)\s+(?:also\s+)?"
    r"(?:will|shall|plan\s+to|intend\s+to|hope\s+to|would\s+like\s+to|leave)\b"
    r"|^\W*our\s+(?:hope|plan|intention|future\s+work)\b|\bfuture\s+work\b"
    r"|^\W*(?:we|the\s+authors?)\s+(?:also\s+)?(?:release|open-source|make\s+(?:\w+\s+){0,3}available)\b"
    r"|\b(?:publicly|freely|openly)\s+available\b|\bavailable\s+at\s+https?://",
    re.I,
)
_ASKS_ABOUT_THE_TEXT = re.compile(
    r"\b(?:future|plan\w*|hope\w*|releas\w*|available|availability|sections?|chapters?|organi[sz]\w*|"
    r"structure\w*|code|github|download\w*|licen[cs]\w*)\b",
    re.I,
)


def about_the_text(sentence: str) -> bool:
    """The sentence is about the text itself: its layout, its authors' plans or hopes, its release."""
    return bool(_ABOUT_THE_TEXT.search(sentence))


def asks_about_the_text(question: str) -> bool:
    """The question asks about a document's layout, plans or release, which such sentences answer."""
    return bool(_ASKS_ABOUT_THE_TEXT.search(question))


# An indirect question: one a verb of inquiry asks ("we explore *what* the model learns", "we study
# *whether* …") or one standing as the subject of an open question ("*How much* X helps is still an
# open question"). The clause from its question word on is what it asks.
_INQUIRY = re.compile(
    r"\b(?:explor|investigat|stud(?:y|ies|ied)|examin|ask|analy[sz]|address|consider|understand|determin|"
    r"wonder|unclear|unknown|question)\w*\b[^.;:]*?\b(?P<clause>(?:what|how|whether|why|which|when|where)\b.*)",
    re.I,
)
_OPEN_QUESTION = re.compile(
    r"^\W*(?P<clause>(?:how|what|whether|why|which)\b.*?)\b(?:is|remains?)\s+(?:still\s+|yet\s+|largely\s+)?"
    r"(?:an?\s+open\s+question|unclear|unknown|not\s+(?:yet\s+)?(?:known|clear|understood))\b",
    re.I,
)
# A sentence asking a question and answering it: "We study how X affects Y and find that it halves Y".
_ALSO_STATES = re.compile(r"\b(?:find|found|show|showed|shown|observe|observed|conclude|demonstrate)\w*\s+that\b|\d")


def poses(question: ParsedQuestion, sentence: str) -> bool:
    """``sentence`` asks ``question`` (an indirect question holding at least TUNING.judge.posed_share of its content
    words) instead of answering it: "We further explore what the model learns in the zero-shot
    setting." is no answer to "What does the model learn in the zero-shot setting?". A question asking
    what a document studies (its own verb of inquiry) is answered by such sentences."""
    stems = set(question.stems)
    found = _INQUIRY.search(sentence) or _OPEN_QUESTION.search(sentence)
    if not stems or found is None or _INQUIRY.search(question.text) or _ALSO_STATES.search(sentence):
        return False
    clause = set(content_stems(found.group("clause")))
    return sum(1 for t in stems if matched(t, clause)) >= TUNING.judge.posed_share * len(stems)


# A document named by its title's kind word ("Policy Brief 2023-04", "the Annual Report").
_NAMED_DOCUMENT = re.compile(r"\b[A-Z][\w-]*\s+(?:Brief|Report|Paper|Study|Review|Guide|Handbook|Manual)\b")


def asks_about_the_work(question: str) -> bool:
    """The question asks about a document's own work (its method, data, aim or authors) or about a
    document it names, which the document's sentences about itself answer."""
    return bool(_ASKS_ABOUT_THE_WORK.search(question) or _NAMED_DOCUMENT.search(question))


# A sentence whose subject is another, cited work, after an opening adverb: "Foster et al. devised…",
# "Waseem et. al. discussed…", "Foster2009 devised…" (a citation key left by a LaTeX conversion), "[12]
# proposed…", "Smith (2019) showed…", "Smith [12] learned…", "Previous work has…". (QASPER's own marker
# of a numbered citation, "BIBREF12", is left out on purpose: no document a user ingests writes it.)
_OTHER_WORK = re.compile(
    # A list item's label before it ("• Domain: Beltagy et al. report…") is no subject.
    r"^\W*(?:[A-Z][\w-]*(?:\s+[\w-]+){0,2}:\s+)?(?:(?:[A-Za-z]+ly|[Hh]owever|[Ff]inally|[Ss]imilarly|[Ii]n addition|[Mm]oreover|[Ll]ikewise),?\s+)?"
    r"(?:[A-Z][\w'’-]+(?:\s+(?:and|&)\s+[A-Z][\w'’-]+)?\s+et\.?\s+al\b"
    r"|[A-Z][a-z]+\d{4}[a-z]?\b"
    r"|\[\d+(?:[,–-]\s*\d+)*\]"
    r"|[A-Z][a-z]+(?:\s+(?:and|&)\s+[A-Z][a-z]+)?\s+(?:\(\d{4}[a-z]?\)|\[\d+\])"
    r"|(?i:previous|prior|earlier|existing|related|recent)\s+(?:work|works|studies|research|approaches|papers)\b)",
)
# A question about the document's own work ("which corpus did *they* use", "what does *this paper*
# propose"), not about the work it cites ("what is the approach of *previous* work").
_OWN_WORK = re.compile(r"\b(?:they|their|them|we|our|(?:this|the present) (?:paper|work|study|article))\b", re.I)
_CITED_WORK = re.compile(r"\b(?:previous|prior|earlier|existing|related|other|cited)\b", re.I)


def about_other_work(sentence: str) -> bool:
    """The sentence's subject is another, cited work ("Foster et al. devised…", "[12] proposed…")."""
    return bool(_OTHER_WORK.search(sentence))


def asks_about_own_work(question: str) -> bool:
    """The question asks what the document's own authors did, not what the work they cite did."""
    asked = question.rsplit(": ", 1)[-1]
    return bool(_OWN_WORK.search(asked)) and not _CITED_WORK.search(asked)


def missing_name(question: str, sentences: Sequence[str], context: Sequence[str] = ()) -> str | None:
    """A name, acronym or identifier of ``question`` that neither ``sentences`` nor ``context`` (their
    documents' titles and sections) hold, or None."""
    return unheld(names(question), [*sentences, *context])


def unheld(wanted: Sequence[str], texts: Sequence[str]) -> str | None:
    """The first of the names ``wanted`` that no text of ``texts`` holds (as whole words), or None."""
    joined = " ".join(texts)
    return next((name for name in wanted if not holds(joined, name)), None)


# --- does a sentence answer the question ---------------------------------------------------------------------


def answer_verdict(
    question: str,
    sentences: Sequence[str],
    context: Sequence[str] = (),
    focus: Sequence[str] = (),
    meaning: Meaning | None = None,
    unasked: Collection[str] = (),
) -> Verdict:
    """Whether ``sentences`` (read with ``context``, their documents' titles and sections) state an
    answer to ``question``: the judge reading what the question asks about — its ``focus`` stems, the
    terms that are not the evidence's general subject ("grants", "subsidies", "owners" of a question on
    green roofs in a library on green roofs; all its content words when none is given) — against
    them. The count a question asks for ("what are the *two* ways") is no figure to find; the words
    whose stems are ``unasked`` (what it frames its ask with) are not read."""
    words = [
        w for w in content_words(COUNTED.sub(" ", strip_question(question)), QUESTION_WORDS) if stem(w) not in unasked
    ]
    wanted = set(focus)
    asked = " ".join(w for w in words if not wanted or stem(w) in wanted) or " ".join(words)
    return judge(asked, sentences, "", context, meaning, ordered=False)
