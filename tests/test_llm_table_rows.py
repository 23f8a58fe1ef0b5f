"""LLM mode reads a table's rows as offline mode does: each row of values shown to the model under its
columns' names and its table's name, cited as the row's line, and a claim stating a cell under its
column's name judged on that reading. Only the model is scripted; the library, the graph and the
citation node run for real on a made-up document."""

from __future__ import annotations

import pytest

from corpus.models import Block, BlockKind, DocType
from corpus.retrieval import RetrievedChunk
from graph.run import run_research
from research.report import ClaimStatus
from strategies.llm.evidence import EvidenceSheet
from strategies.llm.grounding import grounded
from strategies.llm.selection import within_budget
from strategies.llm.strategy import LLMStrategy, _addresses
from strategies.offline.strategy import OfflineStrategy
from testing_support.llm_fakes import ScriptedChatModel
from testing_support.llm_scripts import script_with, sentences_in

RESULTS = """# Parsers of scanned forms compared

We compare two parsers of scanned forms on held-out forms from three archives.

Table 2: Accuracy and speed of the parsers on the archive forms.

| Parser | Accuracy | Pages per minute |
|---|---|---|
| Quillwork | 81.4 | 120 |
| Brassica | 77.9 | 95 |

Quillwork was trained on the first archive only.
"""
QUESTION = "How well does Quillwork do on the archive forms?"


@pytest.fixture
def asked(library_of):
    """The answer prompts of one question, and its report, with a model citing the row it was shown."""
    library = library_of({"results.md": RESULTS})
    prompts: list[str] = []

    def answer(prompt: str) -> dict:
        prompts.append(prompt)
        row = next((sid for sid, text in sentences_in(prompt).items() if text.startswith("Table 2, Quillwork")), None)
        claims = [{"text": "Quillwork reaches an accuracy of 81.4.", "sentence_ids": [row]}] if row else []
        return {"claims": claims, "sufficient": bool(row), "confidence": 0.9, "next_queries": []}

    model = ScriptedChatModel(script=script_with(answer=answer))
    strategy = LLMStrategy(model, "scripted", fallback=OfflineStrategy(library.embedder))
    return prompts, run_research(library, strategy, QUESTION, single_question=True).report


def test_a_tables_row_is_shown_under_its_columns_names_and_its_tables_name(asked):
    prompts, _ = asked
    shown = [text for p in prompts for text in sentences_in(p).values()]
    assert "Table 2, Quillwork: Accuracy 81.4; Pages per minute 120" in shown, shown
    assert not any("| 81.4 |" in text for text in shown)


def test_a_claim_stating_a_cell_under_its_columns_name_is_verified_and_quotes_the_rows_line(asked):
    _, report = asked
    [claim] = [c for s in report.sections for c in s.claims]
    assert claim.status is ClaimStatus.VERIFIED, claim
    [number] = claim.citations
    quote = next(c.resolution.quote for c in report.citations if c.number == number)
    assert "Quillwork" in quote and "81.4" in quote and "Accuracy" not in quote


def _yields_sheet(table: str) -> EvidenceSheet:
    """The evidence sheet of one chunk: a page's "Table 3: Yields." caption above ``table``."""
    caption = Block(block_id="d1-0001", doc_id="d1", seq=1, page=3, kind=BlockKind.CAPTION, text="Table 3: Yields.")
    rows = Block(block_id="d1-0002", doc_id="d1", seq=2, page=3, kind=BlockKind.TABLE, text=table)
    chunk = RetrievedChunk(
        chunk_id="c1",
        doc_id="d1",
        title="Dryland crops",
        year=None,
        doc_type=DocType.TEXT,
        section="",
        pages=[3],
        text=f"{caption.text}\n{table}",
        score=1.0,
        rank=1,
        blocks=[caption, rows],
    )
    return EvidenceSheet.of([chunk])


def test_a_row_is_shown_without_its_neighbouring_rows_which_are_other_things_values():
    sheet = _yields_sheet("Crop | Yield | Water\nBarley | 4.1 | 310\nMillet | 2.7 | 250\nSorghum | 3.3 | 280")
    millet = next(s for s in sheet.sentences if s.text.startswith("Millet"))
    assert millet.shown == "Table 3, Millet: Yield 2.7; Water 250"
    assert within_budget([millet], sheet, 1000) == [millet]
    [marker] = sheet.markers([millet.sid], [millet])
    assert marker.quote == "Millet | 2.7 | 250"


def test_a_bare_value_cited_to_a_row_addresses_the_question_its_columns_name():
    """A strong model answers "2.7" citing the Millet row: the row's reading ("Table 3, Millet: Yield 2.7")
    holds the question's terms that the bare cells do not, so the stated claim answers on its word."""
    sheet = _yields_sheet("Crop | Yield per hectare | Water\nBarley | 4.1 | 310\nMillet | 2.7 | 250")
    millet = next(s for s in sheet.sentences if s.text.startswith("Millet"))
    question = "What yield per hectare does millet reach according to Table 3?"
    [claim] = grounded([("2.7", [millet.sid])], question, sheet, sheet.sentences)
    assert claim.stated
    assert _addresses(question, [claim], sheet)
