"""A model's claims checked against the sentences it was shown, before they become citations.

Small local models (the 0.5B default) answer with the right fact but the wrong id about as often as
not: they cite a block's label (``b5``) instead of a sentence, pin a claim on the document's title
line, copy the prompt's own field labels into a claim ("…sentence_ids: b6, b19"), restate the
question as a claim, or repeat a claim. The ids are hints here as block ids are hints everywhere in
prp: what a claim is cited for is decided by what its text states, so

- a claim is cleaned of copied prompt labels and ids; one that is then empty, a question, or a
  restatement or repeat of what came before is no claim;
- a block label stands for that block's shown sentences;
- the cited sentences that state the claim (``tools.citations.support``: its figures, and its content
  words) are kept, the others dropped; when none of them states it and another shown sentence does,
  the claim is cited to that sentence instead;
- a claim no shown sentence states keeps the sentences it cited, and the citation node flags it
  unsupported; an id that was never shown is a marker with no quote, an unverified citation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rapidfuzz import fuzz, utils

from research.evidence import CitationMarker, Claim
from strategies.llm.evidence import EvidenceSheet, Sentence
from tools.citations.support import MIN_SHARED_WORDS, support_share, supports

# A cited sentence sharing less than this with the claim is no part of its evidence (a title line,
# a neighbour the model listed along).
MIN_RELEVANT = 0.25
# A claim this similar to an earlier one (token-sort ratio) repeats it.
SAME_TEXT = 90
# Field labels of the prompts that small models copy into their claims, and what follows them.
_COPIED_LABEL = re.compile(
    r"\b(?:sentence[_ ]ids?|searches already tried|sub-question|evidence sentences|next[_ ]queries)\s*:", re.I
)
_ID = re.compile(r"[\[(]?\bb\d+(?:\.s\d+)?\b[\])]?,?")
_LEAD = re.compile(r"^(?:claim\s*\d*\s*:|answer\s*:|[-*•]\s)\s*", re.I)


def grounded(
    claims: Iterable[tuple[str, Sequence[str]]], question: str, sheet: EvidenceSheet, shown: Sequence[Sentence]
) -> list[Claim]:
    """``claims``: the model's (text, cited ids) pairs, in its order."""
    kept: list[Claim] = []
    headers = {f"{s.title}, p. {s.page}" for s in shown}
    for raw, ids in claims:
        text = cleaned(_without(headers, raw))
        if not text or _restates(text, question) or any(_similar(text, c.text) for c in kept):
            continue
        cited = cited_sentences(ids, shown)
        unknown = [i for i in ids if not cited_sentences([i], shown)]
        sentences = stating(text, cited, shown)
        # Ids that were never shown stay as markers with no quote: unverified citations, never shown.
        citations = sheet.markers([*(s.sid for s in sentences), *unknown], shown)
        kept.append(Claim(text=text, citations=citations or [CitationMarker(block_id=None, quote="")]))
    return kept


def stated(claim: Claim) -> bool:
    """Its quotes state it, as the citation node will judge (``tools.citations.support``)."""
    quotes = [m.quote for m in claim.citations if m.quote]
    return bool(quotes) and supports(claim.text, quotes)


def _without(headers: set[str], text: str) -> str:
    """The text without the evidence's group headers ("<title>, p. 4") a small model copies in."""
    for header in sorted(headers, key=len, reverse=True):
        text = text.replace(header, " ")
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


def stating(text: str, cited: Sequence[Sentence], shown: Sequence[Sentence]) -> list[Sentence]:
    """The sentences the claim is cited to: the cited ones that state it, else the shown one that
    states it best, else the cited ones (a paraphrase, or a claim beyond its evidence, which the
    citation node then flags unsupported: the reader sees the passage it was pinned on)."""
    share = {s.sid: support_share(text, [s.text]) for s in shown}
    stated = [s for s in cited if share.get(s.sid, 0.0) >= MIN_SHARED_WORDS]
    if stated:
        return [s for s in cited if share.get(s.sid, 0.0) >= MIN_RELEVANT]
    best = max(shown, key=lambda s: share[s.sid], default=None)
    if best is not None and share[best.sid] >= MIN_SHARED_WORDS:
        return [best]
    if support_share(text, [s.text for s in cited]) >= MIN_SHARED_WORDS:
        return [s for s in cited if share.get(s.sid, 0.0) >= MIN_RELEVANT] or list(cited)
    return list(cited)


def _restates(text: str, question: str) -> bool:
    """A question, or a sentence saying nothing the question does not ("roof height affects the
    number of bee species" for "How does roof height affect the number of bee species?")."""
    return text.endswith("?") or support_share(text, [question]) == 1.0


def _similar(a: str, b: str) -> bool:
    return fuzz.token_sort_ratio(a, b, processor=utils.default_process) >= SAME_TEXT
