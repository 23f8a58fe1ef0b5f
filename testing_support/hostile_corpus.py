"""A folder of hostile input, generated at run time (nothing binary is committed), with the outcome a
user should get for every file: ingested (and then findable by its marker word), or skipped or
failed with a named reason. Used by the reliability tests and by ``benchmarks/hostile_ingest.py``.

``scale`` sizes the large cases: 1 is what the test suite can afford in seconds (a 60 KB one-line
Markdown file, a page of 4,000 words, 300-deep nested markup); the benchmark uses 35 (2 MB of one
line, 40,000 words on a page, 10,500-deep nesting in 4 MB of markup).
"""

from __future__ import annotations

import base64
import gzip
import io
import os
import random
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import EncryptionMethod
from PIL import Image, ImageDraw


@dataclass(frozen=True)
class Expected:
    outcome: str  # "ok", "skipped" or "failed"
    marker: str = ""  # for "ok": a word only this document holds, so a search must find it
    reason: str = ""  # for the others: a fragment of the reason the user reads


def paragraph(marker: str, topic: str) -> str:
    return (
        f"This report on {topic} records the {marker} survey in detail. The {marker} team measured water "
        f"quality at twelve stations and found that the {marker} population doubled within three years. "
        f"Observers noted that {topic} changed the local economy."
    )


@dataclass(frozen=True)
class TemplateNote:
    marker: str  # a word only this note holds, so a search must find it
    boilerplate_blocks: int  # how many of its blocks the ingest must mark as boilerplate


MEMO_FOOTER = "Filed by the facilities office. Internal use only."


def template_notes(folder: Path, notes: int = 40, tickets: int = 10, memos: int = 10) -> dict[str, TemplateNote]:
    """Notes written from templates, as meeting notes, lab logs and tickets are (issue 23), by file
    name: ``notes`` one-line notes differing only in a number, alone and glued to a word ("Tiny note
    7 about topic tinyword7"); ``tickets`` whose every line is the template's but for a free-standing
    number (the line with the number is each ticket's own, the other one is boilerplate); ``memos`` with
    a line of their own above a shared footer (the footer is boilerplate, the line is not)."""
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, TemplateNote] = {}
    for i in range(1, notes + 1):
        (folder / f"n{i}.txt").write_text(f"Tiny note {i} about topic tinyword{i} and green roofs.\n", encoding="utf-8")
        out[f"n{i}.txt"] = TemplateNote(f"tinyword{i}", 0)
    for i in range(1, tickets + 1):
        number = 4100 + i
        text = f"Ticket {number} was raised by the help desk.\n\nThe status is open and waits for the vendor.\n"
        (folder / f"ticket-{i}.txt").write_text(text, encoding="utf-8")
        out[f"ticket-{i}.txt"] = TemplateNote(str(number), 1)
    animals = ["aardvark", "bongo", "caracal", "dhole", "eland", "fossa", "gharial", "hoatzin", "ibex", "jerboa"]
    for i in range(memos):
        marker = f"{animals[i % len(animals)]}{'' if i < len(animals) else i}"
        text = f"The memo asks for a {marker} enclosure near the green roofs.\n\n{MEMO_FOOTER}\n"
        (folder / f"memo-{i}.txt").write_text(text, encoding="utf-8")
        out[f"memo-{i}.txt"] = TemplateNote(marker, 1)
    return out


def invoices(folder: Path, count: int = 300, first: int = 481001) -> dict[str, str]:
    """Issue 34's reproduction: ``count`` invoices, each "# Invoice / Invoice number N / two lines
    every invoice has / a note two invoices share", by file name with its invoice number (the only
    thing that tells it apart; ``first`` + 199 is 481200)."""
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, str] = {}
    for i in range(count):
        number = str(first + i)
        text = (
            f"# Invoice\n\nInvoice number {number}\n\nPayable within thirty days of receipt.\n\n"
            f"Thank you for your business.\n\nDelivered with the shipment of batch {chr(65 + i // 2 % 26)}"
            f"{i // 52}.\n"
        )
        (folder / f"invoice-{i:03d}.md").write_text(text, encoding="utf-8")
        out[f"invoice-{i:03d}.md"] = number
    return out


def base64_text(size: int, seed: int = 7) -> str:
    """``size`` characters of random bytes as the ``base64`` command writes them: 76 to a line."""
    data = random.Random(seed).randbytes(size * 3 // 4 + 3)
    return base64.encodebytes(data).decode("ascii")[:size]


IMAGE_TOPICS = ("estuaries", "glaciers", "peat bogs", "coral reefs", "salt marshes")


def inline_images_note(size: int) -> str:
    """A Markdown note of about ``size`` characters: a few paragraphs (each with a marker word)
    between images inline as ``data:`` URIs, in the forms exporters write."""
    parts, length, n = [], 0, 0
    while length < size:
        blob = base64_text(min(200_000, size // 8), seed=n).replace("\n", "")
        wrapped = "\n".join(blob[i : i + 76] for i in range(0, len(blob), 76))
        form = (
            f"![figure {n}](data:image/png;base64,{wrapped})",
            f"![figure {n}](data:image/png;base64,{blob})",
            f'<img alt="figure {n}" src="data:image/jpeg;base64,{blob}">',
            f"Figure {n}: data:image/png;base64,{blob}",
        )[n % 4]
        parts += [paragraph(f"marker{n}", IMAGE_TOPICS[n % len(IMAGE_TOPICS)]), form]
        length += len(parts[-1]) + len(parts[-2])
        n += 1
    return "# Field notes with figures\n\n" + "\n\n".join(parts) + "\n"


def one_token_line(size: int) -> str:
    """One "word" of ``size`` letters and digits: no space, no punctuation, no line break."""
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(alphabet[i * 7 % len(alphabet)] for i in range(size))


def prose(size: int, seed: int = 7) -> str:
    """About ``size`` characters of ordinary paragraphs (a marker word in none of them)."""
    rng = random.Random(seed)
    paragraphs, length = [], 0
    while length < size:
        topic = rng.choice(("tidal flats", "river deltas", "ice shelves", "cloud forests", "salt marshes"))
        paragraphs.append(paragraph(rng.choice(("annual", "winter", "coastal", "upland")), topic))
        length += len(paragraphs[-1]) + 2
    return "\n\n".join(paragraphs)


def text_pdf(path: Path, pages: list[str], font_size: float = 11, page_mm: tuple[float, float] = (210, 297)) -> Path:
    pdf = FPDF(format=page_mm)
    pdf.set_font("helvetica", size=font_size)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, font_size * 0.5, text)
    pdf.output(str(path))
    return path


def encrypted_pdf(path: Path, text: str, user_password: str) -> Path:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=11)
    pdf.multi_cell(0, 6, text)
    pdf.set_encryption(owner_password="owner", user_password=user_password, encryption_method=EncryptionMethod.RC4)
    pdf.output(str(path))
    return path


def scanned_pdf(path: Path) -> Path:
    """A page that is only a picture of text: no text layer."""
    image = Image.new("L", (850, 1100), 255)
    ImageDraw.Draw(image).text((60, 60), "A scanned page: its words are pixels.", fill=0)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    buffer.seek(0)
    pdf = FPDF()
    pdf.add_page()
    pdf.image(buffer, x=10, y=10, w=190)
    pdf.output(str(path))
    return path


def stream_bomb_pdf(path: Path, inflated_mb: int = 256) -> Path:
    """A valid one-page PDF whose page content inflates from about 250 KB to ``inflated_mb`` MB."""
    content = b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n" + b" " * (inflated_mb << 20)
    packed = zlib.compress(content, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def build(root: Path, scale: int = 1) -> dict[str, Expected]:
    """Write the hostile folder ``root/hostile`` (and ``root/outside``, a link target beyond it).
    Returns the expected outcome per path relative to ``root/hostile``."""
    folder = root / "hostile"
    outside = root / "outside"
    folder.mkdir(parents=True)
    outside.mkdir()
    rng = random.Random(7)
    expected: dict[str, Expected] = {}

    def good(name: str, marker: str) -> None:
        expected[name] = Expected("ok", marker=marker)

    def bad(name: str, outcome: str, reason: str) -> None:
        expected[name] = Expected(outcome, reason=reason)

    # --- documents that must be ingested, whatever their form --------------------------------------
    (folder / "notes.md").write_text(f"# Field notes\n\n{paragraph('quokka', 'island wildlife')}\n", encoding="utf-8")
    good("notes.md", "quokka")
    (folder / "field-report.txt").write_text(paragraph("narwhal", "arctic fisheries"), encoding="utf-8")
    good("field-report.txt", "narwhal")
    text_pdf(folder / "turbines.pdf", [paragraph("axolotl", "tidal turbines"), paragraph("axolotl", "kelp forests")])
    good("turbines.pdf", "axolotl")
    (folder / "page.html").write_text(
        f"<html><head><title>Pangolin trade</title></head><body><article><p>{paragraph('pangolin', 'trade')}"
        "</p></article></body></html>",
        encoding="utf-8",
    )
    good("page.html", "pangolin")
    (folder / "latin1.txt").write_bytes(f"Größe und Gewicht: {paragraph('okapi', 'café culture')}".encode("latin-1"))
    good("latin1.txt", "okapi")
    (folder / "utf16.txt").write_bytes(paragraph("capybara", "wetland grazing").encode("utf-16"))
    good("utf16.txt", "capybara")
    (folder / "utf16-no-bom.txt").write_bytes(paragraph("tapir", "rainforest seed dispersal").encode("utf-16-le"))
    good("utf16-no-bom.txt", "tapir")
    filler = " ".join(rng.choice(("river", "delta", "silt", "flood", "levee", "basin")) for _ in range(10_000 * scale))
    (folder / "one-line.md").write_text(f"{paragraph('wombat', 'burrows')} {filler}", encoding="utf-8")
    good("one-line.md", "wombat")
    count = min(4_000 * scale, 40_000)  # a 1.2 x 1.2 m page in 6 pt type holds about 60,000 words
    words = " ".join(rng.choice(("ice", "core", "sample", "layer", "dust", "isotope")) for _ in range(count))
    page = [f"{paragraph('chinchilla', 'ice cores')} {words}"]
    text_pdf(folder / "dense-page.pdf", page, font_size=6, page_mm=(1200, 1200))
    good("dense-page.pdf", "chinchilla")
    depth, spans = 300 * scale, min(20_000 * scale, 100_000)
    nested = "<div>" * depth + paragraph("ocelot", "canopy surveys") + "</div>" * depth
    noise = "".join(f'<span class="c{i % 7}" data-i="{i}"></span>' for i in range(spans))
    (folder / "nested.html").write_text(f"<html><body>{nested}{noise}</body></html>", encoding="utf-8")
    good("nested.html", "ocelot")
    encrypted_pdf(folder / "owner-locked.pdf", paragraph("manatee", "seagrass beds"), user_password="")
    good("owner-locked.pdf", "manatee")
    (folder / "folder.pdf").mkdir()
    (folder / "folder.pdf" / "inside.txt").write_text(paragraph("gecko", "desert nights"), encoding="utf-8")
    good("folder.pdf/inside.txt", "gecko")
    (folder / "second-copy-of-notes.md").write_bytes((folder / "notes.md").read_bytes())  # sorts after
    bad("second-copy-of-notes.md", "skipped", "same content as")
    os.symlink("notes.md", folder / "link-to-notes.md")  # inside: the same file, read once

    # --- files that must be refused, each with its reason -----------------------------------------
    (folder / "empty.pdf").write_bytes(b"")
    bad("empty.pdf", "failed", "empty")
    whole = (folder / "turbines.pdf").read_bytes()
    (folder / "truncated.pdf").write_bytes(whole[: len(whole) * 2 // 5])
    bad("truncated.pdf", "failed", "corrupt")
    (folder / "random.pdf").write_bytes(rng.randbytes(64 * 1024))
    bad("random.pdf", "failed", "not a PDF")
    (folder / "gzip-bomb.pdf").write_bytes(gzip.compress(b"\0" * (50 << 20)))
    bad("gzip-bomb.pdf", "failed", "not a PDF")
    stream_bomb_pdf(folder / "stream-bomb.pdf")
    bad("stream-bomb.pdf", "failed", "decompression bomb")
    encrypted_pdf(folder / "user-locked.pdf", paragraph("dugong", "coastal grazing"), user_password="secret")
    bad("user-locked.pdf", "failed", "encrypted")
    scanned_pdf(folder / "scanned.pdf")
    bad("scanned.pdf", "failed", "OCR read none of them")  # its one line is too small to read
    png = io.BytesIO()
    Image.new("RGB", (8, 8)).save(png, format="PNG")
    (folder / "image-named.md").write_bytes(png.getvalue())
    bad("image-named.md", "failed", "PNG image")
    (folder / "pdf-named.txt").write_bytes(whole + b"\n%mislabelled")
    bad("pdf-named.txt", "failed", "a PDF with a text file's extension")
    (folder / "whitespace.txt").write_text("   \n\n\t  \n", encoding="utf-8")
    bad("whitespace.txt", "failed", "empty")
    (folder / "control.txt").write_bytes(bytes(rng.randrange(0, 32) for _ in range(4096)))
    bad("control.txt", "failed", "binary content")
    (folder / "report.docx").write_bytes(b"PK\x03\x04 not really a docx")
    bad("report.docx", "failed", "not a readable Word file")
    expected.update(office_files(folder, "walrus"))
    (folder / "README").write_text("no extension", encoding="utf-8")
    bad("README", "failed", "unsupported file type")
    (outside / "secret.txt").write_text(paragraph("basilisk", "private matters"), encoding="utf-8")
    os.symlink(outside / "secret.txt", folder / "link-out.txt")
    bad("link-out.txt", "skipped", "outside the ingested folder")
    os.symlink(".", folder / "loop")
    bad("loop", "skipped", "symbolic link loop")
    os.symlink("nowhere.txt", folder / "broken.txt")
    bad("broken.txt", "failed", "broken symbolic link")
    os.mkfifo(folder / "fifo.txt")
    bad("fifo.txt", "failed", "not a regular file")
    return expected


def office_files(folder: Path, marker: str) -> dict[str, Expected]:
    """Word, PowerPoint, EPUB, OpenDocument and LaTeX files: a good Word file (holding ``marker``) and a
    good LaTeX one; the others hostile: damaged, a ZIP bomb, a deck of 5,000 slides, a LaTeX source too
    large to parse in seconds."""
    from docx import Document

    doc = Document()
    doc.add_heading("Memo on harbour dredging", 0)
    doc.add_paragraph(paragraph(marker, "harbour dredging"))
    doc.save(folder / "memo.docx")
    out = {"memo.docx": Expected("ok", marker=marker)}
    packaged = (folder / "memo.docx").read_bytes()
    (folder / "truncated.docx").write_bytes(packaged[: len(packaged) // 2])
    out["truncated.docx"] = Expected("failed", reason="not a readable Word file")
    (folder / "random.epub").write_bytes(random.Random(3).randbytes(8192))
    out["random.epub"] = Expected("failed", reason="not a readable EPUB file")
    # 300 members of 1 MB of zeros each, a kilobyte packed: 300 MB declared by a 300 KB file.
    megabyte = b"\0" * 2**20
    zeros = [(f"word/media/image{i}.png", megabyte) for i in range(300)]
    write_zip(folder / "bomb.docx", [*_members(packaged), *zeros])
    out["bomb.docx"] = Expected("failed", reason="ZIP bomb")
    slides = [(f"ppt/slides/slide{i}.xml", b"<p:sld/>") for i in range(1, 5001)]
    write_zip(folder / "huge-deck.pptx", [("[Content_Types].xml", b"<Types/>"), *slides])
    out["huge-deck.pptx"] = Expected("failed", reason="5,000 slides, over the limit")
    (folder / "paper.tex").write_text(f"\\section{{Findings}}\n{paragraph('lemming', 'tundra')}\n", encoding="utf-8")
    out["paper.tex"] = Expected("ok", marker="lemming")
    (folder / "huge.tex").write_text("\\section{Filler}\n" + "word " * 120_000, encoding="utf-8")
    out["huge.tex"] = Expected("failed", reason="over the limit of 500,000")
    (folder / "minutes.odt").write_bytes(b"PK\x03\x04 an OpenDocument text")
    out["minutes.odt"] = Expected("failed", reason="not a readable OpenDocument file")
    return out


def _members(package: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        return [(name, archive.read(name)) for name in archive.namelist()]


def write_zip(path: Path, members: list[tuple[str, bytes]]) -> None:
    """A ZIP file of ``members`` (name, content), deflated; a content repeated is deflated once, which
    ``zipfile`` cannot do, so a bomb of hundreds of megabytes is written in milliseconds."""
    packed: dict[bytes, tuple[bytes, int]] = {}
    local, central = io.BytesIO(), io.BytesIO()
    for name, data in members:
        if data not in packed:
            deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
            packed[data] = (deflate.compress(data) + deflate.flush(), zlib.crc32(data))
        raw, crc = packed[data]
        encoded, offset = name.encode(), local.tell()
        sizes = struct.pack("<III", crc, len(raw), len(data))
        local.write(struct.pack("<IHHHHH", 0x04034B50, 20, 0, 8, 0, 0) + sizes)
        local.write(struct.pack("<HH", len(encoded), 0) + encoded + raw)
        central.write(struct.pack("<IHHHHHH", 0x02014B50, 20, 20, 0, 8, 0, 0) + sizes)
        central.write(struct.pack("<HHHHHII", len(encoded), 0, 0, 0, 0, 0, offset) + encoded)
    directory = central.getvalue()
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(directory), local.tell(), 0)
    path.write_bytes(local.getvalue() + directory + end)
