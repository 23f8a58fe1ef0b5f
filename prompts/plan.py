"""Decompose a topic into sub-questions."""

PLAN = """Research topic (from the researcher): {topic}

Decompose the topic into {min_questions} to {max_questions} sub-questions that together cover it: the
facets the researcher named, plus what a careful reviewer would check (mechanisms, measured effects,
limitations, disagreements). Each sub-question must be answerable from documents, specific, and
distinct from the others, and a whole question that names the topic's subject in full (never a
fragment of it). For each, give a one-sentence rationale: why it matters for the topic."""

SINGLE = """Question (from the researcher): {topic}

Restate it as one precise, self-contained sub-question with a one-sentence rationale."""
