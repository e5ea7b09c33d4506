"""Errors raised by the atenrt exporter."""


class ExportError(RuntimeError):
    """The module cannot be exported to the atenrt .pt2 IR; the message says which part and why."""
