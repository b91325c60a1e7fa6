"""Splitting C++ text at its top-level commas: a parameter list, template arguments, a call's arguments.

Text-level, for signatures and calls that are not in a tree (the API catalogue's signatures, a host program's
launch lines). `<` and `>` count as brackets, as they do in the declarations these come from.
"""

from __future__ import annotations

_OPENING = "<([{"
_CLOSING = ">)]}"


def split_top_level(text: str) -> list[str]:
    """The parts of `text` between the commas outside <>, (), [] and {}, stripped; [] for blank text, so the
    length is the number of arguments. Empty parts (`a,,b`, a trailing comma) are kept as ""."""
    if not text.strip():
        return []
    parts: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in _OPENING:
            depth += 1
        elif ch in _CLOSING:
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts
