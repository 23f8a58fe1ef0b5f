"""No document silently unsearchable (issues 23 and 34): over generated collections of template-like
notes, numbered files, near-duplicates, files sharing all but one line, invoices, orders, cases and
papers told apart only by a number, code or identifier (and mixes of them), every document keeps,
after boilerplate marking and chunking, a word that occurs only in it, and a number that occurs only
in it.

Real loaders (parse_file on files written to disk), the real boilerplate rule and the real chunker
with the embedding model's tokenizer; the index is left out here so that many collections run in
seconds (tests/reliability/test_template_ingest.py runs the same through ingest and sparse search).
A "word" has a letter in it; a "number" is a run of digits. A number every document repeats ("©
2024") is the template's; one only this document holds ("Invoice number 481200") is its own.
"""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpus import boilerplate
from corpus.chunking import chunk_document
from corpus.ingest import FileResult, IngestSummary, Outcome
from corpus.models import Block, BlockKind, ParsedDocument
from corpus.parsing import parse_file
from corpus.retrieval import SearchMode
from corpus.text import word_tokens
from tools.hybrid_search import hybrid_search
from ui.cli.output import format_summary

# Short, so that words collide across documents as a template's do.
WORD = st.sampled_from(
    "green roof storm water meeting notes action item owner status open closed ticket printer "
    "lab log sample buffer page report summary attendees minutes review".split()
)
NAME = st.from_regex(r"[a-z]{3,8}", fullmatch=True)
# A free-standing number where templates have one: page numbers, years, counts.
FRAME = st.sampled_from(
    ["Page {i} of {n}", "© {year} Example Lab. All rights reserved.", "Status: open", "Owner: {name}", "Room {i}"]
)


@st.composite
def numbered(draw) -> list[str]:
    """The issue's reproduction: one sentence per file, differing only in a number, alone and glued."""
    n = draw(st.integers(3, 12))
    stem = draw(NAME)
    return [f"Tiny note {i} about topic {stem}{i} and green roofs." for i in range(1, n + 1)]


@st.composite
def templated(draw) -> list[str]:
    """Meeting notes, lab logs, tickets: the same frame lines around a little text of their own (or
    none but a number), as plain text or Markdown with a heading."""
    n = draw(st.integers(3, 10))
    frame = draw(st.lists(FRAME, min_size=1, max_size=4))
    heading = draw(st.sampled_from(["", "# Meeting notes", "# Ticket {i}", "# Lab log"]))
    own = draw(st.sampled_from(["none", "word", "glued", "sentence"]))
    year = draw(st.integers(2000, 2030))
    docs = []
    for i in range(1, n + 1):
        # Two years alternate, as a template's revision years, each held by two documents or more: with
        # three documents the middle one's year would be its only number of its own, on a frame line
        # marked as boilerplate, which no rule can tell from the template's (the number is a frame's).
        fields = {"i": i, "n": n, "year": year + (i % 2 if n > 3 else 0), "name": draw(WORD)}
        lines = [line.format(**fields) for line in frame]
        if own == "word":
            lines.append(f"Topic: {draw(NAME)}")
        elif own == "glued":
            lines.append(f"Reference TCK{1000 + i} raised.")
        elif own == "sentence":
            lines.insert(
                draw(st.integers(0, len(lines))), " ".join(draw(st.lists(WORD | NAME, min_size=3, max_size=9)))
            )
        head = [heading.format(i=i)] if heading else []
        docs.append("\n\n".join([*head, *lines]))
    return docs


#: Lines a template gives a number, code or identifier of each document's own.
IDENTIFIED = st.sampled_from(
    [
        "Invoice number {num}",
        "Order ORD-{num} shipped",
        "Case {year}-{num}",
        "DOI: 10.5555/{num}",
        "Paper ID: {year}.{num}",
        "Ref. {num}",
    ]
)


@st.composite
def identified(draw) -> list[str]:
    """Issue 34's reproduction and its kin: "# Invoice / Invoice number 481200 / two shared lines /
    a note shared by two", with invoice and order numbers, case ids, DOIs and paper ids."""
    n = draw(st.integers(3, 12))
    form = draw(IDENTIFIED)
    numbers = draw(st.lists(st.integers(10, 9_999_999), min_size=n, max_size=n, unique=True))
    shared = draw(st.lists(st.lists(WORD, min_size=2, max_size=8).map(" ".join), min_size=0, max_size=3))
    heading = draw(st.sampled_from(["", "# Invoice", "# Order", "# Record"]))
    pairs = draw(st.booleans())  # a note two documents share, as in the reproduction
    year = draw(st.integers(2000, 2030))
    docs = []
    for i, number in enumerate(numbers):
        lines = [form.format(num=number, year=year), *(s.capitalize() + "." for s in shared)]
        if pairs:
            lines.append(f"Paid with the {['first', 'second', 'third', 'fourth', 'fifth', 'sixth'][i // 2]} transfer.")
        docs.append("\n\n".join([heading] * bool(heading) + lines))
    return docs


@st.composite
def near_duplicates(draw) -> list[str]:
    """One paragraph, each copy with one word changed."""
    base = draw(st.lists(WORD, min_size=8, max_size=40))
    n = draw(st.integers(3, 8))
    docs = []
    for _ in range(n):
        words = list(base)
        words[draw(st.integers(0, len(words) - 1))] = draw(NAME)
        docs.append(" ".join(words).capitalize() + ".")
    return docs


@st.composite
def all_but_one_line(draw) -> list[str]:
    """Files sharing every line but one, each its own."""
    lines = draw(st.lists(st.lists(WORD, min_size=2, max_size=8).map(" ".join), min_size=2, max_size=6))
    n = draw(st.integers(3, 8))
    docs = []
    for _ in range(n):
        mine = list(lines)
        mine[draw(st.integers(0, len(mine) - 1))] = " ".join(draw(st.lists(WORD | NAME, min_size=1, max_size=6)))
        docs.append("\n\n".join(s.capitalize() + "." for s in mine))
    return docs


SHAPES = st.sampled_from([numbered, templated, identified, near_duplicates, all_but_one_line])
COLLECTION = st.lists(SHAPES.flatmap(lambda shape: shape()), min_size=1, max_size=3).map(
    lambda groups: [doc for group in groups for doc in group]
)


_PAGE_LINE = re.compile(r"Page \d+ of \d+")


def letter_words(text: str) -> set[str]:
    return {w for w in word_tokens(text) if any(c.isalpha() for c in w)}


def numbers(text: str) -> set[str]:
    return {w for w in word_tokens(text) if w.isdigit()}


def parse_all(texts: list[str], folder: Path) -> list[ParsedDocument]:
    """Each text as a file (.md when it has a heading); identical files once, as an ingest does."""
    parsed: dict[str, ParsedDocument] = {}
    for i, text in enumerate(texts):
        path = folder / f"n{i}.{'md' if text.startswith('#') else 'txt'}"
        path.write_text(text, encoding="utf-8")
        doc = parse_file(path)
        parsed.setdefault(doc.document.sha256, doc)
    return list(parsed.values())


def mark_all(docs: list[ParsedDocument]) -> list[list[Block]]:
    """Each document's blocks, marked against the whole collection."""
    fps = [boilerplate.fingerprints(d.blocks, d.document.title) for d in docs]
    nfps = [boilerplate.number_fingerprints(d.blocks, d.document.title) for d in docs]
    counts = Counter(fp for doc_fps in [*fps, *nfps] for fp in {f for f in doc_fps if f})
    out = []
    for doc, doc_fps, doc_nfps in zip(docs, fps, nfps, strict=True):
        marked = boilerplate.detect(doc.blocks, doc_fps, counts, doc_nfps)
        out.append([b.model_copy(update={"boilerplate": m}) for b, m in zip(doc.blocks, marked, strict=True)])
    return out


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(COLLECTION)
def test_every_document_keeps_a_word_and_a_number_only_it_holds(embedder, texts: list[str]):
    with tempfile.TemporaryDirectory() as tmp:
        docs = parse_all(texts, Path(tmp))
    tokens = [set(word_tokens(" ".join(b.text for b in d.blocks))) for d in docs]
    held_by = Counter(w for doc_tokens in tokens for w in doc_tokens)
    for doc, blocks, doc_tokens in zip(docs, mark_all(docs), tokens, strict=True):
        chunks = chunk_document(doc.document, blocks, embedder.max_tokens, embedder.count_tokens_batch)
        # What a default sparse search matches: the embedded text (title header included) of the
        # chunks outside reference lists.
        searchable = set(word_tokens(" ".join(c.embed_text for c in chunks if not c.chunk.is_reference)))
        assert letter_words(" ".join(searchable)), f"{doc.document.path} has no searchable chunk: {blocks}"
        own = {w for w in doc_tokens if held_by[w] == 1}
        marks = [(b.text, b.boilerplate) for b in blocks]
        # A page number on a running footer ("Page 1 of 3") is the frame's, as a template's year is (see
        # ``templated``): the first document's "1" may be its only number no other holds.
        paged = numbers(" ".join(b.text for b in blocks if _PAGE_LINE.fullmatch(b.text)))
        for kind in (letter_words, numbers):  # a word of its own, and a number of its own
            mine = kind(" ".join(own)) - paged
            assert not mine or mine & searchable, f"none of {sorted(mine)} is searchable in {marks}"


def _block(seq: int, text: str, kind: BlockKind = BlockKind.PARAGRAPH) -> Block:
    return Block(block_id=f"d-{seq:04d}", doc_id="d", seq=seq, page=1, kind=kind, text=text)


def test_a_digit_run_glued_to_letters_is_kept_a_free_standing_number_is_not():
    fp = boilerplate.fingerprint
    assert fp("Tiny note about tinyword1442") != fp("Tiny note about tinyword1500")
    assert fp("Certified to ISO9001") != fp("Certified to ISO14001")
    assert fp("Released as v2") != fp("Released as v3") and fp("see note_17") != fp("see note_18")
    assert fp("© 2023 Example Corp.") == fp("© 2024 Example Corp.")
    assert fp("Page 3 of 12") == fp("page 4 OF 12") and fp("Name: ____") == fp("Name: __")


def test_marking_never_takes_the_last_body_block():
    heading = _block(0, "Meeting notes", BlockKind.HEADING)
    blocks = [heading, _block(1, "Attendees: the team"), _block(2, "Room 12")]
    fps = boilerplate.fingerprints(blocks, "Notes")
    everywhere = {fp: 60 for fp in fps if fp}
    # All of it is repeated in 60 documents: all of it stays, heading included.
    assert boilerplate.detect(blocks, fps, everywhere) == [False, False, False]
    # One block of its own: the repeated rest is boilerplate, as before.
    own = [*blocks, _block(3, "Decided to repaint the hall")]
    fps = boilerplate.fingerprints(own, "Notes")
    assert boilerplate.detect(own, fps, everywhere | {fps[3]: 1}) == [True, True, True, False]
    # Reference entries are no body: repeated ones go even when nothing else is left.
    refs = [_block(0, "Smith J. Green roofs. 2020."), _block(1, "Doe A. Roofs. 2021.")]
    refs = [b.model_copy(update={"kind": BlockKind.REFERENCE}) for b in refs]
    body = [_block(2, "Our own finding")]
    fps = boilerplate.fingerprints([*refs, *body], "R")
    assert boilerplate.detect([*refs, *body], fps, {fp: 5 for fp in fps if fp}) == [True, True, False]


def test_the_ingest_summary_names_the_boilerplate_per_document_and_is_quiet_without_it():
    def ok(name: str, blocks: int, marked: int) -> FileResult:
        return FileResult(path=f"/n/{name}", outcome=Outcome.OK, blocks=blocks, boilerplate_blocks=marked, chunks=1)

    summary = IngestSummary(files=[ok("a.txt", 5, 2), ok("b.txt", 4, 0), ok("c.txt", 3, 1)], seconds=1, embed_seconds=1)
    text = format_summary(summary)
    assert "boilerplate: 3 blocks in 2 documents" in text
    assert "  boilerplate: /n/a.txt: 2 of 5 blocks" in text and "  boilerplate: /n/c.txt: 1 of 3 blocks" in text
    assert "b.txt" not in text
    data = summary.as_dict()
    assert data["boilerplate_blocks"] == 3 and [f["boilerplate_blocks"] for f in data["files"]] == [2, 0, 1]
    remarked = IngestSummary(files=[], seconds=1, embed_seconds=1, remarked=["d1", "d2"])
    assert "boilerplate marked again in 2 earlier document(s)" in format_summary(remarked)
    quiet = IngestSummary(files=[ok("b.txt", 4, 0)], seconds=1, embed_seconds=1)
    assert "boilerplate" not in format_summary(quiet)


def test_a_library_marked_by_the_old_rule_is_marked_again_and_found(make_library, tmp_path: Path, monkeypatch):
    """A registry written under FINGERPRINT_VERSION 1 (every templated note marked, no chunk): the
    next ingest, even of nothing, marks it again by today's rule and its notes are found."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    for i in range(1, 5):
        (folder / f"n{i}.txt").write_text(f"Tiny note {i} about topic tinyword{i} and green roofs.\n", encoding="utf-8")
    monkeypatch.setattr(boilerplate, "FINGERPRINT_VERSION", "1")
    monkeypatch.setattr(boilerplate, "detect", lambda blocks, fps, counts, nfps=None: [True] * len(blocks))
    old = make_library("v1")
    assert old.ingest([folder]).chunks == 0
    old.close()
    monkeypatch.undo()
    library = make_library("v1")
    summary = library.ingest([folder])
    assert summary.count(Outcome.SKIPPED) == 4 and len(summary.remarked) == 4
    hits = hybrid_search(library, "tinyword3", 1, mode=SearchMode.SPARSE)
    assert hits and "tinyword3" in hits[0].text
