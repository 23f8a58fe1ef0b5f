"""tools layer of prp."""
