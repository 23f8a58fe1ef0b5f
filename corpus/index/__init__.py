"""The chunk index: one Qdrant collection schema and query builder, two engines behind it.

``schema`` writes the collection config, points and queries once, in Qdrant's own API models;
``edge`` runs them on Qdrant's embedded engine (the default, one directory under the data dir);
``client`` sends them to a Qdrant server or cluster through qdrant-client (``QDRANT_URL``);
``store`` is what the rest of prp uses; ``legacy`` moves a library built by qdrant-client's local mode.
"""
