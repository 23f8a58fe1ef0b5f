"""Errors the corpus layer reports to people, each with a message meant to be read as is."""


class PrpError(Exception):
    """Base class: the message is a complete, user-facing explanation."""


class LoadError(PrpError):
    """A file could not be turned into blocks (corrupt, encrypted, empty or unsupported)."""


class StoreLockedError(PrpError):
    """The embedded index is held by another process."""


class ConfigError(PrpError):
    """A setting or a local model file is missing or wrong."""


class ReferenceImportError(PrpError):
    """A reference manager's export (``prp ingest --bib``) is missing, unreadable or in no format prp reads."""


class RefusedPathError(PrpError):
    """A path an ingest may not be given: the library's own data or models directory."""


class DiskFullError(PrpError):
    """The library's disk has less free space than an ingest keeps (``corpus.disk_space``)."""
