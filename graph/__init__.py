"""graph layer of prp."""
