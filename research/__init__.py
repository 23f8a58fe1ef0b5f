"""The research vocabulary: the graph's state, the report, the run's options and context, and the
strategy protocol. Nodes, strategies, the graph, the UI and evals all speak it; it imports none of
them (only the corpus and the tools below it)."""
