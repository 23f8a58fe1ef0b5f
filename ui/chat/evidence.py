"""What the evidence panel shows for one citation: where it points, the quoted span highlighted in
its block and the blocks around it, and for a PDF the page with the block's box drawn on it.

Everything comes from the stored resolution and the registry; the page image is rendered from the
document's file, after checking that the file is still the one that was ingested (same sha256), so
a box is never drawn on a different version of the page.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from corpus.ingest import sha256_of
from corpus.models import Block, DocType
from corpus.registry import DocumentRecord, Registry
from tools.citations.resolve import CitedBlock, Resolution
from ui.chat.page_image import CitedArea, RenderedCitation, render_pages

#: Blocks of context shown before and after the cited block(s).
CONTEXT_BLOCKS = 1
#: Where the resolver found the quote (``Resolution.scope``), in words.
SCOPES = {
    "hint": "in the block the writer named",
    "document": "elsewhere in the named document",
    "retrieved": "among the retrieved passages",
    "corpus": "by searching the whole library",
}


@dataclass(frozen=True)
class CitationView:
    number: int
    header: str  # HTML
    passage: str  # HTML: neighbouring blocks, the cited block(s) with the matched span in <mark>
    zoom: Image.Image | None  # the cited blocks on their page, large enough to read
    image: Image.Image | None  # the whole page(s)
    image_note: str  # why there is no page image, or what the images show


def citation_view(registry: Registry, number: int, resolution: Resolution) -> CitationView:
    document = registry.document(resolution.doc_id)
    header = _header(number, resolution, document)
    if document is None:
        passage = _note("This document is no longer in the library; the text stored with the citation:")
        text = resolution.matched_text
        passage += f'<div class="prp-block prp-cited">{_highlight(text, 0, len(text))}</div>'
        return CitationView(number, header, passage, None, None, "The document was removed from the library.")
    passage = _passage(registry.blocks_of(resolution.doc_id), resolution.bboxes)
    rendered, note = _page_image(document, resolution)
    if rendered is None:
        return CitationView(number, header, passage, None, None, note)
    return CitationView(number, header, passage, rendered.zoom, rendered.pages, note)


def _header(number: int, r: Resolution, document: DocumentRecord | None) -> str:
    """HTML (document titles are data: escaped, never rendered as Markdown)."""
    pages = sorted(set(r.pages))
    page = f"page {pages[0]}" if len(pages) == 1 else f"pages {pages[0]}\u2013{pages[-1]}"
    facts = []
    if document is not None:
        if document.type is not DocType.PDF:
            page = f"{document.type.value} document"
        facts.append(Path(document.path).name + (f", {document.year}" if document.year else ""))
    facts.append(f"block {', '.join(r.block_ids)}")
    quality = "exact match" if r.score >= 100 else f"match {r.score:.0f}/100"
    found = SCOPES.get(r.scope, r.scope)
    facts.append(f"{quality}, found {found}")
    details = " \u00b7 ".join(html.escape(f) for f in facts)
    return (
        f'<div class="prp-ev-head"><div class="prp-ev-title"><span class="prp-ev-num">[{number}]</span> '
        f"{html.escape(r.title)}</div>"
        f'<div class="prp-ev-facts"><b>{html.escape(page)}</b> \u00b7 {details}</div></div>'
    )


def _passage(blocks: list[Block], cited: list[CitedBlock]) -> str:
    positions = {b.block_id: i for i, b in enumerate(blocks)}
    found = [positions[c.block_id] for c in cited if c.block_id in positions]
    if not found:
        return _note("The cited block is no longer stored (the document was re-ingested).")
    matches = {c.block_id: c.match for c in cited}
    start = max(0, min(found) - CONTEXT_BLOCKS)
    end = min(len(blocks), max(found) + CONTEXT_BLOCKS + 1)
    parts = []
    for block in blocks[start:end]:
        match = matches.get(block.block_id)
        if match is None:
            parts.append(f'<div class="prp-block prp-context">{html.escape(block.text)}</div>')
        else:
            label = f'<div class="prp-block-label">block {html.escape(block.block_id)} \u00b7 {block.kind.value}</div>'
            text = _highlight(block.text, match.start, match.end)
            parts.append(f'<div class="prp-block prp-cited">{label}{text}</div>')
    return "".join(parts)


def _highlight(text: str, start: int, end: int) -> str:
    start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
    return html.escape(text[:start]) + f"<mark>{html.escape(text[start:end])}</mark>" + html.escape(text[end:])


def _note(text: str) -> str:
    return f'<p class="prp-note">{html.escape(text)}</p>'


def _page_image(document: DocumentRecord, r: Resolution) -> tuple[RenderedCitation | None, str]:
    if document.type is not DocType.PDF:
        return None, "Text document: the passage is shown with the quoted span highlighted."
    path = Path(document.path)
    if not path.is_file():
        return None, f"The PDF is no longer at {path}; the stored text is shown instead."
    if sha256_of(path) != document.sha256:
        return None, f"{path.name} changed since it was ingested; re-ingest it to see the page."
    areas = [CitedArea(c.page, c.bbox, c.matched_text) for c in r.bboxes if c.bbox is not None]
    if not areas:
        return None, "This block has no position on the page."
    pages = sorted({a.page for a in areas})
    shown = f"page {pages[0]}" if len(pages) == 1 else f"pages {', '.join(map(str, pages))}"
    return render_pages(path, areas), (
        f"{path.name}, {shown}: the cited block is framed in orange, the quoted lines are filled in yellow; "
        "open \u201cThe whole page\u201d to see where it is."
    )
