"""A scripted research run on the sample corpus, for the scripted LLMs (``llm_fakes``).

``script_with`` answers every step of a green-roof report: a fixed plan (``PLAN``), answers that
quote the first substantial block of their prompt verbatim with its true id (or whatever ``answer``
returns), no contradictions unless asked, and a summary citing a block. The LLM-mode tests vary one
step; ``benchmarks/report_runs.py`` counts the calls of a whole run.
"""

from __future__ import annotations

import html
import re

PLAN = [
    ("How much do green roofs lower street-level air temperature?", "Heat relief for pedestrians."),
    ("How much annual rainfall do extensive green roofs retain?", "Stormwater management."),
    ("Which spiders live on green roofs?", "Biodiversity value."),
]


def blocks_in(prompt: str) -> dict[str, str]:
    found = re.findall(r'<document_block id="([^"]+)"[^>]*>\n(.*?)\n</document_block>', prompt, re.S)
    return {block_id: html.unescape(text) for block_id, text in found}


def first_sentence(text: str) -> str:
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) >= 6]
    return (sentences or [text])[0]


def plan_reply(_prompt: str) -> dict:
    return {"sub_questions": [{"question": q, "rationale": r} for q, r in PLAN]}


def substantial_block(prompt: str) -> tuple[str, str]:
    return next((b, t) for b, t in blocks_in(prompt).items() if len(t.split()) >= 8)


def honest_answer(prompt: str) -> dict:
    """Cite the first substantial block verbatim, with its true id."""
    block_id, text = substantial_block(prompt)
    quote = first_sentence(text)
    return {
        "claims": [{"text": f"The sources say: {quote}", "citations": [{"block_id": block_id, "quote": quote}]}],
        "sufficient": True,
        "confidence": 0.8,
        "next_queries": [],
    }


def summary_reply(prompt: str) -> dict:
    block_id, text = substantial_block(prompt)
    return {
        "title": "Green roofs: what the library says",
        "summary": [{"text": "Summary claim.", "citations": [{"block_id": block_id, "quote": first_sentence(text)}]}],
    }


def script_with(answer=honest_answer, contradictions=None):
    def script(step: str, prompt: str):
        if step == "plan":
            return plan_reply(prompt)
        if step == "answer":
            return answer(prompt)
        if step == "contradictions":
            return contradictions(prompt) if contradictions else {"contradictions": []}
        if step == "summary":
            return summary_reply(prompt)
        raise AssertionError(f"unexpected prompt: {prompt[:200]}")

    return script
