"""The exceptions shared across layers: one of each, so a caller catches one type whatever raised it.

- `InputError`: input refused before it could hurt or because it cannot be used (too large, too deeply nested,
  not readable, binary, a path that cannot be checked); the message names the problem in one line. The CLI maps
  it to its usage exit code (2).
- `Cancelled`: the caller asked to stop (a cancellation event was set, or a newer request superseded this one).
- `DataProblem`: one problem in one data file (a SoC profile, the API catalogue, a knowledge entry), reported in
  lists so that a validation names every problem at once.
- `UnknownSocError`: a SoC name no profile, variant or alias carries; the message lists the known SoCs. A
  `KeyError`, so `except LookupError` callers keep catching it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class InputError(ValueError):
    """Input refused or unusable; `str()` is the one-line message to show."""


class Cancelled(Exception):
    """The caller asked to stop (a cancellation event was set, or a newer request superseded this one)."""


class UnknownSocError(KeyError):
    """A SoC name that no profile, variant or alias carries."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        self.name = name
        self.known = list(known)
        super().__init__(f"unknown SoC {name!r}; known: {', '.join(self.known)}")

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class DataProblem:
    """One problem in one data file: `field` is a dotted path such as `memory.ub_bytes` or `context.messages[2]`."""

    file: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.field}: {self.message}"

    def to_json(self) -> dict[str, str]:
        return {"file": self.file, "field": self.field, "message": self.message}
