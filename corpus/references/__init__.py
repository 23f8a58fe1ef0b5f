"""Importing a reference manager's library (``prp ingest --bib``): its entries read into one typed
model (``entries``, from ``bibtex`` or ``csl_json``), each entry's attached file found
(``attachments``), and the files to ingest with the metadata each must carry (``plan``)."""
