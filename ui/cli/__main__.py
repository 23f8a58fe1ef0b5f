"""``python -m ui.cli``: the ``prp`` command."""

import sys

from ui.cli.main import main

sys.exit(main())
