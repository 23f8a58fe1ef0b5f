"""Offline mode: the deterministic research strategy that needs no language model.

It decides; the reading core (``strategies.reading``) reads. Modules, one job each:

- ``strategy``: ``OfflineStrategy``, the ``ResearchStrategy`` implementation (and LLM mode's fallback).
- ``planning``: a topic split into 3-6 sub-questions, from templates and keyphrases.
- ``assessment``: is the evidence enough (the calibrated confidence), reformulations, gap suggestions.
- ``contradictions``: numeric, date and negation disagreements between documents.
- ``follow_up``: a follow-up question read as a standalone one.
"""
