"""The report as a PDF (fpdf2): the Markdown rendered through markdown-it to HTML, then laid out.

Quotes may hold any Unicode text, so a TrueType font is embedded: ``PRP_PDF_FONT`` if set, else
DejaVu Sans where the system has it (Debian, Ubuntu, Fedora...) or matplotlib's copy. Without one, fpdf2's core fonts
only cover Latin-1: typographic punctuation is mapped to ASCII and anything else becomes "?", and
the PDF says so on its first page rather than silently changing the quotes.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from fpdf import FPDF
from fpdf.fonts import FontFace
from markdown_it import MarkdownIt

from research.report import FinalReport

#: Where common systems keep DejaVu Sans (regular; the bold and oblique faces sit beside it).
DEJAVU_CANDIDATES = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf"),
    Path("/usr/local/share/fonts/DejaVuSans.ttf"),
    Path("/Library/Fonts/DejaVuSans.ttf"),
)
_LATIN1_FALLBACKS = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2026": "...",
        "\u2212": "-",
        "\u2264": "<=",
        "\u2265": ">=",
        "\u26a0": "(!)",
        "\u2192": "->",
    }
)
BODY_SIZE = 10.5


def find_font(configured: Path | None) -> Path | None:
    """The configured font, else the system's DejaVu Sans, else the copy matplotlib ships (if installed)."""
    if configured is not None:
        return configured if configured.is_file() else None
    return next((p for p in (*DEJAVU_CANDIDATES, *_bundled_dejavu()) if p.is_file()), None)


def _bundled_dejavu() -> list[Path]:
    """matplotlib ships DejaVu Sans; found without importing it (that takes a while)."""
    spec = importlib.util.find_spec("matplotlib")
    folders = (spec.submodule_search_locations or []) if spec else []
    return [Path(folder) / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf" for folder in folders]


def _faces(regular: Path) -> dict[str, Path]:
    """Bold/italic faces next to the regular file, DejaVu-style names; the regular face otherwise."""
    stem, suffix = regular.stem, regular.suffix
    names = {"B": f"{stem}-Bold", "I": f"{stem}-Oblique", "BI": f"{stem}-BoldOblique"}
    faces = {"": regular}
    for style, name in names.items():
        candidate = regular.with_name(name + suffix)
        faces[style] = candidate if candidate.is_file() else regular
    return faces


class _ReportPDF(FPDF):
    def __init__(self, title: str, footer_note: str, family: str):
        super().__init__(format="A4")
        self.report_title = title
        self.footer_note = footer_note
        self.family = family
        self.set_title(title)
        self.set_creator("prp (Personal Research Portal)")
        self.set_margins(18, 16, 18)
        self.set_auto_page_break(True, margin=16)

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(self.family, "", 8)
        self.set_text_color(110, 110, 110)
        self.cell(0, 5, f"{self.footer_note}  \u00b7  page {self.page_no()}/{{nb}}", align="C")


def report_pdf(report: FinalReport, thread_id: str, font: Path | None = None) -> bytes:
    """The report as PDF bytes; ``font`` is a TrueType file (see ``find_font``)."""
    font_path = find_font(font)
    markdown = report.markdown
    note = f"prp report \u00b7 thread {thread_id} \u00b7 {report.mode} mode"
    family = "prpsans" if font_path else "helvetica"
    if font_path is None:
        markdown = _latin1(markdown)
        note = _latin1(note)
    pdf = _ReportPDF(report.title if font_path else _latin1(report.title), note, family)
    if font_path is not None:
        for style, path in _faces(font_path).items():
            pdf.add_font(family, style, str(path))
    pdf.add_page()
    if font_path is None:
        pdf.set_font(family, "I", 8)
        pdf.multi_cell(
            0,
            4,
            "No Unicode font was found (set PRP_PDF_FONT to a .ttf file): characters "
            "outside Latin-1 are shown as '?'. The Markdown export keeps the exact text.",
        )
        pdf.ln(2)
    pdf.set_font(family, "", BODY_SIZE)
    # Line breaks are kept: the references are one line each, not a paragraph.
    html = MarkdownIt("commonmark", {"breaks": True}).render(markdown)
    pdf.write_html(
        html,
        font_family=family,
        tag_styles={
            "h1": FontFace(family=family, emphasis="BOLD", size_pt=17, color=(20, 40, 80)),
            "h2": FontFace(family=family, emphasis="BOLD", size_pt=13.5, color=(20, 40, 80)),
            "h3": FontFace(family=family, emphasis="BOLD", size_pt=11.5, color=(40, 40, 40)),
            "blockquote": FontFace(family=family, emphasis="ITALICS", size_pt=9.5, color=(70, 70, 70)),
        },
        li_prefix_color=(20, 40, 80),
    )
    return bytes(pdf.output())


def _latin1(text: str) -> str:
    return text.translate(_LATIN1_FALLBACKS).encode("latin-1", "replace").decode("latin-1")
