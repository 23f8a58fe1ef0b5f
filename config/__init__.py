"""prp's settings: the ground floor every layer reads, importing nothing of the project.

``Settings`` is built once where a process starts (the CLI, the service, Studio's graph, a script)
and passed down; see ``config.settings``. ``python -m config.docs`` writes the table of
docs/configuration.md from the fields' own descriptions.
"""

from config.settings import (
    DEFAULT_EMBED_MODEL,
    STEPS,
    EmbeddingSettings,
    ExportSettings,
    IndexSettings,
    IngestSettings,
    LimitSettings,
    LLMSettings,
    LocalLLMSettings,
    ServiceSettings,
    Settings,
    Step,
    StorageSettings,
)

__all__ = [
    "DEFAULT_EMBED_MODEL",
    "STEPS",
    "EmbeddingSettings",
    "ExportSettings",
    "IndexSettings",
    "IngestSettings",
    "LLMSettings",
    "LimitSettings",
    "LocalLLMSettings",
    "ServiceSettings",
    "Settings",
    "Step",
    "StorageSettings",
]
