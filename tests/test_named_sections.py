"""Sections a question names, and the headings a scraper invents.

A question that holds every term of a section's heading ("How can you create multiple test cases …"
under "Creating Test Cases") ranks that section first among the chunks the body rankings found
(``tools.retrievers.named_sections``). A "# " comment of a code sample a scraper flattened is no
heading (``corpus.loaders.markdown``), so a page without heading markup keeps its one-line headings.
A retry's reformulations add evidence after the question's own (``nodes.search.merge_evidence``).
"""

from __future__ import annotations

from pathlib import Path

from corpus.index.store import Hit
from corpus.loaders.markdown import load_markdown
from corpus.models import BlockKind
from corpus.retrieval import RetrievedChunk
from nodes.search import merge_evidence
from tests.webpages import write_crawled_markdown
from tools import retrievers
from tools.hybrid_search import hybrid_search
from tools.retrievers import HEADING_WEIGHT, MIN_HEADING_TERMS, named_sections

# --- a named section ranks first --------------------------------------------------------------------


def _hit(chunk_id: str, score: float, section: str) -> Hit:
    return Hit(chunk_id=chunk_id, doc_id="d", score=score, payload={"section": section, "text": chunk_id})


def test_a_heading_whose_terms_the_question_holds_moves_up_the_most_specific_first():
    terms = {"Understanding Results": frozenset({1, 2}), "Creating Test Cases": frozenset({3, 4, 5})}
    terms |= {"Test Cases": frozenset({4, 5}), "Examples": frozenset({6})}
    hits = [
        _hit("a", 0.6, "Understanding Results"),
        _hit("b", 0.5, "Test Cases"),
        _hit("c", 0.45, "Creating Test Cases"),
    ]
    hits.append(_hit("e", 0.55, "Examples"))
    ranked = named_sections(hits, frozenset({3, 4, 5, 6, 7}), terms)
    # Both named headings move up, the one of more terms the most; a one-term heading names nothing.
    assert [h.chunk_id for h in ranked] == ["c", "b", "a", "e"]
    assert ranked[0].score == 0.45 + HEADING_WEIGHT / 2 and MIN_HEADING_TERMS == 2
    # A question that names no heading leaves the order as it was.
    assert named_sections(hits, frozenset({9}), terms) == hits


# A page whose every section speaks of the evaluation tool; the question's words are spread over it,
# but together they are the heading of one section.
EVAL_TOOL = (
    "## Understanding results\n\n"
    "Once you create an evaluation, the evaluation tool shows the results of multiple test cases: "
    "each one is graded, and multiple evaluations can be compared side by side in the evaluation "
    "tool.\n\n"
    "## Creating test cases\n\n"
    "Click the Add Row button and fill in a value for each variable of your prompt; repeat this for "
    "multiple scenarios. Edit a row later by clicking its cells, or remove it "
    "with the bin icon at the end of the row.\n\n"
    "## Accessing the tool\n\n"
    "Open the console and choose Evaluate in the prompt editor to start an evaluation. The tool "
    "needs a prompt with at least one variable, written in double braces, before it opens."
)
SITE = {
    "eval-tool": ("Evaluation tool", EVAL_TOOL),
    "quotas": ("Quotas", "Acme Router is controlled by quotas: 50 routes per region and account."),
    "pricing": ("Pricing", "Acme Router is billed per million requests; rejected requests are free."),
}


def test_a_question_naming_a_section_finds_it_first_on_a_crawled_site(make_library, tmp_path: Path, monkeypatch):
    """The body rankings split: dense and BM25 each put one of "Understanding results" and "Creating
    test cases" first. With the title field out of the way, the heading the question names decides
    (with neither, the chunk ids would)."""
    monkeypatch.setattr(retrievers, "TITLE_WEIGHT", 0.0)
    library = make_library()
    library.ingest([write_crawled_markdown(tmp_path / "site", SITE)])
    hits = hybrid_search(
        library, "How can you create multiple test cases for an evaluation in the evaluation tool?", k=4
    )
    assert [h.section for h in hits[:2]] == ["Creating test cases", "Understanding results"]
    assert "Add Row" in hits[0].text


# --- flattened code comments are no headings --------------------------------------------------------

PAGE = (
    "<!-- source: https://docs.example.com/en/docs/embeddings -->\n\n"
    "Voyage Python package\n\n\n"
    "Then create a client object and embed your texts:\n"
    "Pythonimport voyageai\n\n"
    "vo = voyageai.Client()\n"
    "# This will automatically use the environment variable VOYAGE_API_KEY.\n"
    "# Alternatively, you can use vo = voyageai.Client(api_key=...)\n\n"
    "# Embed the documents\n"
    "doc_embds = vo.embed(\n"
    "    documents, model='voyage-2'\n"
    ").embeddings\n\n"
    "Voyage on the AWS Marketplace\n\n\n"
    "Voyage embeddings are also available on AWS Marketplace.\n"
)


def test_a_flattened_code_comment_is_no_heading_and_the_page_keeps_its_one_line_headings():
    blocks = load_markdown(PAGE).blocks
    assert all(b.kind is not BlockKind.HEADING for b in blocks)
    comments = [b for b in blocks if b.text.startswith("# ")]
    assert [b.text[:14] for b in comments] == ["# This will au", "# Alternativel", "# Embed the do"]
    assert {b.section for b in blocks} == {"Voyage Python package", "Voyage on the AWS Marketplace"}
    assert blocks[-1].section == "Voyage on the AWS Marketplace"
    # The comment is quoted as written, from its own line.
    for block in comments:
        assert PAGE[block.span.start : block.span.end].startswith(block.text)


def test_real_headings_stay_headings_even_over_a_fence_or_a_command():
    readme = (
        "# Tool\n\nA tool.\n\n## Install\n```bash\npip install tool\n```\n\n## Usage\npip install tool\n\n"
        "## Configure\n\nSet `timeout = 30` in the file.\n"
    )
    headings = [b.text for b in load_markdown(readme).blocks if b.kind is BlockKind.HEADING]
    assert headings == ["Tool", "Install", "Usage", "Configure"]


# --- a retry adds evidence after the question's own ---------------------------------------------------


def _chunk(chunk_id: str, rank: int, score: float) -> RetrievedChunk:
    return RetrievedChunk(
        chunk_id=chunk_id, doc_id="d", title="T", year=None, doc_type="markdown", section="", pages=[1],
        text=chunk_id, score=score, rank=rank, blocks=[],
    )  # fmt: skip


def test_a_reformulation_adds_what_the_question_missed_after_what_it_found():
    asked = [_chunk("text-delta", 1, 0.69), _chunk("json-delta", 2, 0.59)]
    # A reformulation built from the evidence's own words scores another chunk higher: it does not
    # re-rank what the question found.
    retry = [_chunk("json-delta", 1, 1.07), _chunk("json-example", 2, 0.66), _chunk("text-delta", 3, 0.27)]
    second = [_chunk("other", 1, 0.9)]
    merged = merge_evidence(asked, retry, second)
    assert [c.chunk_id for c in merged] == ["text-delta", "json-delta", "other", "json-example"]
    assert [c.rank for c in merged] == [1, 2, 3, 4]
    assert merge_evidence() == []
