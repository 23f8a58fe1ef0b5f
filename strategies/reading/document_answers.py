"""What each document answers to a question, and where documents answer it differently.

For every document in a question's evidence, its answer is the short answer phrase (see
``answer_phrase``) of its best-scoring sentence that gives one, among sentences at least
``TUNING.disputes.doc_relevance`` as relevant as the best sentence of all the evidence (a document that only
mentions the subject in passing has no answer). Only a value of the asked-for type is an answer
(``typed``: a date, a figure, Yes/No, or a name; never a run of words such as "results"), and only
one about what the question names (``subjects``). Two documents disagree when their answers differ:

- no content word in common ("Blitzen Trapper" vs "The Beatles"; "American football" and
  "football" agree); for measurements of one unit, ranges that do not overlap by the numeric rule of
  ``contradictions`` ("57%" agrees with "50 to 60 percent"); for other figures (dates, counts), no
  figure in common;
- they are about the same thing: their sentences do not name different things of the question's
  name (two albums called "Talk Show": another year, label, place in a series), and both state what
  the question asks of it or neither does (``ParsedQuestion.relation``); and
- each document's evidence never mentions the other's answer: a document naming both the band and
  its label gives one answer whichever phrase was picked, and phrase extraction without a model
  picks imperfectly.

Documents are grouped by answer; the largest group (ties: the more relevant) that another answer
about the same thing contradicts is set against each such group, each side quoted with its best
sentence and led by its answer; answers for other things of the name are named in the explanation.
When the documents answer for different things only, there is no disagreement: each answer is shown
with what tells its thing apart (``things_answered``). When the answers do not differ, two documents
may still make the same relevant statement with one detail changed ("founded in 1856" / "founded in
1900", "northwestern" / "northeastern"): that detail, when it is a value of the asked-for kind and
not the name of another thing, is the disagreement.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from corpus.retrieval import RetrievedChunk
from corpus.text import figures, word_tokens
from research.evidence import CitationMarker, Claim, Contradiction, Finding, FindingStatus, SubQuestion
from strategies.reading.lexicon.months import MONTH_WORD
from strategies.reading.numbers import conflict_ratio, quantities
from strategies.reading.tuning import TUNING
from strategies.reading.vectors import Vectors

from .answer_phrase import answer_phrase, dates
from .answerhood import polarity
from .binding import said_of_asked, takes_a_side, value_binding
from .extractive import Analysis, ScoredSentence, analyse
from .name_kinds import NameKinds
from .question import ParsedQuestion
from .question_types import AnswerType, QuestionType, fits
from .signals import covered
from .subjects import Subject, different, subject_of, with_label, without_label
from .table_cells import cell_answer, own_row
from .text import matched, normalise_space, stem, stopwords

_DECIMAL = re.compile(r"\d\.\d")


@dataclass(frozen=True)
class DocumentAnswer:
    doc_id: str
    answer: str
    sentence: ScoredSentence
    subject: Subject


def lead(
    asked: ParsedQuestion,
    item: ScoredSentence,
    vectors: Vectors,
    min_score: float = 0.0,
    kinds: NameKinds | None = None,
) -> str | None:
    """The short answer one sentence gives: the answer phrase, or Yes/No for a yes/no question; a
    table's row gives the value in the column the question asks (``table_cells``); ``kinds``: what the
    evidence calls each name (``name_kinds``)."""
    row = item.sentence.row
    if row is not None:
        if not own_row(asked, row.label, item.sentence.rivals):
            return None
        value = cell_answer(asked, row, item.sentence.context)
        return value if value is not None and fits(asked.type, value, item.sentence.text) else None
    said = polarity(asked, item.sentence.text)
    if said is not None:
        return said
    phrase = answer_phrase(asked, item.sentence.text, vectors, kinds)
    if phrase is None or phrase.score < min_score:
        return None
    return phrase.text if fits(asked.type, phrase.text, normalise_space(item.sentence.text)) else None


def document_answers(analysis: Analysis, vectors: Vectors, *, naming: bool = False) -> list[DocumentAnswer]:
    """One answer per document that gives one, best document first.

    An answer is a value of the asked-for type (``answer_phrase``), and its sentence is about what the
    question asks: a sentence naming another thing of a like name ("the Messages API" when the
    question asks about "the Text Completions API") answers for that thing, not for the question.
    With ``naming``, only a sentence naming everything the question names gives an answer."""
    if not analysis.scored or analysis.asked.type.kind is AnswerType.DESCRIPTION:
        return []
    floor = TUNING.disputes.doc_relevance * analysis.scored[0].relevance
    tried: dict[str, int] = {}
    out: dict[str, DocumentAnswer] = {}
    for item in analysis.scored:
        doc = item.sentence.doc_id
        if item.relevance < floor or doc in out or tried.get(doc, 0) >= TUNING.disputes.sentences_per_document:
            continue
        tried[doc] = tried.get(doc, 0) + 1
        if naming and not names_asked(analysis.asked, item):
            continue
        answer = lead(analysis.asked, item, vectors, TUNING.disputes.min_phrase_score, analysis.kinds)
        if not answer:  # ``lead`` gives only values of the asked-for type (``answer_phrase``)
            continue
        subject = subject_of(item.sentence.text, [answer], analysis.question)
        if not subject.off_question:
            out[doc] = DocumentAnswer(doc, answer, item, subject)
    return list(out.values())


def _content(text: str) -> set[str]:
    stops = stopwords()
    return {t for t in word_tokens(text) if t not in stops}


def same_answer(a: str, b: str) -> bool:
    qa, qb = quantities(a), quantities(b)
    if qa and qb:
        # Measurements agree when some pair of one unit overlaps ("57%" lies in "50 to 60 percent");
        # measurements of different things ("115 kg/m2", "50 to 150 mm") do not disagree at all.
        comparable = [(x, y) for x in qa for y in qb if x.unit == y.unit]
        return not comparable or any(conflict_ratio(x, y) < TUNING.judge.min_conflict_ratio for x, y in comparable)
    # Dates, counts and names agree when one says all the other does and maybe more ("football" and
    # "American football"; "1885" and "15 May 1885"); a shared word or figure beside a different one is
    # two answers ("Indian Finnish-language" / "Indian Assamese-language"; "22 October 1885" / "15 May
    # 1885"; "under-age rugby" / "under-age cricket competition").
    ka, kb = _answer_key(a), _answer_key(b)
    if ka and kb:
        return ka <= kb or kb <= ka
    return normalise_space(a).lower() == normalise_space(b).lower()


def _month(text: str) -> str:
    """The month a date names, by its first three letters ("Sept." -> "sep"), or ""."""
    for date in dates(text):
        for word in re.findall(r"[A-Za-z]+", date):
            if MONTH_WORD.match(word):
                return word.lower()[:3]
    return ""


def _answer_key(text: str) -> frozenset[str]:
    """What an answer says: its figures and the stems of its other content words."""
    words = {stem(w) for w in _content(text) if not any(c.isdigit() for c in w)}
    return frozenset({*words, *(f"{n:g}" for n in figures(text))})


def _mentions(text: str, answer: str) -> bool:
    """The document's text contains the answer (all its content words, or its figures). A date with its
    month is mentioned only as a date of that month holding its figures: a page giving a life's span
    "1885-1955" and a birth date "22 October 1900" does not mention "15 May 1885"."""
    month = _month(answer)
    if month:
        wanted = set(figures(answer))
        return any(_month(d) == month and wanted <= set(figures(d)) for d in dates(text))
    numbers = figures(answer)
    if numbers:
        found = figures(text)
        return set(numbers) <= set(found)
    # A name is mentioned as a phrase: its words together, not scattered ("Odakyu ... electric ...
    # railway" over a page does not say "Odakyu Electric Railway").
    words = _content(answer)
    if not words:
        return False
    tokens = word_tokens(text)
    span = len(word_tokens(answer)) + TUNING.disputes.mention_slack
    at = [i for i, t in enumerate(tokens) if t in words]
    return any(words <= set(tokens[i : i + span]) for i in at)


def answer_conflicts(
    sub_question: SubQuestion,
    analysis: Analysis,
    evidence: list[RetrievedChunk],
    vectors: Vectors,
    *,
    naming: bool = False,
) -> list[Contradiction]:
    """The disagreements between the documents' answers to ``sub_question``: the most widely given
    answer against each other answer about the same thing (at most ``TUNING.disputes.max_sides`` - 1 of them). With
    ``naming``, only answers from sentences naming what the question names. Edited statements are
    checked either way: two near-copies of one sentence with the asked value changed need no name to be
    about one thing ("The median age in the city was 45.7 years." / "… 30.2 years.")."""
    answers = document_answers(analysis, vectors, naming=naming)
    # Only answers of what is asked take sides (``takes_a_side``): the eight participants of a pilot
    # study do not dispute the 24 of the within-participant study the question asks about.
    binding = value_binding(analysis, [a.sentence for a in answers])
    answers = [a for a in answers if takes_a_side(a.sentence, binding)]
    if len(answers) < 2:
        return edited_statements(sub_question, analysis, naming=naming)
    text_of = _texts_by_document(evidence)
    ordered = _leading_groups_first(_grouped(answers))
    for first in ordered:
        found, sides = _disputes_with(first, ordered, sub_question, analysis, text_of)
        if found:
            return _naming_other_things(found, sides, answers)
    return edited_statements(sub_question, analysis, naming=naming)


def _texts_by_document(evidence: list[RetrievedChunk]) -> dict[str, str]:
    """Each document's evidence text, its chunks joined: where an answer may be mentioned."""
    text_of: dict[str, str] = {}
    for chunk in evidence:
        text_of[chunk.doc_id] = text_of.get(chunk.doc_id, "") + " " + chunk.text
    return text_of


def _grouped(answers: list[DocumentAnswer]) -> list[list[DocumentAnswer]]:
    """The answers grouped by what they say (``same_answer`` with a group's first), in evidence order."""
    groups: list[list[DocumentAnswer]] = []
    for item in answers:
        group = next((g for g in groups if same_answer(g[0].answer, item.answer)), None)
        if group is None:
            groups.append([item])
        else:
            group.append(item)
    return groups


def _leading_groups_first(groups: list[list[DocumentAnswer]]) -> list[list[DocumentAnswer]]:
    """Largest groups first; equal sizes keep evidence order (the more relevant first), an edited
    copy's answer ahead of its size."""
    # The leading answer is the first that another answer about the same thing contradicts: of three
    # albums of one name, the two documents that credit the same album to two artists disagree, the
    # third does not. Among groups of one size, an answer another document states in the same sentence
    # with that detail changed comes first: the plainest sign of an altered copy ("With the population
    # about 50,000" / "about 10,000"), more telling than a figure from some other statement of the subject.
    edited = [any(o is not g and _edited_pair(g, o) for o in groups) for g in groups]
    return [g for _, g in sorted(enumerate(groups), key=lambda x: (-len(x[1]), not edited[x[0]]))]


def _disputes_with(
    first: list[DocumentAnswer],
    ordered: list[list[DocumentAnswer]],
    sub_question: SubQuestion,
    analysis: Analysis,
    text_of: dict[str, str],
) -> tuple[list[Contradiction], list[DocumentAnswer]]:
    """The disputes of ``first``'s answer with the other groups' answers about the same thing (at most
    ``TUNING.disputes.max_sides`` - 1), and the answers that are their sides."""
    # Yes and No are compared as they are: both words occur in any text.
    yes_no = analysis.asked.type.kind is AnswerType.YES_NO
    relation = analysis.asked.relation
    found: list[Contradiction] = []
    sides: list[DocumentAnswer] = []
    for other in ordered:
        pair = None if other is first else _same_thing(first, other, relation)
        if pair is None:
            continue
        a, b = pair
        one = [x for x in first if not different(x.subject, b.subject)]
        two = [y for y in other if not different(y.subject, a.subject)]
        if not yes_no and _mentions_the_other(one, two, (a, b), text_of):
            continue
        explanation = (
            f"The documents answer differently: \u201c{a.answer}\u201d ({_count(one)}) and "
            f"\u201c{b.answer}\u201d ({_count(two)})."
        )
        found.append(_dispute(sub_question, analysis.asked.type, a, b, explanation))
        sides += [a, b]
        if len(found) == TUNING.disputes.max_sides - 1:
            break
    return found, sides


def _mentions_the_other(
    one: list[DocumentAnswer],
    two: list[DocumentAnswer],
    pair: tuple[DocumentAnswer, DocumentAnswer],
    text_of: dict[str, str],
) -> bool:
    """A document of either side also mentions the other side's answer: its text gives both, so the
    two are no disagreement between documents."""
    a, b = pair
    return any(_mentions(text_of.get(x.doc_id, ""), b.answer) for x in one) or any(
        _mentions(text_of.get(y.doc_id, ""), a.answer) for y in two
    )


def _edited_pair(one: list[DocumentAnswer], other: list[DocumentAnswer]) -> bool:
    return any(detail_change(a.sentence.sentence.text, b.sentence.sentence.text) for a in one for b in other)


def _naming_other_things(
    found: list[Contradiction], sides: list[DocumentAnswer], answers: list[DocumentAnswer]
) -> list[Contradiction]:
    """The first dispute's explanation also names the answers given for other things of the name:
    they are no side, and no reader should take them for one ("Talk Show" by the Go-Go's, 1984, is
    another album than the one two documents credit to two singers)."""
    others = [x for x in answers if all(different(x.subject, s.subject) for s in sides)]
    if not others:
        return found
    named = "; ".join(f"\u201c{_with_subject(x, [*sides, *others])}\u201d" for x in others[: TUNING.disputes.max_sides])
    note = f" Answers for another thing of the name, not part of this disagreement: {named}."
    first = found[0].model_copy(update={"explanation": found[0].explanation + note})
    return [first, *found[1:]]


def _same_thing(
    first: list[DocumentAnswer], other: list[DocumentAnswer], relation: frozenset[str]
) -> tuple[DocumentAnswer, DocumentAnswer] | None:
    """The best pair of answers, one from each group, about the same thing (``subjects.different``)
    and the same slot: when one sentence states the relation the question asks about and the other
    does not ("commenced practice in New York City" / "was elected as a Democrat", for where someone
    practised law), the other gives some other fact of the subject."""
    return next(
        (
            (a, b)
            for a in first
            for b in other
            if not different(a.subject, b.subject) and _states(a, relation) == _states(b, relation)
        ),
        None,
    )


def _states(item: DocumentAnswer, relation: frozenset[str]) -> bool:
    return any(matched(r, item.sentence.sentence.stems) for r in relation)


_PUNCTUATION = ".,;:()[]\"'“”"


@dataclass(frozen=True)
class _Words:
    """A sentence's words for aligning two statements: punctuation standing alone is no word, so two
    copies of a page spaced differently ("(Dzongkha: …)" / "( Dzongkha : … )") align word for word."""

    raw: list[str]  # every whitespace-separated piece, punctuation included
    at: list[int]  # where each word stands in ``raw``

    @classmethod
    def of(cls, text: str) -> _Words:
        raw = text.split()
        return cls(raw, [i for i, w in enumerate(raw) if w.strip(_PUNCTUATION)])

    def keys(self) -> list[str]:
        return [self.raw[i].strip(_PUNCTUATION).lower() for i in self.at]

    def span(self, start: int, end: int) -> str:
        """Words ``start`` to ``end`` as written, their inner punctuation kept ("Thimphu , Bhutan" is
        "Thimphu, Bhutan"), the outer left out."""
        text = " ".join(self.raw[self.at[start] : self.at[end - 1] + 1])
        text = re.sub(r"\s+([,;:)\]])", r"\1", re.sub(r"([(\[])\s+", r"\1", text))
        return text.strip(_PUNCTUATION)

    def __len__(self) -> int:
        return len(self.at)


def detail_change(a: str, b: str) -> list[tuple[str, str]] | None:
    """The details two near-identical sentences state differently ([("1856", "1900")]), or None: too
    different to be one statement, or differing only in words that carry nothing (a hedge, a typo).
    Words one sentence has before or after the shared statement (a page title glued to its first
    sentence) are not a change of it."""
    ta, tb = _Words.of(a), _Words.of(b)
    ops = _one_statement(ta, tb)
    if ops is None:
        return None
    changes = [op for op in ops if op[0] != "equal"]
    if not _few_small_replacements(changes):
        return None
    pairs = [(ta.span(i1, i2), tb.span(j1, j2)) for _, i1, i2, j1, j2 in changes]
    pairs = [(x, y) for x, y in pairs if not _spelling_variant(x, y) and not _rounded(x, y)]
    meaningful = all((_content(x) or figures(x)) for pair in pairs for x in pair)
    return pairs if pairs and meaningful else None


def _one_statement(ta: _Words, tb: _Words) -> list[tuple[str, int, int, int, int]] | None:
    """The word alignment of two sentences, without the words only one has before or after the shared
    statement, or None when too few words are shared for them to be one statement."""
    ops = difflib.SequenceMatcher(a=ta.keys(), b=tb.keys(), autojunk=False).get_opcodes()
    while ops and ops[0][0] in ("insert", "delete"):
        ops = ops[1:]
    while ops and ops[-1][0] in ("insert", "delete"):
        ops = ops[:-1]
    same = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag == "equal")
    if not ops or same < TUNING.disputes.same_statement_similarity * min(len(ta), len(tb)):
        return None
    if 2 * same / (ops[-1][2] - ops[0][1] + ops[-1][4] - ops[0][3]) < TUNING.disputes.same_statement_similarity:
        return None
    return ops


def _few_small_replacements(changes: list[tuple[str, int, int, int, int]]) -> bool:
    """At most TUNING.disputes.max_changes changes, each a few words replaced: a detail changed, not words added or cut."""
    if not changes or len(changes) > TUNING.disputes.max_changes or any(op[0] != "replace" for op in changes):
        return False
    return not any(
        i2 - i1 > TUNING.disputes.max_changed_words or j2 - j1 > TUNING.disputes.max_changed_words
        for _, i1, i2, j1, j2 in changes
    )


def _spelling_variant(a: str, b: str) -> bool:
    """One edit apart, letters only ("chuch" / "church"); "northwestern" / "northeastern" are two
    words, and figures never differ by a typo that changes nothing."""
    a, b = a.lower(), b.lower()
    if figures(a) or figures(b) or abs(len(a) - len(b)) > 1:
        return False
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :] or (a[i : i + 2] == b[i : i + 2][::-1] and a[i + 2 :] == b[i + 2 :])
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    return longer[i + 1 :] == shorter[i:]


def _rounded(a: str, b: str) -> bool:
    """One measure rounded or converted differently ("388.5/km²" / "389.3/km 2"): each figure equals
    the other's or, written with a decimal part, lies within TUNING.disputes.rounding of it. Whole numbers (years,
    counts) are compared as they are: 1885 and 1902 are two dates."""
    pairs = list(zip(figures(a), figures(b), strict=False))
    decimal = bool(_DECIMAL.search(a) or _DECIMAL.search(b))
    return bool(pairs) and all(
        x == y or (decimal and abs(x - y) <= TUNING.disputes.rounding * max(abs(x), abs(y))) for x, y in pairs
    )


def edited_statements(sub_question: SubQuestion, analysis: Analysis, *, naming: bool = False) -> list[Contradiction]:
    """Two documents making the same statement with one detail changed: a disagreement on that detail
    when it is what the question asks for (``changed_value``), and not the name of the thing the
    statement is about ("Claude 3 Opus" / "Claude 3 Haiku" are two models, not two values); the most
    direct sign that one source was altered. For a question asking for a value, the statement need
    only be TUNING.disputes.edited_relevance as relevant as the best sentence: the changed detail is of the asked-for
    type, and the sentence naming it often refers to its subject by a pronoun ("It was designed by").
    With ``naming`` (evidence that never names what is asked), only questions asking for a typed value."""
    if not analysis.scored:
        return []
    kind = analysis.asked.type.kind
    if naming and kind in (AnswerType.DESCRIPTION, AnswerType.YES_NO):
        # Evidence not shown to be about the question: only a changed value of the asked-for type tells
        # an altered copy; a description question's "anything but a name" (two menu entries' blurbs,
        # "Start prompt engineering" / "Prompt library") is no sign of one.
        return []
    share = (
        TUNING.disputes.doc_relevance
        if kind in (AnswerType.DESCRIPTION, AnswerType.YES_NO)
        else TUNING.disputes.edited_relevance
    )
    floor = share * analysis.scored[0].relevance
    relevant = [s for s in analysis.scored if s.relevance >= floor]
    for i, x in enumerate(relevant):
        for y in relevant[i + 1 :]:
            dispute = _edited_dispute(sub_question, analysis, x, y)
            if dispute is not None:
                return [dispute]
    return []


def _edited_dispute(
    sub_question: SubQuestion, analysis: Analysis, x: ScoredSentence, y: ScoredSentence
) -> Contradiction | None:
    """The dispute of two documents' sentences that make one statement with the asked value changed,
    or None: one document, two statements, another kind of change, or two things named."""
    if x.sentence.doc_id == y.sentence.doc_id or not _alike(x.sentence.stems, y.sentence.stems):
        return None
    change = detail_change(x.sentence.text, y.sentence.text)
    if change is None or not changed_value(change, analysis.asked.type.kind):
        return None
    question = analysis.question
    old, new = (" … ".join(side) for side in zip(*change, strict=True))
    a = DocumentAnswer(x.sentence.doc_id, old, x, subject_of(x.sentence.text, [o for o, _ in change], question))
    b = DocumentAnswer(y.sentence.doc_id, new, y, subject_of(y.sentence.text, [n for _, n in change], question))
    if a.subject.off_question or b.subject.off_question or different(a.subject, b.subject):
        return None
    explanation = (
        f"The documents make the same statement with one detail changed: "
        f"\u201c{a.answer}\u201d and \u201c{b.answer}\u201d."
    )
    return _dispute(sub_question, analysis.asked.type, a, b, explanation)


def _alike(a: frozenset[str], b: frozenset[str]) -> bool:
    """Cheap bound before the word alignment: one statement shares most of its stems."""
    return (
        len(a & b)
        >= TUNING.disputes.same_statement_similarity * min(len(a), len(b))
        - TUNING.disputes.max_changes * TUNING.disputes.max_changed_words
    )


def changed_value(change: list[tuple[str, str]], kind: AnswerType) -> bool:
    """The changed details of two statements are values of the kind asked for: figures for a date or
    quantity; not only figures for a name or thing; for other questions anything but a name, which
    says what the statement is about rather than what it says of it."""
    names = any(_is_name(x) for pair in change for x in pair)
    if kind in (AnswerType.DATE, AnswerType.QUANTITY):
        return not names and any(figures(old) and figures(new) for old, new in change)
    if kind in (AnswerType.NAME, AnswerType.PLACE, AnswerType.THING):
        return any(not (figures(old) and figures(new)) for old, new in change)
    return not names


def _is_name(text: str) -> bool:
    words = [w for w in text.split() if w.lower() not in stopwords()]
    return bool(words) and all(w[0].isupper() or w[0].isdigit() for w in words) and any(w[0].isupper() for w in words)


def answer_disputes(findings: list[Finding], vectors: Vectors) -> list[Contradiction]:
    """The answer disagreements of every finding: the check both modes run on their evidence.

    A gap is checked too when its evidence covers the question's words (``signals.covered``):
    documents answering differently lower every sufficiency signal, so a disputed question often
    looks unanswered (on RAMDocs dev 14 of 77 disputes were gaps), and so is a gap whose best sentence
    names what the question names (``names_what_is_asked``). Any other gap is checked on the answers
    of sentences that name what the question names (a page's "Doak is widely recognized for his skills
    in chess" against "Doak Campbell Stadium … is a football stadium", when the best sentence of all
    names neither): evidence that never mentions what is asked is no dispute, only unrelated answers,
    unless two of its documents make one statement with the asked value changed (``edited_statements``)."""
    disputes: list[Contradiction] = []
    for finding in findings:
        if not finding.evidence:
            continue
        analysis = analyse(finding.sub_question.question, finding.evidence, vectors)
        weak = (finding.status is FindingStatus.GAP or not finding.claims) and not (
            covered(analysis) or names_what_is_asked(analysis)
        )
        if weak and not analysis.asked.names:
            continue
        disputes += answer_conflicts(finding.sub_question, analysis, finding.evidence, vectors, naming=weak)
    return disputes


def names_what_is_asked(analysis: Analysis) -> bool:
    """The best sentence names everything the question names (``claim_checks.names``): it is about what
    is asked, though it may not use the question's other words ("associated with" for "What sport is
    the Kestrel Shield associated with?"), so its documents' answers are answers to the question."""
    return bool(analysis.scored) and names_asked(analysis.asked, analysis.scored[0])


def names_asked(asked: ParsedQuestion, item: ScoredSentence) -> bool:
    """The sentence names everything the question names (and the question names something)."""
    names = {stem(w) for w in asked.names}
    return bool(names) and all(matched(n, item.sentence.stems) for n in names)


def _dispute(
    sub_question: SubQuestion, asked: QuestionType, a: DocumentAnswer, b: DocumentAnswer, explanation: str
) -> Contradiction:
    return Contradiction(
        subject=sub_question.question,
        kind="answer",
        explanation=explanation,
        side_a=_side(a, asked=asked),
        side_b=_side(b, asked=asked),
        sub_question_id=sub_question.id,
    )


def _count(group: list[DocumentAnswer]) -> str:
    return "1 document" if len(group) == 1 else f"{len(group)} documents"


def _side(item: DocumentAnswer, answer: str | None = None, *, asked: QuestionType, whole: bool = False) -> Claim:
    """A side quoted with its sentence, led by its value only when that is a short answer a reader can
    take as one: the question asks for a typed value, and the value stands whole in the sentence (a
    changed detail of an edited statement, "red" / "yellow", or a value assembled from several places
    is said in the explanation, not bolded). A run-on "sentence" (a page's menus and infobox read as
    one) is quoted by the words around its value (``excerpt``), unless ``whole``: a thing's answer stands
    beside the section's own quotes, which give its sentence whole (one sentence is shown once)."""
    s = item.sentence.sentence
    shown = answer or item.answer
    value = without_label(shown)
    quote = s.text if whole else excerpt(s.text, value.split(" … ")[0])
    return Claim(
        text=normalise_space(quote),
        citations=[CitationMarker(block_id=s.block_id, quote=quote)],
        answer=shown if fits(asked, value, normalise_space(quote)) else None,
    )


def excerpt(sentence: str, value: str) -> str:
    """The sentence, or when it runs over TUNING.disputes.max_side_words words, the words around the first place it
    gives ``value``: up to TUNING.disputes.side_words_before before and TUNING.disputes.side_words_after after, verbatim, so the quote
    still resolves to its block. A sentence that does not give the value is kept whole."""
    words = list(re.finditer(r"\S+", sentence))
    at = sentence.lower().find(value.lower()) if value.strip() else -1
    if len(words) <= TUNING.disputes.max_side_words or at < 0:
        return sentence
    first = next(i for i, w in enumerate(words) if w.end() > at)
    last = next((i for i, w in enumerate(words) if w.end() >= at + len(value)), len(words) - 1)
    start = words[max(0, first - TUNING.disputes.side_words_before)].start()
    end = words[min(len(words) - 1, last + TUNING.disputes.side_words_after)].end()
    return sentence[start:end]


def things_answered(analysis: Analysis, vectors: Vectors) -> list[Claim]:
    """When documents answer for different things of the question's name (two albums called "Talk
    Show"), one claim per thing, led by its answer and what tells the thing apart ("The Go-Go's (I.R.S.,
    1984)"): the values are no disagreement, and the reader must see which thing each belongs to.
    Empty when the documents answer for one thing."""
    answers = document_answers(analysis, vectors)
    # Only answers said of what is asked (``binding``): a version another paper gives for its own
    # dataset is no answer for the dataset the question names, though it shares the question's words.
    binding = value_binding(analysis, [a.sentence for a in answers])
    things: list[DocumentAnswer] = []
    for item in answers:
        if not said_of_asked(analysis, item.sentence, binding):
            continue
        if all(different(item.subject, t.subject) and not same_answer(item.answer, t.answer) for t in things):
            things.append(item)
    if len(things) < 2:
        return []
    return [_side(t, _with_subject(t, things), asked=analysis.asked.type, whole=True) for t in things]


def _with_subject(item: DocumentAnswer, among: list[DocumentAnswer]) -> str:
    label = item.subject.label(o.subject for o in among if o is not item)
    return with_label(item.answer, label)
