"""A report as safe HTML for the chat, written from the report structure.

Reports quote documents verbatim, and document text is data: every text that can come from a
document (claims, quotes, titles, sub-questions, explanations) is HTML-escaped and never read as
Markdown, so a quoted ``![x](http://...)`` cannot make the browser fetch anything, a quoted
``<script>`` stays text, and a quoted ``[link](...)`` or a paper's own reference marker "[2]" stays
text. The only links are the citation markers written from each claim's citation numbers, pointing
at ``#prp-cite=<thread id>:<n>``, which the page script turns into "show citation n of that run" in
the evidence panel. Only prp's own header lines go through a Markdown renderer, with raw HTML,
images and links off.
"""

from __future__ import annotations

import html

from markdown_it import MarkdownIt

from research.report import (
    ANSWER_HEADING,
    CLOSEST_HEADING,
    DISAGREEMENTS_HEADING,
    GAPS_HEADING,
    NO_DISAGREEMENT,
    NOT_ANSWERED,
    SECTION_DISPUTED,
    SECTION_NOT_ANSWERED,
    UNVERIFIED_NOTE,
    ClaimStatus,
    FinalReport,
    ReportClaim,
    ReportSection,
    clip,
    omitted_note,
)

CITE_PREFIX = "#prp-cite="
_INLINE = MarkdownIt("commonmark", {"html": False}).disable(["image", "link", "autolink", "reference"])


def cite_href(thread_id: str, number: int) -> str:
    return f"{CITE_PREFIX}{thread_id}:{number}"


def parse_cite_ref(ref: str) -> tuple[str, int] | None:
    """``"<thread id>:<n>"`` (a marker's href after the prefix, or a dropdown value) -> parts."""
    thread_id, _, number = ref.removeprefix(CITE_PREFIX).rpartition(":")
    return (thread_id, int(number)) if thread_id and number.isdigit() else None


def _e(text: str) -> str:
    return html.escape(text, quote=False)


class _Writer:
    def __init__(self, report: FinalReport, thread_id: str):
        self.report = report
        self.thread_id = thread_id

    def link(self, number: int) -> str:
        title = self.report.reference_label(self.report.citations[number - 1])
        return (
            f'<a class="prp-cite" href="{html.escape(cite_href(self.thread_id, number))}" '
            f'title="{html.escape(title)}">[{number}]</a>'
        )

    def claim(self, claim: ReportClaim) -> str:
        lead = f"<strong>{_e(claim.answer)}</strong>: " if claim.answer else ""
        if claim.status is ClaimStatus.UNVERIFIED:
            items = "".join(f"<li>{_e(item)}</li>" for item in claim.items)
            body = f"{lead}{_e(claim.first_line)}" + (f'<ul class="prp-items">{items}</ul>' if items else "")
            return f'{body} <span class="prp-unverified">\u26a0 <em>{_e(UNVERIFIED_NOTE)}</em></span>'
        # Lines are escaped before the links go in, so a link's markup is never escaped.
        escaped = claim.model_copy(update={"text": _e(claim.text)})
        first, *rest = escaped.cited_lines(lambda numbers: "".join(self.link(n) for n in numbers))
        items = "".join(f"<li>{item}</li>" for item in rest)
        cited = f"{lead}{first}" + (f'<ul class="prp-items">{items}</ul>' if items else "")
        if claim.status is ClaimStatus.VERIFIED:
            return cited
        because = f" ({_e(claim.reason)})" if claim.reason else ""
        return f'{cited} <span class="prp-unverified">\u26a0 <em>{_e(claim.status.note)}</em>{because}</span>'

    def header(self) -> list[str]:
        lines = "<br>".join(_INLINE.renderInline(line) for line in self.report.header_lines())
        return [f"<h1>{_e(self.report.title)}</h1>", f"<blockquote><p>{lines}</p></blockquote>"]

    def answer(self, section: ReportSection) -> list[str]:
        """A one-question report's answer: its claims, with no summary repeating them."""
        lines = [f"<h2>{_e(ANSWER_HEADING)}</h2>"]
        if not section.claims:
            return [*lines, f"<p>{_e(NOT_ANSWERED)}</p>"]
        if section.disputed:
            lines.append(f"<p>{_INLINE.renderInline(SECTION_DISPUTED)}</p>")
        return [*lines, "<ul>", *(f"<li>{self.claim(c)}</li>" for c in section.claims), "</ul>"]

    def summary(self) -> list[str]:
        # A <div>, not a <p>: a claim quoting a list holds a <ul>.
        text = " ".join(self.claim(c) for c in self.report.summary) or _e(self.report.empty_summary)
        return ["<h2>Summary</h2>", f'<div class="prp-summary">{text}</div>']

    def section(self, section: ReportSection) -> list[str]:
        q = section.sub_question
        lines = [
            f"<h2>{section.number}. {_e(q.question)}</h2>",
            f"<p><em>Why it matters: {_e(q.rationale)}</em> ({section.status_label}; "
            f"confidence {section.confidence:.2f})</p>",
        ]
        if not section.claims:
            return [*lines, f"<p>{_e(SECTION_NOT_ANSWERED)}</p>"]
        if section.disputed:
            lines.append(f"<p>{_INLINE.renderInline(SECTION_DISPUTED)}</p>")
        return [*lines, "<ul>", *(f"<li>{self.claim(c)}</li>" for c in section.claims), "</ul>"]

    def disagreements(self) -> list[str]:
        lines = [f"<h2>{_e(DISAGREEMENTS_HEADING)}</h2>"]
        for item in self.report.disagreements:
            lines += [f"<h3>{_e(item.subject)}</h3>", "<ul>"]
            for side in item.sides:
                (number,) = side.citations
                r = self.report.citation(number)
                lines.append(
                    f"<li><strong>{_e(r.title)}</strong>: \u201c{_e(r.matched_text)}\u201d {self.link(number)}</li>"
                )
            lines += ["</ul>", f"<p>{_e(item.explanation)}</p>"]
        if not self.report.disagreements:
            lines.append(f"<p>{_e(NO_DISAGREEMENT)}</p>")
        if self.report.omitted_disagreements:
            lines.append(f"<p>{_e(omitted_note(self.report.omitted_disagreements))}</p>")
        return lines

    def gaps(self) -> list[str]:
        lines = [f"<h2>{_e(GAPS_HEADING)}</h2>"]
        if not self.report.gaps:
            return [*lines, f"<p>{_e(self.report.no_gaps_note)}</p>"]
        for gap in self.report.gaps:
            tried = "; ".join(f"\u201c{_e(q)}\u201d" for q in gap.queries_tried)
            if not self.report.answer_only:  # a one-question report's gap is its question, its title
                lines.append(f"<h3>{_e(gap.sub_question.question)}</h3>")
            lines += ["<ul>", f"<li>Searches tried: {tried}</li>"]
            lines += [f"<li>Next step: {_e(s)}</li>" for s in gap.suggestions]
            lines.append("</ul>")
        return lines

    def closest(self) -> list[str]:
        """As the Markdown's part: the closest passages of what is not answered, quoted, no bold lead."""
        sections = self.report.closest_sections()
        if not sections:
            return []
        lines = [f"<h2>{_e(CLOSEST_HEADING)}</h2>", f"<p>{_e(self.report.closest_intro)}</p>"]
        for section in sections:
            if not self.report.answer_only:
                lines.append(f"<h3>{_e(section.sub_question.question)}</h3>")
            lines.append("<ul>")
            for number in section.closest:
                r = self.report.citation(number)
                where = ", ".join(part for part in (r.title, r.where) if part)
                lines.append(f"<li>\u201c{_e(r.matched_text)}\u201d ({_e(where)}) {self.link(number)}</li>")
            lines.append("</ul>")
        return lines

    def references(self) -> list[str]:
        if not self.report.citations:
            return []
        rows = [
            f"{self.link(c.number)} {_e(self.report.reference_label(c))}: \u201c{_e(clip(c.resolution.matched_text))}\u201d"
            for c in self.report.citations
        ]
        return ["<h2>References</h2>", f"<p>{'<br>'.join(rows)}</p>"]


def report_html(report: FinalReport, thread_id: str) -> str:
    writer = _Writer(report, thread_id)
    if report.answer_only:
        # As the Markdown: the answer, any disagreement, what was not found, the references.
        parts = [*writer.header(), *writer.answer(report.sections[0])]
        if report.disagreements or report.omitted_disagreements:
            parts += writer.disagreements()
        if report.gaps or report.unverified_sections():
            parts += writer.gaps()
        parts += [*writer.closest(), *writer.references()]
    else:
        parts = [*writer.header(), *writer.summary()]
        for section in report.sections:
            parts += writer.section(section)
        parts += [*writer.disagreements(), *writer.gaps(), *writer.closest(), *writer.references()]
    # One HTML block without line breaks, so the chat's own Markdown pass leaves it as it is.
    return '<div class="prp-report">' + "".join(parts).replace("\n", " ") + "</div>"
