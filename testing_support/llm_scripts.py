"""A scripted research run on the sample corpus, for the scripted LLMs (``llm_fakes``).

``script_with`` answers every step of a green-roof report: a fixed plan (``PLAN``), no re-ranking
preference unless asked (``rerank``), answers that cite the first substantial evidence sentence of
their prompt by its id (or whatever ``answer`` returns), no contradictions unless asked, and a summary
citing a sentence. The LLM-mode tests vary one step; ``benchmarks/report_runs.py`` counts the calls of
a whole run.
"""

from __future__ import annotations

import html
import re

PLAN = [
    ("How much do green roofs lower street-level air temperature?", "Heat relief for pedestrians."),
    ("How much annual rainfall do extensive green roofs retain?", "Stormwater management."),
    ("Which spiders live on green roofs?", "Biodiversity value."),
]


def sentences_in(prompt: str) -> dict[str, str]:
    """The evidence sentences a prompt shows, by id, as the documents write them."""
    return {sid: html.unescape(text) for sid, text in re.findall(r"^(b\d+\.s\d+) (.*)$", prompt, re.M)}


def plan_reply(_prompt: str) -> dict:
    return {"sub_questions": [{"question": q, "rationale": r} for q, r in PLAN]}


def substantial_sentence(prompt: str) -> tuple[str, str]:
    """The first statement of six words or more (a heading or a label says little, a question states
    nothing)."""
    sentences = sentences_in(prompt)
    return next(
        ((s, t) for s, t in sentences.items() if len(t.split()) >= 6 and not t.endswith("?")),
        next(iter(sentences.items())),
    )


def honest_answer(prompt: str) -> dict:
    """Cite the first substantial sentence by its id, restating it."""
    sid, text = substantial_sentence(prompt)
    return {
        "claims": [{"text": f"The sources say: {text}", "sentence_ids": [sid]}],
        "sufficient": True,
        "confidence": 0.8,
        "next_queries": [],
    }


def no_preference(_prompt: str) -> dict:
    """A re-ranking that scores nothing: the answer is written from the pre-ranked sentences."""
    return {"scores": []}


def summary_reply(prompt: str) -> dict:
    sid, text = substantial_sentence(prompt)
    return {
        "title": "Green roofs: what the library says",
        "summary": [{"text": f"In summary: {text}", "sentence_ids": [sid]}],
    }


def script_with(answer=honest_answer, contradictions=None, rerank=no_preference):
    def script(step: str, prompt: str):
        if step == "plan":
            return plan_reply(prompt)
        if step == "rerank":
            return rerank(prompt)
        if step == "answer":
            return answer(prompt)
        if step == "contradictions":
            return contradictions(prompt) if contradictions else {"contradictions": []}
        if step == "summary":
            return summary_reply(prompt)
        if step == "read":
            return {"verdicts": []}  # a second reader with no opinion: the judge's verdicts stand
        raise AssertionError(f"unexpected prompt: {prompt[:200]}")

    return script
