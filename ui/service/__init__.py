"""The research service (`prp serve`): jobs, the REST API, the served app."""
