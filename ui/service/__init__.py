"""The research service (``prp serve``): one web app — the REST API and the research chat behind one
access guard — as LangGraph's server loads it."""
