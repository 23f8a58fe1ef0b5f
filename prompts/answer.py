"""Answer one sub-question from evidence blocks, and judge whether the evidence suffices."""

ANSWER = """Sub-question: {question}
Searches already tried: {queries}

Evidence blocks:
{evidence}

Answer the sub-question using only these blocks, as 1-5 claims. Each claim is one sentence in your
own words with one or more citations; each citation gives the block id and an exact quote (a sentence
or clause copied verbatim from that block) that supports the claim.
Then judge the evidence: "sufficient" is true only if the blocks actually answer the sub-question;
"confidence" is 0-1. If insufficient, give 1-2 "next_queries": reformulated searches (other terms,
synonyms, narrower or broader wording) different from the searches already tried. If nothing in the
blocks is relevant, return no claims.

JSON schema: {schema}"""
