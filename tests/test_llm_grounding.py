"""LLM mode with a small model's habits: claims grounded in the sentences the model was shown.

What the default local model (0.5B) was seen doing, scripted at the LLM boundary: citing a block's
label instead of a sentence, copying the prompt's field labels and ids into a claim, restating the
question as a claim, repeating a claim, pinning a fact on the document's title line, or answering
nothing while the evidence answers. Qdrant, fastembed and LangGraph run for real.
"""

from __future__ import annotations

import re

from corpus.models import Block, BlockKind, DocType
from corpus.retrieval import RetrievedChunk
from graph.run import run_research
from research.evidence import FindingStatus, SubQuestion
from research.report import ClaimStatus
from strategies.llm.evidence import EvidenceSheet
from strategies.llm.grounding import cleaned, grounded, stated
from strategies.llm.strategy import SINGLE_RATIONALE, LLMStrategy, _addresses
from strategies.offline.strategy import OfflineStrategy
from testing_support.llm_fakes import ScriptedChatModel
from testing_support.llm_scripts import script_with, sentences_in, substantial_sentence

QUESTION = "How many spider species were recorded on the Riverton green roofs?"
SPIDERS = "We recorded 47 spider species from 13 families, 31 wild bee species and 11 bird species"


def _sheet(
    texts: tuple[str, ...] = (
        "Spiders, Bees and Birds on Riverton's Green Roofs",
        "The survey ran for two seasons. We recorded 47 spider species from 13 families on the roofs. "
        "Biodiverse roofs held twice as many bees.",
    ),
) -> EvidenceSheet:
    return EvidenceSheet.of(_chunks(texts, "Spiders, Bees and Birds"))


def _chunks(texts: tuple[str, ...], title: str) -> list[RetrievedChunk]:
    """One retrieved chunk of one paragraph block per text, of one document, ranked in order."""
    chunks = []
    for n, text in enumerate(texts, 1):
        block = Block(block_id=f"d1-000{n}", doc_id="d1", seq=n, page=1, kind=BlockKind.PARAGRAPH, text=text)
        chunks.append(
            RetrievedChunk(
                chunk_id=f"c{n}",
                doc_id="d1",
                title=title,
                year=None,
                doc_type=DocType.TEXT,
                section="",
                pages=[1],
                text=text,
                score=1.0,
                rank=n,
                blocks=[block],
            )
        )
    return chunks


def test_copied_prompt_labels_and_ids_are_no_part_of_a_claim():
    assert cleaned("47 species were recorded. sentence_ids: b6, b19") == "47 species were recorded."
    assert cleaned("Sub-question: How many? Searches already tried: How many?") == "How many?"
    assert cleaned("roof height matters for bees (b3.s1) [b4]") == "Roof height matters for bees"
    assert cleaned("Claim 1: The roofs were surveyed.") == "The roofs were surveyed."


def test_a_claim_is_cited_to_the_sentence_that_states_it_whatever_id_the_model_gave():
    sheet = _sheet()
    shown = sheet.sentences
    title, survey, spiders, bees = (s.sid for s in shown)
    claims = grounded(
        [
            (f"Sub-question: {QUESTION} Searches already tried: {QUESTION}", [title]),  # the question
            ("There were 47 spider species from 13 families. sentence_ids: b1", [title]),  # wrong id
            ("There were 47 spider species from 13 families.", [spiders]),  # a repeat
            ("Biodiverse roofs held twice as many bees.", ["b2"]),  # a block's label
            ("Spider species were recorded on the Riverton green roofs", [spiders]),  # says nothing new
        ],
        QUESTION,
        sheet,
        shown,
    )
    assert all(g.stated for g in claims)
    claims = [g.claim for g in claims]
    assert [c.text for c in claims] == [
        "There were 47 spider species from 13 families.",
        "Biodiverse roofs held twice as many bees.",
    ]
    first, second = claims
    [marker] = first.citations
    assert marker.quote == "We recorded 47 spider species from 13 families on the roofs."  # not the title
    assert [m.quote for m in second.citations] == ["Biodiverse roofs held twice as many bees."]
    assert all(stated(c) for c in claims)


def test_a_claim_no_shown_sentence_states_keeps_its_citation_and_is_not_stated():
    sheet = _sheet()
    shown = sheet.sentences
    [claim] = grounded([("Green roofs triple property values.", [shown[1].sid])], QUESTION, sheet, shown)
    assert not claim.stated and not stated(claim.claim)  # the citation node flags it
    assert claim.claim.citations[0].quote == shown[1].text
    [unknown] = grounded([("We recorded 47 spider species.", ["b9.s9"])], QUESTION, sheet, shown)
    unknown = unknown.claim
    assert unknown.citations[0].quote.startswith("We recorded 47")  # re-anchored by its text
    assert unknown.citations[-1].quote == ""  # and the id never shown stays an unverified marker


PROMPTING = "How can you combine XML tags with chain of thought reasoning to create high-performance prompts?"
PROMPTING_PAGES = (
    "Power user tip: Combine XML tags with other techniques like multishot prompting or chain of thought.",
    "Then, think through what aspects of the Care for Kids program would appeal to them.",
)


CARE_TAGS = (
    "You can combine Care tags like <thinking> and <answer> with chain of thought reasoning, where the model "
    "explains its step-by-step reasoning process, to create structured, high-performance prompts."
)


def test_a_name_swapped_into_a_restated_question_is_not_stated_by_another_sentence_naming_it():
    """The question supplies most of the claim's words: the sentence naming "Care" states none of what
    the claim adds, so the claim stays on the sentence it cited, not stated (flagged beside it)."""
    sheet = _sheet(PROMPTING_PAGES)
    tip, _care = sheet.sentences
    [claim] = grounded(
        [(CARE_TAGS, [tip.sid])],
        PROMPTING,
        sheet,
        sheet.sentences,
    )
    assert not claim.stated
    assert [m.quote for m in claim.claim.citations] == [tip.text]
    # The right name is stated by the sentence it cites.
    [right] = grounded(
        [("You can combine XML tags with other techniques like multishot prompting or chain of thought.", [tip.sid])],
        PROMPTING,
        sheet,
        sheet.sentences,
    )
    assert right.stated and [m.quote for m in right.claim.citations] == [tip.text]


def test_a_claim_made_sweeping_is_no_repeat_of_the_claim_before_it_and_is_not_stated():
    sheet = _sheet()
    spiders = sheet.sentences[2]
    plain, sweeping = grounded(
        [
            ("We recorded 47 spider species from 13 families on the roofs.", [spiders.sid]),
            ("We recorded 47 spider species from 13 families on the roofs, in every case.", [spiders.sid]),
        ],
        QUESTION,
        sheet,
        sheet.sentences,
    )
    assert plain.stated
    assert not sweeping.stated and "every" in sweeping.verdict.reason
    assert [m.quote for m in sweeping.claim.citations] == [spiders.text]


def _as_asked(prompt: str) -> dict:
    """The plan of a single question: the question, restated as asked."""
    question = re.search(r"Question \(from the researcher\): (.*)", prompt).group(1)
    return {"sub_questions": [{"question": question, "rationale": "As asked."}]}


def _script(answer, summary=None):
    def script(step: str, prompt: str):
        if step == "plan":
            return _as_asked(prompt)
        if step == "summary" and summary is not None:
            return summary
        return script_with(answer=answer)(step, prompt)

    return script


def _small_model(prompt: str) -> dict:
    """Cites block labels and the first sentence it sees, and copies the prompt's labels."""
    sentences = sentences_in(prompt)
    question = re.search(r"Sub-question: (.*)", prompt).group(1)
    fact = next(t for t in sentences.values() if "47 spider species" in t)  # the fact, on the wrong id
    first = next(iter(sentences))
    return {
        "claims": [
            {"text": f"{question} Searches already tried: {question} sentence_ids: b1, b2", "sentence_ids": [first]},
            {"text": f"The evidence states that {fact[0].lower()}{fact[1:]} sentence_ids: b1", "sentence_ids": ["b1"]},
            {"text": f"The evidence states that {fact[0].lower()}{fact[1:]} sentence_ids: b1", "sentence_ids": ["b1"]},
        ],
        "sufficient": True,
        "confidence": 0.5,
        "next_queries": [],
    }


def test_a_small_models_answer_reads_as_one_cited_claim(sample_library):
    model = ScriptedChatModel(script=_script(_small_model))
    result = run_research(
        sample_library,
        LLMStrategy(model, "s", embedder=sample_library.embedder, fallback=OfflineStrategy(sample_library.embedder)),
        QUESTION,
        single_question=True,
    )
    report = result.report
    [section] = report.sections
    assert len(section.claims) == 1 and section.claims[0].status is ClaimStatus.VERIFIED
    text = section.claims[0].text
    assert "sentence_ids" not in text and "Searches already tried" not in text and not text.endswith("?")
    quote = report.citations[section.claims[0].citations[0] - 1].resolution.quote
    assert re.search(r"\d", quote) and quote.split()[-1].strip(".") in text  # cited to the fact it states
    assert report.unverified_claims == 0 and report.unsupported_claims == 0
    assert "answered with the documents' own sentences" not in report.markdown


def test_a_model_that_states_nothing_the_evidence_does_gives_way_to_the_documents_sentences(sample_library):
    def empty_handed(prompt: str) -> dict:
        return {"claims": [], "sufficient": False, "confidence": 0.1, "next_queries": []}

    model = ScriptedChatModel(script=_script(empty_handed, summary={"title": "Spiders", "summary": []}))
    strategy = LLMStrategy(
        model, "s", embedder=sample_library.embedder, fallback=OfflineStrategy(sample_library.embedder)
    )
    result = run_research(sample_library, strategy, QUESTION, single_question=True)
    report = result.report
    [section] = report.sections
    assert section.extractive and section.status.value == "answered"
    offline = run_research(sample_library, OfflineStrategy(sample_library.embedder), QUESTION, single_question=True)
    assert [c.text for c in section.claims] == [c.text for c in offline.report.sections[0].claims]  # as offline
    assert all(c.status is ClaimStatus.VERIFIED for c in section.claims)
    assert "1 sub-question answered with the documents' own sentences, chosen without the model" in report.markdown
    # A one-question report is its answer: no summary repeating the section's claims.
    assert not report.summary and "## Answer" in report.markdown and "## Summary" not in report.markdown

    # An unanswerable question stays unanswered: the documents' sentences are judged as offline mode judges.
    unanswerable = run_research(
        sample_library,
        strategy,
        "What grants are available to building owners who install green roofs?",
        single_question=True,
    ).report
    assert not unanswerable.answered_sections() and not any(s.extractive for s in unanswerable.sections)


def test_a_question_worded_as_one_is_researched_as_asked_without_a_planning_call(embedder):
    model = ScriptedChatModel(script=_script(_small_model))
    strategy = LLMStrategy(model, "s", fallback=OfflineStrategy(embedder))
    for asked in (QUESTION, "Spiders, Bees and Birds on Riverton's Green Roofs: which spiders did they find?"):
        [question] = strategy.plan(asked, single_question=True, scout=[])
        assert question.question == asked and "model" not in question.rationale
    assert not model.calls
    # A phrase is restated by the model (its rationale is not the model's invention).
    [restated] = strategy.plan("spiders on Riverton roofs?", single_question=True, scout=[])
    assert [s for s, _ in model.calls] == ["plan"] and restated.rationale == SINGLE_RATIONALE


def test_a_cited_lead_in_ending_in_a_colon_is_read_with_the_list_it_introduces():
    sheet = _sheet(
        (
            "The survey tool helps you:\nCount spider species on each roof\nCompare bee visits across seasons\n"
            "Other roofs were not surveyed.",
        )
    )
    shown = sheet.sentences
    lead = shown[0]
    assert lead.text.endswith(":")
    claim = "The survey tool helps count spider species on each roof and compare bee visits across seasons."
    [listed] = grounded([(claim, [lead.sid])], "What does the survey tool help with?", sheet, shown)
    assert listed.stated
    assert "Compare bee visits" in listed.claim.citations[0].quote
    assert "not surveyed" not in " ".join(m.quote for m in listed.claim.citations)
    # The list is read with the hard checks: a figure it does not hold is not stated by reading it.
    [other] = grounded([("The survey tool counts 12 spider species a roof.", [lead.sid])], "What?", sheet, shown)
    assert not other.stated


def test_a_cited_entry_is_read_with_the_date_line_heading_it_which_is_then_cited_with_it():
    """Release notes head each entry with a date line the model was not shown ("May 13th, 2024"):
    a claim dating the entry is stated by the entry read under its date, and quotes the date."""
    sheet = _sheet(
        (
            "June 5th, 2024",
            "Claude.ai and our API are now available in Canada. Learn more in our Canada launch announcement.",
            "May 13th, 2024",
            "Claude.ai and our iOS app are now available in Europe. Learn more in our Europe launch announcement.",
            "May 1st, 2024",
            "Claude iOS app is now available. Download it from the App Store.",
        )
    )
    shown = [s for s in sheet.sentences if "available" in s.text]
    canada, europe, ios = shown
    question = "When did Claude.ai launch in Europe and in Canada?"
    claim = "Claude.ai launched in Europe in May 2024 and in Canada in June 2024."
    [dated] = grounded([(claim, [europe.sid, canada.sid, ios.sid])], question, sheet, shown)
    assert dated.stated
    quotes = [m.quote for m in dated.claim.citations]
    # Each date stays with its entry: Europe's May line, not the May line of the iOS entry cited along.
    assert quotes == ["June 5th, 2024", canada.text, "May 13th, 2024", europe.text]
    # The date line is read, not trusted: a year it does not give, or a month another entry's line
    # gives, is not stated.
    for wrong in ("Claude.ai launched in Europe in May 2023.", "Claude.ai launched in Europe in June 2024."):
        assert not grounded([(wrong, [europe.sid])], question, sheet, shown)[0].stated


EVENT_FLOW = (
    "Each stream uses the following event flow:\n"
    "message_start: contains a Message object with empty content.\n"
    "A series of content blocks, each of which have a content_block_start and a content_block_stop event.\n"
    "A final message_stop event."
)


def test_a_cited_sentence_lends_its_neighbours_names_only_to_a_claim_that_keeps_its_own():
    """A claim naming what the sentences beside its cited one name is stated by them together, and
    cites them; a claim that puts a neighbour's name where its cited sentence has another (a model
    mixing up adjacent sentences) is not: it leaves out a name its cited sentence gives."""
    sheet = _sheet((EVENT_FLOW,))
    shown = sheet.sentences
    blocks = next(s for s in shown if s.text.startswith("A series"))
    question = "What events does a stream send?"
    claim = (
        "A stream sends message_start, then content blocks each with a content_block_start and a "
        "content_block_stop event, and ends with message_stop."
    )
    [read] = grounded([(claim, [blocks.sid])], question, sheet, shown)
    assert read.stated
    assert "message_start: contains" in " ".join(m.quote for m in read.claim.citations)
    swapped = "A stream sends content blocks each with a message_start and a content_block_stop event."
    [mixed] = grounded([(swapped, [blocks.sid])], question, sheet, shown)
    assert not mixed.stated
    assert [m.quote for m in mixed.claim.citations] == [blocks.text]


def test_a_cited_row_is_read_under_the_lead_in_introducing_its_table():
    """A table's row says what the sentence introducing the table leads into ("Anthropic recommends
    the following embedding models:"): the row is read under it, as under a heading."""
    sheet = _sheet(
        (
            "Anthropic recommends the following embedding models:\n"
            "voyage-code-2: optimized for code retrieval, 17% better than alternatives (see the Voyage AI blog).\n"
            "voyage-2: a generalist embedding model with a 4K context.",
        )
    )
    shown = sheet.sentences
    row = shown[1]
    question = "Which embedding model is best for code retrieval?"
    claim = "For code retrieval, Anthropic recommends voyage-code-2, 17% better than alternatives."
    [read] = grounded([(claim, [row.sid])], question, sheet, shown)
    assert read.stated
    assert [m.quote for m in read.claim.citations] == [f"{shown[0].text}\n{row.text}"]
    # The next row's model is not lent to a claim that puts it in the cited row's place.
    swapped = "For code retrieval, Anthropic recommends voyage-2, 17% better than alternatives."
    assert not grounded([(swapped, [row.sid])], question, sheet, shown)[0].stated


def test_a_stated_claim_addresses_a_question_about_its_page_when_the_page_title_names_the_subject():
    """A page rarely repeats its subject in the sentence that answers: the cited page's title counts
    toward the question's terms a model's stated claims must hold to answer on the model's word."""
    question = "How can the Evaluation tool in the Console help you improve prompts and build robust applications?"
    claim = "Reviewing results across test cases helps spot patterns that lead to more robust applications."

    def addresses(title: str) -> bool:
        text = f"{claim} Remember to save your work."
        block = Block(block_id="d1-0001", doc_id="d1", seq=1, page=1, kind=BlockKind.PARAGRAPH, text=text)
        chunk = RetrievedChunk(
            chunk_id="c1", doc_id="d1", title=title, year=None, doc_type=DocType.TEXT, section="",
            pages=[1], text=text, score=1.0, rank=1, blocks=[block],
        )  # fmt: skip
        sheet = EvidenceSheet.of([chunk])
        judged = grounded([(claim, [sheet.sentences[0].sid])], question, sheet, sheet.sentences)
        assert all(g.stated for g in judged)
        return _addresses(question, judged, sheet)

    assert addresses("Using the Evaluation Tool in the Console")
    assert not addresses("Release notes")


def test_a_models_claim_on_a_question_the_library_does_not_answer_is_shown_flagged_not_hidden(sample_library):
    """What a model answered that its cited sentences do not state stays in the report, flagged beside
    the passage it cites, while the question reads "not answered": a reader sees what was said and
    that the library does not bear it out, rather than nothing."""
    claim = "Building owners who install a green roof receive a grant of 5,000 dollars."

    def unfounded(prompt: str) -> dict:
        sid, _ = substantial_sentence(prompt)
        return {"claims": [{"text": claim, "sentence_ids": [sid]}], "sufficient": True, "confidence": 0.9}

    strategy = LLMStrategy(
        ScriptedChatModel(script=_script(unfounded)),
        "s",
        embedder=sample_library.embedder,
        fallback=OfflineStrategy(sample_library.embedder),
    )
    asked = "What grants are available to building owners who install green roofs?"
    report = run_research(sample_library, strategy, asked, single_question=True).report
    [section] = report.sections
    assert not report.answered_sections() and section.status is FindingStatus.UNVERIFIED
    [shown] = section.claims
    assert shown.text == claim and shown.status is not ClaimStatus.VERIFIED and shown.citations
    assert claim in report.markdown and "\u26a0" in report.markdown
    assert "(answered" not in report.markdown


def test_a_stated_claim_is_kept_where_offline_modes_own_lead_does_not_answer(embedder):
    """Offline mode's lead displaces a model's stated claim only where that lead answers: here its best
    sentence is far closer to the question by meaning (0.65 against 0.33 cosine) but says nothing of how
    long a membrane lasts, and offline mode finds the evidence short of an answer. The model's claim,
    which the sentence it cites states, answers; displaced behind the offline sentence, it read as an
    aside with offline mode's low confidence."""
    question = "How long does a green roof membrane last?"
    texts = (
        "A green roof membrane is protected from sunlight and frost by the layers above it.",
        "Protected this way, it can serve for decades before it needs replacing.",
    )
    evidence = _chunks(texts, "Roof membranes")
    claim = "Protected this way, the membrane can serve for decades before it needs replacing."

    def cites_the_decades(prompt: str) -> dict:
        sid = next(s for s, t in sentences_in(prompt).items() if "decades" in t)
        return {"claims": [{"text": claim, "sentence_ids": [sid]}], "sufficient": True, "confidence": 0.9}

    offline = OfflineStrategy(embedder)
    strategy = LLMStrategy(
        ScriptedChatModel(script=script_with(cites_the_decades)), "s", embedder=embedder, fallback=offline
    )
    sub_question = SubQuestion(id="q1", question=question, rationale="")
    own = offline.answer(sub_question, evidence, [question])
    assert not own.sufficient and own.claims[0].text == texts[0]  # offline's lead: close, and no answer
    answer = strategy.answer(sub_question, evidence, [question])
    [kept] = answer.claims
    assert kept.text == claim and stated(kept) and [m.quote for m in kept.citations] == [texts[1]]
    assert not answer.extractive and answer.confidence > own.confidence  # the judge's, not offline mode's
