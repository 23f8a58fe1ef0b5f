"""prp's top floor: the application core (``ui.core``) and the surfaces over it — the command line
(``ui.cli``), the research chat (``ui.chat``), the REST API (``ui.api``) — and the process that
serves the last two (``ui.service``)."""
