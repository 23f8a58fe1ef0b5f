"""Re-rank the candidate sentences of one sub-question for relevance, in one call."""

RERANK = """Rate the candidate sentences for this sub-question: {question}

Candidate sentences, each after its id:
{evidence}

Score how much each sentence helps answer the sub-question, from 0 (not at all) to 10 (states the
answer). List only sentences scoring 1 or more, best first, at most {limit}, each as its "id" and
"score"."""
