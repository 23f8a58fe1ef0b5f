"""nodes layer of prp."""
