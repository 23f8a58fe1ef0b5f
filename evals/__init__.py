"""evals layer of prp."""
