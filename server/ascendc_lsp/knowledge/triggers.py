"""Message triggers as templates: placeholders for what varies between reports, one normal form for logs.

An entry's `context.messages` item is a Python regex (case-insensitive) in which these placeholders stand for
the parts that differ from one report to the next, so a trigger describes a family of messages, not one:

| placeholder | matches | example |
|---|---|---|
| `{id}` | an identifier | `expf`, `inQueueX` |
| `{qid}` | an identifier with optional namespaces / template arguments | `optiling::AddTilingData`, `AscendC::TPipe`, `LocalTensor<half>` |
| `{type}` | a C++ type as compilers print it | `const struct gert::Shape*`, `const GlobalTensor<float>` |
| `{num}` / `{int}` / `{hex}` | a decimal / a decimal or hex integer / a hex value | `131072`, `0x800000` |
| `{path}` | a file path or name (no spaces) | `op_host/add_custom.cpp` |
| `{q}` | any quote compilers print (`'`, `‘`, `’`, `"`, backtick) | |
| `{code}` | a 6-digit runtime code | `507035` |
| `{any}` | anything on the line (lazy) | |

Logs are normalised before matching (`normalise_log`): typographic quotes become `'` and `"`, so a template
written with `'` also matches g++'s `‘...’`. Other `{...}` (regex repetitions such as `{2,3}`) are left alone.
"""

from __future__ import annotations

import re

PLACEHOLDERS: dict[str, str] = {
    "id": r"[A-Za-z_]\w*",
    "qid": r"(?:[A-Za-z_]\w*::)*[A-Za-z_]\w*(?:<[^<>()]*>)?",
    "type": r"(?:const\s+)?(?:(?:struct|class|enum)\s+)?(?:[A-Za-z_]\w*::)*[A-Za-z_]\w*(?:<[^<>()]*>)?(?:\s*const)?\s*[*&]*",
    "num": r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?",
    "int": r"(?:0x[0-9a-fA-F]+|\d+)",
    "hex": r"0x[0-9a-fA-F]+",
    "path": r"[^\s:'\"()\[\]]+",
    "q": r"['‘’\"`]",
    "code": r"\d{6}",
    "any": r"[^\n]*?",
}
_PLACEHOLDER_RE = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "`": "'"})


def expand_template(template: str) -> str:
    """The regex a trigger template stands for (placeholders replaced by their regexes)."""
    return _PLACEHOLDER_RE.sub(lambda m: f"(?:{PLACEHOLDERS[m.group(1)]})", template)


def compile_trigger(template: str) -> re.Pattern[str]:
    """Compile a trigger template (case-insensitive); raises re.error when the result is not a valid regex."""
    return re.compile(expand_template(template), re.IGNORECASE)


def normalise_log(text: str) -> str:
    """The form triggers are matched against: typographic and backtick quotes made plain, same length."""
    return text.translate(_QUOTES)


def template_words(template: str) -> str:
    """The readable words of a trigger template (placeholders and regex syntax dropped)."""
    text = _PLACEHOLDER_RE.sub(" ", template)
    text = re.sub(r"\{\d*,?\d*\}", " ", text)
    text = re.sub(r"\\[dswbDSWBAZz]|\[[^\]]*\]|\(\?[:=!<]+|[\\^$*+?{}()|]|\.\*|\.\+", " ", text)
    return re.sub(r"\s+", " ", text).strip()
