"""A retry in LLM mode shows the model what the reformulated searches added, not again what it read
and found insufficient; a retry that found nothing new asks the model nothing. Only the model is
scripted; the offline fallback and its embedder run for real on made-up chunks."""

from __future__ import annotations

from corpus.models import Block, BlockKind, DocType
from corpus.retrieval import RetrievedChunk
from research.strategy import SubQuestion
from strategies.llm.selection import count_tokens
from strategies.llm.strategy import LLMStrategy
from strategies.offline.strategy import OfflineStrategy
from testing_support.llm_fakes import ScriptedChatModel
from testing_support.llm_scripts import script_with, sentences_in

QUESTION = "How long does a green roof membrane last?"
TEXTS = (
    "A green roof membrane is protected from sunlight and frost by the layers above it.",
    "Under a green roof, a membrane can serve for about forty years before it needs replacing.",
)


def chunks() -> list[RetrievedChunk]:
    out = []
    for n, text in enumerate(TEXTS, 1):
        block = Block(block_id=f"d{n}-0001", doc_id=f"d{n}", seq=1, page=1, kind=BlockKind.PARAGRAPH, text=text)
        out.append(
            RetrievedChunk(
                chunk_id=f"c{n}",
                doc_id=f"d{n}",
                title=f"Roofs {n}",
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
    return out


def asking(embedder) -> tuple[LLMStrategy, list[str]]:
    prompts: list[str] = []

    def answer(prompt: str) -> dict:
        prompts.append(prompt)
        sid = next((s for s, t in sentences_in(prompt).items() if "forty" in t), None)
        claims = [{"text": "A membrane under a green roof lasts about forty years.", "sentence_ids": [sid]}]
        return {"claims": claims if sid else [], "sufficient": bool(sid), "confidence": 0.9, "next_queries": []}

    model = ScriptedChatModel(script=script_with(answer))
    return LLMStrategy(model, "s", embedder=embedder, fallback=OfflineStrategy(embedder)), prompts


def test_a_retry_shows_only_the_sentences_its_searches_added(embedder):
    strategy, prompts = asking(embedder)
    question = SubQuestion(id="q1", question=QUESTION, rationale="")
    answer = strategy.answer(question, chunks(), [QUESTION, "membrane lifetime"], read=frozenset({"c1"}))
    [prompt] = prompts
    assert list(sentences_in(prompt).values()) == [TEXTS[1]]
    assert answer.sufficient and "forty" in answer.claims[0].text
    assert {c.chunk_id for c in answer.evidence} == {"c1", "c2"}  # the finding keeps all its evidence


def test_a_retry_that_found_nothing_new_asks_the_model_nothing(embedder):
    strategy, prompts = asking(embedder)
    question = SubQuestion(id="q1", question=QUESTION, rationale="")
    answer = strategy.answer(question, chunks(), [QUESTION, "membrane lifetime"], read=frozenset({"c1", "c2"}))
    assert prompts == []
    # The documents' own sentences stand, as offline mode reads them.
    assert answer.claims and all(c.citations[0].quote in TEXTS for c in answer.claims)


def test_a_retry_reads_in_half_the_budget(embedder):
    long = " ".join(f"Membrane sample {n} was inspected after {n + 5} years on the roof." for n in range(40))
    evidence = chunks()
    evidence[1] = evidence[1].model_copy(
        update={"text": long, "blocks": [evidence[1].blocks[0].model_copy(update={"text": long})]}
    )
    shown: dict[str, int] = {}
    for name, read in (("first", frozenset()), ("retry", frozenset({"c1"}))):
        strategy, prompts = asking(embedder)
        strategy.evidence_tokens = 200
        strategy.answer(SubQuestion(id="q1", question=QUESTION, rationale=""), evidence, [QUESTION], read=read)
        shown[name] = sum(count_tokens(t) + 4 for t in sentences_in(prompts[-1]).values())
    assert shown["retry"] <= 100 < shown["first"] <= 200, shown
