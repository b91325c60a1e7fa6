"""A scanner for C++ source text shared by the lowering passes (lower.py, simt.py): which characters are code
(comments and string/character literals skipped, raw strings and digit separators recognised) and where a bracket
closes."""

from __future__ import annotations

import re
from collections.abc import Mapping


class LoweringError(ValueError):
    """A launch the pass cannot rewrite (unbalanced brackets, no argument list): message names the line."""


def code_mask(text: str) -> bytearray:
    """1 for each character that is code, 0 inside comments and string/character literals (their quotes too)."""
    n = len(text)
    mask = bytearray(b"\x01") * n
    i = 0
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = i
            while j < n and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n":
                    j += 1  # a backslash-continued // comment goes on
                j += 1
            mask[i:j] = bytes(j - i)
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            mask[i:j] = bytes(j - i)
            i = j
        elif c == '"':
            raw_end = _raw_string_end(text, i)
            j = raw_end if raw_end is not None else _quoted_end(text, i, '"')
            mask[i:j] = bytes(j - i)
            i = j
        elif c == "'":
            if _is_digit_separator(text, i):
                i += 1
                continue
            j = _quoted_end(text, i, "'")
            mask[i:j] = bytes(j - i)
            i = j
        else:
            i += 1
    return mask


def _quoted_end(text: str, i: int, quote: str) -> int:
    j = i + 1
    n = len(text)
    while j < n:
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == quote:
            return j + 1
        if ch == "\n":  # unterminated on this line: stop here rather than swallow the file
            return j
        j += 1
    return n


_RAW_PREFIX = re.compile(r"(?:u8|u|U|L)?R$")


def _raw_string_end(text: str, i: int) -> int | None:
    """End of a raw string literal whose opening quote is at i (R"delim( ... )delim"), else None."""
    if not _RAW_PREFIX.search(text[max(0, i - 3) : i]):
        return None
    k = i - 1
    while k >= 0 and (text[k].isalnum() or text[k] == "_"):
        k -= 1
    word = text[k + 1 : i]
    if not re.fullmatch(r"(?:u8|u|U|L)?R", word):
        return None
    paren = text.find("(", i + 1)
    if paren < 0 or paren - i - 1 > 16:
        return None
    delim = text[i + 1 : paren]
    close = text.find(")" + delim + '"', paren + 1)
    return len(text) if close < 0 else close + len(delim) + 2


def _is_digit_separator(text: str, i: int) -> bool:
    """A C++14 digit separator (1'000'000): the quote follows a pp-number that starts with a digit."""
    k = i - 1
    while k >= 0 and (text[k].isalnum() or text[k] in "_.'"):
        k -= 1
    word = text[k + 1 : i]
    return bool(word) and word[0].isdigit() and i + 1 < len(text) and text[i + 1].isalnum()


OPENING_BRACKETS = {"(": ")", "[": "]", "{": "}"}


def matching(text: str, mask: bytearray, i: int) -> int:
    """Index just past the bracket matching text[i] ((, [ or {)."""
    stack = [OPENING_BRACKETS[text[i]]]
    j = i + 1
    n = len(text)
    while j < n:
        if mask[j]:
            ch = text[j]
            if ch in OPENING_BRACKETS:
                stack.append(OPENING_BRACKETS[ch])
            elif ch in ")]}":
                if not stack or ch != stack[-1]:
                    raise LoweringError(f"unbalanced '{ch}'")
                stack.pop()
                if not stack:
                    return j + 1
        j += 1
    raise LoweringError(f"no closing '{OPENING_BRACKETS[text[i]]}'")


_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")
_DEFINED_TEST = re.compile(r"^\s*(!?)\s*defined\s*(?:\(\s*(\w+)\s*\)|\s(\w+))\s*$")
_VALUE_TEST = re.compile(r"^\s*\(?\s*([A-Za-z_]\w*)\s*(==|!=)\s*(-?\d+)[uUlL]*\s*\)?\s*$")


def inactive_branches_blanked(text: str, defined: Mapping[str, str | None], undefined: set[str]) -> str:
    """`text` with the lines of preprocessor branches that are certainly not compiled replaced by empty lines
    (line numbers kept). Decided: `#ifdef X`, `#ifndef X`, `#if [!]defined(X)`, `#if X == N` / `X != N` and their
    `#elif`/`#else`, for macros known to be defined (`defined`: name -> value, None without one) or undefined.
    Any other condition may hold, as far as a text scan knows: its branch is kept and later ones stay possible."""
    # One frame per open #if: (the enclosing branch is active, a branch of this #if is certainly taken).
    stack: list[tuple[bool, bool]] = []
    active = True
    out: list[str] = []
    for line in text.split("\n"):
        m = _DIRECTIVE.match(line)
        if m is None:
            out.append(line if active else "")
            continue
        kind, rest = m.group(1), m.group(2).split("//")[0].split("/*")[0]
        if kind in ("if", "ifdef", "ifndef"):
            verdict = _decide(kind, rest, defined, undefined)
            stack.append((active, verdict is True))
            active = active and verdict is not False
        elif kind == "elif" and stack:
            outer, taken = stack[-1]
            verdict = None if taken else _decide("if", rest, defined, undefined)
            active = outer and not taken and verdict is not False
            stack[-1] = (outer, taken or verdict is True)
        elif kind == "else" and stack:
            outer, taken = stack[-1]
            active = outer and not taken
            stack[-1] = (outer, True)
        elif kind == "endif" and stack:
            active = stack.pop()[0]
        out.append(line)
    return "\n".join(out)


def _decide(kind: str, rest: str, defined: Mapping[str, str | None], undefined: set[str]) -> bool | None:
    if kind in ("ifdef", "ifndef"):
        name, negate = rest.strip(), kind == "ifndef"
    else:
        v = _VALUE_TEST.match(rest)
        if v is not None:
            value = defined.get(v.group(1))
            if value is None or not re.fullmatch(r"-?\d+", value.strip()):
                return None
            return (int(value) == int(v.group(3))) == (v.group(2) == "==")
        m = _DEFINED_TEST.match(rest)
        if m is None:
            return None
        name, negate = m.group(2) or m.group(3), m.group(1) == "!"
    if name in defined:
        return not negate
    if name in undefined:
        return negate
    return None
