"""Format loaders. Each turns one file's content into a ``LoadedDocument`` or raises ``LoadError``."""
