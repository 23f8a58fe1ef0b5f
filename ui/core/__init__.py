"""The application core: what prp does with a library (``portal.Portal``), done in this process
(``local``) or asked of a running service (``remote``), and the vocabulary the surfaces share — jobs,
uploads, conversations, exports, the report as JSON."""
