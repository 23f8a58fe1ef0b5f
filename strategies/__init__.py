"""How research gets done: the offline (deterministic) and LLM strategies, and which one a run uses.

Both implement ``research.strategy.ResearchStrategy``; the graph and its nodes never know which mode
they run in.
"""
