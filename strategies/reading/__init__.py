"""The reading core: text understanding that both modes share.

``judge`` decides what a sentence states (the one judgement behind sufficiency, yes/no leads,
disagreements, a model's grounding and the citation node's support flag), with its hard checks in
``claim_checks``; ``numbers`` reads quantities with their units and bounds; ``vectors`` caches the
embedder's dense vectors for the meaning comparisons.
"""
