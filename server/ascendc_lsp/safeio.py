"""Bounded input: every file, stream and document that enters ascendc-lsp from outside goes through here.

- `read_bytes` / `read_text` / `read_stream` read at most a named limit (a regular file's size is checked before
  reading; a device or pipe such as /dev/zero is read up to the limit + 1 byte and refused), so no input can make
  us read gigabytes.
- `read_line` reads one line of a file a compiler or a log names (to turn its byte column into a UTF-16 one):
  only a regular file, only up to that line, at most `MAX_LINE_CHARS` of it, never an error.
- `load_yaml` / `load_json` measure how deeply a document nests with a linear scan *before* parsing: the C YAML
  loader recurses on the C stack (30,000 nested brackets crash the process) and the Python parsers raise
  RecursionError; past `MAX_NESTING` the document is refused with a one-line message.

Errors are `InputError` (a ValueError): one line naming the file, what it is and the limit.
"""

from __future__ import annotations

import json
import os
import re
import stat
from functools import cache
from pathlib import Path
from typing import IO, Any

from ascendc_lsp.errors import InputError  # the one input error; callers use safeio.InputError too

MiB = 1 << 20
MAX_SOURCE_BYTES = 16 * MiB  # a kernel source or header (checked, modelled, compiled)
MAX_SPEC_BYTES = 4 * MiB  # a kernel spec, op test case or program description (YAML)
MAX_LOG_BYTES = 64 * MiB  # a compiler or runtime log given to `explain`
MAX_RECORD_BYTES = 4 * MiB  # a failure-and-fix record given to `kb import`
MAX_ENTRY_BYTES = 4 * MiB  # a knowledge entry file (shipped or from knowledge.paths)
MAX_CONFIG_BYTES = 1 * MiB  # ascendc-lsp.toml
MAX_DATA_BYTES = 1 << 30  # an input tensor file (init: {file: ...})
MAX_LINE_CHARS = 1 << 20  # characters of one source line that `read_line` keeps (a minified file can be one line)
MAX_NESTING = 100  # levels of nested collections in a YAML/JSON/TOML document
MAX_YAML_NODES = 1_000_000  # nodes of a YAML document once its aliases are expanded (a "billion laughs")
_ALIAS_HINT = re.compile(r"[&*][^\s,\[\]{}]")
_SPECIAL = re.compile(r"[\[\]{}\"'#]")


@cache
def _nesting_error() -> type[InputError]:
    """The error load_yaml raises for a document nested too deeply: an InputError that is also a yaml.YAMLError,
    so YAML callers report it as such (built on first use: yaml is imported only when YAML is read)."""
    import yaml

    class YamlInputRefused(yaml.YAMLError, InputError):
        def __init__(self, problem: str) -> None:
            self.problem = problem
            self.problem_mark = None
            super().__init__(problem)

    return YamlInputRefused


def _too_deep(depth: int, limit: int) -> InputError:
    return _nesting_error()(f"nested deeper than {limit} levels (at least {depth})")


def _human(n: int) -> str:
    if n >= MiB:
        return f"{n / MiB:.1f} MiB"
    if n >= 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n} bytes"


def read_bytes(path: str | os.PathLike[str], limit: int, what: str = "file") -> bytes:
    """The file's bytes, refused (InputError) past `limit`; OSError when it cannot be opened."""
    p = Path(path)
    with open(p, "rb") as f:
        st = os.fstat(f.fileno())
        if stat.S_ISDIR(st.st_mode):
            raise InputError(f"{p}: is a folder, not a {what}")
        if stat.S_ISREG(st.st_mode) and st.st_size > limit:
            raise InputError(f"{p}: {what} too large ({_human(st.st_size)}; the limit is {_human(limit)})")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"{p}: {what} too large (more than the limit of {_human(limit)})")
    return data


def read_text(
    path: str | os.PathLike[str], limit: int, what: str = "file", errors: str = "strict"
) -> str:
    """The file as UTF-8 text (errors: "strict" raises UnicodeDecodeError, "replace" never does)."""
    return read_bytes(path, limit, what).decode("utf-8", errors)


def read_stream(stream: IO[Any], limit: int, what: str = "input") -> str:
    """At most `limit` bytes from a stream (stdin); refused past it."""
    buffer = getattr(stream, "buffer", None)
    raw = (buffer or stream).read(limit + 1)
    data = raw.encode("utf-8", "replace") if isinstance(raw, str) else raw
    if len(data) > limit:
        raise InputError(f"{what} too large (more than the limit of {_human(limit)})")
    return data.decode("utf-8", "replace")


def read_line(path: str | os.PathLike[str], line0: int, limit: int = MAX_LINE_CHARS) -> str | None:
    """Line `line0` (0-based) of a text file without its line end, at most `limit` characters of it; None when
    the path is not a readable regular file (a log may name a FIFO, which would block, or a device) or the file
    has no such line. Reads only up to that line, `limit` characters at a time, so memory stays bounded."""
    if line0 < 0:
        return None
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, encoding="utf-8", errors="replace") as handle:
            for _ in range(line0):
                while True:  # skip one line, however long, in bounded chunks
                    chunk = handle.readline(limit)
                    if not chunk:
                        return None
                    if chunk.endswith("\n"):
                        break
            text = handle.readline(limit)
    except OSError:
        return None
    if not text:
        return None
    return text[:-1] if text.endswith("\n") else text


def nesting_depth(text: str, stop_at: int | None = None) -> int:
    """How deeply the collections of a YAML/JSON/TOML text nest, over-approximated in one linear pass: open
    brackets outside quotes and comments, plus block levels (indentation and `- ` sequence markers).
    Stops counting once `stop_at` is exceeded."""
    deepest = 0
    flow = 0
    indents: list[int] = []
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        while indents and indents[-1] >= indent:
            indents.pop()
        indents.append(indent)
        block = len(indents)
        rest = stripped
        while rest.startswith(("- ", "? ")):  # "- - - x": nested sequences on one line
            block += 1
            rest = rest[2:].lstrip(" ")
        if flow == 0 and _SPECIAL.search(rest) is None:  # the common line: nothing to scan
            if block > deepest:
                deepest = block
                if stop_at is not None and deepest > stop_at:
                    return deepest
            continue
        quote = ""
        escaped = False
        previous = " "
        for ch in rest:
            if quote:
                if escaped:
                    escaped = False
                elif ch == "\\" and quote == '"':
                    escaped = True
                elif ch == quote:
                    quote = ""
            elif ch in "\"'" and (previous in " \t[{,:" or flow):
                quote = ch
            elif ch == "#" and previous in " \t":
                break
            elif ch in "[{":
                flow += 1
                if block + flow > deepest:
                    deepest = block + flow
                    if stop_at is not None and deepest > stop_at:
                        return deepest
            elif ch in "]}":
                flow = max(0, flow - 1)
            previous = ch
        if block + flow > deepest:
            deepest = block + flow
            if stop_at is not None and deepest > stop_at:
                return deepest
    return deepest


def check_nesting(text: str, where: str, limit: int = MAX_NESTING) -> None:
    depth = nesting_depth(text, stop_at=limit)
    if depth > limit:
        raise InputError(f"{where}: nested deeper than {limit} levels")


def load_yaml(text: str, loader: Any = None, limit: int = MAX_NESTING) -> Any:
    """yaml.load with a safe loader (yaml.SafeLoader, as yaml.safe_load; pass CSafeLoader for speed where the
    stricter libyaml accepts the files), after the nesting and alias checks; raises
    yaml.YAMLError (a too deeply nested document included) like yaml.safe_load."""
    import yaml

    depth = nesting_depth(text, stop_at=limit)
    if depth > limit:
        raise _too_deep(depth, limit)
    use = loader if loader is not None else yaml.SafeLoader
    try:
        if _ALIAS_HINT.search(text):  # anchors or aliases may be present: measure the expanded document first
            _check_expansion(yaml.compose(text, Loader=use), limit)
        return yaml.load(text, Loader=use)  # a safe loader: ours, or the caller's SafeLoader subclass
    except RecursionError:
        raise _too_deep(limit + 1, limit) from None


def _check_expansion(root: Any, limit: int) -> None:
    """Refuse a composed YAML graph whose aliases expand it past MAX_YAML_NODES nodes or `limit` levels
    (nine lines of `&aN [*aM, ...]` make 10^9 entries for whoever walks the result). Iterative, memoised per
    node, so linear in the composed graph."""
    if root is None:
        return
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if key in size:
            continue
        value = node.value
        children: list[Any] = []
        if isinstance(value, list):
            for item in value:
                children.extend(item if isinstance(item, tuple) else (item,))
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in size)
            continue
        size[key] = 1 + sum(size.get(id(c), 1) for c in children)
        depth[key] = 1 + max((depth.get(id(c), 1) for c in children), default=0)
        if size[key] > MAX_YAML_NODES:
            raise _nesting_error()(f"expands to more than {MAX_YAML_NODES:,} nodes through its aliases")
        if depth[key] > limit:
            raise _too_deep(depth[key], limit)


def load_json(text: str | bytes, where: str, limit: int = MAX_NESTING) -> Any:
    """json.loads after the nesting check; InputError for a document nested too deeply, ValueError
    (json.JSONDecodeError) when it is not JSON."""
    s = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    check_nesting(s, where, limit)
    try:
        return json.loads(s)
    except RecursionError:
        raise InputError(f"{where}: nested deeper than {limit} levels") from None


__all__ = [
    "MAX_CONFIG_BYTES",
    "MAX_DATA_BYTES",
    "MAX_ENTRY_BYTES",
    "MAX_LOG_BYTES",
    "MAX_NESTING",
    "MAX_RECORD_BYTES",
    "MAX_SOURCE_BYTES",
    "MAX_SPEC_BYTES",
    "InputError",
    "check_nesting",
    "load_json",
    "load_yaml",
    "nesting_depth",
    "read_bytes",
    "read_stream",
    "read_text",
]
