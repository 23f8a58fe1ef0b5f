"""What the evidence panel shows for one citation: where it points, the quoted span highlighted in
its block and the blocks around it, and for a PDF the page with the block's box drawn on it — the
core's view of the citation (``Portal.citation_view``) as HTML and pictures."""

from __future__ import annotations

import base64
import html
import io
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from corpus.models import DocType
from ui.core.passages import CitationView, ShownBlock

#: Where the resolver found the quote (``CitationView.found``), in words.
SCOPES = {
    "hint": "in the block the writer named",
    "document": "elsewhere in the named document",
    "retrieved": "among the retrieved passages",
    "corpus": "by searching the whole library",
    "block": "by its block id",
}


@dataclass(frozen=True)
class CitationPanel:
    header: str  # HTML
    passage: str  # HTML: neighbouring blocks, the cited block(s) with the matched span in <mark>
    zoom: Image.Image | None  # the cited blocks on their page, large enough to read
    image: Image.Image | None  # the whole page(s)
    image_note: str  # why there is no page image, or what the images show


def citation_panel(view: CitationView) -> CitationPanel:
    header = _header(view)
    if view.document is None:
        passage = _note("This document is no longer in the library; the text stored with the citation:")
        text = view.matched_text
        passage += f'<div class="prp-block prp-cited">{_highlight(text, 0, len(text))}</div>'
    else:
        passage = _passage(view.passage)
    zoom = _picture(view.zoom_png)
    image = _picture(view.page_png)
    return CitationPanel(header, passage, zoom, image, view.image_note)


def _header(view: CitationView) -> str:
    """HTML (document titles are data: escaped, never rendered as Markdown)."""
    pages = sorted(set(view.pages))
    page = f"page {pages[0]}" if len(pages) == 1 else f"pages {pages[0]}\u2013{pages[-1]}"
    facts = []
    document = view.document
    if document is not None:
        if document.type is not DocType.PDF:  # its slide, chapter or section (``corpus.locations``)
            page = view.where or f"{document.type.value} document"
        facts.append(Path(document.path).name + (f", {document.year}" if document.year else ""))
    facts.append(f"block {', '.join(view.block_ids)}")
    quality = "exact match" if view.score >= 100 else f"match {view.score:.0f}/100"
    found = SCOPES.get(view.found, view.found)
    facts.append(f"{quality}, found {found}")
    details = " \u00b7 ".join(html.escape(f) for f in facts)
    number = f'<span class="prp-ev-num">[{view.number}]</span> ' if view.number is not None else ""
    return (
        f'<div class="prp-ev-head"><div class="prp-ev-title">{number}'
        f"{html.escape(view.title)}</div>"
        f'<div class="prp-ev-facts"><b>{html.escape(page)}</b> \u00b7 {details}</div></div>'
    )


def _passage(blocks: list[ShownBlock]) -> str:
    if not any(b.match is not None for b in blocks):
        return _note("The cited block is no longer stored (the document was re-ingested).")
    parts = []
    for block in blocks:
        if block.match is None:
            parts.append(f'<div class="prp-block prp-context">{html.escape(block.text)}</div>')
        else:
            label = f'<div class="prp-block-label">block {html.escape(block.block_id)} \u00b7 {block.kind.value}</div>'
            text = _highlight(block.text, block.match.start, block.match.end)
            parts.append(f'<div class="prp-block prp-cited">{label}{text}</div>')
    return "".join(parts)


def _highlight(text: str, start: int, end: int) -> str:
    start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
    return html.escape(text[:start]) + f"<mark>{html.escape(text[start:end])}</mark>" + html.escape(text[end:])


def _note(text: str) -> str:
    return f'<p class="prp-note">{html.escape(text)}</p>'


def _picture(png: str | None) -> Image.Image | None:
    if png is None:
        return None
    image = Image.open(io.BytesIO(base64.b64decode(png)))
    image.load()
    return image
