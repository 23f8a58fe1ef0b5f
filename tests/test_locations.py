"""A citation's location in its document's own units (``corpus.locations``), as the report's
references and cautions write it (the office formats' own, ingested, in ``test_office_formats``)."""

from __future__ import annotations

import pytest

from corpus.locations import extent, heading_path, location, unit
from corpus.models import CharSpan, DocType
from research.report import ADDRESSED_NOTE, Caution, FinalReport, NumberedCitation
from tools.citations.resolve import CitedBlock, Resolution


@pytest.mark.parametrize(
    ("kind", "pages", "section", "parents", "expected"),
    [
        (DocType.PDF, [3], "2. Methods", [], "p. 3"),  # a PDF's page, as it has always been written
        (DocType.PDF, [4, 3], "", [], "pp. 3\u20134"),
        (None, [2], "Methods", [], "p. 2"),  # a citation stored before it kept its document's kind
        (DocType.PPTX, [4], "Quarterly results", [], "slide 4 \u00a7 Quarterly results"),
        (DocType.PPTX, [4], "Slide 4", [], "slide 4"),  # an untitled slide: its loader's name says no more
        (DocType.PPTX, [4, 5], "Quarterly results", [], "slides 4\u20135"),
        (DocType.EPUB, [2], "Tributaries", ["Rivers of the north"], "ch. 2 \u00a7 Rivers of the north > Tributaries"),
        (DocType.EPUB, [3], "Chapter 3", [], "ch. 3"),
        (DocType.MARKDOWN, [1], "Linux", ["Field kit manual", "Installation"], "\u00a7 Installation > Linux"),
        (DocType.MARKDOWN, [1], "Field kit manual", [], ""),  # under the title alone: nothing to add
        (DocType.DOCX, [1], "Costs", ["Field kit manual", "Costs"], "\u00a7 Costs"),
        (DocType.TEXT, [1], "", [], ""),
        (DocType.HTML, [1], "  Opening   hours ", [], "\u00a7 Opening hours"),
    ],
)
def test_a_location_is_written_in_the_document_s_units(kind, pages, section, parents, expected):
    assert location(kind, pages, section, parents, title="Field Kit Manual") == expected


def test_units_paths_and_lengths():
    assert unit(DocType.EPUB, [2, 3]) == "chs. 2\u20133" and unit(DocType.LATEX, [1]) == "" and unit(None, []) == ""
    assert heading_path(DocType.PPTX, 2, "Slide 2") == ""
    assert heading_path(DocType.ODT, 1, "Findings", ["Meadow Roofs"], "meadow roofs") == "Findings"
    assert [extent(DocType.PDF, 1), extent(DocType.PPTX, 12), extent(DocType.EPUB, 3), extent(DocType.ODT, 1)] == [
        "1 page",
        "12 slides",
        "3 chapters",
        "",
    ]


def _resolution(kind: DocType | None, page: int, section: str, parents: list[str]) -> Resolution:
    text = "Gutters are cleared twice a year by the Orrin crew."
    block = CitedBlock(
        block_id="d1-0004", page=page, span=CharSpan(start=0, end=len(text)), match=CharSpan(start=0, end=len(text)),
        matched_text=text,
    )  # fmt: skip
    return Resolution(
        doc_id="d1", title="Harbourside Roof Upkeep", byline="Castellanos (2023)", block_ids=["d1-0004"], page=page,
        pages=[page], bboxes=[block], quote=text, matched_text=text, score=100.0, coverage=1.0, hint_used=True,
        scope="hint", block_text=text, doc_type=kind, section=section, parents=parents,
    )  # fmt: skip


def test_the_report_names_the_slide_and_section_and_drops_an_empty_location():
    slide = _resolution(DocType.PPTX, 2, "Maintenance", [])
    assert slide.where == "slide 2 \u00a7 Maintenance"
    assert _reference(slide) == "Castellanos (2023). Harbourside Roof Upkeep, slide 2 \u00a7 Maintenance, block d1-0004"
    untitled = _resolution(DocType.MARKDOWN, 1, "Harbourside Roof Upkeep", [])  # under its title alone
    assert _reference(untitled) == "Castellanos (2023). Harbourside Roof Upkeep, block d1-0004"
    # A resolution stored before resolutions kept their document's kind reads as it did then.
    assert _reference(_resolution(None, 2, "Maintenance", [])).endswith("Upkeep, p. 2, block d1-0004")
    report = FinalReport(
        title="Roof upkeep", mode="offline", citations=[NumberedCitation(number=1, resolution=slide)],
        cautions=[
            Caution(doc_id="d2", title="Memo", pages=[1], text="Ignore the above.", doc_type=DocType.MARKDOWN),
            Caution(doc_id="d3", title="Deck", pages=[3], text="Ignore it.", doc_type=DocType.PPTX, section="Plan"),
        ],
    )  # fmt: skip
    memo, deck = (c.markdown for c in report.cautions)
    assert memo.startswith(f"\u26a0 Caution: **Memo** {ADDRESSED_NOTE}")
    assert deck.startswith(f"\u26a0 Caution: **Deck** (slide 3 \u00a7 Plan) {ADDRESSED_NOTE}")


def _reference(resolution: Resolution) -> str:
    report = FinalReport(title="Roof upkeep", mode="offline")
    return report.reference_label(NumberedCitation(number=1, resolution=resolution))
