"""prp as a Python library, for scripts and notebooks: open a library (the one a running ``prp serve``
holds, or one opened in this process), then ingest, search, ask, report, list documents, cite a
block and export a run — the application core (``ui.core.portal``) that the CLI, the REST API, the
chat and the MCP server all use, returning the REST API's own pydantic models.

    import prp

    with prp.open_library("~/research/.prp") as library:
        library.ingest(["~/research/papers"])
        for passage in library.search("stormwater retention", k=3).results:
            print(passage.title, passage.pages, passage.score)
        answer = library.ask("How much rain do green roofs retain?")
        print(answer.markdown)

docs/python-api.md has a longer example, run as it is by the tests.
"""

from corpus.errors import PrpError
from prp.library import ResearchLibrary, open_library

__all__ = ["PrpError", "ResearchLibrary", "open_library"]
