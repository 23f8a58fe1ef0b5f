"""BibTeX a LaTeX user and a reference manager take as written.

A 20-entry ``.bib`` (tests/data/round_trip.bib: articles, proceedings, a workshop, theses, reports, a
book, a chapter, preprints, corporate and particle names, math and acronyms in titles) goes through
the import (bibtexparser), the registry's overrides and the export, and comes back field for field as
pybtex, a parser prp does not write with, reads it; a Zotero library's entries keep their names and
kinds; and where the tools are installed, ``pdflatex`` + ``bibtex``, ``biber --tool
--validate-datamodel`` and ``bibtool`` take the export without a warning.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
import rispy
from pybtex.bibtex.utils import change_case
from pybtex.database import BibliographyData, Person, parse_string

from corpus.author_names import name_parts, stored_name
from corpus.models import Bibliography, DocType, Document, WorkType
from corpus.references.bibtex import read_bibtex
from corpus.references.zotero import read_zotero
from corpus.registry import Registry
from tests.test_references import ZOTERO_SCHEMA
from ui.core.exports.bibliography import BibEntry
from ui.core.exports.bibtex import bibtex_entries
from ui.core.exports.latex_text import title as latex_title
from ui.core.exports.ris import ris_entries
from ui.core.exports.venues import venue_of

ROUND_TRIP = Path(__file__).parent / "data" / "round_trip.bib"
# What the export adds to an entry: where it is online and on disk, what it was cited for, and a sort
# key for an entry without authors.
ADDED = {"url", "file", "annote", "key"}


def _imported(tmp_path: Path, entries) -> list[BibEntry]:
    """Each entry set on a document of a real registry, as ``prp ingest --bib`` does, read back."""
    registry = Registry(tmp_path / "registry.sqlite")
    read = []
    for i, entry in enumerate(entries):
        doc = Document(
            doc_id=f"{i:016x}", title="Title as extracted", path=f"/papers/{i}.pdf", type=DocType.PDF,
            page_count=1, sha256=f"{i:064x}",
        )  # fmt: skip
        registry.add_pending(doc, [], [])
        record = registry.override_metadata(doc.doc_id, entry.override())
        read.append(BibEntry(record.doc_id, record.title, record))
    return read


def _person(p: Person) -> tuple:
    return (p.first_names + p.middle_names, p.prelast_names, p.last_names, p.lineage_names)


def _printed(title: str) -> str:
    """A title as a BibTeX style prints it (sentence case, braces gone)."""
    return change_case(title, "t").replace("{", "").replace("}", "")


def test_a_bib_file_comes_back_field_for_field(tmp_path: Path):
    read = read_bibtex(ROUND_TRIP)
    assert len(read.entries) == 20 and not read.problems
    exported = bibtex_entries(_imported(tmp_path, read.entries), "Round trip")
    original = list(parse_string(ROUND_TRIP.read_text(encoding="utf-8"), "bibtex").entries.values())
    back = list(parse_string(exported, "bibtex").entries.values())
    assert len(back) == len(original)
    for want, got in zip(original, back, strict=True):
        where = f"{want.key}:\n{exported}"
        assert got.type == want.type, where
        for role in ("author",):
            assert [_person(p) for p in got.persons.get(role, [])] == [
                _person(p) for p in want.persons.get(role, [])
            ], where
        assert set(got.fields) - set(want.fields) <= ADDED, where
        for name, value in want.fields.items():
            if name == "title":
                assert _printed(got.fields[name]) == _printed(value), where
            else:
                assert got.fields[name] == value, (name, where)


def test_names_keep_the_parts_their_source_gave():
    assert stored_name("Teodoro Mendes", "Caio César") == "Teodoro Mendes, Caio César"
    assert stored_name("de la Cruz", "Ana") == "Ana de la Cruz"
    assert stored_name("Roe", "John", "Jr.") == "John Roe Jr."
    assert stored_name("Gemma Team", literal=True) == "Gemma Team"
    assert stored_name("Hugging Face", literal=True) == "{Hugging Face}"
    assert name_parts("Teodoro Mendes, Caio César").inverted() == ["Teodoro Mendes", "Caio César"]
    assert name_parts("Microsoft Research").literal and name_parts("{Hugging Face}").family == "Hugging Face"


def test_zotero_names_and_kinds_survive_the_export(tmp_path: Path):
    db = sqlite3.connect(tmp_path / "zotero.sqlite")
    db.executescript(ZOTERO_SCHEMA)
    db.executescript(
        """
        INSERT INTO itemTypes VALUES (5, 'thesis'), (6, 'conferencePaper');
        INSERT INTO fields VALUES (1, 'title'), (2, 'repository'), (3, 'thesisType'), (4, 'university'),
            (5, 'date'), (6, 'proceedingsTitle'), (7, 'archiveID');
        INSERT INTO items VALUES (1, 4, 'PRE1'), (2, 5, 'THE2'), (3, 6, 'CON3');
        INSERT INTO itemDataValues VALUES (1, 'Urban trees'), (2, 'arXiv'), (3, 'Soil'), (4, 'MSc thesis'),
            (5, 'University of Oslo'), (6, '2021-00-00 2021'), (7, 'Cool roofs'),
            (8, 'Published as a conference paper at ICLR 2023'), (9, 'arXiv:2101.01234');
        INSERT INTO itemData VALUES (1, 1, 1), (1, 2, 2), (1, 5, 6), (1, 7, 9), (2, 1, 3), (2, 3, 4), (2, 4, 5),
            (2, 5, 6), (3, 1, 7), (3, 6, 8), (3, 5, 6);
        INSERT INTO creators VALUES (1, 'Caio César', 'Teodoro Mendes', 0), (2, '', 'Microsoft Research', 1),
            (3, 'Diego', 'de las Casas', 0);
        INSERT INTO itemCreators VALUES (1, 1, 1, 0), (1, 2, 1, 1), (2, 3, 1, 0), (3, 2, 1, 0);
        """
    )
    db.commit()
    db.close()
    read = read_zotero(tmp_path / "zotero.sqlite")
    assert [e.entry_type for e in read.entries] == [WorkType.MISC, WorkType.MASTERSTHESIS, WorkType.INPROCEEDINGS]
    exported = bibtex_entries(_imported(tmp_path, read.entries), "Zotero")
    pre, thesis, paper = parse_string(exported, "bibtex").entries.values()
    assert [_person(p) for p in pre.persons["author"]] == [
        (["Caio", "César"], [], ["Teodoro", "Mendes"], []),
        ([], [], ["{Microsoft Research}"], []),
    ]
    assert (pre.type, pre.fields["howpublished"], pre.fields["eprint"]) == ("misc", "arXiv", "2101.01234")
    assert (thesis.type, thesis.fields["school"]) == ("mastersthesis", "University of Oslo")
    assert _person(thesis.persons["author"][0]) == (["Diego"], ["de", "las"], ["Casas"], [])
    # "Published as a conference paper at ...", as a PDF says it, is the venue's kind and not its name.
    assert (paper.type, paper.fields["booktitle"]) == ("inproceedings", "ICLR 2023")
    ris = rispy.loads(ris_entries(_imported(tmp_path / "again", read.entries), "Zotero"))
    assert [r["type_of_reference"] for r in ris] == ["GEN", "THES", "CPAPER"]
    assert ris[0]["authors"] == ["Teodoro Mendes, Caio César", "Microsoft Research"]


@pytest.mark.parametrize(
    ("venue", "kind", "name"),
    [
        ("Physics of the Dark Universe", "article", "Physics of the Dark Universe"),
        ("Journal of Urban Ecology", "article", "Journal of Urban Ecology"),
        ("Published as a conference paper at ICLR 2023", "inproceedings", "ICLR 2023"),
        ("Proceedings of the 41 st International Conference on Machine Learning", "inproceedings",
         "Proceedings of the 41st International Conference on Machine Learning"),
        ("NeurIPS 2023 Workshop on Efficient Natural Language and Speech Processing", "inproceedings", None),
        ("PhD thesis, University of Oslo", "phdthesis", "University of Oslo"),
        ("Master's thesis, ETH Zürich", "mastersthesis", "ETH Zürich"),
        ("Technical Report, Harborview City Climate Office", "techreport", "Harborview City Climate Office"),
        ("arXiv preprint", "misc", None),
        ("bioRxiv", "misc", None),
        ("Riverton Council", "misc", None),
        ("Oxford University Press", "misc", None),
    ],
)  # fmt: skip
def test_entry_types_follow_the_venue(venue: str, kind: str, name: str | None):
    found = venue_of(Bibliography(venue=venue))
    assert (found.kind.value, found.name) == (kind, name or venue)


def test_titles_brace_what_a_style_must_not_lower_case():
    assert latex_title("GPTQ: Accurate Post-Training Quantization") == "{GPTQ}: Accurate Post-Training Quantization"
    assert latex_title("LLM shepherding") == "{LLM} shepherding"
    assert latex_title("Mistral 7B") == "Mistral {7B}"
    assert latex_title("Can Models Speak Coherent English?") == "Can Models Speak Coherent {English}?"
    assert latex_title("Bounds on $f(Q)$ for 50% of $5 to $10") == r"Bounds on {$f(Q)$} for 50\% of \$5 to \$10"
    # In sentence case a capital past the first word is a name's.
    assert latex_title("Street canyons and heat in São Paulo") == "Street canyons and heat in {São} {Paulo}"


def _export_for_latex(tmp_path: Path) -> Path:
    bib = tmp_path / "refs.bib"
    bib.write_text(bibtex_entries(_imported(tmp_path, read_bibtex(ROUND_TRIP).entries), "Round trip"), "utf-8")
    return bib


@pytest.mark.skipif(not (shutil.which("pdflatex") and shutil.which("bibtex")), reason="pdflatex/bibtex not installed")
def test_pdflatex_and_bibtex_print_the_export_without_a_warning(tmp_path: Path):
    _export_for_latex(tmp_path)
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\usepackage[T1]{fontenc}\\begin{document}\\nocite{*}"
        "\\bibliographystyle{plain}\\bibliography{refs}\\end{document}\n"
    )

    def run(*cmd: str) -> str:
        done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout[-3000:]
        return done.stdout

    run("pdflatex", "-interaction=nonstopmode", "paper.tex")
    log = run("bibtex", "paper")
    assert "Warning--" not in log and "error" not in log.lower(), log
    run("pdflatex", "-interaction=nonstopmode", "paper.tex")
    bbl = " ".join((tmp_path / "paper.bbl").read_text("utf-8").split())
    # As printed: the style's sentence case, the braced capitals and math kept, no note.
    assert "{GPTQ}: Accurate post-training quantization" in bbl and "coherent {English}?" in bbl
    assert "Bounds on {$f(Q)$} gravity" in bbl and "Mistral {7B}" in bbl and "prp document" not in bbl
    assert "Caio~César Teodoro~Mendes and John Roe, Jr." in bbl and "Diego de~las Casas and {Gemma Team}" in bbl


@pytest.mark.skipif(not shutil.which("biber"), reason="biber not installed")
def test_biber_validates_the_export_against_its_data_model(tmp_path: Path):
    bib = _export_for_latex(tmp_path)
    done = subprocess.run(
        ["biber", "--tool", "--validate-datamodel", bib.name], cwd=tmp_path, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout
    assert not re.findall(r"^.*(WARN|ERROR).*$", done.stdout, re.MULTILINE), done.stdout


@pytest.mark.skipif(not shutil.which("bibtool"), reason="bibtool not installed")
def test_bibtool_reads_the_export_without_complaint(tmp_path: Path):
    bib = _export_for_latex(tmp_path)
    done = subprocess.run(["bibtool", "-q", str(bib), "-o", str(tmp_path / "out.bib")], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    assert len(BibliographyData.from_string((tmp_path / "out.bib").read_text("utf-8"), "bibtex").entries) == 20
