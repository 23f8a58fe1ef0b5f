"""Artifacts of a finished research run: evidence table, annotated bibliography, report as Markdown
and PDF, contradiction map. The research chat, the API and ``prp export`` all write them through here."""
