"""evals layer of prp: ``prp eval`` and the scoring functions benchmarks share.

datasets (loaders) -> target (one research run per example) -> evaluators (LangSmith evaluator
functions over metrics) -> runner (``langsmith.evaluate``) -> report (JSONL, summary, Markdown, charts).
"""
