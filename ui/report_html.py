"""A report's Markdown as safe HTML for the chat, with every citation marker a clickable link.

Reports quote documents verbatim, and document text is data: a quoted ``![x](http://...)`` must not
make the browser fetch anything, a quoted ``<script>`` must stay text, a quoted ``[link](...)`` must
not become a link. So the Markdown is rendered here with raw HTML, images, links and autolinks off
(the renderer never writes any of them), and the only links in the output are the citation markers
this module adds: ``[n]`` for a number the report's citations use, pointing at ``#prp-cite=<thread
id>:<n>``, which the page script turns into "show citation n of that run" in the evidence panel.
"""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt

from graph.state import FinalReport

CITE_PREFIX = "#prp-cite="
_MARKER = re.compile(r"\[(\d+)\]")


def cite_href(thread_id: str, number: int) -> str:
    return f"{CITE_PREFIX}{thread_id}:{number}"


def parse_cite_ref(ref: str) -> tuple[str, int] | None:
    """``"<thread id>:<n>"`` (a marker's href after the prefix, or a dropdown value) -> parts."""
    thread_id, _, number = ref.removeprefix(CITE_PREFIX).rpartition(":")
    return (thread_id, int(number)) if thread_id and number.isdigit() else None


def report_html(report: FinalReport, thread_id: str) -> str:
    titles = {}
    for c in report.citations:
        pages = sorted(set(c.resolution.pages))
        page = f"p. {pages[0]}" if len(pages) == 1 else f"pp. {pages[0]}-{pages[-1]}"
        titles[c.number] = f"{c.resolution.title}, {page}"

    def link(match: re.Match) -> str:
        number = int(match.group(1))
        if number not in titles:
            return match.group(0)
        return (
            f'<a class="prp-cite" href="{cite_href(thread_id, number)}" '
            f'title="{html.escape(titles[number])}">[{number}]</a>'
        )

    md = MarkdownIt("commonmark", {"html": False, "breaks": True}).disable(["image", "link", "autolink", "reference"])

    def render_text(renderer, tokens, idx, options, env) -> str:
        return _MARKER.sub(link, html.escape(tokens[idx].content, quote=False))

    md.add_render_rule("text", render_text)
    body = md.render(report.markdown)
    # One HTML block without blank lines, so the chat's own Markdown pass leaves it as it is.
    return '<div class="prp-report">' + re.sub(r"\n+", " ", body) + "</div>"
