"""Pack retrieved evidence into a prompt: each block once, with per-block and total budgets."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from corpus.models import BlockKind
from corpus.retrieval import RetrievedChunk

# Characters, not tokens: prompts mix models with different tokenizers, and ~4 chars per token
# keeps the defaults (about 300 tokens a block, 3,000 a prompt) well inside small local models.
BLOCK_BUDGET = 1200
TOTAL_BUDGET = 12000


def pack_evidence(
    chunks: Iterable[RetrievedChunk], block_budget: int = BLOCK_BUDGET, total_budget: int = TOTAL_BUDGET
) -> str:
    """Blocks in rank order; overlapping chunks share blocks, so each block id appears once."""
    seen: set[str] = set()
    parts: list[str] = []
    used = 0
    for chunk in chunks:
        for block in chunk.blocks:
            if block.block_id in seen or block.kind is BlockKind.REFERENCE:
                continue
            seen.add(block.block_id)
            text = block.text if len(block.text) <= block_budget else block.text[:block_budget] + " ..."
            part = (
                f'<document_block id="{block.block_id}" title="{escape(chunk.title)}" page="{block.page}">\n'
                f"{escape(text, quote=False)}\n</document_block>"
            )
            if used + len(part) > total_budget:
                return "\n".join(parts)
            parts.append(part)
            used += len(part)
    return "\n".join(parts)
