"""A model's claims checked against the sentences it was shown, before they become citations.

Small local models (the 0.5B default) answer with the right fact but the wrong id about as often as
not: they cite a block's label (``b5``) instead of a sentence, pin a claim on the document's title
line, copy the prompt's own field labels into a claim ("…sentence_ids: b6, b19"), restate the
question as a claim, or repeat a claim. The ids are hints here as block ids are hints everywhere in
prp: what a claim is cited for is decided by what its text states, as the judge reads it
(``strategies.reading.judge``, the same judgement the citation node makes), so

- a claim is cleaned of copied prompt labels and ids; one that is then empty, a question, or a
  restatement or repeat of what came before is no claim (a repeat: one an earlier claim states, so
  "…, in every case" after "…" is a claim of its own, judged and flagged);
- a block label stands for that block's shown sentences;
- a cited sentence ending in a colon ("The tool helps you:") is read with the list it introduces (the
  shown sentences after it in its block), which are then cited with it;
- a cited sentence is read in its context where alone it does not state the claim: under what heads
  it, the date line of its entry (a release note's "May 13th, 2024") and the lead-in ending in a colon
  right before it (a table's "Voyage recommends using the following embedding models:"); and with the
  sentences before and after it in its block (a list's sibling items, a table's next row) when the
  claim keeps every name and figure its cited sentences give — a claim that leaves one out may have
  put a neighbour's name in its place, the mix-up of adjacent sentences a model makes. The context
  that states the claim is cited along (a date line or lead-in only beside the sentences it heads), so
  the reader sees it and the citation node judges that text;
- when the cited sentences state the claim (in its words or in others), it keeps the fewest of them
  that still do (a title line or a neighbour listed along is no evidence); when they do not and
  another shown sentence does, in the words the claim adds to its question, the claim is cited to
  that sentence instead (the question supplies most of a restating claim's words, so "combine Care
  tags with chain of thought …" for "how can you combine XML tags with chain of thought …" would
  otherwise be "stated" by any sentence naming "Care");
- a claim no shown sentence states keeps the sentences it cited, and the citation node flags it
  (unsupported, or contradicted where they say otherwise); an id that was never shown is a marker
  with no quote, an unverified citation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, utils

from research.evidence import CitationMarker, Claim
from research.verdict import Label, Verdict
from strategies.llm.evidence import EvidenceSheet, Sentence, header
from strategies.reading.claim_checks import Meaning, content_stems, covered, names
from strategies.reading.judge import judge
from strategies.reading.numbers import mentions
from strategies.reading.tuning import TUNING

# Field labels of the prompts that small models copy into their claims, and what follows them.
_COPIED_LABEL = re.compile(
    r"\b(?:sentence[_ ]ids?|searches already tried|sub-question|evidence sentences|next[_ ]queries)\s*:", re.I
)
_ID = re.compile(r"[\[(]?\bb\d+(?:\.s\d+)?\b[\])]?,?")
_LEAD = re.compile(r"^(?:claim\s*\d*\s*:|answer\s*:|[-*•]\s)\s*", re.I)


@dataclass(frozen=True)
class Grounded:
    """A model's claim with the sentences it is cited to and the judge's verdict on them."""

    claim: Claim
    verdict: Verdict

    @property
    def stated(self) -> bool:
        return self.verdict.states


def grounded(
    claims: Iterable[tuple[str, Sequence[str]]],
    question: str,
    sheet: EvidenceSheet,
    shown: Sequence[Sentence],
    meaning: Meaning | None = None,
) -> list[Grounded]:
    """``claims``: the model's (text, cited ids) pairs, in its order."""
    kept: list[Grounded] = []
    # A header a small model copies in ("<title>, p. 4") is cut; a bare title (a text without pages or
    # sections) is not, as a claim's own sentence may name its document.
    headers = {header(s.title, s.where) for s in shown if s.where}
    for raw, ids in claims:
        text = cleaned(_without(headers, raw))
        if not text or _restates(text, question) or any(_repeats(text, g.claim.text) for g in kept):
            continue
        cited = cited_sentences(ids, shown)
        unknown = [i for i in ids if not cited_sentences([i], shown)]
        sentences, verdict = stating(text, cited, shown, question, meaning, sheet)
        # Ids that were never shown stay as markers with no quote: unverified citations, never shown.
        citations = sheet.markers([*(s.sid for s in sentences), *unknown], [*shown, *sentences])
        claim = Claim(text=text, citations=citations or [CitationMarker(block_id=None, quote="")])
        kept.append(Grounded(claim, verdict))
    return kept


def verdict(claim: Claim, question: str = "", meaning: Meaning | None = None) -> Verdict:
    """What the judge says of a claim on its quotes, as the citation node will judge it."""
    quotes = [m.quote for m in claim.citations if m.quote]
    return judge(claim.text, quotes, question, meaning=meaning)


def stated(claim: Claim, question: str = "", meaning: Meaning | None = None) -> bool:
    return verdict(claim, question, meaning).states


def _without(headers: set[str], text: str) -> str:
    """The text without the evidence's group headers ("<title>, p. 4") a small model copies in."""
    for line in sorted(headers, key=len, reverse=True):
        text = text.replace(line, " ")
    return text


def cleaned(text: str) -> str:
    """The claim without prompt labels copied into it, or what followed them, and without ids."""
    text = " ".join(text.split())
    first = _COPIED_LABEL.match(text)
    if first:  # "Sub-question: <the question> Searches already tried: …"
        text = text[first.end() :]
    label = _COPIED_LABEL.search(text)
    if label:
        text = text[: label.start()]
    text = " ".join(_LEAD.sub("", _ID.sub("", text)).split()).strip(" ,;:-")
    return text[:1].upper() + text[1:]


def cited_sentences(ids: Sequence[str], shown: Sequence[Sentence]) -> list[Sentence]:
    """The shown sentences the ids name; a block's label (``b5``, ``[b5]``) names its shown sentences."""
    by_id = {s.sid: s for s in shown}
    out: dict[str, Sentence] = {}
    for raw in ids:
        sid = raw.strip().strip("[]() ")
        if sid in by_id:
            out[sid] = by_id[sid]
        elif re.fullmatch(r"b\d+", sid):
            out.update((s.sid, s) for s in shown if s.sid.split(".", 1)[0] == sid)
    return list(out.values())


def stating(
    text: str,
    cited: Sequence[Sentence],
    shown: Sequence[Sentence],
    question: str,
    meaning: Meaning | None,
    sheet: EvidenceSheet | None = None,
) -> tuple[list[Sentence], Verdict]:
    """The sentences the claim is cited to and the judge's verdict on exactly those: the cited ones
    that state it, read in their context where need be (the fewest that still do), else the shown one
    that states it best, else the cited ones (a claim beyond its evidence, which the citation node
    then flags: the reader sees the passage it was pinned on)."""

    def on(sentences: Sequence[Sentence]) -> Verdict:
        return judge(text, [s.text for s in sentences], question, sorted({s.title for s in sentences}), meaning)

    cited, found, heads = _widened(text, cited, shown, sheet, on)
    if found.states:
        return _fewest(text, cited, found, heads, question, on)
    best = _best_shown(text, shown, question, on)
    if best is not None:
        return [best[0]], best[1]
    return list(cited), found


def _widened(
    text: str,
    cited: Sequence[Sentence],
    shown: Sequence[Sentence],
    sheet: EvidenceSheet | None,
    on: Callable[[Sequence[Sentence]], Verdict],
) -> tuple[Sequence[Sentence], Verdict, dict[str, list[str]]]:
    """The cited sentences and the verdict on them, widened to what a lead-in introduces and then to
    their context when they do not state the claim alone; with the date lines and lead-ins heading
    each sentence read in context."""
    found = on(cited) if cited else Verdict(Label.NEITHER, 0.0, "no sentence cited")
    read_on = _continued(cited, shown)
    if not found.states and len(read_on) > len(cited) and (fuller := on(read_on)).states:
        cited, found = read_on, fuller
    if not found.states and cited and sheet is not None:
        around = _in_context(text, cited, sheet)
        if len(around) > len(cited) and (fuller := on(around)).states:
            heads = {s.sid: [h.sid for h in [*sheet.dating(s), *_lead_in(s, sheet)]] for s in around}
            return around, fuller, heads
    return cited, found, {}


def _fewest(
    text: str,
    cited: Sequence[Sentence],
    found: Verdict,
    heads: dict[str, list[str]],
    question: str,
    on: Callable[[Sequence[Sentence]], Verdict],
) -> tuple[list[Sentence], Verdict]:
    """The cited sentences without each that adds nothing to the verdict, judged again on what stays."""
    # Read in context, a date line or lead-in goes only with the sentences it heads (it says nothing
    # of another entry), and those holding least of the claim's own words go first: the question
    # supplies a claim's names, so "Europe in May 2024" would otherwise keep the May line of
    # whichever entry was tried last.
    chosen = list(cited)
    headings = {h for hs in heads.values() for h in hs}
    order = sorted(cited, key=lambda s: _holds(text, s, question)) if heads else cited
    for sentence in order:
        if sentence not in chosen or sentence.sid in headings:
            continue
        rest = _dropping(sentence, chosen, heads)
        if rest and (fewer := on(rest)).states and fewer.score >= found.score:
            chosen, found = rest, fewer
    return chosen, found


def _dropping(sentence: Sentence, chosen: list[Sentence], heads: dict[str, list[str]]) -> list[Sentence]:
    """``chosen`` without ``sentence`` and the headings only it had."""
    others = {h for s in chosen if s is not sentence for h in heads.get(s.sid, [])}
    gone = {sentence.sid, *(h for h in heads.get(sentence.sid, []) if h not in others)}
    return [s for s in chosen if s.sid not in gone]


def _best_shown(
    text: str, shown: Sequence[Sentence], question: str, on: Callable[[Sequence[Sentence]], Verdict]
) -> tuple[Sentence, Verdict] | None:
    """The shown sentence that states the claim best on its own, of those holding what it adds."""
    best: tuple[Sentence, Verdict] | None = None
    for sentence in shown:
        if not _holds_additions(text, sentence, question):
            continue
        alone = on([sentence])
        if alone.states and (best is None or alone.score > best[1].score):
            best = (sentence, alone)
    return best


def _continued(cited: Sequence[Sentence], shown: Sequence[Sentence]) -> list[Sentence]:
    """The cited sentences with what a cited sentence ending in a colon introduces: the shown sentences
    after it in its block, up to the next one ending in a colon ("The tool helps you:" says nothing by
    itself; the list under it says what it helps with). A reader cited the lead-in reads the list."""
    out = list(cited)
    for sentence in cited:
        if not sentence.text.rstrip().endswith(":"):
            continue
        at = next((i for i, s in enumerate(shown) if s is sentence), len(shown))
        for following in shown[at + 1 : at + 1 + TUNING.llm.max_continued]:
            if following.block_id != sentence.block_id or following.text.rstrip().endswith(":"):
                break
            if following not in out:
                out.append(following)
    return out


def _in_context(text: str, cited: Sequence[Sentence], sheet: EvidenceSheet) -> list[Sentence]:
    """The cited sentences with what heads each (its entry's date line, its lead-in), and with the
    sentences before and after each in its block when the claim keeps every name and figure the cited
    sentences give (``_keeps_all``); in the sheet's order."""
    around = {s.sid: s for s in cited}
    for sentence in cited:
        around.update((s.sid, s) for s in sheet.dating(sentence))
        around.update((s.sid, s) for s in _lead_in(sentence, sheet))
    if _keeps_all(text, cited):
        for sentence in cited:
            around.update((s.sid, s) for s in sheet.neighbours(sentence))
    order = {s.sid: i for i, s in enumerate(sheet.sentences)}
    return sorted(around.values(), key=lambda s: order.get(s.sid, len(order)))


def _lead_in(sentence: Sentence, sheet: EvidenceSheet) -> list[Sentence]:
    """The sentence introducing the list or table ``sentence`` opens: the one before it in its block,
    when that ends in a colon ("Voyage recommends using the following embedding models:")."""
    before = [s for s in sheet.neighbours(sentence) if s.end <= sentence.start]
    return [s for s in before if s.text.rstrip().endswith(":")]


def _keeps_all(text: str, cited: Sequence[Sentence]) -> bool:
    """Whether the claim gives every name and figure of its cited sentences (a name as part of a longer
    identifier of the claim: "Message" in "message_delta"): then a name or figure it takes from a
    neighbouring sentence stands beside theirs, not in the place of one."""
    joined = " ".join(s.text for s in cited)
    folded = text.lower()
    if any(not re.search(rf"(?<![a-z0-9]){re.escape(n.lower())}(?![a-z0-9])", folded) for n in names(joined)):
        return False
    return {m.value for m in mentions(joined)} <= {m.value for m in mentions(text)}


def _restates(text: str, question: str) -> bool:
    """A question, or a sentence saying nothing the question does not ("roof height affects the
    number of bee species" for "How does roof height affect the number of bee species?")."""
    if text.endswith("?"):
        return True
    stems = content_stems(text)
    new_figures = {m.value for m in mentions(text)} - {m.value for m in mentions(question)}
    return bool(stems) and not new_figures and covered(stems, set(content_stems(question))) == 1.0


def _holds(text: str, sentence: Sentence, question: str) -> tuple[float, float]:
    """The share of the words the claim adds to its question that ``sentence`` holds, then of all its words."""
    claim, held = content_stems(text), set(content_stems(sentence.text))
    background = set(content_stems(question))
    return covered([s for s in claim if s not in background], held), covered(claim, held)


def _holds_additions(text: str, sentence: Sentence, question: str) -> bool:
    """Whether ``sentence`` holds most of the words the claim adds to its question and the sentence's
    title: a sentence the model did not cite stands for a claim only on the claim's own words."""
    background = set(content_stems(f"{question} {sentence.title}"))
    added = [s for s in content_stems(text) if s not in background]
    return covered(added, set(content_stems(sentence.text))) >= TUNING.judge.state_coverage


def _repeats(text: str, earlier: str) -> bool:
    """Nearly the same words, and nothing the earlier claim does not state (a sweeping word, a figure)."""
    return fuzz.token_sort_ratio(text, earlier, processor=utils.default_process) >= TUNING.llm.same_text and (
        judge(text, [earlier]).states
    )
