"""The reading core: text understanding that both modes and the graph's checks share.

It never imports a strategy (the offline or the LLM package): they read through it.
Modules, one job each:

- ``text``: stopwords, light stems, content words and the sentence filters.
- ``wording``: whether a text is worded as a question.
- ``keyphrases``: noun-phrase n-grams scored by frequency x specificity.
- ``question_types``: what a question asks for, a typed value (and which type) or a description.
- ``numbers``: quantities with their units and bounds, and when two of them conflict.
- ``vectors``: the embedder's dense vectors behind a cache, and the judge's meaning comparisons.
- ``passages``: chosen sentences quoted as passages (the sentence a reference leans on, a list's items).
- ``extractive``: the evidence's most relevant, non-redundant sentences, scored and chosen.
- ``signals``: how well the evidence answers a question, measured, and whether it covers its words.
- ``answer_phrase``: the short answer a sentence gives to a question.
- ``subjects``: what a statement is about beyond what the question names.
- ``document_answers``: what each document answers to a question, and where documents answer differently.
- ``judge``: what a sentence states, the one judgement behind sufficiency, yes/no leads, disagreements,
  a model's grounding and the citation node's support flag.
- ``claim_checks``: the judge's hard checks (figures, names, negations).
- ``answerhood``: whether sentences answer a question (a question is no claim).
- ``identifier_lines``: a lookup of an identifier answered by the record line or table row holding it.
- ``report_reader``: what the graph's nodes read through the strategy (``research.strategy.ReportReading``).
"""
