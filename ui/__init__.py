"""ui layer of prp."""
