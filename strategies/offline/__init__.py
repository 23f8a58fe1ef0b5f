"""Offline mode: deterministic research strategies that need no language model.

Modules, one job each: ``text`` (stopwords, stems, sentence filters), ``keyphrases`` (noun-phrase
n-grams scored by frequency x specificity), ``planning`` (templates + keyphrases -> sub-questions),
``extractive`` (relevant, non-redundant sentences quoted verbatim), ``assessment`` (confidence,
reformulations, gap suggestions), ``numbers`` (quantities with units and ranges),
``contradictions`` (numeric/date/negation disagreements between documents), ``vectors`` (cached
dense embeddings) and ``strategy`` (``OfflineStrategy``, the ``ResearchStrategy`` implementation).
"""
