"""The citation tool: quoted text finds its block whatever the hint says; fabricated quotes do not."""

from __future__ import annotations

import random
import re

import pytest

from corpus.chunking import split_sentences
from corpus.loaders.markdown import load_markdown
from corpus.models import BBox, Block, BlockKind, CharSpan, DocType, Document
from corpus.registry import Registry
from tools.citations import match as rc
from tools.citations.index import BlockIndex
from tools.citations.normalise import normalise, normalise_with_map
from tools.citations.resolve import Resolution, resolve_citation
from tools.citations.tool import make_resolve_citation_tool

DPR = [  # (page, text) of a PDF-like paper
    (1, "1 Introduction"),
    (
        1,
        "Dense passage retrieval encodes questions and passages with two independent BERT encoders "
        "and ranks passages by their inner product.",
    ),
    (
        1,
        "We train the retriev-\nal model on Natural Questions with in-batch negatives and one hard "
        "negative per question, which makes training efficient. The ﬁnal model is small.",
    ),
    (
        2,
        "Table 3 reports top-20 accuracy: the model reaches 78.4% on Natural Questions and 79.4% on "
        "TriviaQA, well above the sparse baseline.",
    ),
    (
        2,
        "In contrast, the sparse baseline reaches only 59.1% on Natural Questions, which shows the "
        "benefit of the model's dense representations over term matching.",
    ),
]
ROOFS = [  # text of a plain-text report
    "Rooftop meadows in Lindenport reduced peak membrane temperature by 27 degrees during the hottest "
    "week of the summer.",
    "Pollinator visits doubled in the second summer of monitoring, while irrigation needs fell by a third.",
    "Table 3 reports top-20 accuracy: the model reaches 71.2% on Natural Questions and 75.0% on "
    "TriviaQA, well above the sparse baseline.",
]
NOTES = [
    "Drainage mats made of recycled felt held water for three days after each storm.",
    "We weighed the drainage tray every hour during eleven storms in the autumn of 2021.",
]


def _doc(doc_id: str, title: str, doc_type: DocType, pages: int) -> Document:
    return Document(
        doc_id=doc_id, title=title, path=f"/docs/{doc_id}", type=doc_type, page_count=pages, sha256=doc_id * 4
    )


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Registry:
    reg = Registry(tmp_path_factory.mktemp("cite") / "registry.sqlite")
    dpr = [
        Block(
            block_id=f"dpr-{i}",
            doc_id="dpr",
            seq=i,
            page=page,
            kind=BlockKind.HEADING if i == 0 else BlockKind.PARAGRAPH,
            bbox=BBox(x0=72, top=100 + 80 * i, x1=540, bottom=170 + 80 * i),
            text=text,
        )
        for i, (page, text) in enumerate(DPR)
    ]
    docs = [(_doc("dpr", "Dense Passage Retrieval", DocType.PDF, 2), dpr)]
    for doc_id, title, texts in (("roofs", "Rooftop meadows", ROOFS), ("notes", "Drainage notes", NOTES)):
        offset, blocks = 0, []
        for i, text in enumerate(texts):
            blocks.append(
                Block(
                    block_id=f"{doc_id}-{i}",
                    doc_id=doc_id,
                    seq=i,
                    page=1,
                    kind=BlockKind.PARAGRAPH,
                    span=CharSpan(start=offset, end=offset + len(text)),
                    text=text,
                )
            )
            offset += len(text) + 2
        docs.append((_doc(doc_id, title, DocType.TEXT, 1), blocks))
    for document, blocks in docs:
        reg.add_pending(document, blocks, [])
        reg.mark_ready(document.doc_id)
    return reg


@pytest.fixture(scope="module")
def index(registry: Registry) -> BlockIndex:
    return BlockIndex.from_registry(registry)


def block_text(index: BlockIndex, block_id: str) -> str:
    return index.block(block_id).text


def check_offsets(index: BlockIndex, res: Resolution) -> None:
    """Every reported match is an exact substring of its block, at the offsets given."""
    for cited in res.bboxes:
        text = block_text(index, cited.block_id)
        assert cited.matched_text == text[cited.match.start : cited.match.end]
        assert cited.matched_text and cited.matched_text in text
    assert res.matched_text in res.block_text
    assert res.block_text == "\n".join(block_text(index, b) for b in res.block_ids)


def test_index_from_registry_matches_direct_construction(registry: Registry, index: BlockIndex):
    direct = BlockIndex(list(registry.iter_blocks()), {d.doc_id: d.title for d in registry.documents()})
    assert direct.stats() == index.stats()
    assert index.stats()["blocks"] == 10 and index.stats()["documents"] == 3


def test_exact_quote(index: BlockIndex):
    quote = "encodes questions and passages with two independent BERT encoders"
    res = resolve_citation(quote, None, index)
    assert res is not None
    assert res.block_ids == ["dpr-1"] and res.doc_id == "dpr" and res.title == "Dense Passage Retrieval"
    assert res.score == 100 and res.page == 1 and res.pages == [1] and not res.hint_used
    assert res.bboxes[0].bbox == BBox(x0=72, top=180, x1=540, bottom=250)
    assert res.matched_text == quote and res.quote == quote
    check_offsets(index, res)


def test_right_hint_is_used(index: BlockIndex):
    res = resolve_citation("Pollinator visits doubled in the second summer of monitoring", "roofs-1", index)
    assert res is not None and res.block_ids == ["roofs-1"] and res.hint_used and res.scope == "hint"
    assert res.bboxes[0].span == CharSpan(start=len(ROOFS[0]) + 2, end=len(ROOFS[0]) + 2 + len(ROOFS[1]))


@pytest.mark.parametrize("hint", ["roofs-0", "dpr-3", "notes-1", "no-such-block", None])
def test_wrong_or_missing_hint_is_corrected(index: BlockIndex, hint: str | None):
    res = resolve_citation("the sparse baseline reaches only 59.1% on Natural Questions", hint, index)
    assert res is not None and res.block_ids == ["dpr-4"] and res.page == 2
    assert not res.hint_used
    check_offsets(index, res)


def test_retrieved_blocks_are_searched(index: BlockIndex):
    res = resolve_citation(
        "Drainage mats made of recycled felt held water for three days",
        "bogus",
        index,
        retrieved_block_ids=["notes-0", "roofs-2", "missing"],
    )
    assert res is not None and res.block_ids == ["notes-0"] and res.scope == "retrieved"


@pytest.mark.parametrize(
    "quote",
    [
        "DENSE PASSAGE   RETRIEVAL encodes\nquestions and passages with two independent bert encoders",  # case, space
        "We train the retrieval model on Natural Questions with in-batch negatives",  # block has "retriev-\nal"
        "We train the retriev- al model on Natural Questions with in-batch negatives",
        "We train the retriev-\nal model on Natural Questions with in\u2011batch negatives",  # non-breaking hyphen
        "which makes training efﬁcient. The final model is small.",  # ligature in the quote, not in the block
        "makes training efficient. The ﬁnal model is small",  # ligature in the block, not in the quote
        "the benefit of the model\u2019s dense representations over term matching",  # curly apostrophe
        "\u201cTable 3 reports top\u201320 accuracy\u201d: the model reaches 78.4% on Natural Questions",  # quotes, en dash
        "Table 3 reports top 20 accuracy \u2014 the model reaches 78.4 % on Natural Questions",  # punctuation
    ],
)
def test_noise_is_normalised_away(index: BlockIndex, quote: str):
    res = resolve_citation(quote, None, index)
    assert res is not None, quote
    assert res.score == 100 or ("top 20" in quote and res.score >= 99)  # "top-20" is "top20" normalised
    assert res.coverage == 1.0
    expected = {"DENSE": "dpr-1", "We train": "dpr-2", "which": "dpr-2", "makes": "dpr-2", "the benefit": "dpr-4"}
    want = next((v for k, v in expected.items() if quote.startswith(k)), "dpr-3")
    assert res.block_ids == [want]
    check_offsets(index, res)


def test_matched_text_maps_back_to_the_original_characters(index: BlockIndex):
    res = resolve_citation("We train the retrieval model on Natural Questions", None, index)
    assert res is not None
    assert res.matched_text == "We train the retriev-\nal model on Natural Questions"
    res = resolve_citation("training efficient. The final model is small", None, index)
    assert res is not None and res.matched_text == "training efficient. The ﬁnal model is small"


def test_dropped_words(index: BlockIndex):
    full = ROOFS[0].split()
    quote = " ".join(w for i, w in enumerate(full) if i not in (3, 11))  # 2 of 19 words left out
    res = resolve_citation(quote, None, index)
    assert res is not None and res.block_ids == ["roofs-0"]
    assert rc.ACCEPT_SCORE <= res.score < 100 and res.coverage == 1.0
    check_offsets(index, res)
    res = resolve_citation(
        "Pollinator visits doubled in the ... summer of monitoring, while ... needs fell by a third", "dpr-0", index
    )
    assert res is not None and res.block_ids == ["roofs-1"]


def test_quote_across_two_adjacent_blocks(index: BlockIndex):
    quote = "ranks passages by their inner product. We train the retrieval model on Natural Questions"
    res = resolve_citation(quote, "dpr-1", index)
    assert res is not None and res.block_ids == ["dpr-1", "dpr-2"] and res.hint_used
    assert [c.matched_text for c in res.bboxes] == [
        "ranks passages by their inner product.",
        "We train the retriev-\nal model on Natural Questions",
    ]
    assert res.pages == [1]
    check_offsets(index, res)
    across_pages = resolve_citation(
        "79.4% on TriviaQA, well above the sparse baseline. In contrast, the sparse baseline reaches only", None, index
    )
    assert across_pages is not None and across_pages.block_ids == ["dpr-3", "dpr-4"]
    assert across_pages.page == 2 and across_pages.pages == [2]


def test_blocks_of_different_documents_are_never_joined(index: BlockIndex):
    # The end of the last block of one document plus the start of another's first block.
    quote = "over term matching. Rooftop meadows in Lindenport reduced peak membrane temperature"
    res = resolve_citation(quote, None, index)
    assert res is None or len(res.block_ids) == 1


@pytest.mark.parametrize(
    "quote",
    [
        # Half of one document's sentence glued to half of another's.
        "Rooftop meadows in Lindenport reduced peak membrane temperature with two independent BERT encoders",
        "We weighed the drainage tray every hour on Natural Questions with in-batch negatives",
        # Real words, shuffled.
        "encoders passages independent and questions BERT two with encodes dense retrieval passage",
        # Plausible, in-domain, and in no document.
        "Dense retrieval with a single shared encoder reaches 81.3% top-20 accuracy on SQuAD.",
        "Green roofs in Lindenport retained most of the rainfall of the heavy storms in 2021.",
    ],
)
@pytest.mark.parametrize("hint", [None, "dpr-1", "roofs-0"])
def test_fabricated_quotes_are_rejected(index: BlockIndex, quote: str, hint: str | None):
    assert resolve_citation(quote, hint, index) is None


def test_near_duplicate_blocks_pick_the_better_match(index: BlockIndex):
    dpr = "Table 3 reports top-20 accuracy: the model reaches 78.4% on Natural Questions and 79.4% on TriviaQA"
    roofs = "Table 3 reports top-20 accuracy: the model reaches 71.2% on Natural Questions and 75.0% on TriviaQA"
    for hint in (None, "dpr-3", "roofs-2"):
        assert resolve_citation(dpr, hint, index).block_ids == ["dpr-3"]
        assert resolve_citation(roofs, hint, index).block_ids == ["roofs-2"]
    # With a word dropped, still the closer of the two.
    res = resolve_citation(
        "Table 3 reports top-20 accuracy: the model reaches 71.2% on Natural Questions and 75.0%", "dpr-3", index
    )
    assert res.block_ids == ["roofs-2"] and not res.hint_used


def test_short_quotes_need_an_exact_unambiguous_match(index: BlockIndex):
    res = resolve_citation("Pollinator visits doubled", None, index)  # 3 words: exact only
    assert res is not None and res.block_ids == ["roofs-1"] and res.score == 100
    check_offsets(index, res)
    assert resolve_citation("pollinator visit doubled", None, index) is None  # one letter off
    assert resolve_citation("Pollinators doubled", None, index) is None
    # "Natural Questions" is in three blocks: ambiguous without a hint, resolved inside the hinted document.
    assert resolve_citation("Natural Questions", None, index) is None
    assert resolve_citation("Natural Questions", "dpr-4", index).block_ids == ["dpr-4"]
    nearest = resolve_citation("Natural Questions", "dpr-1", index)
    assert nearest.block_ids == ["dpr-2"] and not nearest.hint_used
    in_retrieved = resolve_citation("Natural Questions", "nope", index, retrieved_block_ids=["roofs-2"])
    assert in_retrieved.block_ids == ["roofs-2"]
    # Short quotes must match whole words.
    assert resolve_citation("ural Questio", None, index) is None


def test_empty_and_punctuation_only_quotes(index: BlockIndex):
    assert resolve_citation("", None, index) is None
    assert resolve_citation(" ... — “ ” ", "dpr-1", index) is None
    assert resolve_citation("anything at all here", None, BlockIndex([], {})) is None


def test_tool_returns_a_dict_or_null(index: BlockIndex):
    tool = make_resolve_citation_tool(index)
    assert tool.name == "resolve_citation"
    out = tool.invoke({"cited_text": "Pollinator visits doubled in the second summer", "block_id": "dpr-2"})
    assert out["block_ids"] == ["roofs-1"] and out["hint_used"] is False and out["pages"] == [1]
    assert tool.invoke({"cited_text": "Pollinators were counted weekly by volunteers in Lindenport"}) is None


def test_normalise_with_map_agrees_with_normalise():
    rng = random.Random(3)
    alphabet = "ab Z1 -\n\t.,'\"ﬁﬂ\u00ad\u2010\u2013\u2014\u2019\u201cé\u0301ßİ\u200b"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        norm, origin = normalise_with_map(text)
        assert norm == normalise(text)
        assert len(origin) == len(norm) and origin == sorted(origin)
        assert all(0 <= o < len(text) for o in origin)
    text = "State-of-the-\nart re\u00adsults, “quoted”—and ﬁnal 78.4% of 1,000"
    assert normalise(text) == "stateoftheart results quoted and final 784 of 1000"


def test_a_changed_number_is_not_a_quote(index: BlockIndex):
    # Otherwise a near-perfect match: one number differs from the only block that says this.
    quote = "the sparse baseline reaches only 65.1% on Natural Questions, which shows the benefit"
    assert resolve_citation(quote, "dpr-4", index) is None
    # Both numbers are in the block, but the quote swaps them.
    swapped = "Table 3 reports top-20 accuracy: the model reaches 79.4% on Natural Questions and 78.4% on TriviaQA"
    assert resolve_citation(swapped, "dpr-3", index) is None
    # Dropping a number is leaving words out, not changing them.
    res = resolve_citation(
        "the sparse baseline reaches only on Natural Questions, which shows the benefit", None, index
    )
    assert res is not None and res.block_ids == ["dpr-4"]


def test_a_sentence_of_a_block_with_kept_line_breaks_resolves():
    # The Markdown loader keeps a docs page's real line breaks as "\n" (corpus.loaders.line_breaks),
    # and answers quote one of those lines, or run on across one with a space.
    source = (
        "Tool use requests are priced the same as any other API request, based on the total number of "
        "input tokens sent to the model and the number of output tokens generated.\n"
        "The additional tokens from tool use come from:\n"
        "The tools parameter in API requests (tool names, descriptions, and schemas)\n"
        "tool_use content blocks in API requests and responses\n"
    )
    (raw,) = load_markdown(source).blocks
    assert raw.text.count("\n") == 3
    block = Block(block_id="docs-0", doc_id="docs", seq=0, **raw.model_dump())
    index = BlockIndex([block], {"docs": "Tool use"})
    lines = split_sentences(block.text)
    assert lines[2] == "The tools parameter in API requests (tool names, descriptions, and schemas)"
    res = resolve_citation(lines[2], None, index)  # one kept line
    assert res is not None and res.block_ids == ["docs-0"] and res.score == 100
    assert res.matched_text in lines[2] and "\n" not in res.matched_text
    check_offsets(index, res)
    res = resolve_citation("tool use come from: The tools parameter in API requests", None, index)  # across one
    assert res is not None and res.block_ids == ["docs-0"] and res.score == 100
    assert res.matched_text == "tool use come from:\nThe tools parameter in API requests"
    check_offsets(index, res)
    assert source[raw.span.start : raw.span.end].count("\n") == 3  # the span still covers the source lines


def test_a_quote_keeps_the_pages_footnote_marks_and_its_reading_leaves_them_out():
    """A PDF prints footnote numbers as superscripts in the text ("v0.5.5 10"): the quote, verbatim,
    keeps them; what the judge reads of it does not, so a mark is never taken for a figure."""
    text = "We parse the scans with KilnOCR v2.1.0 7 and TileReader v0.5 8 (Ward, 2011). Both run nightly."
    marks = [CharSpan(start=m.start(1), end=m.end(1)) for m in re.finditer(r"v[\d.]+ (\d)", text)]
    block = Block(block_id="d-0", doc_id="d", seq=0, page=3, kind=BlockKind.PARAGRAPH, text=text, marks=marks)
    index = BlockIndex([block], {"d": "Scans"})
    quote = "We parse the scans with KilnOCR v2.1.0 7 and TileReader v0.5 8 (Ward, 2011)."
    res = resolve_citation(quote, "d-0", index)
    assert res is not None and res.matched_text == quote
    assert res.read_text == "We parse the scans with KilnOCR v2.1.0 and TileReader v0.5 (Ward, 2011)."
