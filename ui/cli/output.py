"""What ``prp`` prints: one function per command's output. A command prints what the core gives it,
the same typed objects whether the library is opened in this process or a service holds it, so the
output is the same either way."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from corpus.author_names import short_authors
from corpus.ingest import FileResult, IngestSummary, Outcome
from corpus.locations import extent, unit
from corpus.registry import DocumentRecord
from corpus.retrieval import RetrievedChunk
from corpus.sync import NO_ROOTS, SyncSummary
from corpus.text import counted
from research.runs import RunSummary
from tools.title_scope import TitleScope
from ui.core.report_json import JsonReport

#: Hidden files and folders an ingest summary names; the rest are counted.
HIDDEN_NAMED = 5


def print_ingest(summary: IngestSummary, as_json: bool) -> int:
    if as_json:
        print(json.dumps(summary.as_dict(), indent=2))
    else:
        print(format_summary(summary))
    # Non-zero when any file failed, so scripts notice; the other files are ingested regardless.
    return 1 if summary.count(Outcome.FAILED) else 0


def format_summary(summary: IngestSummary) -> str:
    refreshed = f"; {summary.refreshed} refreshed (parser updated)" if summary.refreshed else ""
    lines = [
        f"documents: {summary.count(Outcome.OK)} ok, {summary.count(Outcome.SKIPPED)} skipped, "
        f"{summary.count(Outcome.FAILED)} failed{refreshed}",
        f"pages: {summary.pages}  blocks: {summary.blocks}  chunks: {summary.chunks}  time: {summary.seconds:.1f}s",
    ]
    lines += _boilerplate_lines(summary)
    for f in summary.files:
        if f.outcome is Outcome.OK:
            lines += _left_out_lines(f)
    if summary.hidden:
        lines.append(_hidden_line(summary.hidden))
    if summary.remarked:  # what other documents share changed: their marks and chunks were redone
        lines.append(f"boilerplate marked again in {len(summary.remarked)} earlier document(s)")
    for f in summary.files:
        if f.outcome is not Outcome.OK:
            entry = f", entry {f.entry}" if f.entry else ""
            lines.append(f"  {f.outcome.value}: {f.path}{entry}: {f.reason}")
    return "\n".join(lines)


def _boilerplate_lines(summary: IngestSummary) -> list[str]:
    """The boilerplate the ingest marked: in all, then in each document holding some."""
    marked = [f for f in summary.files if f.outcome is Outcome.OK and f.boilerplate_blocks]
    if not marked:
        return []
    return [
        f"boilerplate: {summary.boilerplate_blocks} blocks in {len(marked)} documents "
        "(text repeated across 3 or more documents: kept for citations, left out of search)",
        *(f"  boilerplate: {f.path}: {f.boilerplate_blocks} of {f.blocks} blocks" for f in marked),
    ]


def _left_out_lines(f: FileResult) -> list[str]:
    """What of an ingested document is not searched as text, or was read by OCR or not at all."""
    lines = []
    if f.non_prose:
        left_out = ", ".join(n.describe() for n in f.non_prose)
        lines.append(f"  kept out of chunks (not text to read or search): {f.path}: {left_out}")
    if f.figure_pages:
        pages = ", ".join(map(str, f.figure_pages))
        lines.append(f"  only a figure's text (kept with the figure, not searched): {f.path}: page(s) {pages}")
    if f.ocr_pages:
        lines.append(f"  read by OCR (scanned pages): {f.path}: page(s) {', '.join(map(str, f.ocr_pages))}")
    if f.unread_pages:
        lines.append(f"  unread, no text (scanned pages OCR could not read): {f.path}: {'; '.join(f.unread_pages)}")
    return lines


def _hidden_line(hidden: list[str]) -> str:
    """The hidden files and folders a walk left out, the first ``HIDDEN_NAMED`` by name."""
    named = ", ".join(hidden[:HIDDEN_NAMED])
    more = f" and {len(hidden) - HIDDEN_NAMED} more" if len(hidden) > HIDDEN_NAMED else ""
    return f"hidden, left out (a folder walk reads no dot-file or dot-folder): {named}{more}"


def print_sync(summary: SyncSummary, as_json: bool) -> int:
    if as_json:
        print(json.dumps(summary.as_dict(), indent=2))
    else:
        print(format_sync(summary))
    # As for an ingest: non-zero when a file failed, so scripts notice; an unavailable folder is no failure.
    return 1 if summary.failed else 0


def format_sync(summary: SyncSummary) -> str:
    if not summary.roots:
        return NO_ROOTS
    head = "sync (dry run: nothing changed, this is what a sync would do)" if summary.dry_run else "sync"
    lines = [f"{head}: {summary.counts_line()} ({summary.roots_line()}; time: {summary.seconds:.1f}s)"]
    lines += [f"  added: {p}" for p in summary.added]
    lines += [f"  changed: {p}" for p in summary.changed]
    lines += [f"  removed: {d.path} ({d.title}, {d.doc_id})" for d in summary.removed]
    lines += [f"  {f.outcome.value}: {f.path}: {f.reason}" for f in (*summary.failed, *summary.skipped)]
    lines += [
        f"  unavailable: {r.root.path}: {r.reason} ({counted(r.documents, 'document')})" for r in summary.unavailable
    ]
    return "\n".join(lines)


def print_search(results: list[RetrievedChunk], scope: TitleScope | None, as_json: bool) -> int:
    if as_json:
        print(json.dumps([r.model_dump(mode="json") for r in results], indent=2))
        return 0
    if scope is not None:
        print(f"searching {'; '.join(scope.titles)} for: {scope.query}")
    if not results:
        print("no results")
    for r in results:
        where = " · ".join(part for part in (unit(r.doc_type, r.pages), r.section) if part)
        print(f"{r.rank}. [{r.score:.4f}] {r.title} ({r.year or 'n.d.'}) {where}")
        print(f"   blocks: {', '.join(b.block_id for b in r.blocks)}")
        snippet = " ".join(r.text.split())
        print(f"   {snippet[:300]}{'…' if len(snippet) > 300 else ''}")
    return 0


def write_report(args: argparse.Namespace, report: JsonReport) -> int:
    """Where ``prp ask``/``prp report`` put a finished report."""
    thread_id = report.thread_id
    print(f"thread: {thread_id} (resume or revisit with --thread {thread_id})", file=sys.stderr)
    if args.out:
        args.out.write_text(report.markdown)
        print(f"wrote {args.out}", file=sys.stderr)
    if args.json_out:
        args.json_out.write_text(json.dumps(report.model_dump(mode="json"), indent=2))
        print(f"wrote {args.json_out}", file=sys.stderr)
    if not args.out:
        print(report.markdown)
    return 0


def print_docs(docs: list[DocumentRecord], as_json: bool) -> int:
    if as_json:
        print(json.dumps([d.model_dump(mode="json") for d in docs], indent=2))
        return 0
    for d in docs:
        authors = short_authors(d.bibliography.authors)
        by = f"  · {authors}" if authors else ("  · authors: needs review" if d.authors_need_review else "")
        source = f"  [title: {d.title_source.value}]" if d.title_source else ""
        ocr = f"  [OCR: {len(d.ocr.pages)} of {d.page_count} pages]" if d.ocr and d.ocr.pages else ""
        print(
            f"{d.doc_id}  {d.type.value:8} {_length(d)} {d.n_chunks:4} chunks  {d.year or '    '}  "
            f"{d.title}{by}{source}{ocr}"
        )
    print(f"{len(docs)} documents")
    return 0


def _length(d: DocumentRecord) -> str:
    """ "  12 pages", "  3 slides", "2 chapters"; "-" for a text without pages: one column wide."""
    return f"{extent(d.type, d.page_count) or '-':>10}"


def print_document(d: DocumentRecord, as_json: bool) -> int:
    """One document's bibliographic fields, and which of them a person or an import set."""
    if as_json:
        print(json.dumps(d.model_dump(mode="json"), indent=2))
        return 0
    bib = d.bibliography
    fields = [
        ("title", d.title),
        ("  from", d.title_source.value if d.title_source else None),
        ("authors", "; ".join(bib.authors) or ("needs review" if d.authors_need_review else None)),
        ("year", d.year),
        ("venue", bib.venue),
        ("doi", bib.doi),
        ("arxiv", bib.arxiv_id),
        ("ocr", f"page(s) {', '.join(map(str, d.ocr.pages))} by {d.ocr.engine}" if d.ocr and d.ocr.pages else None),
        ("unread", "; ".join(d.ocr.unread) if d.ocr else None),
    ]
    print(f"{d.doc_id}  {d.path}")
    for name, value in fields:
        print(f"  {name:8} {value if value not in (None, '') else '-'}")
    print(f"  set by hand (kept over extraction): {', '.join(d.overridden) or 'none'}")
    return 0


def print_deleted(doc_id: str, deleted: bool) -> int:
    if deleted:
        print(f"deleted {doc_id}")
        return 0
    print(f"prp: error: no document {doc_id}", file=sys.stderr)
    return 1


def print_threads(runs: Sequence[RunSummary], asked: bool) -> int:
    """Recent runs, for ``prp export --list`` (exit 0) or when no thread was given (exit 2)."""
    if not asked:
        print("prp export: give the thread id of a finished run; recent threads:", file=sys.stderr)
    for t in runs:
        status = f"{t.citations} citations" if t.finished else "interrupted"
        print(f"{t.thread_id:24} {t.started[:16].replace('T', ' ')}  {t.kind:12} {status:14} {t.topic[:70]}")
    if not runs:
        print("no research threads yet: run prp ask / prp report, or the research chat (prp serve)")
    return 0 if asked else 2
