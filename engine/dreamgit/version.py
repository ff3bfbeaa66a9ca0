"""The one place dreamgit's version is written; packaging and ``--version`` read it here."""

__all__ = ["__version__"]

__version__ = "0.1.0"
