"""The final report as one typed structure, and its Markdown.

The render node builds it once from the resolved draft: sections of claims, each claim with the
numbers of the citations it is shown with and whether it is verified; disagreements with their two
numbered sides; gaps; the closest passages of what is not answered (cited, never claims); references.
The chat, the exports, the report JSON and the evaluator all read this structure, so nobody parses
rendered text or numbers citations again. ``markdown`` is generated from it; a claim's own text is
never scanned for citation markers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from enum import StrEnum

from pydantic import BaseModel, Field

from corpus.locations import location
from corpus.models import DocType
from corpus.text import counted, strip_controls
from research.evidence import FindingStatus, GapNote, SubQuestion
from research.options import UnresolvedPolicy
from tools.citations.resolve import Resolution

UNVERIFIED_NOTE = "unverified: the quoted text was not found in the library"
UNVERIFIED = f"\u26a0 *{UNVERIFIED_NOTE}*"
UNSUPPORTED_NOTE = "unsupported: the quoted passage does not state this"
CONTRADICTED_NOTE = "contradicted: the quoted passage says otherwise"
NO_SUMMARY = "The library holds no evidence that answers this topic."
SUMMARY_DISPUTED = "The sources disagree on what this asks: see the answers each document gives below."
SECTION_NOT_ANSWERED = 'The corpus does not answer this; see "What the corpus does not answer".'
SECTION_DISPUTED = (
    "**The sources disagree on this**: each answer below is what its document says; neither is stated as fact."
)
NO_DISAGREEMENT = "No disagreement between sources was found in the evidence gathered."
NO_GAPS = "Every sub-question found supporting evidence in the library."
ADDRESSED_NOTE = "contains text addressed to an AI assistant, not used as evidence"
DISAGREEMENTS_HEADING = "Where sources disagree"
GAPS_HEADING = "What the corpus does not answer"
CLOSEST_HEADING = "Closest passages (not an answer)"
CLOSEST_NOTE = "The passages the research found nearest to {what}, quoted as evidence; they do not answer {it}."
ANSWER_HEADING = "Answer"
NOT_ANSWERED = "The library does not answer this question."
STATUS_LABELS = {
    FindingStatus.ANSWERED: "answered",
    FindingStatus.ANSWERED_AFTER_RETRY: "answered after retrying the search",
    FindingStatus.GAP: "not answered by the corpus",
    FindingStatus.DISPUTED: "the documents answer it differently",
    FindingStatus.UNVERIFIED: "not answered: no claim is stated by the text it cites in the library",
}
# Characters that would make text from a document or a model Markdown (emphasis, links, headings, HTML).
_MARKDOWN_SPECIAL = str.maketrans({c: f"\\{c}" for c in "\\`*_[]<>#|"})


def markdown_text(text: str) -> str:
    """``text`` as literal Markdown on one line: a model's title or a document's words may not open a
    heading, a link or a citation marker of their own."""
    return " ".join(text.split()).translate(_MARKDOWN_SPECIAL)


# "<" opening a tag, a comment or a declaration, not already escaped as "\\<" (``markdown_text``).
_HTML_OPENING = re.compile(r"(?<!\\)<(?=[A-Za-z/!?])")


def inert_html(markdown: str) -> str:
    """A Markdown document with no HTML of its own: a document's title or sentence holding
    ``<script>`` or ``<img onerror=...>`` would otherwise run where the file is rendered (a browser, a
    wiki, the PDF export). ``&lt;`` shows as "<" in every Markdown renderer; "a < b" is left as written.
    Control characters (an ESC in a title) go too."""
    return _HTML_OPENING.sub("&lt;", strip_controls(markdown))


def omitted_note(n: int) -> str:
    return f"({counted(n, 'candidate disagreement')} omitted: a side could not be verified in the library.)"


def mode_model(mode: str) -> str:
    """The model of an LLM-mode run's ``mode`` ("llm (qwen2.5-7b)" -> "qwen2.5-7b")."""
    return mode.removeprefix("llm").strip(" ()") or "unknown"


class ClaimStatus(StrEnum):
    VERIFIED = "verified"  # every citation shown resolved to a stored block
    UNVERIFIED = "unverified"  # no quote matched a stored block: shown flagged, with no citation
    UNSUPPORTED = "unsupported"  # the quote resolved, but does not state the claim: shown flagged, cited
    CONTRADICTED = "contradicted"  # the quote resolved and says otherwise (a figure, a polarity): flagged, cited

    @property
    def note(self) -> str:
        """What a flagged claim is flagged with ("" for a verified one)."""
        return {
            ClaimStatus.UNVERIFIED: UNVERIFIED_NOTE,
            ClaimStatus.UNSUPPORTED: UNSUPPORTED_NOTE,
            ClaimStatus.CONTRADICTED: CONTRADICTED_NOTE,
        }.get(self, "")


class Caution(BaseModel):
    """A document among the evidence holding text addressed to an AI (``research.ai_address``):
    that text is never a claim, a lead or a side; the reader is told it is there, quoted."""

    doc_id: str
    title: str
    pages: list[int]
    text: str = Field(description="The first such block's text, as the document has it.")
    doc_type: DocType | None = Field(default=None, description="The document's format; None: unknown.")
    section: str = Field(default="", description="The section of that first block.")
    parents: list[str] = Field(default_factory=list, description="The headings above that section.")

    @property
    def where(self) -> str:
        """Its pages, slides or chapters, or the first block's section (``corpus.locations``)."""
        return location(self.doc_type, self.pages, self.section, self.parents, self.title)

    @property
    def markdown(self) -> str:
        where = f" ({markdown_text(self.where)})" if self.where else ""
        named = f"**{markdown_text(self.title)}**{where}"
        return f"\u26a0 Caution: {named} {ADDRESSED_NOTE}: \u201c{markdown_text(clip(self.text))}\u201d"


class NumberedCitation(BaseModel):
    """A resolved citation as the reader sees it: numbered by first appearance in the report."""

    number: int
    resolution: Resolution


class ReportClaim(BaseModel):
    text: str
    status: ClaimStatus
    citations: list[int] = Field(default_factory=list, description="Numbers of the citations shown with it.")
    confidence: float | None = Field(
        default=None, description="The confidence of the finding whose evidence it cites, where known."
    )
    answer: str | None = Field(default=None, description="The short answer the quote gives, shown first.")
    reason: str | None = Field(
        default=None, description="Why a flagged claim is not stated by its citations (the judge's reason)."
    )
    line_citations: list[int] = Field(
        default_factory=list,
        description="For a claim quoting a list block by block: the citation of each line (its lead-in, "
        "then each item), so each is cited where it stands; empty when the citations follow the whole claim.",
    )

    @property
    def items(self) -> list[str]:
        """The list the claim quotes after its first line ("... come from:" and its items), if any."""
        return self.text.split("\n")[1:]

    @property
    def first_line(self) -> str:
        return self.text.split("\n", 1)[0]

    def cited_lines(self, marks: Callable[[list[int]], str]) -> list[str]:
        """The first line, then each item, with the citation marks (``marks`` of their numbers) after
        the line each cites, or after the last line."""
        lines = [self.first_line, *self.items]
        if self.line_citations:
            return [f"{line} {marks([n])}" for line, n in zip(lines, self.line_citations, strict=True)]
        return [*lines[:-1], f"{lines[-1]} {marks(self.citations)}"]

    def markdown(self, indent: str = "  ") -> str:
        """The claim with its short answer first and its citations last; list items on lines of their
        own, as a Markdown list indented by ``indent`` (under a bullet) or not (in a paragraph)."""
        lead = f"**{self.answer}**: " if self.answer else ""
        if self.status is ClaimStatus.UNVERIFIED:
            body = self.first_line + "".join(f"\n{indent}- {item}" for item in self.items)
            return f"{lead}{body} {UNVERIFIED}"
        first, *rest = self.cited_lines(lambda numbers: "".join(f"[{n}]" for n in numbers))
        cited = lead + first + "".join(f"\n{indent}- {item}" for item in rest)
        if self.status is ClaimStatus.VERIFIED:
            return cited
        because = f" ({markdown_text(self.reason)})" if self.reason else ""
        return f"{cited} \u26a0 *{self.status.note}*{because}"


class ReportSection(BaseModel):
    number: int
    sub_question: SubQuestion
    status: FindingStatus
    confidence: float
    claims: list[ReportClaim]
    disputed: bool = Field(default=False, description="The documents disagree: the claims are the sides.")
    extractive: bool = Field(default=False, description="See research.strategy.Answer.extractive.")
    closest: list[int] = Field(
        default_factory=list,
        description="Not answered: numbers of the citations quoting the passages nearest to it; evidence "
        "shown below the answer, never a claim of it.",
    )

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    @property
    def lead_flagged(self) -> bool:
        """The section's leading claim did not pass the judge (unsupported, contradicted or
        unverified): it is shown, flagged, but the section does not count as answered. The sides of
        a disagreement are read together, so a disputed section is judged by its status alone."""
        return not self.disputed and bool(self.claims) and self.claims[0].status is not ClaimStatus.VERIFIED


class Disagreement(BaseModel):
    """Two documents that disagree; each side is a verified claim with exactly one citation."""

    subject: str
    kind: str
    explanation: str
    sides: tuple[ReportClaim, ReportClaim]


class FinalReport(BaseModel):
    title: str
    mode: str
    single_question: bool = Field(
        default=False,
        description="One question asked (prp ask, a chat turn): the report is its answer, the answer's "
        "citations and what was not found, with no summary repeating the answer.",
    )
    policy: UnresolvedPolicy = UnresolvedPolicy.MARK
    summary: list[ReportClaim] = Field(default_factory=list)
    sections: list[ReportSection] = Field(default_factory=list)
    disagreements: list[Disagreement] = Field(default_factory=list)
    omitted_disagreements: int = Field(default=0, description="Candidates with a side that did not resolve.")
    gaps: list[GapNote] = Field(default_factory=list)
    citations: list[NumberedCitation] = Field(default_factory=list, description="The references, by number.")
    unverified_claims: int = Field(default=0, description="Claims kept but flagged: their quote matched no block.")
    dropped_claims: int = Field(default=0, description="Claims removed because their quote matched no block.")
    unsupported_claims: int = Field(default=0, description="Claims flagged: their quote does not state them.")
    contradicted_claims: int = Field(default=0, description="Claims flagged: their quote says otherwise.")
    addressed_claims: int = Field(
        default=0, description="Claims left out: they cite only text addressed to an AI, or repeat it unstated."
    )
    cautions: list[Caution] = Field(
        default_factory=list, description="Evidence documents with text addressed to an AI."
    )

    def citation(self, number: int) -> Resolution:
        found = self.citations[number - 1] if 0 < number <= len(self.citations) else None
        if found is None or found.number != number:  # numbered from elsewhere (a conversation's later turn)
            found = next(c for c in self.citations if c.number == number)
        return found.resolution

    def answered_sections(self) -> list[ReportSection]:
        return [s for s in self.found_sections() if not s.lead_flagged]

    def found_sections(self) -> list[ReportSection]:
        """Sections the library gave claims for: answered, or led by a flagged claim."""
        return [s for s in self.sections if s.status not in (FindingStatus.GAP, FindingStatus.UNVERIFIED)]

    def closest_sections(self) -> list[ReportSection]:
        """Sections not answered that show their closest passages."""
        return [s for s in self.sections if s.closest]

    def answer_citations(self) -> list[NumberedCitation]:
        """The citations some claim or side is shown with: the closest passages' alone are no answer's."""
        claimed = {n for _, claim in self.parts() for n in claim.citations}
        return [c for c in self.citations if c.number in claimed]

    @property
    def closest_note(self) -> str:
        """Header: how many citations quote closest passages only ("" when none do)."""
        k = len(self.citations) - len(self.answer_citations())
        return f" {counted(k, 'closest passage')} quoted below, not as an answer." if k else ""

    def flagged_sections(self) -> list[ReportSection]:
        return [s for s in self.found_sections() if s.lead_flagged]

    def unverified_sections(self) -> list[ReportSection]:
        return [s for s in self.sections if s.status is FindingStatus.UNVERIFIED]

    @property
    def no_gaps_note(self) -> str:
        """What the gaps part says when no search came up empty: that every sub-question found
        evidence, unless some were answered only by claims the library does not confirm."""
        unverified = len(self.unverified_sections())
        if not unverified:
            return NO_GAPS
        where = "its section" if unverified == 1 else "their sections"
        return (
            f"{counted(unverified, 'sub-question')} rest only on claims that could not be verified in the "
            f"library: see {where}."
        )

    def parts(self) -> Iterator[tuple[str, ReportClaim]]:
        """Every claim shown, in reading order, with the part of the report it stands in."""
        yield from (("Summary", claim) for claim in self.summary)
        for section in self.sections:
            part = ANSWER_HEADING if self.single_question else section.sub_question.question
            yield from ((part, claim) for claim in section.claims)
        for disagreement in self.disagreements:
            yield from ((DISAGREEMENTS_HEADING, side) for side in disagreement.sides)

    @property
    def empty_summary(self) -> str:
        """What the summary says without claims: a disputed section gives none, yet the library answers."""
        return SUMMARY_DISPUTED if any(s.disputed for s in self.sections) else NO_SUMMARY

    def header_lines(self) -> list[str]:
        """The mode and what the reader should know about the citations (Markdown, one line each)."""
        return [self._mode_line(), self._answers_line(), *self._claim_notes(), *(c.markdown for c in self.cautions)]

    def _mode_line(self) -> str:
        if self.mode == "offline":
            return "Written in **offline mode**: deterministic extractive research, no language model."
        return (
            f"Written in **LLM mode** ({markdown_text(mode_model(self.mode))}); the title and the "
            "sub-questions are the model's wording."
        )

    def _answers_line(self) -> str:
        """How the question was answered, or how many sub-questions were, and how many citations."""
        answered = len(self.answered_sections())
        flagged = len(self.flagged_sections())
        n = len(self.answer_citations())
        cited = {0: "No citations.", 1: "1 citation, resolved to the block it quotes."}.get(
            n, f"{n} citations, each resolved to the block it quotes."
        ) + self.closest_note
        if self.single_question and len(self.sections) == 1:
            section = self.sections[0]
            found = f"{section.status_label.capitalize()} (confidence {section.confidence:.2f})."
            if flagged:
                found = f"Not answered: its leading claim is flagged (confidence {section.confidence:.2f})."
            return f"{found if answered or flagged else NOT_ANSWERED} {cited}"
        disputed = sum(1 for s in self.sections if s.disputed)
        unverified = len(self.unverified_sections())
        of_which = f" ({disputed} where the documents answer differently)" if disputed else ""
        if unverified:
            of_which += f", {unverified} with unverified claims only"
        if flagged:
            of_which += f", {flagged} whose leading claim is flagged"
        return (
            f"{counted(len(self.sections), 'sub-question')}: {answered} answered{of_which}, "
            f"{len(self.sections) - answered - unverified - flagged} not answered by the corpus. {cited}"
        )

    def _claim_notes(self) -> list[str]:
        """A line for each kind of claim the reader should know was answered, marked, flagged or left out."""
        lines = []
        extractive = sum(1 for s in self.sections if s.extractive)
        if extractive:
            lines.append(
                f"{counted(extractive, 'sub-question')} answered with the documents' own sentences, chosen without "
                "the model: its claims were not stated by the evidence it was shown, or beside the point."
            )
        if self.policy is UnresolvedPolicy.MARK and self.unverified_claims:
            lines.append(
                f"{counted(self.unverified_claims, 'claim')} marked unverified: their quotes match no stored block."
            )
        if self.unsupported_claims:
            lines.append(
                f"{counted(self.unsupported_claims, 'claim')} flagged unsupported: the passage they cite does not state them."
            )
        if self.contradicted_claims:
            lines.append(
                f"{counted(self.contradicted_claims, 'claim')} flagged contradicted: the passage they cite says otherwise."
            )
        if self.policy is UnresolvedPolicy.DROP and self.dropped_claims:
            lines.append(f"{counted(self.dropped_claims, 'claim')} dropped: their quotes match no stored block.")
        if self.addressed_claims:
            lines.append(
                f"{counted(self.addressed_claims, 'claim')} left out: they cite or restate text addressed to an AI assistant."
            )
        return lines

    def reference_label(self, citation: NumberedCitation) -> str:
        """ "Halvorsen et al. (2019). Title, p. 3, block b1": where a citation points, without its quote,
        in its document's units ("slide 4 § Results", "§ Methods"; ``corpus.locations``); "p. 3 (OCR)" where the quoted text was read by OCR from a scanned page (it may hold misreadings)."""
        r = citation.resolution
        by = f"{r.byline}. " if r.byline else ""
        where = " ".join(part for part in (r.where, "(OCR)" if r.ocr else "") if part)
        return f"{by}{r.title}{', ' if where else ''}{where}, block {', '.join(r.block_ids)}"

    @property
    def markdown(self) -> str:
        lines = [f"# {markdown_text(self.title)}", "", *(f"> {line}" for line in self.header_lines()), ""]
        if self.answer_only:
            lines += self._answer_markdown(self.sections[0])
            if self.disagreements or self.omitted_disagreements:
                lines += self._disagreements_markdown()
            if self.gaps or self.unverified_sections():
                lines += self._gaps_markdown()
            lines += self._closest_markdown()
            lines += self._references_markdown()
            return inert_html("\n".join(lines).rstrip() + "\n")
        lines += self._summary_markdown()
        for section in self.sections:
            lines += self._section_markdown(section)
        lines += self._disagreements_markdown()
        lines += self._gaps_markdown()
        lines += self._closest_markdown()
        lines += self._references_markdown()
        return inert_html("\n".join(lines).rstrip() + "\n")

    def _summary_markdown(self) -> list[str]:
        """One paragraph of claims; a claim quoting a list ends its paragraph with the list."""
        paragraphs: list[list[str]] = [[]]
        for claim in self.summary:
            paragraphs[-1].append(claim.markdown(indent=""))
            if claim.items:
                paragraphs.append([])
        text = "\n\n".join(" ".join(p) for p in paragraphs if p) or self.empty_summary
        return ["## Summary", "", text, ""]

    @property
    def answer_only(self) -> bool:
        """A one-question report: its answer (the one section), its citations and what was not found."""
        return self.single_question and len(self.sections) == 1

    def _answer_markdown(self, section: ReportSection) -> list[str]:
        lines = [f"## {ANSWER_HEADING}", ""]
        if section.disputed:
            lines += [SECTION_DISPUTED, ""]
        return lines + ([f"- {c.markdown()}" for c in section.claims] or [NOT_ANSWERED]) + [""]

    def _section_markdown(self, section: ReportSection) -> list[str]:
        q = section.sub_question
        lines = [
            f"## {section.number}. {markdown_text(q.question)}",
            "",
            f"*Why it matters: {q.rationale}* ({section.status_label}; confidence {section.confidence:.2f})",
            "",
        ]
        if section.disputed:
            lines += [SECTION_DISPUTED, ""]
        lines += [f"- {c.markdown()}" for c in section.claims] or [SECTION_NOT_ANSWERED]
        return lines + [""]

    def _disagreements_markdown(self) -> list[str]:
        lines = [f"## {DISAGREEMENTS_HEADING}", ""]
        for item in self.disagreements:
            lines += [f"### {markdown_text(item.subject)}", ""]
            for side in item.sides:
                (number,) = side.citations
                r = self.citation(number)
                lines.append(f"- **{r.title}**: \u201c{r.matched_text}\u201d [{number}]")
            lines += ["", item.explanation, ""]
        if not self.disagreements:
            lines += [NO_DISAGREEMENT, ""]
        if self.omitted_disagreements:
            lines += [omitted_note(self.omitted_disagreements), ""]
        return lines

    def _gaps_markdown(self) -> list[str]:
        lines = [f"## {GAPS_HEADING}", ""]
        if not self.gaps:
            return lines + [self.no_gaps_note, ""]
        for gap in self.gaps:
            tried = "; ".join(f"\u201c{q}\u201d" for q in gap.queries_tried)
            # A one-question report's gap is its question, the report's title already.
            heading = [] if self.answer_only else [f"### {markdown_text(gap.sub_question.question)}", ""]
            lines += [*heading, f"- Searches tried: {tried}"]
            lines += [f"- Next step: {s}" for s in gap.suggestions]
            lines.append("")
        return lines

    def _closest_markdown(self) -> list[str]:
        """Each unanswered section's closest passages, quoted whole and cited, with no bold lead: they
        read as what the library holds near the question, not as its answer."""
        sections = self.closest_sections()
        if not sections:
            return []
        lines = [f"## {CLOSEST_HEADING}", "", self.closest_intro, ""]
        for section in sections:
            if not self.answer_only:
                lines += [f"### {markdown_text(section.sub_question.question)}", ""]
            lines += [f"- {self._closest_line(n)}" for n in section.closest]
            lines.append("")
        return lines

    @property
    def closest_intro(self) -> str:
        what, it = ("the question", "it") if self.answer_only else ("each sub-question not answered", "them")
        return CLOSEST_NOTE.format(what=what, it=it)

    def _closest_line(self, number: int) -> str:
        """A closest passage as shown: its words verbatim, where they are, and its citation number."""
        r = self.citation(number)
        where = markdown_text(", ".join(part for part in (r.title, r.where) if part))
        return f"\u201c{markdown_text(r.matched_text)}\u201d ({where}) [{number}]"

    def _references_markdown(self) -> list[str]:
        if not self.citations:
            return []
        lines = ["## References", ""]
        for c in self.citations:
            lines.append(f"[{c.number}] {self.reference_label(c)}: \u201c{clip(c.resolution.matched_text)}\u201d")
        return lines + [""]


def clip(text: str, limit: int = 160) -> str:
    """Whitespace collapsed, cut at ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"
