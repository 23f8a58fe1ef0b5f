"""Artifacts of a finished research run: evidence table, annotated bibliography, report as Markdown
and PDF, contradiction map. The research chat and ``prp export`` both write them through here."""
