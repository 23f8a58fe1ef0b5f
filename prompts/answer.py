"""Answer one sub-question from evidence sentences, judge whether they suffice, and propose searches:
one call per sub-question."""

ANSWER = """Sub-question: {question}
Searches already tried: {queries}

Evidence sentences, each after its id, grouped by document and page:
{evidence}

Answer the sub-question using only these sentences, as 1-3 claims. Each claim is one sentence in your
own words, with "sentence_ids": the ids of the sentences that state it. A claim is about the
sub-question's subject, never about a document's own sections, tables, plans or code release unless
the sub-question asks about those.
Then judge the evidence: "sufficient" is true only if the sentences actually answer the sub-question;
"confidence" is 0-1. If insufficient, give 1-2 "next_queries": reformulated searches (other terms,
synonyms, narrower or broader wording) different from the searches already tried. If nothing in the
sentences is relevant, return no claims."""
