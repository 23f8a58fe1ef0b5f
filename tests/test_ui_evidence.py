"""The evidence panel's pieces: the core's view of a citation (``ui.core.citation_view``) with the
page image drawn, the highlighted passage, what happens when the file moved or changed, and the safe
report HTML with citation links."""

from __future__ import annotations

import re
import shutil

import numpy as np

from corpus.models import Document
from corpus.registry import Registry
from evals.metrics import normalize
from research.evidence import FindingStatus, SubQuestion
from research.report import ClaimStatus, FinalReport, NumberedCitation, ReportClaim, ReportSection
from tools.citations.index import BlockIndex
from tools.citations.resolve import resolve_citation
from ui.chat.evidence import citation_panel
from ui.chat.report_html import parse_cite_ref, report_html
from ui.core.citation_view import citation_view
from ui.core.page_image import FRAME_STROKE, PAD, QUOTE_FILL, WORD_STROKE, ZOOM_MARGIN, ZOOM_RESOLUTION

MODEL_PDF = "harborview_cooling_model_2022.pdf"
# Runs over a line break with the word "de-/coupled" hyphenated on the page.
HYPHENATED = (
    "Rooftops are decoupled from canyon air by building height, and cooled air above the roofs "
    "mixes into a convective boundary layer"
)


def panel(registry: Registry, number: int, resolution):
    """The evidence panel's HTML and pictures for the core's view of a citation."""
    return citation_panel(citation_view(registry, number, resolution))


def pixels_like(image, colour, tolerance=40) -> int:
    pixels = np.asarray(image.convert("RGB"), dtype=np.int16)
    return int((np.abs(pixels - np.array(colour[:3])).max(axis=2) < tolerance).sum())


def test_pdf_citation_shows_the_page_with_frame_and_quoted_words(sample_library, tmp_path):
    index = BlockIndex.from_registry(sample_library.registry)
    resolution = resolve_citation(HYPHENATED, None, index)
    assert resolution is not None and resolution.page == 2

    view = panel(sample_library.registry, 4, resolution)
    assert "[4]" in view.header and "page 2" in view.header and MODEL_PDF in view.header
    marked = re.search(r"<mark>(.*?)</mark>", view.passage, flags=re.S).group(1)
    assert normalize(marked) == normalize(HYPHENATED)
    assert view.passage.count('class="prp-block prp-context"') == 2  # the blocks before and after
    assert view.image is not None and view.zoom is not None and "framed" in view.image_note
    for picture in (view.zoom, view.image):
        assert pixels_like(picture, FRAME_STROKE) > 500  # the block's frame
        assert pixels_like(picture, WORD_STROKE) > 500  # the quoted words' boxes
        assert pixels_like(picture, (255, 226, 110), tolerance=30) > 1000  # the quoted words' fill over white
    # Four lines of the quote, "Rooftops are de-" to "layer", each boxed by its words.
    words = citation_view(sample_library.registry, 4, resolution, images=False).words
    assert [w.text.split()[0] for w in words] == ["Rooftops", "coupled", "air", "layer"]
    assert len({QUOTE_FILL[:3], FRAME_STROKE, WORD_STROKE}) == 3
    # The zoom is the block and a margin, at a resolution that reads without fullscreen.
    box = next(c.bbox for c in resolution.bboxes if c.bbox is not None)
    points = box.x1 - box.x0 + 2 * (PAD + ZOOM_MARGIN)
    assert view.zoom.width >= 0.95 * points * ZOOM_RESOLUTION / 72
    assert view.zoom.height < view.image.height / 2


def test_a_moved_or_edited_pdf_gets_no_page_image(sample_library, tmp_path):
    """The same document registered at a copy of its file, which is then edited, then removed."""
    resolution = resolve_citation(HYPHENATED, None, BlockIndex.from_registry(sample_library.registry))
    original = sample_library.registry.document(resolution.doc_id)
    copy = tmp_path / MODEL_PDF
    shutil.copyfile(original.path, copy)
    registry = Registry(tmp_path / "registry.sqlite")
    document = Document(**original.model_dump(include=set(Document.model_fields)) | {"path": str(copy)})
    registry.add_pending(document, sample_library.registry.blocks_of(original.doc_id), [])
    registry.mark_ready(document.doc_id)
    assert panel(registry, 1, resolution).image is not None

    copy.write_bytes(copy.read_bytes() + b"\n% edited")
    changed = panel(registry, 1, resolution)
    assert changed.image is None and "changed since it was ingested" in changed.image_note
    assert "<mark>" in changed.passage  # the stored text still shows the quote
    copy.unlink()
    moved = panel(registry, 1, resolution)
    assert moved.image is None and "no longer at" in moved.image_note


def test_text_citation_shows_the_surrounding_passage(sample_library):
    index = BlockIndex.from_registry(sample_library.registry)
    quote = "Over the twelve-month monitoring period the test rig retained 57% of annual rainfall"
    resolution = resolve_citation(quote, None, index)
    view = panel(sample_library.registry, 1, resolution)
    assert view.image is None and "Text document" in view.image_note
    # A text without pages is located by its section, not "page 1".
    assert resolution.where.startswith("\u00a7 ") and f"<b>{resolution.where}</b>" in view.header
    assert "57% of annual rainfall" in re.search(r"<mark>(.*?)</mark>", view.passage, flags=re.S).group(1)
    assert "prp-context" in view.passage


def _report(claims: list[ReportClaim], citations: list[NumberedCitation]) -> FinalReport:
    section = ReportSection(
        number=1,
        sub_question=SubQuestion(id="q1", question="q?", rationale="r"),
        status=FindingStatus.ANSWERED,
        confidence=0.9,
        claims=claims,
    )
    return FinalReport(title="t", mode="offline", sections=[section], citations=citations)


def test_report_html_links_only_real_citations_and_keeps_document_text_inert(sample_library):
    index = BlockIndex.from_registry(sample_library.registry)
    resolution = resolve_citation("the test rig retained 57% of annual rainfall", None, index)
    hostile = (
        "A quoted ![pixel](http://tracker.example/p.png) and [link](http://evil.example) "
        "<script>alert(1)</script> <http://auto.example> [7] [1][1]"
    )
    claim = ReportClaim(text=hostile, status=ClaimStatus.VERIFIED, citations=[1])
    report = _report([claim], [NumberedCitation(number=1, resolution=resolution)])
    html = report_html(report, "conv.3")
    assert "<img" not in html and "<script" not in html and "src=" not in html and 'href="http' not in html
    # One link for the claim's citation, one for its reference entry; the "[1][1]" the text quotes is text.
    assert re.findall(r'<a [^>]*href="([^"]+)"', html) == ["#prp-cite=conv.3:1"] * 2
    assert "[7]" in html and "[1][1]" in html  # not citations of this report: left as text
    assert "\n\n" not in html  # one HTML block for the chat's Markdown pass
    assert parse_cite_ref("#prp-cite=conv.3:12") == ("conv.3", 12)
    assert parse_cite_ref("conv:x") is None


def test_a_claim_quoting_a_papers_own_reference_marker_links_only_its_citation(sample_library):
    index = BlockIndex.from_registry(sample_library.registry)
    first = resolve_citation("the test rig retained 57% of annual rainfall", None, index)
    second = resolve_citation(HYPHENATED, None, index)
    claim = ReportClaim(text="Roofs cool the street, as shown in [2].", status=ClaimStatus.VERIFIED, citations=[1])
    report = _report(
        [claim], [NumberedCitation(number=1, resolution=first), NumberedCitation(number=2, resolution=second)]
    )
    html = report_html(report, "conv.3")
    claim_html = re.search(r"<li>(.*?)</li>", html).group(1)
    assert re.findall(r'href="#prp-cite=conv\.3:(\d+)"', claim_html) == ["1"]
    assert "as shown in [2]." in claim_html
    # The Markdown keeps the quoted marker as the claim's words, followed by the claim's own citation.
    assert "- Roofs cool the street, as shown in [2]. [1]" in report.markdown


def test_a_list_quoted_block_by_block_links_each_item_to_its_own_citation(sample_library):
    index = BlockIndex.from_registry(sample_library.registry)
    first = resolve_citation("the test rig retained 57% of annual rainfall", None, index)
    claim = ReportClaim(
        text="Findings <b>:\nfirst item\nsecond item",
        status=ClaimStatus.VERIFIED,
        citations=[1, 2, 3],
        line_citations=[1, 2, 3],
    )
    report = _report([claim], [NumberedCitation(number=n, resolution=first) for n in (1, 2, 3)])
    html = report_html(report, "c")
    assert "Findings &lt;b&gt;: <a " in html  # the lead-in's link right after it, its text escaped
    items = re.findall(r'<li>(\w+ item) <a [^>]*href="#prp-cite=c:(\d)"', html)
    assert items == [("first item", "2"), ("second item", "3")]
