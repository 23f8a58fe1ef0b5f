"""Extractive answers as passages a reader can follow: a sentence with the one its reference leans on,
a list with its introduction and items, document order, no sentence quoted twice; and the report
renders a quoted list as a list. Blocks are built directly; the embedder is real."""

from __future__ import annotations

import pytest

from corpus.models import Block, BlockKind, DocType
from corpus.retrieval import RetrievedChunk
from research.evidence import SubQuestion
from research.report import ClaimStatus, ReportClaim
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.extractive import analyse, select, to_claims
from strategies.reading.passages import Layout, claim_of, merge, passage, pieces_of


def _block(doc: str, seq: int, text: str, kind: BlockKind = BlockKind.PARAGRAPH) -> Block:
    return Block(block_id=f"{doc}-{seq:04d}", doc_id=doc, seq=seq, page=1, kind=kind, text=text)


def _chunk(doc: str, blocks: list[Block], rank: int = 1) -> RetrievedChunk:
    return RetrievedChunk(
        chunk_id=f"{doc}:{rank}",
        doc_id=doc,
        title=f"Document {doc}",
        year=None,
        doc_type=DocType.MARKDOWN,
        section="",
        pages=[1],
        text=" ".join(b.text for b in blocks),
        score=1.0 / rank,
        rank=rank,
        blocks=blocks,
    )


TOKENS = (
    "Tool use requests are priced the same as any other API request.\n"
    "The additional tokens from tool use come from:\n"
    "The tools parameter in API requests\n"
    "tool_use content blocks in requests and responses\n"
    "tool_result content blocks in requests\n"
    "These token counts are added to your normal input and output tokens. Refer to the price table."
)


def test_pieces_know_their_lines_and_offsets():
    pieces = pieces_of(TOKENS)
    assert [p.text for p in pieces][:3] == [
        "Tool use requests are priced the same as any other API request.",
        "The additional tokens from tool use come from:",
        "The tools parameter in API requests",
    ]
    assert all(TOKENS[p.start : p.end] == p.text for p in pieces)
    assert pieces[1].introduces and pieces[2].line == 2
    assert pieces[-1].line == pieces[-2].line == 5  # two sentences on one line


def test_a_list_is_quoted_with_its_introduction_and_items_whichever_is_chosen():
    block = _block("d", 1, TOKENS)
    layout = Layout([_chunk("d", [block])])
    intro = passage(layout, block, TOKENS.index("The additional"))
    item = passage(layout, block, TOKENS.index("tool_use content"))
    assert intro == item
    claim = claim_of(layout, intro)
    assert claim.text.split("\n") == [
        "The additional tokens from tool use come from:",
        "The tools parameter in API requests",
        "tool_use content blocks in requests and responses",
        "tool_result content blocks in requests",
    ]
    (marker,) = claim.citations
    assert marker.block_id == block.block_id and marker.quote in TOKENS and marker.quote.startswith("The additional")


def test_a_sentence_opening_with_a_reference_brings_the_one_before_it():
    text = "Images are resized to fit 1568 pixels. This keeps latency low. It costs nothing."
    block = _block("d", 1, text)
    layout = Layout([_chunk("d", [block])])
    claim = claim_of(layout, passage(layout, block, text.index("This keeps")))
    assert claim.text == "Images are resized to fit 1568 pixels. This keeps latency low."
    # After a list, a sentence referring to it stands alone: its last item is not what it means.
    block = _block("d", 1, TOKENS)
    layout = Layout([_chunk("d", [block])])
    claim = claim_of(layout, passage(layout, block, TOKENS.index("These token counts")))
    assert claim.text == "These token counts are added to your normal input and output tokens."
    # Across blocks: the first sentence of a block leans on the last one of the block before.
    first = _block("e", 1, "Extensive green roofs retain about half of the annual rainfall.")
    second = _block("e", 2, "This delays the peak of the runoff by several hours. Maintenance is cheap.")
    layout = Layout([_chunk("e", [first, second])])
    claim = claim_of(layout, passage(layout, second, 0))
    assert claim.text == (
        "Extensive green roofs retain about half of the annual rainfall. This delays the peak of the runoff by "
        "several hours."
    )
    assert [m.block_id for m in claim.citations] == [first.block_id, second.block_id]
    # "This paper" points at the document, not at a sentence.
    paper = _block("f", 1, "We thank the reviewers. This paper studies green roofs in three cities.")
    layout = Layout([_chunk("f", [paper])])
    assert claim_of(layout, passage(layout, paper, paper.text.index("This paper"))).text.startswith("This paper")


def test_markdown_list_blocks_follow_their_introduction():
    intro = _block("m", 1, "To add more test cases:")
    items = [
        _block("m", 2, "Click the Add Test Case button.", BlockKind.LIST),
        _block("m", 3, "Fill in values for each variable in your prompt.", BlockKind.LIST),
        _block("m", 4, "Repeat to create multiple scenarios.", BlockKind.LIST),
    ]
    after = _block("m", 5, "You can re-run the whole suite when the prompt changes.")
    layout = Layout([_chunk("m", [intro, *items, after])])
    for chosen in (intro, items[1]):
        claim = claim_of(layout, passage(layout, chosen, 0))
        assert claim.text.split("\n") == [
            "To add more test cases:",
            "Click the Add Test Case button.",
            "Fill in values for each variable in your prompt.",
            "Repeat to create multiple scenarios.",
        ]
        assert [m.block_id for m in claim.citations] == [b.block_id for b in [intro, *items]]


def test_touching_passages_merge_and_no_sentence_is_quoted_twice():
    text = "Roofs retain rain. Sedum survives drought. Irrigation is rarely needed. Costs fall."
    block = _block("g", 1, text)
    layout = Layout([_chunk("g", [block])])
    a = passage(layout, block, text.index("Sedum"))
    b = passage(layout, block, text.index("Irrigation"))
    c = passage(layout, block, text.index("Roofs"))
    merged = merge([c, a, b])
    assert len(merged) == 1
    assert claim_of(layout, merged[0]).text == "Roofs retain rain. Sedum survives drought. Irrigation is rarely needed."
    # The first passage (a short answer's) opens its claim: what comes before it stays a claim of its own.
    first, before = merge([a, c, b])
    assert claim_of(layout, first).text == "Sedum survives drought. Irrigation is rarely needed."
    assert claim_of(layout, before).text == "Roofs retain rain."


@pytest.fixture(scope="module")
def strategy(embedder) -> OfflineStrategy:
    return OfflineStrategy(embedder)


def test_a_non_factoid_answer_quotes_the_list_and_has_no_short_answer(strategy):
    block = _block("t", 1, TOKENS)
    other = _block("u", 1, "Image inputs are billed by their size in pixels, divided by seven hundred and fifty.")
    evidence = [_chunk("t", [block]), _chunk("u", [other], rank=2)]
    question = SubQuestion(id="q1", question="Where do the additional tokens of tool use come from?", rationale="")
    answer = strategy.answer(question, evidence, [question.question])
    assert answer.claims and all(c.answer is None for c in answer.claims)
    assert answer.claims[0].text.split("\n")[0] == "The additional tokens from tool use come from:"
    assert "tool_use content blocks in requests and responses" in answer.claims[0].text.split("\n")


def test_sentences_covering_the_two_parts_of_a_question_are_chosen_together(strategy):
    """Joint coverage: the second part of a two-part question gets its own sentence."""
    facts = _block(
        "v",
        1,
        "Accuracy, F1 score and consistency are the key success metrics for a classification task. "
        "Accuracy is the share of inputs classified correctly. "
        "The F1 score balances precision and recall.",
    )
    latency = _block("w", 1, "Choosing a smaller model is the most direct way to reduce latency for classification.")
    evidence = [_chunk("v", [facts]), _chunk("w", [latency], rank=2)]
    question = "What are the key success metrics for a classification task, and how do you reduce latency?"
    analysis = analyse(question, evidence, strategy.vectors)
    quoted = " ".join(c.text for c in to_claims(analysis, select(analysis)))
    assert "key success metrics" in quoted and "reduce latency" in quoted


def test_a_quoted_list_renders_as_a_list():
    claim = ReportClaim(
        text="The tokens come from:\nthe tools parameter\nthe system prompt", status=ClaimStatus.VERIFIED, citations=[3]
    )
    assert claim.markdown() == "The tokens come from:\n  - the tools parameter\n  - the system prompt [3]"
    assert claim.markdown(indent="") == "The tokens come from:\n- the tools parameter\n- the system prompt [3]"


def test_a_list_quoted_block_by_block_cites_each_line_where_it_stands():
    claim = ReportClaim(
        text="The tokens come from:\nthe tools parameter\nthe system prompt",
        status=ClaimStatus.VERIFIED,
        citations=[3, 4, 5],
        line_citations=[3, 4, 5],
    )
    assert claim.markdown() == "The tokens come from: [3]\n  - the tools parameter [4]\n  - the system prompt [5]"


# A lead-in too short to be a statement, or one that names nothing the question asks about, with its
# list (one item per line, no full stops) and a paragraph of the same page on something else: the
# question's words are in the items, so the lead-in is read with them.
LEAD_INS = [
    (
        "The dashboard helps you:",
        ["Spot slow queries before users notice them", "Compare latency across regions", "Export weekly reports"],
        "The dashboard is available on every paid plan and loads in under a second.",
        "What are two ways the dashboard helps with slow queries and latency?",
    ),
    (
        "Every deployment needs:",
        ["A signed container image", "A health check endpoint", "A rollback plan for failed releases"],
        "Deployments are scheduled by the release manager every Tuesday afternoon.",
        "What does a deployment need, such as a container image or a health check?",
    ),
    (
        "The sensor kit includes:",
        ["A soil moisture probe", "A rain gauge with a tipping bucket", "A solar powered data logger"],
        "The sensor kit ships in a waterproof case and weighs four kilograms.",
        "Which instruments, like the moisture probe and rain gauge, come in the sensor kit?",
    ),
]


@pytest.mark.parametrize(("lead_in", "items", "other", "question"), LEAD_INS)
def test_a_lead_in_is_read_with_its_items(strategy, lead_in, items, other, question):
    text = "\n".join([lead_in, *items])
    evidence = [_chunk("l", [_block("l", 1, text), _block("l", 2, other)])]
    analysis = analyse(question, evidence, strategy.vectors)
    lead = next(s for s in analysis.scored if s.sentence.text == lead_in)
    assert all(item in lead.sentence.read for item in items)
    assert analysis.scored[0] is lead  # the items hold the question's words, the other sentence does not
    judged = strategy.judge(question, evidence)
    assert judged.sufficient
    assert judged.claims[0].text.split("\n") == [lead_in, *items]


def test_a_sentence_introducing_nothing_is_read_as_itself(strategy):
    blocks = [
        _block("n", 1, "The console opens in a new tab when you follow the steps:"),
        _block("n", 2, "It opens fast."),
    ]
    evidence = [_chunk("n", blocks)]
    analysis = analyse("How does the console open?", evidence, strategy.vectors)
    assert all(s.sentence.read == s.sentence.text for s in analysis.scored)


# Nested lists as documentation pages write them: an item introducing items of its own, then the outer
# list going on; generated over several item counts.
@pytest.mark.parametrize("inner", [1, 2, 3])
def test_an_item_introducing_its_own_items_keeps_the_list_going(inner):
    sub = [f"{'abc'[i]}. A step_{i} event" for i in range(inner)]
    lines = ["A stream response is comprised of:", "A start event", "Several blocks, each of which contains:"]
    lines += [*sub, "A stop event"]
    text = "\n".join([*lines, "There may be ping events dispersed throughout the response as well."])
    block = _block("s", 1, text)
    layout = Layout([_chunk("s", [block])])
    claim = claim_of(layout, passage(layout, block, 0))
    assert claim.text.split("\n") == lines  # the prose after the list is not an item


def test_the_tail_of_a_code_line_is_no_statement():
    from strategies.reading.text import is_statement

    assert not is_statement(") # Check if the model's prediction is correct. You may also consider these:")
    assert is_statement("(Optional) The model's prediction is checked against the label.")


def test_a_footnote_marker_at_a_sentences_head_is_not_read_or_quoted():
    """ "3 Besides granularity, we also observe…": the page's footnote marker, not the sentence's."""
    text = "Summaries vary in length. 3 Besides granularity, we also observe that summaries differ in style."
    assert [p.text for p in pieces_of(text, prose=True)] == [
        "Summaries vary in length.",
        "Besides granularity, we also observe that summaries differ in style.",
    ]
    # A line that is not a paragraph's (a list item "1 Install the package") keeps its number.
    assert pieces_of("1 Install the package.")[0].text == "1 Install the package."
