"""Find where the sources disagree."""

CONTRADICTIONS = """Topic: {topic}

Evidence sentences from several documents, each after its id:
{evidence}

List the places where two DIFFERENT documents disagree about the same thing: conflicting numbers,
dates, or one asserting what the other denies. Differences in scope that do not conflict are not
disagreements. For each, give the subject, a one-sentence explanation, and each side as a claim with
the "sentence_ids" that state it. Return an empty list if there is no disagreement."""
