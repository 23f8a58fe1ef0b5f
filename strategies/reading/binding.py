"""Whether a value a sentence gives is said of what the question asks about: the check a sentence passes
before its value leads an answer (issue 46: a value answers only for its own subject and measure).

A table's row answers for its label (``table_cells.own_row`` picks the row among its siblings); a
sentence must name the question's most specific term, stand in a document naming the things the
question names, and, when its subject is a cited work, name them itself.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from corpus.retrieval import RetrievedChunk
from corpus.text import word_tokens

from .answerhood import about_other_work, unheld
from .claim_checks import form_of, names
from .extractive import Analysis, ScoredSentence
from .lexicon.verbs import REPORTING_VERBS
from .question_types import AnswerType
from .text import content_stems, matched, stem, words
from .tuning import TUNING

# What the things a question counts are asked with or without: the first word after "with", "without",
# "having" or "lacking" (past an article or "no").
_WITH_OR_WITHOUT = re.compile(r"\b(?:with|without|having|lacking)\s+(?:(?:no|any|a|an|the)\s+)?([A-Za-z][\w-]*)", re.I)


# A lower-case compound of words joined by hyphens: "within-participant", "long-form", "per-category".
_COMPOUND = re.compile(r"(?<![\w-])[a-z]+(?:-[a-z]+)+(?![\w-])")


@dataclass(frozen=True)
class Binding:
    """What a sentence giving a value must name for the value to be said of what is asked (``value_binding``)."""

    specific: str | None  # the question's most specific term: the sentence itself names it
    named: tuple[str, ...]  # stems of the names it asks about: the sentence's document names them
    governing: tuple[str, ...]  # the verbs the asked action is under ("agree" to pay): the sentence says them
    documents: dict[str, frozenset[str]]  # each evidence document's stems, its title and sections included
    measured: tuple[str, ...]  # stems of the thing whose measure is asked: the sentence (or its context) names it
    qualified: tuple[str, ...] = ()  # stems of the question's compound modifiers: the sentence names them


def value_binding(analysis: Analysis, tried: list[ScoredSentence]) -> Binding:
    """The question's most specific term (``most_specific``), which the sentence itself must name, and
    the stems of each name it asks about (not the source it names: "according to the X table"), which
    the sentence's document must name: "he practised law in New York" answers for Conry in Conry's
    article; a version in a paper on another toolkit does not answer for Orbit. Only a term some of the
    ``tried`` sentences name (or their document's title or section) binds: a paraphrase ("lower" for
    "reduce") does not. A verb the asked action is under ("How much did Corvid *agree* to pay?") binds the
    sentence itself, when a tried sentence says it: "the court ordered that Corvid pay $1 million" is not
    what Corvid agreed to pay."""
    named = _named_stems(analysis, tried)
    # The named thing whose measure is asked ("the population of Elmford") binds through its document,
    # not each sentence: "The population was 912" answers for the town its page is about, and a sentence
    # is no likelier to give the measure for naming the town ("Elmford lies at 41.23, -80.12"). A name
    # telling one value from its siblings ("the not-English filter") still binds the sentence.
    by_document = frozenset(named) & frozenset(analysis.asked.measured)
    specific = most_specific(analysis, by_document)
    if specific and not any(x.sentence.covers(specific) for x in tried):
        specific = None
    governing = tuple(v for v in analysis.asked.governing if any(_says(x, v) for x in tried))
    measured = tuple(t for t in analysis.asked.measured if t not in by_document)
    if not any(all(x.sentence.covers(t) for t in measured) for x in tried):
        measured = ()
    documents: dict[str, set[str]] = {}
    for x in analysis.scored:
        documents.setdefault(x.sentence.doc_id, set()).update(x.sentence.stems | x.sentence.context)
    documents_stems = {d: frozenset(stems) for d, stems in documents.items()}
    return _with_qualifiers(analysis, Binding(specific, tuple(named), governing, documents_stems, measured))


def _with_qualifiers(analysis: Analysis, binding: Binding) -> Binding:
    """``binding`` with the question's compound modifiers (``_qualifiers``) when the evidence has a
    sentence naming them that is otherwise said of what is asked."""
    qualified = _qualifiers(analysis)
    if qualified and any(
        all(x.sentence.covers(t) for t in qualified) and said_of_asked(analysis, x, binding) for x in analysis.scored
    ):
        return dataclasses.replace(binding, qualified=qualified)
    return binding


def _qualifiers(analysis: Analysis) -> tuple[str, ...]:
    """The stems of the lower-case compound modifiers of a question asking for a figure ("the
    *within-participant* study", "*long-form* datasets"): they tell the asked thing from its kin, so a
    value of the study at large, or of another study, is not its value. Only when the evidence has a
    sentence naming them that is otherwise said of what is asked (``value_binding``): when none is, the
    values at large are all there is, and a document's "the surveyed roofs" may well be its "post-war
    roofs"."""
    asked = analysis.asked.type
    if asked.kind is not AnswerType.QUANTITY:
        return ()
    # The counted noun is said by every candidate: "participant" of "within-participant" tells nothing.
    counted = set(content_stems(asked.noun))
    compounds = (m.group(0) for m in _COMPOUND.finditer(analysis.asked.unsourced))
    return tuple(dict.fromkeys(s for c in compounds for s in content_stems(c) if s not in counted))


def _named_stems(analysis: Analysis, tried: list[ScoredSentence]) -> list[str]:
    """The stems of the names the question asks about that some ``tried`` sentence names."""
    if analysis.asked.type.kind is AnswerType.YES_NO or analysis.asked.conjuncts:
        return []
    named = [t for name in names(analysis.asked.unsourced) for t in content_stems(name)]
    return [t for t in dict.fromkeys(named) if any(x.sentence.covers(t) for x in tried)]


def said_of_asked(analysis: Analysis, item: ScoredSentence, binding: Binding) -> bool:
    """Whether the value ``item`` gives is said of what the question asks about: a table's row answers
    for its label (``table_cells.own_row``); a sentence must name the most specific term, the verbs the
    asked action is under, one of the question's proper names (``_names_one_asked``) and what a count is
    asked with or without (``_restricting``), and stand in a
    document naming what the question names (``value_binding``), and one whose subject is a cited work
    ("Beltagy et al. report a corpus of 18% computer science papers") must itself name the things the
    question names: that work's figure is not the figure of the corpus the question asks about."""
    sentence = item.sentence
    if sentence.row is not None:
        return True
    if binding.specific and not sentence.covers(binding.specific):
        return False
    if not all(_says(item, verb) for verb in binding.governing):
        return False
    if not all(sentence.covers(t) for t in (*binding.measured, *binding.qualified)):
        return False
    if not _document_names_asked(item, binding):
        return False
    if not _names_one_asked(analysis, item):
        return False
    if not all(sentence.covers(t) for t in _restricting(analysis)):
        return False
    return not (about_other_work(sentence.text) and unheld(list(analysis.asked.names), [sentence.text]))


def takes_a_side(item: ScoredSentence, binding: Binding) -> bool:
    """Whether the value ``item`` gives may stand against another document's as an answer to the
    question: its document names the things the question names, and the sentence the question's
    compound modifiers. Lighter than ``said_of_asked``: a side is what its document says, and "He was
    elected in 1886" is its page's Robert Hutchinson; but a student wage in another paper is no side on
    the annotators' pay, nor a pilot study's count on the within-participant study's."""
    return _document_names_asked(item, binding) and all(item.sentence.covers(t) for t in binding.qualified)


def _document_names_asked(item: ScoredSentence, binding: Binding) -> bool:
    document = binding.documents.get(item.sentence.doc_id, frozenset())
    return all(matched(t, document) for t in binding.named)


def _restricting(analysis: Analysis) -> list[str]:
    """The stems of what a count's things are asked with or without ("how many clusters were removed
    for having no *title*", "papers with *LaTeX* full text"): a count said of the things at large (all
    the clusters removed, for every reason) is not their count."""
    if analysis.asked.type.kind is not AnswerType.QUANTITY:
        return []
    return [s for m in _WITH_OR_WITHOUT.finditer(analysis.asked.unsourced) for s in content_stems(m.group(1))]


def _names_one_asked(analysis: Analysis, item: ScoredSentence) -> bool:
    """The sentence, or its document's title or section, names one of the question's proper names,
    whether or not the evidence names them: "it has far fewer samples (403)" gives no value of SciTLDR.
    One suffices (a gain "over" a baseline may leave the baseline unnamed); the thing whose measure is
    asked binds through its document instead ("The population was 912" on Elmford's page). Capitalised
    names only: "35-day" of "the 35-day drought" is a figure's compound, no thing's name."""
    proper = {t for name in names(analysis.asked.unsourced) if name != name.lower() for t in content_stems(name)}
    others = [t for t in proper if t not in analysis.asked.measured]
    return not others or any(item.sentence.covers(t) for t in others)


def _says(item: ScoredSentence, verb: str) -> bool:
    return any(form_of(w, verb) for w in words(item.sentence.text))


def most_specific(analysis: Analysis, exclude: frozenset[str]) -> str | None:
    """The question's most specific term (its rarest in the evidence) when it asks for a figure: a
    value answers only for the thing it is said of, so a sentence giving one must name it (a table's
    row answers for its label). "How many paper clusters did the not-English filter remove?" is not
    answered by the total all filters removed, nor "how long does an inexperienced student take" by an
    expert's time. ``exclude``: terms bound otherwise (a name, by its document). None for other questions, for a question joining things with "and" (each sentence
    may answer for one of them: ``_also_led``), and when the evidence's subject took every term."""
    asked = analysis.asked
    if asked.type.kind is not AnswerType.QUANTITY or asked.conjuncts or not analysis.weights:
        return None
    # The verb the question asks what a document says with ("does X *identify*") names no thing.
    reporting = {stem(w) for w in asked.words if w in REPORTING_VERBS}
    focus = [t for t in analysis.focus_terms if t in analysis.weights and t not in reporting | exclude]
    return max(focus, key=lambda t: (analysis.weights[t], t)) if focus else None


def subject_unheld(
    analysis: Analysis, chosen: Sequence[ScoredSentence], evidence: Sequence[RetrievedChunk], lead: str | None = None
) -> str | None:
    """A word of the subject the question asks what it is or does (``ParsedQuestion.subject``) that the
    leading sentence's document does not hold in its evidence (text, titles and sections), or None: "Under which
    software license is corvidkit released?" is not answered by another paper's "we released the
    dataset under CC BY-NC", whatever words they share. A word past the stem's length is held only
    whole (or in its plural): "corvidkit" is no form of "paper". ``lead``: the document of the sentence
    leading the answer, when a value chose it over the first of ``chosen``. The documents the question
    names as its source bind the same way: a row of another paper's table is no value "in LongEval's
    table" (its name held whole: "longeval" is no form of "long"); the owner of a whole document
    ("Smith's survey") only when some evidence names it."""
    subject, source = analysis.asked.subject, analysis.asked.source
    if not (subject or source) or not chosen:
        return None
    lead = lead or chosen[0].sentence.doc_id
    said = _said(c for c in evidence if c.doc_id == lead)
    return next((w for w in subject if not _holds_word(w, said)), None) or next(
        (w for w in _binding_sources(analysis, evidence) if w not in said), None
    )


def _binding_sources(analysis: Analysis, evidence: Sequence[RetrievedChunk]) -> list[str]:
    """The question's source words that bind: the owner of a whole document no evidence names may be its
    author ("Smith's survey"), whom chunks do not carry; any other source binds ("the Caldmoor study",
    "LongEval's table")."""
    owners = analysis.asked.owners
    named = _said(evidence) if owners else set()
    return [w for w in analysis.asked.source if w not in owners or w in named]


def _said(chunks: Iterable[RetrievedChunk]) -> set[str]:
    """The words of ``chunks`` (text, titles and sections), and each two run together as one name is
    written either way ("Lark Reader", "LarkReader")."""
    said: set[str] = set()
    for chunk in chunks:
        tokens = word_tokens(f"{chunk.title} {chunk.text} {' '.join(b.section for b in chunk.blocks)}")
        said.update(tokens, map("".join, zip(tokens, tokens[1:], strict=False)))
    return said


def _holds_word(word: str, said: set[str]) -> bool:
    # Whole or in another form ("finetuned", "finetune"), never as a shorter word it starts with
    # ("corvidkit", "corvid").
    if word in said or any(form_of(w, word) for w in said if w[:2] == word[:2]):
        return True
    # A short word's stem is faithful to it ("tool", "tools", "tooling"); a long one's five letters
    # are not ("corvidkit", "corvid").
    return len(word) <= TUNING.sentences.stem_length + 3 and matched(stem(word), {stem(w) for w in said})
