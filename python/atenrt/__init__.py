"""atenrt Python side: export torch modules to `.pt2` archives for the atenrt compiler."""
from .errors import ExportError
from .export import LAYOUTS, export, save

__all__ = ["save", "export", "ExportError", "LAYOUTS"]
