"""The AscendC dialect layer: same-length rewrites that let tree-sitter-cpp parse AscendC.

Every rewrite keeps the buffer length and every line break (`\\n` and `\\r`) in place, so node offsets
and points in the tree are offsets and points in the user's text. What is rewritten is data
(`grammars/ascendc/dialect.yaml`), validated on load. The rewrite kinds:

- qualifiers: AscendC qualifiers and attributes (`__aicore__`, `__gm__`, `__mix__(1, 2)`) are blanked,
  except where the preprocessor defines or tests the name (`#define __forceinline__ inline`);
- bracket attributes: `[aicore] void f()` is blanked;
- condition macros: `if ASCEND_IS_AIV {` gets parentheses, `if (SCEND_IS_AI) {` (same length);
- launches: `k<<<n, nullptr, s>>>(args)` becomes `k/*<n, nullptr, s>*/(args)` (never inside a
  comment or a string, where `*/` would end the comment);
- statement macros: a line `WAIT` or `BEGIN_TILING_DATA_DEF(T)` with no `;`, using a macro that is a
  complete statement or declaration head (listed in the data file, or #defined in the same buffer
  with such a body), is blanked;
- C++ that tree-sitter-cpp does not parse although compilers do, each switched by a flag of the
  `cpp_gaps` section: `q.template Name(x)`, `(obj->*fn)(x)`, `T p = {})` as a default argument,
  GNU named variadic macro parameters, `#endif NAME`, type keywords as macro arguments, and
  preprocessor conditionals that split the structure (see `_ConditionalFlattener`).

The rewritten buffer is for the parser only: names are always read from the original text.

Speed: `rewrite` runs on every keystroke. Each pass is a regex that begins with a literal (so `re`
skips to candidates at C speed) and checks its context in a callback, and passes whose trigger text
is absent are skipped; a 1,000-line kernel takes about a millisecond.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import yaml

from ascendc_lsp.resources import grammar_dir


class DialectError(ValueError):
    """The dialect file is missing or malformed; the message names the file and field."""


GAP_FLAGS = (
    "member_template_without_arguments",
    "pointer_to_member_calls",
    "brace_default_arguments",
    "gnu_named_variadic_macros",
    "directive_trailing_tokens",
    "type_keywords_as_macro_arguments",
    "statement_macros_defined_in_file",
    "operator_template_arguments",
    "declaration_head_macros",
    "split_preprocessor_conditionals",
    "multiple_using_declarators",
    "string_literal_macros",
    "operator_call_syntax",
    "unnamed_pointer_template_defaults",
    "macro_lines_in_errors",
    "comments_in_macro_bodies",
    "decltype_base_classes",
)


@dataclass(frozen=True)
class Dialect:
    qualifiers: tuple[str, ...]
    function_like_qualifiers: tuple[str, ...]
    bracket_attributes: tuple[str, ...]
    condition_macros: tuple[str, ...]
    rewrite_launch_brackets: bool
    statement_macros: tuple[str, ...] = ()
    class_macros: tuple[tuple[str, str], ...] = ()
    cpp_gaps: frozenset[str] = frozenset(GAP_FLAGS)
    empty_macros: tuple[str, ...] = ()

    def compile(self) -> DialectRewriter:
        return DialectRewriter(self)


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _names(raw: dict[str, object], key: str, path: Path) -> tuple[str, ...]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and _IDENT.match(v) for v in value):
        raise DialectError(f"{path}: field '{key}' must be a list of identifiers")
    return tuple(value)


def _pairs(raw: dict[str, object], key: str, path: Path) -> tuple[tuple[str, str], ...]:
    value = raw.get(key, {})
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and _IDENT.match(k) and _IDENT.match(v)
        for k, v in value.items()
    ):
        raise DialectError(f"{path}: field '{key}' must map identifiers to identifiers")
    return tuple(value.items())


def _gaps(raw: dict[str, object], path: Path) -> frozenset[str]:
    value = raw.get("cpp_gaps", {})
    if not isinstance(value, dict):
        raise DialectError(f"{path}: field 'cpp_gaps' must be a mapping of flags to true or false")
    enabled = set()
    for key, flag in value.items():
        if key not in GAP_FLAGS:
            raise DialectError(f"{path}: unknown flag 'cpp_gaps.{key}' (known: {', '.join(GAP_FLAGS)})")
        if not isinstance(flag, bool):
            raise DialectError(f"{path}: field 'cpp_gaps.{key}' must be true or false")
        if flag:
            enabled.add(key)
    return frozenset(enabled)


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
        statement_macros=_names(raw, "statement_macros", path),
        class_macros=_pairs(raw, "class_macros", path),
        cpp_gaps=_gaps(raw, path),
        empty_macros=_names(raw, "empty_macros", path),
    )


# -- helpers -------------------------------------------------------------------------------------

# Every byte but the line breaks becomes a space.
_BLANK_TABLE = bytes(c if c in (10, 13) else 32 for c in range(256))


def blank(chunk: bytes) -> bytes:
    """`chunk` with everything but `\\n` and `\\r` turned into spaces (same length, same lines)."""
    return chunk.translate(_BLANK_TABLE)


def _blank_match(match: re.Match[bytes]) -> bytes:
    return match.group(0).translate(_BLANK_TABLE)


def _is_word(byte: int) -> bool:
    return byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122


def _starts_word(data: bytes, pos: int) -> bool:
    """No identifier character right before `pos`."""
    return pos == 0 or not _is_word(data[pos - 1])


def _line_prefix(data: bytes, pos: int) -> bytes:
    return data[data.rfind(b"\n", 0, pos) + 1 : pos]


def _blank_group_1(match: re.Match[bytes]) -> bytes:
    text = match.group(0)
    i, j = match.start(1) - match.start(), match.end(1) - match.start()
    return text[:i] + text[i:j].translate(_BLANK_TABLE) + text[j:]


def _in_directive(data: bytes, pos: int) -> bool:
    """Whether `pos` is on a directive line or on one of its backslash-continued lines."""
    start = data.rfind(b"\n", 0, pos) + 1
    while True:
        if data[start:pos].lstrip().startswith(b"#"):
            return True
        if start == 0:
            return False
        prev = data.rfind(b"\n", 0, start - 1) + 1
        if not data[prev : start - 1].rstrip(b"\r").endswith(b"\\"):
            return False
        pos, start = start - 1, prev


def _on_directive_line(data: bytes, pos: int) -> bool:
    prefix = _line_prefix(data, pos)
    return b"#" in prefix and prefix.lstrip().startswith(b"#")


def _apply(data: bytes, edits: list[tuple[int, bytes]]) -> bytes:
    """Replace, for each (offset, bytes), that many bytes at that offset."""
    if not edits:
        return data
    out = bytearray(data)
    for offset, chunk in edits:
        out[offset : offset + len(chunk)] = chunk
    return bytes(out)


# Comments, string and character literals and directive lines: what is not code for the parser's
# structure. Every alternative starts with a literal, so scanning skips to `/`, `"`, `'` and `#`.
_NOT_CODE = re.compile(
    rb"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|#(?:\\\r?\n|[^\n])*",
    re.S,
)
_COMMENT_OR_STRING = re.compile(rb"(//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\")|<<<([^;{}]*?)>>>", re.S)
_DEFINE_LINE = re.compile(rb"[ \t]*#[ \t]*define[ \t]+\w+\([^()\n]*$")
# Type names the grammar knows as primitive types: an expression (a macro argument) may not be one.
_TYPE_KEYWORDS = (
    rb"float|double|int|char|short|long|unsigned|signed|bool|void|u?int(?:8|16|32|64)_t|s?size_t|u?intptr_t"
    rb"|char(?:8|16|32)_t"
)


class DialectRewriter:
    """Applies the dialect's rewrites to a UTF-8 buffer, one regex pass per rewrite kind present."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        gaps = dialect.cpp_gaps
        # One regex per two-character prefix of the names (`__`, `CA`, ...): a pattern that starts with a
        # literal is scanned at C speed; one alternation over every name would be tried at every `_`.
        by_prefix: dict[bytes, tuple[list[bytes], list[bytes]]] = {}
        for name in dialect.function_like_qualifiers:
            by_prefix.setdefault(name.encode()[:2], ([], []))[0].append(name.encode())
        for name in dialect.qualifiers:
            by_prefix.setdefault(name.encode()[:2], ([], []))[1].append(name.encode())
        self._qualifier_res: list[tuple[bytes, re.Pattern[bytes]]] = []
        for prefix, (calls, plain) in sorted(by_prefix.items()):
            alternatives: list[bytes] = []
            if calls:
                names = b"|".join(re.escape(n[2:]) for n in sorted(calls, key=len, reverse=True))
                # One level of nested parentheses: `__launch_bounds__(MAX(a, b))`.
                alternatives.append(rb"(?:" + names + rb")\s*\((?:[^()\n]|\([^()\n]*\))*\)")
            if plain:
                names = b"|".join(re.escape(n[2:]) for n in sorted(plain, key=len, reverse=True))
                alternatives.append(rb"(?:" + names + rb")(?!\w)")
            pattern = re.escape(prefix) + rb"(?:" + b"|".join(alternatives) + rb")"
            self._qualifier_res.append((prefix, re.compile(pattern)))
        self._bracket_re = None
        if dialect.bracket_attributes:
            names = b"|".join(re.escape(n.encode()) for n in dialect.bracket_attributes)
            # `[aicore]` before a declaration (or a destructor); the callback rules out subscripts.
            self._bracket_re = re.compile(rb"\[(?:" + names + rb")\](?=\s*[A-Za-z_~])")
        self._condition_re = re.compile(rb"if(\s+)([A-Z_][A-Z0-9_]*)(\([^()\n]*\))?(?=\s*\{)")
        self._launch = dialect.rewrite_launch_brackets
        self._member_template = "member_template_without_arguments" in gaps
        self._member_pointer = "pointer_to_member_calls" in gaps
        self._brace_default = "brace_default_arguments" in gaps
        self._operator_arguments = "operator_template_arguments" in gaps
        self._head_macros = "declaration_head_macros" in gaps
        self._variadic = "gnu_named_variadic_macros" in gaps
        self._type_arguments = "type_keywords_as_macro_arguments" in gaps
        self._macros_in_file = "statement_macros_defined_in_file" in gaps
        self._using_lists = "multiple_using_declarators" in gaps
        self._string_macros = "string_literal_macros" in gaps
        self._operator_calls = "operator_call_syntax" in gaps
        self._pointer_defaults = "unnamed_pointer_template_defaults" in gaps
        self.repairs_macro_lines = "macro_lines_in_errors" in gaps
        self._macro_comments = "comments_in_macro_bodies" in gaps
        self._decltype_bases = "decltype_base_classes" in gaps
        self._empty_macros = tuple(n.encode() for n in dialect.empty_macros)
        self._empty_macro_re = None
        if dialect.empty_macros:
            names = b"|".join(re.escape(n) for n in self._empty_macros)
            self._empty_macro_re = re.compile(rb"(?:" + names + rb")[ \t]*\(")
        self._statement_macros = tuple(n.encode() for n in dialect.statement_macros)
        self._class_macros = tuple(
            (
                b.encode(),
                re.compile(re.escape(b.encode()) + rb"\((\s*[A-Za-z_]\w*\s*)\)"),
                re.compile(re.escape(e.encode()) + rb"(?!\w)[ \t]*;?"),
            )
            for b, e in dialect.class_macros
        )
        self._conditionals = _ConditionalFlattener(
            flatten="split_preprocessor_conditionals" in gaps,
            trailing_tokens="directive_trailing_tokens" in gaps,
        )

    def rewrite(self, data: bytes) -> bytes:
        """Return `data` rewritten; the result has exactly the same length and line breaks."""
        out = data
        if b"#" in out:
            out = self._conditionals.rewrite(out)
            if self._macro_comments and b"/*" in out and (b"\\\n" in out or b"\\\r\n" in out):
                out = _blank_directive_comments(out)
        for prefix, pattern in self._qualifier_res:
            if prefix in out:
                out = pattern.sub(self._blank_qualifier, out)
        if self._bracket_re is not None and b"[" in out:
            out = self._bracket_re.sub(self._blank_bracket_attribute, out)
        if b"if" in out:
            out = self._condition_re.sub(self._parenthesise, out)
        if self._launch and b"<<<" in out:
            out = _COMMENT_OR_STRING.sub(self._launch_to_comment, out)
        if self._member_template and b"template" in out:
            out = _MEMBER_TEMPLATE.sub(self._blank_member_template, out)
        if self._member_pointer and b"->*" in out:
            out = _ARROW_STAR.sub(self._blank_member_pointer, out)
        if self._member_pointer and b".*" in out:
            out = _DOT_STAR.sub(self._blank_member_pointer, out)
        if self._operator_arguments and b"operator" in out:
            out = _OPERATOR_TEMPLATE_ARGUMENTS.sub(_blank_group_1, out)
        if self._head_macros:
            # The pattern is anchored on the line break before the line: give the first line one.
            out = _HEAD_MACRO_LINE.sub(_blank_group_1, b"\n" + out)[1:]
        if self._brace_default and b"{" in out:
            out = _BRACE_DEFAULT.sub(self._zero_default, out)
        if self._variadic and (b"...)" in out or b"... )" in out):
            out = self._unname_variadics(out)
        if self._type_arguments:
            out = _TYPE_ARGUMENT_IN_CALL.sub(self._underscore_type_argument, out)
        if self._using_lists and b"using" in out:
            out = _USING_LIST.sub(lambda m: _blank_group_1(m) if _starts_word(m.string, m.start()) else m.group(0), out)
        if self._string_macros and b'"' in out:
            out = _blank_string_macros(out)
        if self._operator_calls and b"operator" in out:
            out = _OPERATOR_CALL.sub(_blank_match, out)
        if self._pointer_defaults and b"* " in out:
            out = _POINTER_DEFAULT.sub(lambda m: b"*_" + m.group(0)[2:], out)
        if self._decltype_bases and b"decltype" in out:
            out = _name_decltype_bases(out)
        if self._empty_macro_re is not None and any(n in out for n in self._empty_macros):
            out = self._blank_empty_macros(out)
        for begin, opening, closing in self._class_macros:
            if begin in out:
                out = opening.sub(self._open_class, out)
                out = closing.sub(self._close_class, out)
        names = [n for n in self._statement_macros if n in out]
        if self._macros_in_file and b"define" in out:
            names += _statement_macros_defined_in(out)
        if names:
            out = _statement_macro_use(tuple(sorted(set(names)))).sub(self._blank_statement_macro, out)
        # The contract of every rewrite (C-speed check, ~20 us for a 1,000-line file; gone under -O).
        assert out.translate(_BLANK_TABLE) == data.translate(_BLANK_TABLE), (
            "dialect rewrite moved a line break"
        )
        return out

    # -- callbacks ---------------------------------------------------------------------------------

    @staticmethod
    def _blank_qualifier(match: re.Match[bytes]) -> bytes:
        data, start = match.string, match.start()
        if not _starts_word(data, start):
            return match.group(0)
        # On a directive line a qualifier stays: it is a macro name there (`#define __forceinline__
        # inline`, `#ifndef __gm__`, `defined(__gm__)`), and a `#define` body is opaque to the grammar
        # anyway; blanking a whole body would even trip tree-sitter-cpp, whose `#define X` with a
        # spaces-only value swallows the next line (`#endif`).
        if _on_directive_line(data, start):
            return match.group(0)
        return match.group(0).translate(_BLANK_TABLE)

    @staticmethod
    def _blank_bracket_attribute(match: re.Match[bytes]) -> bytes:
        data, start = match.string, match.start()
        # Never an array subscript: no identifier, `]` or `)` right before it.
        if start > 0 and (_is_word(data[start - 1]) or data[start - 1] in b"])"):
            return match.group(0)
        if _on_directive_line(data, start):
            return match.group(0)  # `#define HOST [aicore]`: see _blank_qualifier
        return match.group(0).translate(_BLANK_TABLE)

    @staticmethod
    def _parenthesise(match: re.Match[bytes]) -> bytes:
        space, name, args = match.group(1), match.group(2), match.group(3) or b""
        if len(name) < 3 or not _starts_word(match.string, match.start()):
            return match.group(0)
        # `NAME(args)` -> `(ME(args))` drops two characters of the name for the two parentheses;
        # `NAME` -> `(AM)` likewise. The model reads names from the original text, not from this buffer.
        rewritten = b"(" + name[2:] + args + b")" if args else b"(" + name[1:-1] + b")"
        return b"if" + space + rewritten

    @staticmethod
    def _launch_to_comment(match: re.Match[bytes]) -> bytes:
        if match.group(1) is not None:
            return match.group(0)  # a comment or a string: `*/` would end the comment early
        if _in_directive(match.string, match.start()):
            # In a `#define` body a comment would split the macro text for the grammar: blank instead.
            return match.group(0).translate(_BLANK_TABLE)
        inner = match.group(2).replace(b"*/", b"  ")
        return b"/*<" + inner + b">*/"

    @staticmethod
    def _blank_member_template(match: re.Match[bytes]) -> bytes:
        data, start = match.string, match.start()
        before = _line_prefix(data, start).rstrip()
        if not _starts_word(data, start) or not before.endswith((b".", b"->", b"::")):
            return match.group(0)
        return b" " * len(b"template")

    @staticmethod
    def _blank_member_pointer(match: re.Match[bytes]) -> bytes:
        data, start = match.string, match.start()
        if match.group(0).startswith(b"."):
            # `obj.*fn`: an identifier (not a number such as `1.`) or `)` before the dot.
            i = start
            while i > 0 and _is_word(data[i - 1]):
                i -= 1
            if i == start:
                if not (start > 0 and data[start - 1] == 41):
                    return match.group(0)
            elif 48 <= data[i] <= 57:
                return match.group(0)
        return match.group(0)[:-1] + b" "

    @staticmethod
    def _zero_default(match: re.Match[bytes]) -> bytes:
        # `= {}` -> `= 0 ` (with whatever spacing), ending a parameter.
        text = bytearray(match.group(0))
        text[text.index(b"{")] = 48
        text[text.index(b"}")] = 32
        return bytes(text)

    @staticmethod
    def _unname_variadics(data: bytes) -> bytes:
        """`#define F(fmt, args...)` -> `#define F(fmt, ...    )`."""
        edits = []
        for m in _ELLIPSIS_CLOSE.finditer(data):
            start = m.start()
            i = start
            while i > 0 and _is_word(data[i - 1]):
                i -= 1
            if i == start or not _DEFINE_LINE.match(_line_prefix(data, i)):
                continue
            edits.append((i, b"..." + b" " * (start - i)))
        return _apply(data, edits)

    @staticmethod
    def _underscore_type_argument(match: re.Match[bytes]) -> bytes:
        # `GENERAL_OP_IMPL(KernelAdd, float);`, `ALIGN_UP(n, uint8_t)`: a type keyword as a whole argument of
        # an all-caps macro call; the grammar wants an expression there, so its first letter becomes `_`.
        data, start = match.string, match.start(1)
        opening = _unclosed_paren_on_line(data, start)
        if opening is None or _on_directive_line(data, start):
            return match.group(0)
        name = _MACRO_NAME_BEFORE.search(data, max(0, opening - 64), opening)
        if name is None or not _starts_word(data, name.start()):
            return match.group(0)
        keyword = match.group(1)
        return match.group(0)[: start - match.start()] + b"_" + keyword[1:] + match.group(0)[match.end(1) - match.start():]

    def _blank_empty_macros(self, data: bytes) -> bytes:
        """`ASSERT(cond && "msg")` (a macro that expands to nothing in kernel builds) is blanked, its
        arguments with it; a `;` after it stays. Written without `;` or glued to an expression
        (`x = n ASSERT(n != 0);`), it would otherwise break the statement around it."""
        assert self._empty_macro_re is not None
        edits: list[tuple[int, bytes]] = []
        code: _CodeView | None = None
        for m in self._empty_macro_re.finditer(data):
            if not _starts_word(data, m.start()) or data[m.start() - 1 : m.start()] in (b".", b">"):
                continue  # `x.ASSERT(`, `p->ASSERT(`: a member, not the macro
            code = code or _CodeView(data)
            if code.masked[m.start()] != data[m.start()]:
                continue  # in a comment, a literal or a directive
            end = _closing_paren(data, m.end() - 1)
            if end is None:
                continue
            edits.append((m.start(), blank(data[m.start() : end + 1])))
        return _apply(data, edits)

    @staticmethod
    def _open_class(match: re.Match[bytes]) -> bytes:
        # `BEGIN_TILING_DATA_DEF(AddTiling)` -> `struct                AddTiling{`: the name keeps its place.
        if _line_prefix(match.string, match.start()).strip():
            return match.group(0)
        lead = match.start(1) - match.start()
        return b"struct" + b" " * (lead - 6) + match.group(1) + b"{"

    @staticmethod
    def _close_class(match: re.Match[bytes]) -> bytes:
        # `END_TILING_DATA_DEF;` -> `};` and spaces.
        if _line_prefix(match.string, match.start()).strip():
            return match.group(0)
        return b"};" + b" " * (len(match.group(0)) - 2)

    @staticmethod
    def _blank_statement_macro(match: re.Match[bytes]) -> bytes:
        data, start = match.string, match.start()
        if _line_prefix(data, start).strip():
            return match.group(0)  # not alone on its line
        return match.group(0).translate(_BLANK_TABLE)


# `q.template FreeTensor(x)`: `template` before a member name with no template argument list.
_MEMBER_TEMPLATE = re.compile(rb"template(?=\s+[A-Za-z_]\w*\s*\()")
# `(obj->*fn)(x)` and `(obj.*fn)(x)`.
_ARROW_STAR = re.compile(rb"->\*(?=\s*[A-Za-z_(])")
_DOT_STAR = re.compile(rb"\.\*(?=\s*[A-Za-z_(])")
# `const P &p = {})`: an empty braced default argument, ending a parameter.
_BRACE_DEFAULT = re.compile(rb"=\s*\{\s*\}(?=\s*[,)])")
# `template <> void operator()<AIC>(...)`: explicit template arguments after an operator name.
_OPERATOR_TEMPLATE_ARGUMENTS = re.compile(
    rb"operator[ \t]*(?:\(\)|\[\]|[-+*/%^&|~!=<>]{1,3})[ \t]*(<[^<>;{}()\n]*(?:<[^<>;{}()\n]*>[^<>;{}()\n]*)*>)(?=\s*\()"
)
# `using A::f, A::g;` (C++17): the grammar takes one name per using-declaration; the list after the
# first name is blanked.
_USING_LIST = re.compile(rb"using[ \t]+(?!namespace\b)[\w:]+[ \t]*(,[^;\n=]*)(?=;)")
# Comments and character literals (skipped whole), or a string literal with an identifier right after
# it (`"x" MACRO,`).
_STRING_NEIGHBOURS = re.compile(
    rb"//[^\n]*|/\*.*?\*/|'(?:\\.|[^'\\\n])*'"
    rb"|\"(?:\\.|[^\"\\\n])*\"(?:[ \t]+(?P<after>[A-Za-z_]\w*)(?=[ \t]*(?:[,);\"}]|\r?\n)))?",
    re.S,
)
# An all-caps identifier right before a string literal, after `(`, `,`, `=`, `{` or a line start.
_MACRO_BEFORE_STRING = re.compile(rb"(?:^|[(,={\s])([A-Z][A-Z0-9_]+)[ \t]+\Z")
_TYPE_KEYWORD = re.compile(_TYPE_KEYWORDS)
# Keywords that may stand next to a string literal.
_NOT_MACROS = frozenset({b"extern", b"operator", b"return", b"case", b"asm", b"__asm__", b"static_assert"})
# `obj.template operator()<AIC>(p)` and `obj.operator()(p)`: an explicit call of a call operator, which
# the grammar cannot parse (likewise `.operator[](i)`); `.operator()` and its template arguments are blanked,
# leaving `obj (p)`.
_OPERATOR_CALL = re.compile(
    rb"(?:\.|->)[ \t]*(?:template[ \t]+)?operator[ \t]*(?:\([ \t]*\)|\[[ \t]*\])[ \t]*"
    rb"(?:<[^<>;{}()\n]*(?:<[^<>;{}()\n]*>[^<>;{}()\n]*)*>)?(?=[ \t]*\()"
)
# `typename enable_if<...>::type* = nullptr>`: an unnamed pointer parameter with a default; the grammar
# wants a name, so the space after `*` becomes `_`.
_POINTER_DEFAULT = re.compile(rb"\*[ \t]+=(?=[ \t]*(?:nullptr|0|NULL)[ \t]*[,>)])")
# A whole argument that is a type keyword: `(float)`, `, uint8_t,` (checked to be a macro's in the callback).
_TYPE_ARGUMENT_IN_CALL = re.compile(rb"[(,][ \t]*(" + _TYPE_KEYWORDS + rb")[ \t]*(?=[,)])")
_MACRO_NAME_BEFORE = re.compile(rb"[A-Z][A-Z0-9_]*[A-Z0-9][ \t]*\Z")


# `struct is_tuple : decltype(detail::has(0)) {};`: a base class named by `decltype(...)` (C++11), which the
# grammar's base-class clause does not take; the whole `decltype(...)` becomes one name (underscores).
_DECLTYPE_BASE = re.compile(rb"[:,][ \t]*(?:(?:public|protected|private|virtual)[ \t]+)*(decltype[ \t]*\()")
_CLASS_HEAD_BEFORE = re.compile(rb"(?:struct|class)[ \t\r\n]+[A-Za-z_]\w*[^;{}()]*\Z")
_AFTER_BASE = re.compile(rb"[ \t\r\n]*(?:\{|,)")


def _name_decltype_bases(data: bytes) -> bytes:
    edits: list[tuple[int, bytes]] = []
    for match in _DECLTYPE_BASE.finditer(data):
        start = match.start(1)
        # Only a base-class clause: a class head right before the `:` (or an earlier base before the `,`)
        # and `{` or another base right after the closing parenthesis.
        if not _CLASS_HEAD_BEFORE.search(data, max(0, match.start() - 512), match.start()):
            continue
        closing = _closing_paren(data, match.end(1) - 1, limit=1024)
        if closing is None or b"\n" in data[start:closing] or not _AFTER_BASE.match(data, closing + 1):
            continue
        edits.append((start, b"_" * (closing + 1 - start)))
    return _apply(data, edits) if edits else data


# Line comments and literals (skipped whole), or a block comment (group 1).
_BLOCK_COMMENT = re.compile(rb"//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|(/\*.*?\*/)", re.S)


def _blank_directive_comments(data: bytes) -> bytes:
    """`/* note */ \\` inside a multi-line `#define`: tree-sitter-cpp ends the macro body at a block
    comment, so the rest of the body is parsed as code; comments in directives are blanked."""
    edits: list[tuple[int, bytes]] = []
    for m in _BLOCK_COMMENT.finditer(data):
        if m.group(1) is not None and _in_directive(data, m.start()):
            edits.append((m.start(), blank(m.group(1))))
    return _apply(data, edits)


def _blank_string_macros(data: bytes) -> bytes:
    """`"--npu-arch=" NPU_ARCH` and `(PREFIX "name"`: string literal concatenation with a macro. The
    grammar has no such token sequence, so the macro name is blanked (the literal stays)."""
    edits: list[tuple[int, bytes]] = []
    for m in _STRING_NEIGHBOURS.finditer(data):
        if not m.group(0).startswith(b'"') or _on_directive_line(data, m.start()):
            continue
        if data[max(0, m.start() - 12) : m.start()].rstrip().endswith(b"extern"):
            continue  # `extern "C" void`: a linkage specification
        after = m.group("after")
        if after is not None and after not in _NOT_MACROS and not _TYPE_KEYWORD.fullmatch(after):
            edits.append((m.start("after"), b" " * len(after)))
        before = _MACRO_BEFORE_STRING.search(data, max(0, m.start() - 80), m.start())
        if before is not None and before.group(1) not in _NOT_MACROS:
            edits.append((before.start(1), b" " * len(before.group(1))))
    return _apply(data, edits)


def _unclosed_paren_on_line(data: bytes, pos: int) -> int | None:
    """The offset of the innermost `(` before `pos` on its line that is still open at `pos`."""
    depth = 0
    i = pos - 1
    while i >= 0 and data[i] != 10:
        c = data[i]
        if c == 41:  # )
            depth += 1
        elif c == 40:  # (
            if depth == 0:
                return i
            depth -= 1
        i -= 1
    return None


def _closing_paren(data: bytes, opening: int, limit: int = 4096) -> int | None:
    """The `)` matching the `(` at `opening` (string and character literals skipped), or None."""
    depth = 0
    i = opening
    end = min(len(data), opening + limit)
    while i < end:
        c = data[i]
        if c == 40:
            depth += 1
        elif c == 41:
            depth -= 1
            if depth == 0:
                return i
        elif c in (34, 39):  # a literal: skip to its closing quote
            j = i + 1
            while j < end and data[j] != c and data[j] != 10:
                j += 2 if data[j] == 92 else 1
            i = j
        i += 1
    return None


# A line holding only an all-caps macro name right before a declaration (`class`, `struct`,
# `template`, `inline`, ...): a macro that expands to a template head or attributes
# (`TEMPLATE_DECL\nclass Kernel {`), defined in another header. An identifier alone there is never valid C++, so blanking it hides no error a compiler
# would not also report as an unknown name.
_HEAD_MACRO_LINE = re.compile(
    rb"\n[ \t]*([A-Z][A-Z0-9_]{3,})[ \t]*(?=(?:\r?\n[ \t]*)+(?:class|struct|union|template|inline|static|constexpr|void)\b)"
)
_ELLIPSIS_CLOSE = re.compile(rb"\.\.\.(?=[ \t]*\))")
# A line that is an all-caps macro call statement, `NAME(args);` (anchored on the line break before it,
# a literal, so lines are skipped at C speed), and a type keyword as a whole argument in it.


# -- macros defined in the buffer ------------------------------------------------------------------

_DEFINE = re.compile(rb"#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?((?:\\\r?\n|[^\n])*)")


def _statement_macros_defined_in(data: bytes) -> list[bytes]:
    """Names of this buffer's macros that are complete statements or declaration heads.

    `#define WAIT Wait(state);` makes a line `WAIT` a complete statement, and `#define TEMPLATE_HEAD
    template <typename T>` makes a line `TEMPLATE_HEAD` the head of the declaration below it. A macro
    counts when its replacement text ends with `;` or `}` or starts with `template`, and only if it is
    used besides its definition.
    """
    names: list[bytes] = []
    for m in _DEFINE.finditer(data):
        if m.group(1) in names or _line_prefix(data, m.start()).strip():
            continue
        body = m.group(3)
        cut = body.find(b"//")
        if cut >= 0:
            body = body[:cut]
        body = body.replace(b"\\\r\n", b" ").replace(b"\\\n", b" ").strip()
        if body.endswith(b"*/") and b"/*" in body:
            body = body[: body.rfind(b"/*")].rstrip()
        if (body.endswith((b";", b"}")) or body.startswith(b"template")) and data.count(m.group(1)) > 1:
            names.append(m.group(1))
    return names


# Keyed by names taken from the document: bounded, or an editor session (every keystroke in a macro name is a new
# key) and a long-lived worker grow one compiled pattern per distinct set of names, forever.
STATEMENT_MACRO_PATTERNS = 64


@lru_cache(maxsize=STATEMENT_MACRO_PATTERNS)
def _statement_macro_use(names: tuple[bytes, ...]) -> re.Pattern[bytes]:
    """A use of one of `names` with its arguments, alone on its line and not followed by `;`.

    The grammar cannot know that such a line is complete. A use followed by `;` is left alone (an empty
    statement then), so a call of any other function or macro missing its `;` is still an error.
    """
    alternatives = b"|".join(re.escape(n) for n in names)
    return re.compile(rb"(?:" + alternatives + rb")(?!\w)(?:[ \t]*\([^;\n]*\))?[ \t]*(?=\r?\n|//|/\*|$)")


# -- preprocessor conditionals ---------------------------------------------------------------------

_CONDITIONAL = re.compile(rb"#[ \t]*(if|ifdef|ifndef|elif|else|endif)(?!\w)(?:\\\r?\n|[^\n])*")
_ELSE_NEXT = re.compile(rb"\s*else(?!\w)")
_FALSE_CONDITION = re.compile(rb"#[ \t]*(?:if|elif)[ \t]+(?:0|false)[ \t]*(?://.*|/\*.*)?$", re.S)
_DEFINE_AFTER = re.compile(rb"\s*#[ \t]*define[ \t]+(\w+)")
_IFNDEF_NAME = re.compile(rb"#[ \t]*ifndef[ \t]+(\w+)")
_TRAILING_TOKENS = re.compile(rb"#[ \t]*(?:endif|else)[ \t]+([A-Za-z_][^\n/]*)")
# What the code before a group, and the end of each branch, may end with (or nothing): the end of a
# statement, of a block, or a label.
_ENDS = (b"", b";", b"{", b"}", b":")


class _Branch:
    __slots__ = ("body_end", "body_start", "children", "directive")

    def __init__(self, directive: tuple[int, int]) -> None:
        self.directive = directive
        self.body_start = directive[1]
        self.body_end = -1
        self.children: list[_Group] = []


class _Group:
    __slots__ = ("branches", "endif")

    def __init__(self, directive: tuple[int, int]) -> None:
        self.branches = [_Branch(directive)]
        self.endif = (-1, -1)


MAX_CONDITIONAL_DEPTH = 64  # nested #if levels the flattener resolves (real code nests a handful)


class _ConditionalFlattener:
    """Blanks `#if` groups that split the C++ structure, keeping one branch.

    tree-sitter-cpp parses a `#if` group as a unit that must hold whole statements, declarations or
    members. Real kernels also use groups that do not: a branch that opens a brace closed after the
    `#endif` (two signatures sharing one body, `extern "C" {` guarded by `__cplusplus`), a branch
    starting with `} else if (...) {` or `else` (a platform-only case of a TILING_KEY chain), a branch
    ending mid-declaration (two parameter lists), or a group in the middle of an expression, argument
    or initializer list. Any of these turns the rest of the function into ERROR nodes, although the
    file compiles.

    Such a group is flattened: its directive lines and all branches but one are blanked, so the parser
    sees the code of one configuration. The kept branch is the first one (the `#if` branch), except
    that a `#if 0` branch is never kept. Groups that are well-formed for the parser (all branches
    balanced, starting and ending at statement boundaries) are left alone, so their directives and
    every branch stay in the tree.

    The price: code in the blanked branches of a flattened group is not parsed (no outline, no syntax
    errors reported there); the kept branch is checked as if its configuration were active.
    """

    def __init__(self, *, flatten: bool, trailing_tokens: bool) -> None:
        self.enabled = flatten
        self.trailing_tokens = trailing_tokens

    def rewrite(self, data: bytes) -> bytes:
        if not (self.enabled or self.trailing_tokens):
            return data
        directives = [m for m in _CONDITIONAL.finditer(data) if not _line_prefix(data, m.start()).strip()]
        if not directives:
            return data
        spans: list[tuple[int, int]] = []
        if self.trailing_tokens:
            for m in directives:
                if m.group(1) in (b"endif", b"else"):
                    tail = _TRAILING_TOKENS.match(m.group(0))
                    if tail is not None:
                        spans.append((m.start() + tail.start(1), m.start() + tail.end(1)))
        if self.enabled:
            groups = self._groups(directives)
            if groups and not (
                len(groups) == 1
                and not groups[0].branches[0].children
                and self._is_include_guard(data, groups[0])
            ):
                code = _CodeView(data)
                for group in groups:
                    self._resolve(code, group, spans)
        if not spans:
            return data
        out = bytearray(data)
        for start, end in spans:
            out[start:end] = data[start:end].translate(_BLANK_TABLE)
        return bytes(out)

    @staticmethod
    def _groups(directives: list[re.Match[bytes]]) -> list[_Group]:
        top: list[_Group] = []
        stack: list[_Group] = []
        for m in directives:
            kind, span = m.group(1), (m.start(), m.end())
            if kind.startswith(b"if"):
                group = _Group(span)
                (stack[-1].branches[-1].children if stack else top).append(group)
                stack.append(group)
                if len(stack) > MAX_CONDITIONAL_DEPTH:
                    return []  # resolving recurses per level: leave a pathologically nested file alone
            elif not stack:
                return []  # an unmatched #else/#endif (e.g. inside a comment): leave the file alone
            elif kind == b"endif":
                group = stack.pop()
                group.branches[-1].body_end = span[0]
                group.endif = span
            else:
                group = stack[-1]
                group.branches[-1].body_end = span[0]
                group.branches.append(_Branch(span))
        return [] if stack else top

    def _resolve(
        self, code: _CodeView, group: _Group, spans: list[tuple[int, int]]
    ) -> tuple[int, int, int, int]:
        """Decide on `group` (children first); return the balance of what the parser will see of it."""
        balances = [self._branch_balance(code, b, spans) for b in group.branches]
        if self._is_include_guard(code.data, group):
            return _ZERO
        split = (
            any(not _balanced(b) for b in balances)
            or any(_ELSE_NEXT.match(code.masked, end) for end in self._directive_ends(group))
            or code.last_char(0, group.branches[0].directive[0]) not in _ENDS
            or any(code.last_char(b.body_start, b.body_end) not in _ENDS for b in group.branches)
        )
        if not split:
            return _ZERO
        keep = self._kept_branch(code.data, group)
        for i, branch in enumerate(group.branches):
            spans.append(branch.directive)
            if i != keep:
                spans.append((branch.body_start, branch.body_end))
        spans.append(group.endif)
        return balances[keep] if keep is not None else _ZERO

    @staticmethod
    def _directive_ends(group: _Group) -> list[int]:
        return [b.directive[1] for b in group.branches] + [group.endif[1]]

    def _branch_balance(
        self, code: _CodeView, branch: _Branch, spans: list[tuple[int, int]]
    ) -> tuple[int, int, int, int]:
        total = _ZERO
        pos = branch.body_start
        for child in branch.children:
            total = _chain(total, code.balance(pos, child.branches[0].directive[0]))
            total = _chain(total, self._resolve(code, child, spans))
            pos = child.endif[1]
        return _chain(total, code.balance(pos, branch.body_end))

    @staticmethod
    def _is_include_guard(data: bytes, group: _Group) -> bool:
        start, end = group.branches[0].directive
        m = _IFNDEF_NAME.match(data, start, end)
        if m is None or len(group.branches) != 1:
            return False
        d = _DEFINE_AFTER.match(data, end)
        return d is not None and d.group(1) == m.group(1)

    @staticmethod
    def _kept_branch(data: bytes, group: _Group) -> int | None:
        for i, branch in enumerate(group.branches):
            start, end = branch.directive
            if not _FALSE_CONDITION.match(data, start, end):
                return i
        return None


# (brace delta, lowest brace depth, parenthesis delta, lowest parenthesis depth) of a stretch of code.
_ZERO = (0, 0, 0, 0)


def _chain(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (a[0] + b[0], min(a[1], a[0] + b[1]), a[2] + b[2], min(a[3], a[2] + b[3]))


def _balanced(b: tuple[int, int, int, int]) -> bool:
    return b[0] == 0 and b[1] >= 0 and b[2] == 0 and b[3] >= 0


class _CodeView:
    """The buffer with comments, literals and directive lines blanked (built once, on demand)."""

    __slots__ = ("data", "masked")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.masked = _NOT_CODE.sub(_blank_match, data)

    def balance(self, start: int, end: int) -> tuple[int, int, int, int]:
        if start >= end:
            return _ZERO
        chunk = self.masked[start:end]
        return (
            *_depth(chunk.translate(None, _NOT_BRACES), b"{}"),
            *_depth(chunk.translate(None, _NOT_PARENS), b"()"),
        )

    def last_char(self, start: int, end: int) -> bytes:
        """The last code character in `[start, end)`, or b"" when there is none."""
        # Look back in growing windows: slicing from `start` each time would make a buffer with many
        # groups quadratic.
        window = 256
        while True:
            lo = max(start, end - window)
            tail = self.masked[lo:end].rstrip()
            if tail or lo == start:
                return tail[-1:]
            end, window = lo, window * 4


_NOT_BRACES = bytes(c for c in range(256) if c not in b"{}")
_NOT_PARENS = bytes(c for c in range(256) if c not in b"()")


def _depth(brackets: bytes, pair: bytes) -> tuple[int, int]:
    """(final depth, lowest depth) of a string of `pair` characters, e.g. `}{}{{` -> (1, -1).

    Matched pairs are removed innermost first (C-speed replaces, as many rounds as the nesting is
    deep); what is left is `}...}{...{`: its closers are how far the depth fell below zero.
    """
    while pair in brackets:
        brackets = brackets.replace(pair, b"")
    closes = brackets.count(pair[1:])
    return len(brackets) - 2 * closes, -closes


# -- repair after a parse with errors -------------------------------------------------------------------

# An all-caps macro invocation at the start of a line: `  NAME(` (the arguments are matched in code).
_MACRO_LINE_START = re.compile(rb"^[ \t]*([A-Z][A-Z0-9_]*[A-Z0-9])[ \t]*\(", re.M)
_MACRO_LINE_END = re.compile(rb"[ \t]*;?[ \t]*(?://[^\n]*|/\*[^\n]*?\*/)?[ \t]*(?:\r?\n|\Z)")


def blank_macro_lines(parsed: bytes, error_ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of `parsed` to blank so that unknown declaration macros stop breaking the parse.

    A candidate is an all-caps macro invocation alone on its line(s), `NAME(args)` with an optional `;`
    (kept), that overlaps one of `error_ranges` (ERROR/MISSING nodes of the first parse). Such a line is
    a macro from another header that expands to declarations (`DEFINE_FIELD(TQue, q, TPosition::A2, 2);`
    in a class body) or is written without its `;` at namespace scope: a compiler, which expands it, sees
    no error there. Called only when the first parse has errors, so clean files pay nothing.
    """
    spans: list[tuple[int, int]] = []
    seen = -1
    for start, end in sorted(error_ranges):
        line_start = parsed.rfind(b"\n", 0, start) + 1
        for m in _MACRO_LINE_START.finditer(parsed, max(line_start, seen + 1), end + 1):
            closing = _closing_paren(parsed, m.end() - 1)
            if closing is None or _on_directive_line(parsed, m.start(1)):
                continue
            if _MACRO_LINE_END.match(parsed, closing + 1) is None:
                continue  # more code follows on the line: not a lone invocation
            if closing + 1 < start:
                continue
            spans.append((m.start(1), closing + 1))
            seen = closing
    return spans


@cache
def default_rewriter() -> DialectRewriter:
    return load_dialect().compile()


def rewrite(data: bytes) -> bytes:
    """Rewrite with the shipped dialect file."""
    return default_rewriter().rewrite(data)


__all__: list[str] = [
    "GAP_FLAGS",
    "Dialect",
    "DialectError",
    "DialectRewriter",
    "blank",
    "blank_macro_lines",
    "default_rewriter",
    "load_dialect",
    "rewrite",
]
