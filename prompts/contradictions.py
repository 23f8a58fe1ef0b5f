"""Find where the sources disagree."""

CONTRADICTIONS = """Topic: {topic}

Evidence blocks from several documents:
{evidence}

List the places where two DIFFERENT documents disagree about the same thing: conflicting numbers,
dates, or one asserting what the other denies. Differences in scope that do not conflict are not
disagreements. For each, give the subject, a one-sentence explanation, and each side as a claim with
its block id and an exact quote from that block. Return an empty list if there is no disagreement.

JSON schema: {schema}"""
