"""Title and executive summary of the report."""

SUMMARY = """Topic: {topic}

Findings per sub-question (each claim already cited):
{findings}

Disagreements found: {disagreements}

Write a short report title and a summary of 2-4 claims that answer the topic, each claim citing the
block id and an exact quote from the evidence blocks below (reuse the quotes above where they fit).
Mention unanswered sub-questions as open in a claim with no citations only if essential.

Evidence blocks:
{evidence}

JSON schema: {schema}"""
