"""LLM mode's evidence by sentence id, its schema paths, its re-ranking and its token budget, through
the real graph: only the model is scripted (a LangChain chat model, or the OpenAI-compatible HTTP stub
under the real langchain-openai client); Qdrant, fastembed, LangGraph and the citation node run."""

from __future__ import annotations

import json
import shutil

import pytest

from config import EmbeddingSettings, LLMSettings, Settings, StorageSettings
from config.settings import SERVED_EVIDENCE_TOKENS
from corpus.models import Block, BlockKind, DocType
from corpus.retrieval import RetrievedChunk
from evals.cost import metered
from graph.run import run_research
from research.evidence import marker_key
from strategies.llm.evidence import EvidenceSheet, render
from strategies.llm.grounding import grounded
from strategies.llm.selection import count_tokens, tokenizer_name, within_budget
from strategies.llm.strategy import LLMStrategy
from strategies.offline.strategy import OfflineStrategy
from strategies.select import select_strategy
from testing_support.llm_fakes import OpenAIStub, ScriptedChatModel, sentence_ids_in, step_of
from testing_support.llm_scripts import PLAN, honest_answer, script_with, sentences_in

from .paths import shared_data

TOPIC = "Green roofs in cities"


def one_block_chunk(
    text: str, title: str, doc_type: DocType, page: int = 1, section: str = "", kind: BlockKind = BlockKind.PARAGRAPH
) -> RetrievedChunk:
    """A retrieved chunk of one block: the evidence a prompt is rendered from."""
    block = Block(block_id="d1-0001", doc_id="d1", seq=1, page=page, section=section, kind=kind, text=text)
    return RetrievedChunk(
        chunk_id="c1",
        doc_id="d1",
        title=title,
        year=None,
        doc_type=doc_type,
        section=section,
        pages=[page],
        text=text,
        score=1.0,
        rank=1,
        blocks=[block],
    )


def test_every_id_in_a_prompt_is_unique_and_resolves_to_its_stored_sentence(sample_library):
    """A model citing every id it is shown: each id once per prompt, each cited id a marker whose quote
    is its stored sentence, verbatim, and which the citation node resolves to that block exactly."""
    prompts: list[str] = []

    def cite_everything(prompt: str) -> dict:
        prompts.append(prompt)
        return {
            "claims": [{"text": text, "sentence_ids": [sid]} for sid, text in sentences_in(prompt).items()],
            "sufficient": True,
            "confidence": 0.8,
            "next_queries": [],
        }

    model = ScriptedChatModel(script=script_with(answer=cite_everything))
    result = run_research(
        sample_library, LLMStrategy(model, "scripted", fallback=OfflineStrategy(sample_library.embedder)), TOPIC
    )
    for _step, prompt in model.calls:
        ids = sentence_ids_in(prompt)
        assert len(ids) == len(set(ids)), prompt[:500]
    assert len(prompts) == len(PLAN) and all(sentence_ids_in(p) for p in prompts)
    blocks = sample_library.registry
    markers = [m for s in result.state["draft"].sections for c in s.claims for m in c.citations]
    assert len(markers) >= sum(len(sentence_ids_in(p)) for p in prompts) // 2  # runs of a block merge
    for marker in markers:
        stored = blocks.blocks([marker.block_id])[marker.block_id].text
        assert marker.quote and marker.quote in stored
        resolution = result.state["citations"][marker_key(marker)]
        assert resolution is not None and resolution.block_ids == [marker.block_id] and resolution.score == 100.0
    assert result.report.citations and result.report.unverified_claims == 0
    # The sheet's sentences are exact substrings of their blocks, at the offsets it records.
    sheet = EvidenceSheet.of(result.state["findings"][0].evidence)
    texts = sheet.block_texts
    assert sheet.sentences and all(texts[s.block_id][s.start : s.end] == s.text for s in sheet.sentences)


def test_an_endless_sentence_is_shown_cut_and_quoted_whole():
    """A table flattened into one line, or a page without full stops: the prompt stays within its
    budget, and the sentence cited by id is still quoted whole from its block."""
    endless = "Rows " + " | ".join(f"cell {i}" for i in range(2000)) + "."
    chunk = one_block_chunk(endless, "Table <b>", DocType.PDF, page=2, kind=BlockKind.TABLE)
    sheet = EvidenceSheet.of([chunk])
    shown = within_budget(sheet.sentences, sheet, 450)
    prompt = render(shown)
    assert count_tokens(prompt) < 400 and "[b1] Table &lt;b&gt;, p. 2" in prompt
    [marker] = sheet.markers(["b1.s1"], shown)
    assert marker.block_id == "d1-0001" and marker.quote == endless


@pytest.mark.parametrize(
    ("kind", "page", "section", "header"),
    [
        (DocType.PDF, 3, "Results", "[b1] Field trials, p. 3"),
        (DocType.PPTX, 4, "Quarterly results", "[b1] Field trials, slide 4 \u00a7 Quarterly results"),
        (DocType.MARKDOWN, 1, "Installation", "[b1] Field trials, \u00a7 Installation"),
        (DocType.MARKDOWN, 1, "", "[b1] Field trials\n"),
    ],
)
def test_a_prompt_locates_each_block_in_its_documents_own_units(kind, page, section, header):
    """A model is told where a sentence stands as the report will cite it: a slide and its title, a
    section of a text without pages; never "p. 1" for a Markdown file, which has no pages."""
    text = "The trial plots cooled by 2 degrees."
    chunk = one_block_chunk(text, "Field trials", kind, page=page, section=section)
    prompt = render(EvidenceSheet.of([chunk]).sentences)
    assert header in prompt and ("p. 1" in prompt) is False


def test_a_claim_with_one_shown_and_one_unknown_id_is_cited_by_the_shown_one_only(sample_library):
    def half_known(prompt: str) -> dict:
        reply = honest_answer(prompt)
        reply["claims"][0]["sentence_ids"].append("b404.s4")
        return reply

    result = run_research(
        sample_library,
        LLMStrategy(
            ScriptedChatModel(script=script_with(half_known)), "s", fallback=OfflineStrategy(sample_library.embedder)
        ),
        TOPIC,
    )
    claims = [c for s in result.state["draft"].sections for c in s.claims]
    resolved = result.state["citations"]
    assert all(sum(resolved[marker_key(m)] is None for m in c.citations) == 1 for c in claims)
    assert result.report.citations and result.report.unverified_claims == 0  # each shown with its real id


def test_a_schema_capable_server_gets_json_schema_and_never_retries(sample_library):
    with OpenAIStub(script_with()) as stub:
        strategy = select_strategy(Settings(llm=LLMSettings(base_url=stub.base_url, model="stub")), sample_library)
        with metered() as meter:
            result = run_research(sample_library, strategy, TOPIC)
        cost = meter.cost(1.0)
    assert result.report.citations
    for request in stub.requests:
        form = request["response_format"]
        assert form["type"] == "json_schema" and form["json_schema"]["strict"] is True
        schema = form["json_schema"]["schema"]
        assert schema["additionalProperties"] is False and sorted(schema["required"]) == sorted(schema["properties"])
        # Constrained decoding needs no schema in the prompt, and the conversation is never extended.
        assert "JSON schema:" not in json.dumps(request["messages"]) and len(request["messages"]) == 2
    assert cost.structured == {"json_schema": len(stub.requests)} and cost.retries == 0
    assert cost.llm_calls == len(stub.requests)
    assert set(cost.step_tokens) >= {"plan", "rerank", "answer", "synthesize"}


def test_a_server_without_schema_support_falls_back_to_parse_and_retry(sample_library):
    malformed = {"left": 1}

    def once_malformed(step: str, prompt: str):
        if step == "plan" and malformed["left"]:
            malformed["left"] -= 1
            return "Sure! Here is the plan: sub-questions follow."
        return script_with()(step, prompt)

    with OpenAIStub(once_malformed, schema_capable=False) as stub:
        strategy = select_strategy(Settings(llm=LLMSettings(base_url=stub.base_url, model="stub")), sample_library)
        with metered() as meter:
            result = run_research(sample_library, strategy, TOPIC)
        cost = meter.cost(1.0)
    assert result.report.citations and len(result.state["plan"]) == len(PLAN)
    refused = [r for r in stub.requests if "response_format" in r]
    answered = [r for r in stub.requests if "response_format" not in r]
    # Calls asked for json_schema until the server first refused it (concurrent branches may each have
    # asked once), then every call, the refused ones again, went with the schema in the prompt.
    assert 1 <= len(refused) <= len(PLAN) + 1 and all(r["response_format"]["type"] == "json_schema" for r in refused)
    assert all("JSON schema:" in r["messages"][1]["content"] for r in answered)
    assert cost.structured == {"prompt": len(answered)} and cost.retries == 1
    assert cost.llm_calls == len(stub.requests)


def test_rerank_reorders_the_evidence_and_the_answer_cites_the_top_sentence(sample_library):
    chosen: dict[str, str] = {}
    scored: dict[str, str] = {}

    def prefer_the_second(prompt: str) -> dict:
        # The second statement (the first by the pre-ranking is put below it): a question (an FAQ's heading) is no claim, and would not stand as one.
        ids = [i for i in sentence_ids_in(prompt) if not sentences_in(prompt)[i].endswith("?")]
        question = prompt.split("\n", 1)[0]
        chosen[question.split(": ", 1)[1]] = sentences_in(prompt)[ids[1]]
        scored[question.split(": ", 1)[1]] = sentences_in(prompt)[ids[0]]
        return {"scores": [{"id": ids[1], "score": 10}, {"id": ids[0], "score": 2}, {"id": "b999.s9", "score": 9}]}

    answer_prompts: list[str] = []

    def cite_the_chosen(prompt: str) -> dict:
        answer_prompts.append(prompt)
        question = prompt.split("\n", 1)[0].split(": ", 1)[1]
        sid = next(s for s, t in sentences_in(prompt).items() if t == chosen[question])
        return {"claims": [{"text": chosen[question], "sentence_ids": [sid]}], "sufficient": True, "confidence": 0.9}

    model = ScriptedChatModel(script=script_with(answer=cite_the_chosen, rerank=prefer_the_second))
    result = run_research(
        sample_library,
        LLMStrategy(
            model, "scripted", embedder=sample_library.embedder, fallback=OfflineStrategy(sample_library.embedder)
        ),
        TOPIC,
    )
    assert [s for s, _ in model.calls].count("rerank") == len(PLAN)
    for finding in result.state["findings"]:
        top = chosen[finding.sub_question.question]
        # The chunk holding the model's top sentence leads the finding's evidence now.
        assert any(top in b.text for b in finding.evidence[0].blocks)
        assert [c.rank for c in finding.evidence] == list(range(1, len(finding.evidence) + 1))
        [claim] = finding.claims
        assert claim.citations[0].quote == top
        assert result.state["citations"][marker_key(claim.citations[0])] is not None
    # The two sentences scored reach the answer's prompt, the rest of the budget filled with the
    # best of the others.
    for p in answer_prompts:
        shown = sentences_in(p)
        question = p.split("\n", 1)[0].split(": ", 1)[1]
        assert chosen[question] in shown.values() and scored[question] in shown.values()
        assert sum(count_tokens(t) + 4 for t in shown.values()) <= SERVED_EVIDENCE_TOKENS

    plain = ScriptedChatModel(script=script_with())
    off = LLMStrategy(
        plain,
        "scripted",
        embedder=sample_library.embedder,
        fallback=OfflineStrategy(sample_library.embedder),
        rerank=False,
    )
    unranked = run_research(sample_library, off, TOPIC)
    assert "rerank" not in [s for s, _ in plain.calls]
    for finding in unranked.state["findings"]:
        assert [c.rank for c in finding.evidence] == sorted(c.rank for c in finding.evidence)


@pytest.fixture(scope="module")
def qasper_paper(tmp_path_factory, models_dir, embedder):
    """One QASPER dev paper of median length (28 KB), ingested alone, with its questions."""
    papers = shared_data("qasper-dev")
    paper_id = "1912.01214"
    folder = tmp_path_factory.mktemp("qasper")
    shutil.copy(papers / "papers" / f"{paper_id}.txt", folder / f"{paper_id}.txt")
    questions = [
        q["question"] for q in json.loads((papers / "questions.json").read_text()) if q["paper_id"] == paper_id
    ]
    from corpus.library import Library

    library = Library(
        Settings(
            storage=StorageSettings(data_dir=folder / "data"), embeddings=EmbeddingSettings(models_path=models_dir)
        ),
        embedder=embedder,
    )
    library.ingest([folder / f"{paper_id}.txt"])
    yield library, questions
    library.close()


def test_a_qasper_question_costs_under_3000_tokens_with_the_default_k(qasper_paper):
    """Prompt + completion tokens per question, as the stub reports them (characters / 4 over every
    message), with re-ranking on and the default k and budgets."""
    library, questions = qasper_paper
    settings = Settings(
        llm=LLMSettings(model="stub"), storage=StorageSettings(data_dir=library.settings.storage.data_dir)
    )
    totals, answers = [], []
    with OpenAIStub(script_with()) as stub:
        strategy = select_strategy(settings.updated(llm={"base_url": stub.base_url}), library)
        for question in questions:
            with metered() as meter:
                run_research(library, strategy, question, single_question=True)
            totals.append(meter.cost(1.0).tokens)
        for request in stub.requests:
            prompt = "\n".join(m["content"] for m in request["messages"])
            if step_of(request["messages"][1]["content"]) == "answer":
                answers.append(count_tokens(prompt))
    assert len(totals) == len(questions) and max(totals) <= 3000, (totals, tokenizer_name())
    # One answer call per question, its whole prompt (rules, question, evidence) within its evidence
    # budget and ~500 tokens more.
    assert len(answers) == len(questions) and max(answers) <= SERVED_EVIDENCE_TOKENS + 500, answers


def test_a_claim_naming_its_documents_title_keeps_it_where_the_prompt_header_is_the_bare_title():
    """A text without pages or sections is headed by its title alone: a claim saying that title (its
    own sentence names its document) is not cut where a copied header ("<title>, p. 4") would be."""
    text = "The Kestrel Roof Programme requires a 10 cm substrate on every roof."
    chunk = one_block_chunk(text, "The Kestrel Roof Programme", DocType.MARKDOWN)
    sheet = EvidenceSheet.of([chunk])
    [kept] = grounded([(text, ["b1.s1"])], "What does the Kestrel Roof Programme require?", sheet, sheet.sentences)
    assert kept.claim.text == text
