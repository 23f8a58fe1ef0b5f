"""Month names as English dates write them: whole, abbreviated, with or without a full stop."""

from __future__ import annotations

import re

# Source: hand-kept, general English. A regular-expression group, case as written ("May", "Sept.").
MONTH_PATTERN = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
    r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
# One word that is a month name, in any case.
MONTH_WORD = re.compile(rf"^{MONTH_PATTERN}$", re.IGNORECASE)
