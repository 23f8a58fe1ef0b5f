"""One judge of what a sentence states: does this text say this claim?

Every place prp decides whether a sentence answers or supports something asks here: the citation
node's support flag, LLM mode's grounding of a model's claims, the offline answer's sufficiency, the
yes/no lead and the disagreement check. The verdict is one of

- **states**: the sentences (read with their document's title and section, and the question) say
  what the claim says, in its words or in others;
- **contradicts**: they say the same thing about the same subject with another figure, the other
  polarity or another term;
- **neither**: they do not say it (another subject, a name or figure they do not hold, a sweeping
  claim over a limited statement, too little of the claim in them),

with a score in [0, 1] and the reason a reader can be shown. The hard checks
(``strategies.reading.claim_checks``) come first and meaning similarity cannot overrule them; a
claim that passes them is stated when enough of its content words are in the sentences, or, in
other words, when the embedder finds it close in meaning to them (a paraphrase rescued, never an
error confirmed). A claim quoted verbatim is stated without further reading.
"""

from __future__ import annotations

from collections.abc import Sequence

from research.verdict import Label, Verdict
from strategies.reading.claim_checks import (
    CONTRAST,
    Failure,
    Meaning,
    content_stems,
    covered,
    figures_problem,
    names_problem,
    pieces,
    polarity_problem,
    subject_problem,
    swap_problem,
    sweep_problem,
)
from strategies.reading.clause_checks import clause_polarity_problem, figure_clause_problem, modality_problem
from strategies.reading.clauses import aligned
from strategies.reading.slots import slot_problem
from strategies.reading.tuning import TUNING


def judge(
    claim: str,
    sentences: Sequence[str],
    question: str = "",
    context: Sequence[str] = (),
    meaning: Meaning | None = None,
    *,
    ordered: bool = True,
) -> Verdict:
    """Whether ``sentences`` state ``claim``. ``context``: their documents' titles and sections;
    ``question``: what the claim answers (its names and terms need not be repeated by the sentences);
    ``meaning``: the embedder's comparisons, to rescue a paraphrase (None: words only); ``ordered``:
    the claim is a sentence, its words in an order that means something (not a question's terms in a
    row, whose neighbours are no slots: ``strategies.reading.slots``)."""
    text = " ".join(claim.split())
    shown = [" ".join(s.split()) for s in sentences if s.strip()]
    if not text:
        return Verdict(Label.NEITHER, 0.0, "no claim")
    if not shown:
        return Verdict(Label.NEITHER, 0.0, "no cited text")
    joined = " ".join(shown)
    if _fold(text) in _fold(joined):
        return Verdict(Label.STATES, 1.0, "quoted verbatim", firm=True)
    background = " ".join([question, *context])
    claim_stems = content_stems(text)
    stems = set(content_stems(joined))
    best = max(shown, key=lambda s: covered(claim_stems, set(content_stems(s))))
    overlap = covered(claim_stems, set(content_stems(best)))
    known = stems | set(content_stems(background))
    failure = (
        figures_problem(text, f"{joined} {question}", best, overlap)
        or names_problem(text, joined, background)
        or sweep_problem(text, joined)
        or _clausewise(text, shown)
        or _piecewise(text, shown, known, stems, ordered)
    )
    if failure is not None:
        return _failed(failure, overlap)
    coverage = covered(claim_stems, stems | set(content_stems(background)))
    if coverage >= TUNING.judge.state_coverage:
        return Verdict(Label.STATES, round(coverage, 3), f"{coverage:.0%} of its words are in the cited text")
    if meaning is not None and coverage >= TUNING.judge.rescue_coverage:
        cosine = meaning.similarity(text, shown)
        if cosine >= TUNING.judge.rescue_cosine:
            return Verdict(Label.STATES, round(cosine, 3), f"the cited text says it in other words ({cosine:.2f})")
    return Verdict(Label.NEITHER, round(coverage / 2, 3), f"only {coverage:.0%} of its words are in the cited text")


def _clausewise(text: str, shown: list[str]) -> Failure | None:
    """Polarity, modality and figures read clause by clause (``strategies.reading.clause_checks``)."""
    polarity = clause_polarity_problem(text, shown)
    if polarity is not None:
        return Failure(polarity[1] >= TUNING.judge.same_statement, polarity[0])
    figure = figure_clause_problem(text, shown)
    if figure is not None:
        return Failure(True, figure)
    modal = modality_problem(text, shown)
    return Failure(False, modal) if modal is not None else None


def _piecewise(text: str, shown: list[str], known: set[str], cited: set[str], ordered: bool) -> Failure | None:
    """Polarity, a figure's subject and swapped terms, read for each sentence or clause of the claim
    against the cited sentence that reads most like it (a claim of two sentences may draw on two;
    polarity for each of its contrasted clauses); then, in a claim whose words are ``ordered``, a term in
    another's slot of any cited sentence (``strategies.reading.slots``)."""
    for piece in pieces(text):
        piece_stems = content_stems(piece)
        best = max(shown, key=lambda s: covered(piece_stems, set(content_stems(s))))
        failure = _polarity(piece, shown) or subject_problem(piece, best) or swap_problem(piece, best, known, cited)
        if failure is not None:
            return failure
    return slot_problem(text, shown, known) if ordered else None


# Contrasted clauses often differ in polarity ("the leaders do not change their usernames, while
# their followers change them a lot"): each is read against the sentence that reads most like it.


def _polarity(piece: str, shown: list[str]) -> Failure | None:
    parts = [p for p in CONTRAST.split(piece) if len(content_stems(p)) >= TUNING.judge.min_piece_words] or [piece]
    for part in parts:
        # Read against the cited clause most like it: "the clinic accepts walk-in patients" is not
        # denied by the next clause's "it does not accept unsigned cards".
        best, close = aligned(part, shown)
        if close < TUNING.judge.aligned:
            best = [max(shown, key=lambda s: covered(content_stems(part), set(content_stems(s))))]
        part_stems = content_stems(part)
        for clause in best[:1]:
            failure = polarity_problem(part, clause, covered(part_stems, set(content_stems(clause))))
            if failure is not None:
                return failure
    return None


def _failed(failure: Failure, overlap: float) -> Verdict:
    if failure.contradicts:
        return Verdict(Label.CONTRADICTS, 0.0, failure.reason, firm=failure.firm)
    return Verdict(Label.NEITHER, round(min(overlap, 1.0) / 4, 3), failure.reason, firm=failure.firm)


# What a second reader's verdict is shown as where it decides.
READER_STATES = "stated in other words, as the model reads the cited text"
READER_DOUBTS = {
    Label.NEITHER: "the model reading the cited text finds it does not state this",
    Label.CONTRADICTS: "the model reading the cited text finds it says otherwise",
}


def read_again(verdict: Verdict, reading: Label | None) -> Verdict:
    """The judge's verdict with a second reader's (LLM mode's model, ``PRP_LLM_READER``) beside it.

    Words and embeddings cannot tell a synonym from a swapped term, nor see an error that keeps the
    sentence's words; a model reading the sentence can. So the reader may state a claim the judge found
    unstated for want of words, and unstate one the judge stated by words or meaning; it never
    overrules the text itself (a verbatim quote, a figure, name or polarity the hard checks read)."""
    if reading is None or verdict.firm or reading is verdict.label:
        return verdict
    if reading is Label.STATES:
        return Verdict(Label.STATES, 0.5, READER_STATES)
    if verdict.states:
        return Verdict(reading, 0.0, READER_DOUBTS[reading])
    return verdict


def _fold(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split()).rstrip(".")
