"""Exports of a real offline report on the sample corpus: evidence CSV, BibTeX, RIS and Markdown
bibliography, report Markdown and PDF, contradiction map; and ``prp export`` on the same thread."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import bibtexparser
import pdfplumber
import pytest
from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors

from corpus.author_names import all_authors, byline, inverted_parts
from corpus.models import Bibliography, DocType, Document
from evals.metrics import normalize
from graph.checkpoints import open_checkpointer
from graph.run import run_research
from research.report import CLOSEST_HEADING
from strategies.offline.strategy import OfflineStrategy
from ui.cli.main import main as cli_main
from ui.core.errors import ThreadNotFoundError
from ui.core.exports.bibliography import BibEntry, bibliography_markdown
from ui.core.exports.bibtex import bibtex, bibtex_escape
from ui.core.exports.citation_keys import citation_keys
from ui.core.exports.contradictions import contradiction_rows, contradictions_csv, contradictions_markdown
from ui.core.exports.evidence_table import COLUMNS, evidence_csv
from ui.core.exports.formats import FILE_NAMES, ExportFormat, folder_name
from ui.core.exports.record import ReportRecord, load_record
from ui.core.exports.report_pdf import find_font, report_pdf
from ui.core.exports.ris import ris
from ui.core.exports.writer import write_exports

TOPIC = "Green roofs in cities: street-level cooling, stormwater retention and installation costs"
THREAD = "exports-topic"
BRIEF, MODEL = "harborview_policy_brief_2023.md", "harborview_cooling_model_2022.pdf"


@pytest.fixture(scope="module")
def record(sample_library) -> ReportRecord:
    with open_checkpointer(sample_library.settings) as checkpointer:
        run_research(
            sample_library, OfflineStrategy(sample_library.embedder), TOPIC, checkpointer=checkpointer, thread_id=THREAD
        )
        # Read back the way the UI and `prp export` do: from the checkpoint, not the live result.
        return load_record(checkpointer, THREAD)


@pytest.fixture(scope="module")
def documents(sample_library, record):
    return sample_library.registry.documents_by_id(c.resolution.doc_id for c in record.report.citations)


def test_evidence_csv_rows_quote_their_resolved_blocks(record, sample_library):
    rows = list(csv.DictReader(io.StringIO(evidence_csv(record))))
    assert rows and list(rows[0]) == COLUMNS
    numbers = {c.number: c.resolution for c in record.report.citations}
    assert {int(r["citation"]) for r in rows} == set(numbers)  # every citation of the report, no other
    for row in rows:
        resolution = numbers[int(row["citation"])]
        blocks = sample_library.registry.blocks(row["block_ids"].split())
        assert normalize(row["quote"]) in normalize(" ".join(b.text for b in blocks.values()))
        assert row["document"] == resolution.title and row["doc_id"] == resolution.doc_id
        assert row["page"] == str(resolution.page) and row["location"] == resolution.where
        # A closest passage of a sub-question not answered is evidence with no claim, and says so.
        assert bool(row["claim"]) != row["part"].startswith(CLOSEST_HEADING)
        assert f"[{row['citation']}]" in record.report.markdown
    sections = [r for r in rows if r["claim"] and r["part"] not in ("Summary", "Where sources disagree")]
    assert sections and all(0.0 <= float(r["confidence"]) <= 1.0 for r in sections)


def test_bibtex_has_one_escaped_entry_per_cited_document(record, documents):
    text = bibtex(record, documents)
    keys = re.findall(r"@\w+\{([^,]+),", text)
    assert len(keys) == len(set(keys)) == len({c.resolution.doc_id for c in record.report.citations})
    assert text.count("{") == text.count("}")  # BibTeX counts every brace, escaped or not
    assert "harborview_policy_brief_2023.md}" in text  # a file path as written, for reference managers
    assert "annote = {Cited as [" in text and "year = {2022}" in text
    assert bibtex(record, documents) == text  # the same keys on every export
    assert (
        bibtex_escape("50% & $5 #1 a_b {x} ~^\\")
        == r"50\% \& \$5 \#1 a\_b \textbraceleft{}x\textbraceright{} \textasciitilde{}\textasciicircum{}\textbackslash{}"
    )


def test_a_bibtex_parser_reads_every_cited_document_back(record, documents):
    assert "\n  note = " not in bibtex(record, documents)  # styles print a note: only when asked for
    library = bibtexparser.parse_string(
        bibtex(record, documents, with_notes=True), append_middleware=[LatexDecodingMiddleware(), SeparateCoAuthors()]
    )
    assert not library.failed_blocks
    cited = {c.resolution.doc_id for c in record.report.citations}
    by_note = {e.fields_dict["note"].value.removeprefix("prp document "): e for e in library.entries}
    assert set(by_note) == cited
    with_authors = 0
    for doc_id, entry in by_note.items():
        doc = documents[doc_id]
        fields = {name: f.value for name, f in entry.fields_dict.items()}
        assert fields["title"] == doc.title and fields["year"] == str(doc.year)
        assert fields.get("author", []) == [", ".join(inverted_parts(a)) for a in doc.bibliography.authors]
        assert fields.get("doi") == doc.bibliography.doi
        assert fields["file"] == doc.path
        with_authors += bool(doc.bibliography.authors)
        # The key: the first author's family name, the year, a word of the title.
        assert re.fullmatch(r"[a-z]+\d{4}[a-z]*", entry.key)
    assert with_authors >= len(cited) // 2  # the sample papers name their authors


def test_entry_types_and_keys_follow_general_rules():
    def entry(doc_id: str, title: str, authors: list[str], venue: str | None = None, **ids: str) -> BibEntry:
        bib = Bibliography(authors=authors, venue=venue, **ids)
        doc = Document(
            doc_id=doc_id, title=title, path=f"/papers/{doc_id}.pdf", type=DocType.PDF, page_count=3, year=2019,
            sha256=doc_id, bibliography=bib,
        )  # fmt: skip
        return BibEntry(doc_id, title, doc)

    entries = [
        entry("b2", "The Green Roof & Its {Costs}", ["Søren Øvergård", "Ana de la Cruz"], "Journal of Urban Ecology"),
        entry(
            "a1", "Green roofs revisited", ["Søren Øvergård"], "Proceedings of the 2019 CHI Conference", doi="10.1/x"
        ),
        entry("c3", "On the Rooftops", [], "Riverton Council", arxiv_id="1901.00001"),
    ]
    keys = citation_keys(entries)
    assert keys == {"a1": "overgard2019greena", "b2": "overgard2019greenb", "c3": "rooftops2019"}
    assert citation_keys(list(reversed(entries))) == keys  # stable whatever the order


def test_ris_has_a_record_per_cited_document(record, documents):
    text = ris(record, documents)
    records = [r for r in text.split("ER  - ") if r.strip()]
    cited = {c.resolution.doc_id for c in record.report.citations}
    assert len(records) == len(cited) and text.rstrip().endswith("ER  -")
    for rec in records:
        tags = dict(re.findall(r"^([A-Z][A-Z0-9])  - (.*)$", rec, flags=re.M))
        assert {"TY", "TI", "PY", "N1"} <= tags.keys()
        title = tags["TI"]
        (doc,) = [documents[d] for d in cited if documents[d].title == title]
        assert tags["PY"] == str(doc.year)
        assert re.findall(r"^AU  - (.*)$", rec, flags=re.M) == [
            ", ".join(inverted_parts(a)) for a in doc.bibliography.authors
        ]
    assert sum("AU  - " in r for r in records) >= len(cited) // 2


def test_markdown_bibliography_annotates_each_document(record, documents):
    text = bibliography_markdown(record, documents)
    entries = re.findall(r"^## \d+\. ", text, flags=re.M)
    assert len(entries) == len({c.resolution.doc_id for c in record.report.citations})
    assert BRIEF in text and MODEL in text
    for doc in documents.values():  # each entry opens with its authors and year
        if doc.bibliography.authors:
            assert f". {all_authors(doc.bibliography.authors)} ({doc.year}). " in text
    assert "disagrees with" in text  # the planted disagreement is part of both annotations
    for c in record.report.citations:
        assert f"- [{c.number}] {_located(c.resolution, documents)}, block " in text


def _located(resolution, documents) -> str:
    """Where a citation of the sample report is: a PDF by its page, the Markdown brief by its section."""
    where = resolution.where
    assert where.startswith("p. " if documents[resolution.doc_id].type is DocType.PDF else "\u00a7 "), where
    return where


def test_contradiction_map_holds_the_planted_disagreement(record, sample_library):
    rows = contradiction_rows(record)
    assert rows
    files = set()
    for row in rows:
        for side in ("side_a_citation", "side_b_citation"):
            number = int(re.match(r"\[(\d+)\]", row[side]).group(1))
            resolution = next(c.resolution for c in record.report.citations if c.number == number)
            files.add(Path(sample_library.registry.document(resolution.doc_id).path).name)
    assert {BRIEF, MODEL} <= files
    table = contradictions_markdown(record)
    assert "| Claim | Side A | Side B |" in table and "2 °C" in table and "0.3 °C" in table
    assert list(csv.DictReader(io.StringIO(contradictions_csv(record))))[0]["claim"] == rows[0]["claim"]


def test_report_pdf_keeps_the_text_and_unicode(record):
    if find_font(None) is None:
        pytest.skip("no DejaVu Sans on this system (fonts-dejavu-core); the Latin-1 fallback is tested below")
    pdf = report_pdf(record.report, record.thread_id)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = "\n".join(page.extract_text() or "" for page in doc.pages)
        assert doc.metadata.get("Title") == record.report.title
    flat = " ".join(text.split())
    assert "Where sources disagree" in flat and "What the corpus does not answer" in flat
    assert "0.3 °C" in flat and "\u201c" in flat  # degree sign and curly quotes survive
    assert f"thread {record.thread_id}" in flat


def test_report_pdf_without_a_unicode_font_says_so(record, tmp_path):
    pdf = report_pdf(record.report, record.thread_id, font=tmp_path / "missing.ttf")
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = " ".join((doc.pages[0].extract_text() or "").split())
    assert "No Unicode font was found" in text and "Summary" in text


def test_write_exports_writes_every_format(record, documents, tmp_path):
    paths = write_exports(record, tmp_path / "out", documents)
    assert [p.name for p in paths] == [FILE_NAMES[f] for f in ExportFormat]
    assert all(p.stat().st_size > 100 for p in paths)
    assert (tmp_path / "out" / "report.md").read_text() == record.report.markdown
    assert (tmp_path / "out" / "report.pdf").read_bytes().startswith(b"%PDF")


def test_export_folders_stay_inside_their_parent():
    assert folder_name("conv.3") == "conv.3"
    for hostile in ("../../etc", "/abs/x", "..", "a/b"):
        name = folder_name(hostile)
        assert "/" not in name and not name.startswith(".") and name
    assert folder_name("a/b") != folder_name("a_b")


def test_unfinished_or_unknown_threads_are_refused(sample_library):
    with open_checkpointer(sample_library.settings) as checkpointer:
        with pytest.raises(ThreadNotFoundError, match="no research thread"):
            load_record(checkpointer, "no-such-thread")
    with pytest.raises(ThreadNotFoundError, match="no finished report"):
        ReportRecord.from_state("t", {"topic": "x", "plan": []})


def test_prp_export_cli(record, sample_library, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PRP_DATA_DIR", str(sample_library.settings.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(sample_library.settings.models_dir))
    out = tmp_path / "cli"
    assert cli_main(["export", THREAD, "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(FILE_NAMES.values())
    assert (out / "evidence.csv").read_text() == evidence_csv(record)
    assert cli_main(["export", THREAD, "--out", str(tmp_path / "one"), "--format", "bibtex"]) == 0
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["bibliography.bib"]
    assert "\n  note = {prp document " not in (tmp_path / "one" / "bibliography.bib").read_text()
    assert cli_main(["export", THREAD, "--out", str(tmp_path / "notes"), "--format", "bibtex", "--with-notes"]) == 0
    assert "\n  note = {prp document " in (tmp_path / "notes" / "bibliography.bib").read_text()
    capsys.readouterr()
    assert cli_main(["export", "--list"]) == 0
    listing = capsys.readouterr().out
    assert THREAD in listing and f"{len(record.report.citations)} citations" in listing
    assert cli_main(["export", "no-such-thread"]) == 1
    assert "no research thread" in capsys.readouterr().err


def test_the_report_s_references_name_the_authors(record, documents):
    references = record.report.markdown.split("## References")[1]
    named = 0
    for c in record.report.citations:
        doc = documents[c.resolution.doc_id]
        by = byline(doc.bibliography.authors, doc.year)
        assert (
            f"[{c.number}] {by + '. ' if by else ''}{doc.title}, {_located(c.resolution, documents)}, block "
            in references
        )
        named += bool(by)
    assert named and "et al. (" in references
