"""The ``prp`` command line: parses, then runs each command over the core."""
