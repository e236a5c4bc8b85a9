"""The project's error types.

Every error a user can cause is a ``TrickvisionError`` (a ``ValueError``); the CLI turns it
into a one-line message and exit code 2 instead of a traceback.
"""

from __future__ import annotations


class TrickvisionError(ValueError):
    """Base class of every error caused by bad input."""


class InvalidCardError(TrickvisionError):
    """A card could not be parsed (e.g. ``'SX'``)."""


class InvalidSeatError(TrickvisionError):
    """A seat name is not one of N, E, S, W."""


class UnknownGameError(TrickvisionError):
    """A game name is not bridge, preferans or lhombre."""


class InputFileError(TrickvisionError):
    """A file given by the user is missing, unreadable or not of the expected kind."""


class ObservationFormatError(InputFileError):
    """An observation (JSON) is malformed; the message names the file, seat and position."""


class PbnDecodeError(InputFileError):
    """A PBN file could not be read; ``lineno`` is the 1-based line of the problem."""

    def __init__(self, message: str, lineno: int | None = None, source: str = "<pbn>") -> None:
        where = f"{source}:{lineno}" if lineno is not None else source
        super().__init__(f"{where}: {message}")
        self.lineno = lineno
        self.source = source


class MissingExtraError(ImportError):
    """An optional dependency is missing; the message names the extra to install."""

    def __init__(self, module: str, extra: str) -> None:
        super().__init__(
            f"{module} is not installed; install it with: pip install 'trickvision[{extra}]'"
        )
        self.module = module
        self.extra = extra
