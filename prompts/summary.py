"""Title and executive summary of the report."""

SUMMARY = """Topic: {topic}

Findings per sub-question (each claim followed by the ids of the sentences it cites):
{findings}

Disagreements found: {disagreements}

Write a short report title and a summary of 2-4 claims that answer the topic, each claim one short,
whole sentence, with the "sentence_ids" of the evidence sentences below that state it (reuse the findings' ids where they fit).
Mention unanswered sub-questions as open in a claim with no sentence ids only if essential.

Evidence sentences:
{evidence}"""
