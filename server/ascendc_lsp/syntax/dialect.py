"""The AscendC dialect layer: same-length rewrites that let tree-sitter-cpp parse AscendC.

Every rewrite keeps the buffer length and every newline in place, so node offsets in the tree are
offsets in the user's text. What is rewritten is data (`grammars/ascendc/dialect.yaml`), validated on load.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from ascendc_lsp.resources import grammar_dir


class DialectError(ValueError):
    """The dialect file is missing or malformed; the message names the file and field."""


@dataclass(frozen=True)
class Dialect:
    qualifiers: tuple[str, ...]
    function_like_qualifiers: tuple[str, ...]
    bracket_attributes: tuple[str, ...]
    condition_macros: tuple[str, ...]
    rewrite_launch_brackets: bool

    def compile(self) -> DialectRewriter:
        return DialectRewriter(self)


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _names(raw: dict[str, object], key: str, path: Path) -> tuple[str, ...]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and _IDENT.match(v) for v in value):
        raise DialectError(f"{path}: field '{key}' must be a list of identifiers")
    return tuple(value)


def load_dialect(path: Path | None = None) -> Dialect:
    path = path or grammar_dir() / "dialect.yaml"
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DialectError(f"{path}: cannot read the dialect file ({exc.strerror})") from exc
    except yaml.YAMLError as exc:
        raise DialectError(f"{path}: not valid YAML ({exc})") from exc
    if not isinstance(raw, dict):
        raise DialectError(f"{path}: expected a mapping at the top level")
    launch = raw.get("rewrite_launch_brackets", True)
    if not isinstance(launch, bool):
        raise DialectError(f"{path}: field 'rewrite_launch_brackets' must be true or false")
    return Dialect(
        qualifiers=_names(raw, "qualifiers", path),
        function_like_qualifiers=_names(raw, "function_like_qualifiers", path),
        bracket_attributes=_names(raw, "bracket_attributes", path),
        condition_macros=_names(raw, "condition_macros", path),
        rewrite_launch_brackets=launch,
    )


def _blank(match: re.Match[bytes]) -> bytes:
    # Keep newlines so line numbers survive a multi-line match.
    return re.sub(rb"[^\n]", b" ", match.group(0))


class DialectRewriter:
    """Applies the dialect's rewrites to a UTF-8 buffer in one pass per rewrite kind."""

    def __init__(self, dialect: Dialect) -> None:
        alternatives: list[bytes] = []
        if dialect.function_like_qualifiers:
            names = b"|".join(re.escape(n.encode()) for n in dialect.function_like_qualifiers)
            alternatives.append(rb"\b(?:" + names + rb")\s*\([^()\n]*\)")
        if dialect.qualifiers:
            names = b"|".join(re.escape(n.encode()) for n in dialect.qualifiers)
            alternatives.append(rb"\b(?:" + names + rb")\b")
        if dialect.bracket_attributes:
            names = b"|".join(re.escape(n.encode()) for n in dialect.bracket_attributes)
            # `[aicore]` before a declaration; never an array subscript (no identifier or `]` before it).
            alternatives.append(rb"(?<![\w\]\)])\[(?:" + names + rb")\](?=\s*[A-Za-z_])")
        self._blank_re = re.compile(b"|".join(alternatives)) if alternatives else None
        self._condition_re = re.compile(rb"\bif(\s+)([A-Z_][A-Z0-9_]*)(\([^()\n]*\))?(?=\s*\{)")
        self._launch_re = re.compile(rb"<<<([^;{}]*?)>>>", re.S) if dialect.rewrite_launch_brackets else None

    def rewrite(self, data: bytes) -> bytes:
        """Return `data` rewritten; the result has exactly the same length and newline positions."""
        out = data
        if self._blank_re is not None and (b"__" in out or b"[" in out):
            out = self._blank_re.sub(_blank, out)
        if b"if " in out or b"if\t" in out:
            out = self._condition_re.sub(self._parenthesise, out)
        if self._launch_re is not None and b"<<<" in out:
            out = self._launch_re.sub(self._launch_to_comment, out)
        return out

    @staticmethod
    def _parenthesise(match: re.Match[bytes]) -> bytes:
        space, name, args = match.group(1), match.group(2), match.group(3) or b""
        if len(name) < 3:
            return match.group(0)
        # `NAME(args)` -> `(AME(args))` drops two characters of the name for the two parentheses;
        # `NAME` -> `(AM)` likewise. The model reads names from the original text, not from this buffer.
        rewritten = b"(" + name[2:] + args + b")" if args else b"(" + name[1:-1] + b")"
        return b"if" + space + rewritten

    @staticmethod
    def _launch_to_comment(match: re.Match[bytes]) -> bytes:
        inner = match.group(1).replace(b"*/", b"  ")
        return b"/*<" + inner + b">*/"


@cache
def default_rewriter() -> DialectRewriter:
    return load_dialect().compile()


def rewrite(data: bytes) -> bytes:
    """Rewrite with the shipped dialect file."""
    return default_rewriter().rewrite(data)
