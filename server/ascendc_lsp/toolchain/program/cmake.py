"""Read what a sample's CMakeLists.txt builds, without CMake: targets, sources, include dirs, definitions.

A small evaluator for the subset the AscendC samples use: `set` (with CACHE defaults that command-line values
override, as `cmake -DVAR=...` does), `option`, `list(APPEND)`, `file(GLOB|GLOB_RECURSE)`, `if/elseif/else`
(STREQUAL, MATCHES, EQUAL, LESS, GREATER, IN_LIST, DEFINED, EXISTS, NOT/AND/OR, parentheses),
`foreach`, `include`, `add_subdirectory`, `add_executable`, `add_library`, `ascendc_library`,
`ascendc_fatbin_library`, `target_sources`, `[target_]include_directories`, `ascendc_include_directories`,
`[target_]compile_definitions`, `add_definitions`, `ascendc_compile_definitions`, `-D` in compile options,
`target_link_libraries`, and `message(FATAL_ERROR)` (a configuration the sample refuses). Generator expressions
`$<...>` are evaluated for the common conditions (BOOL, STREQUAL, IN_LIST, AND/OR/NOT, COMPILE_LANGUAGE,
BUILD_INTERFACE). `function`/`macro` bodies are skipped. Anything else is ignored: this reader only has to find
the translation units and their flags.
"""

from __future__ import annotations

import fnmatch
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ascendc_lsp import safeio
from ascendc_lsp.toolchain.emulator.build import find_cxx

MAX_INCLUDE_DEPTH = 16
MAX_COMMANDS = 20000
MAX_WHILE_ITERATIONS = 1000
# Where the samples look for the CANN toolkit (ASCEND_CANN_PACKAGE_PATH, ASCEND_HOME_PATH): `EXISTS` under it is
# true and its cmake modules are skipped, so `ascendc_library()` and friends are reached as with a toolkit.
VIRTUAL_CANN = "/ascendc-lsp-emulated-cann"


class CMakeError(ValueError):
    """A CMakeLists.txt this reader cannot follow, or one that stops with message(FATAL_ERROR ...)."""


@dataclass
class Target:
    name: str
    kind: str  # executable | library | ascendc_library | ascendc_fatbin (a kernel binary loaded at run time)
    sources: list[Path] = field(default_factory=list)
    include_dirs: list[Path] = field(default_factory=list)
    defines: dict[str, str | None] = field(default_factory=dict)
    links: list[str] = field(default_factory=list)
    dir: Path = Path(".")


@dataclass
class Project:
    root: Path
    targets: dict[str, Target] = field(default_factory=dict)
    include_dirs: list[Path] = field(default_factory=list)  # directory-wide (include_directories)
    defines: dict[str, str | None] = field(default_factory=dict)  # directory-wide (add_definitions)
    variables: dict[str, str] = field(default_factory=dict)
    cache_defaults: dict[str, str] = field(default_factory=dict)  # set(X v CACHE ...) values as written
    # the op-package build of the CANN cmake modules (npu_op_code_gen / npu_op_kernel_sources): the host sources
    # the op definitions are generated from, and each op type's kernel file
    op_host_sources: list[Path] = field(default_factory=list)
    op_kernels: list[tuple[str, Path]] = field(default_factory=list)

    def executables(self) -> list[Target]:
        return [t for t in self.targets.values() if t.kind == "executable"]

    def closure(self, target: Target) -> list[Target]:
        """The target and every target of this project it links, depth first, each once."""
        seen: list[Target] = []

        def visit(t: Target) -> None:
            if t in seen:
                return
            seen.append(t)
            for name in t.links:
                dep = self.targets.get(name)
                if dep is not None:
                    visit(dep)

        visit(target)
        return seen


# -------------------------------------------------------------------------------------------------- tokens
@dataclass
class _Arg:
    text: str
    quoted: bool


@dataclass
class _Command:
    name: str
    args: list[_Arg]
    line: int


def _parse(text: str, where: str) -> list[_Command]:
    out: list[_Command] = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == "#":
            m = re.match(r"#\[(=*)\[", text[i:])
            if m:
                end = text.find("]" + m.group(1) + "]", i)
                end = n if end < 0 else end + len(m.group(1)) + 2
            else:
                end = text.find("\n", i)
                end = n if end < 0 else end
            line += text.count("\n", i, end)
            i = end
        else:
            m = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[i:])
            if not m:
                i += 1
                continue
            name = m.group(0)
            j = i + len(name)
            while j < n and text[j] in " \t":
                j += 1
            if j >= n or text[j] != "(":
                i = j
                continue
            start_line = line
            args, j, line = _parse_args(text, j + 1, line, where)
            out.append(_Command(name.lower(), args, start_line))
            i = j
    return out


def _parse_args(text: str, i: int, line: int, where: str) -> tuple[list[_Arg], int, int]:
    args: list[_Arg] = []
    n = len(text)
    depth = 0
    cur = ""
    has = False
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            buf = ""
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    nxt = text[j + 1]
                    if nxt == "\n":
                        line += 1
                        j += 2
                        continue
                    buf += {"n": "\n", "t": "\t", '"': '"', "\\": "\\", ";": "\\;"}.get(nxt, "\\" + nxt)
                    j += 2
                    continue
                if text[j] == "\n":
                    line += 1
                buf += text[j]
                j += 1
            if has:  # a quote inside an unquoted argument is literal (CMake's legacy form: -DX="v")
                cur += '"' + buf + '"'
            else:
                args.append(_Arg(buf, True))
            i = j + 1
            continue
        if c == "[" and re.match(r"\[(=*)\[", text[i:]):
            m = re.match(r"\[(=*)\[", text[i:])
            assert m is not None
            close = "]" + m.group(1) + "]"
            end = text.find(close, i)
            end = n if end < 0 else end
            args.append(_Arg(text[i + len(m.group(0)) : end], True))
            line += text.count("\n", i, end)
            i = end + len(close)
            continue
        if c == "#" and not has:
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c.isspace():
            if c == "\n":
                line += 1
            if has:
                args.append(_Arg(cur, False))
                cur, has = "", False
            i += 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                if has:
                    args.append(_Arg(cur, False))
                return args, i + 1, line
            depth -= 1
        if c == "$" and text.startswith("$<", i):  # a generator expression may hold spaces? keep it one token
            end = _genex_end(text, i)
            cur += text[i:end]
            has = True
            i = end
            continue
        cur += c
        has = True
        i += 1
    raise CMakeError(f"{where}:{line}: unterminated command (missing ')')")


def _genex_end(text: str, i: int) -> int:
    depth = 0
    j = i
    while j < len(text):
        if text.startswith("$<", j):
            depth += 1
            j += 2
            continue
        if text[j] == ">":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return len(text)


# -------------------------------------------------------------------------------------------------- evaluation
_FALSE = {"", "0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND"}


def _truthy(v: str) -> bool:
    u = v.upper()
    return not (u in _FALSE or u.endswith("-NOTFOUND"))


class _Evaluator:
    def __init__(self, project: Project, overrides: dict[str, str]) -> None:
        self.p = project
        self.overrides = overrides
        self.vars: dict[str, str] = dict(overrides)
        self.commands = 0
        self.kernel_bases: dict[str, Path] = {}  # npu_op_kernel_library target -> SRC_BASE

    # --- variables
    def expand(self, s: str, cur: Path) -> str:
        for _ in range(20):
            m = re.search(r"\$\{([^${}]*)\}", s)
            if not m:
                break
            s = s[: m.start()] + self.vars.get(m.group(1), "") + s[m.end() :]
        s = re.sub(
            r"\$ENV\{(ASCEND_HOME_PATH|ASCEND_CANN_PACKAGE_PATH|ASCEND_TOOLKIT_HOME)\}", VIRTUAL_CANN, s
        )
        s = re.sub(r"\$ENV\{[^}]*\}", "", s)
        return self._genex(s)

    def _genex(self, s: str) -> str:
        for _ in range(50):
            # innermost $<...> first
            m = re.search(r"\$<([^$<>]*)>", s)
            if not m:
                return s
            s = s[: m.start()] + self._genex_one(m.group(1)) + s[m.end() :]
        return s

    def _genex_one(self, body: str) -> str:
        if body in ("0", "1"):
            return body
        if body.startswith("0:"):
            return ""
        if body.startswith("1:"):
            return body[2:]
        name, _, arg = body.partition(":")
        if name == "BOOL":
            return "1" if _truthy(arg) else "0"
        if name == "STREQUAL":
            a, _, b = arg.partition(",")
            return "1" if a == b else "0"
        if name == "EQUAL":
            a, _, b = arg.partition(",")
            return "1" if a.strip() == b.strip() else "0"
        if name == "IN_LIST":
            a, _, b = arg.partition(",")
            return "1" if a in b.split(";") else "0"
        if name == "NOT":
            return "0" if arg == "1" else "1"
        if name == "AND":
            return "1" if all(x == "1" for x in arg.split(",")) else "0"
        if name == "OR":
            return "1" if any(x == "1" for x in arg.split(",")) else "0"
        if name == "COMPILE_LANGUAGE":
            return "1" if not arg or {"ASC", "CXX", "C"} & set(arg.split(",")) else "0"
        if name in ("BUILD_INTERFACE", "INSTALL_INTERFACE"):
            return arg if name == "BUILD_INTERFACE" else ""
        if name in ("CONFIG",):
            return "0"
        return ""

    def args(self, raw: list[_Arg], cur: Path) -> list[str]:
        out: list[str] = []
        for a in raw:
            v = self.expand(a.text, cur)
            if a.quoted:
                out.append(v)
            else:
                out.extend(x for x in re.split(r"(?<!\\);", v) if x != "")
        return out

    # --- conditions
    def condition(self, raw: list[_Arg], cur: Path) -> bool:
        toks = [(self.expand(a.text, cur), a.quoted) for a in raw]
        pos = 0

        def value(tok: tuple[str, bool]) -> str:
            text, quoted = tok
            if not quoted and text in self.vars:
                return self.vars[text]
            return text

        def primary() -> bool:
            nonlocal pos
            if pos >= len(toks):
                return False
            t, q = toks[pos]
            if t == "(" and not q:
                pos += 1
                r = disjunction()
                if pos < len(toks) and toks[pos][0] == ")":
                    pos += 1
                return r
            if t == "NOT" and not q:
                pos += 1
                return not primary()
            if t == "DEFINED" and not q:
                pos += 1
                name = toks[pos][0] if pos < len(toks) else ""
                pos += 1
                return name in self.vars
            if t in ("EXISTS", "IS_DIRECTORY") and not q:
                pos += 1
                path = toks[pos][0] if pos < len(toks) else ""
                pos += 1
                return bool(path) and (path.startswith(VIRTUAL_CANN) or Path(path).exists())
            if t in ("COMMAND", "TARGET", "POLICY") and not q:
                pos += 2
                return t == "TARGET" and toks[pos - 1][0] in self.p.targets
            left = toks[pos]
            pos += 1
            if pos < len(toks) and not toks[pos][1]:
                op = toks[pos][0]
                if op in _BINARY:
                    right = toks[pos + 1] if pos + 1 < len(toks) else ("", True)
                    pos += 2
                    return _BINARY[op](value(left), value(right), self.vars)
            text, quoted = left
            if not quoted and text in self.vars:  # if(<variable>)
                return _truthy(self.vars[text])
            if text.upper() in ("ON", "YES", "TRUE", "Y"):  # if(<constant>); other strings are false
                return True
            return bool(re.fullmatch(r"-?\d+(?:\.\d+)?", text)) and float(text) != 0

        def conjunction() -> bool:
            nonlocal pos
            r = primary()
            while pos < len(toks) and toks[pos] == ("AND", False):
                pos += 1
                r = primary() and r
            return r

        def disjunction() -> bool:
            nonlocal pos
            r = conjunction()
            while pos < len(toks) and toks[pos] == ("OR", False):
                pos += 1
                r = conjunction() or r
            return r

        return disjunction()

    # --- files
    def run_file(self, path: Path, cur: Path, depth: int = 0) -> None:
        if depth > MAX_INCLUDE_DEPTH:
            raise CMakeError(f"{path}: include depth over {MAX_INCLUDE_DEPTH}")
        try:
            text = safeio.read_text(path, safeio.MAX_SOURCE_BYTES, "CMake file", errors="replace")
        except OSError as exc:
            raise CMakeError(f"{path}: cannot read ({exc.strerror or exc})") from None
        except safeio.InputError as exc:
            raise CMakeError(str(exc)) from None
        self.vars["CMAKE_CURRENT_LIST_DIR"] = str(path.parent)
        self.vars["CMAKE_CURRENT_LIST_FILE"] = str(path)
        self.block(_parse(text, str(path)), cur, path, depth)

    def block(self, cmds: list[_Command], cur: Path, file: Path, depth: int) -> None:
        i = 0
        while i < len(cmds):
            c = cmds[i]
            self.commands += 1
            if self.commands > MAX_COMMANDS:
                raise CMakeError(f"{file}: more than {MAX_COMMANDS} commands evaluated (a loop?)")
            if c.name == "if":
                branches, i = self._collect_if(cmds, i, file)
                for cond, body in branches:
                    if cond is None or self.condition(cond, cur):
                        self.block(body, cur, file, depth)
                        break
                continue
            if c.name in ("function", "macro"):
                i = self._skip_to(cmds, i, c.name, "end" + c.name, file)
                continue
            if c.name == "foreach":
                end = self._skip_to(cmds, i, "foreach", "endforeach", file)
                self._foreach(c, cmds[i + 1 : end - 1], cur, file, depth)
                i = end
                continue
            if c.name == "while":
                end = self._skip_to(cmds, i, "while", "endwhile", file)
                for _ in range(MAX_WHILE_ITERATIONS):  # MAX_COMMANDS bounds the work as well
                    if not self.condition(c.args, cur):
                        break
                    self.block(cmds[i + 1 : end - 1], cur, file, depth)
                i = end
                continue
            self.command(c, cur, file, depth)
            i += 1

    def _skip_to(self, cmds: list[_Command], i: int, open_: str, close: str, file: Path) -> int:
        depth = 0
        while i < len(cmds):
            if cmds[i].name == open_:
                depth += 1
            elif cmds[i].name == close:
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        raise CMakeError(f"{file}: '{open_}' without '{close}'")

    def _collect_if(
        self, cmds: list[_Command], i: int, file: Path
    ) -> tuple[list[tuple[list[_Arg] | None, list[_Command]]], int]:
        branches: list[tuple[list[_Arg] | None, list[_Command]]] = []
        cond: list[_Arg] | None = cmds[i].args
        body: list[_Command] = []
        depth = 0
        i += 1
        while i < len(cmds):
            c = cmds[i]
            if c.name == "if":
                depth += 1
            elif c.name == "endif":
                if depth == 0:
                    branches.append((cond, body))
                    return branches, i + 1
                depth -= 1
            elif depth == 0 and c.name in ("elseif", "else"):
                branches.append((cond, body))
                cond = c.args if c.name == "elseif" else None
                body = []
                i += 1
                continue
            body.append(c)
            i += 1
        raise CMakeError(f"{file}:{cmds[0].line}: 'if' without 'endif'")

    def _foreach(self, c: _Command, body: list[_Command], cur: Path, file: Path, depth: int) -> None:
        a = self.args(c.args, cur)
        if not a:
            return
        var, items = a[0], a[1:]
        if items[:1] == ["IN"]:
            items = items[1:]
            vals: list[str] = []
            mode = "ITEMS"
            for x in items:
                if x in ("LISTS", "ITEMS", "ZIP_LISTS"):
                    mode = x
                elif mode == "LISTS":
                    vals.extend(v for v in self.vars.get(x, "").split(";") if v)
                else:
                    vals.append(x)
            items = vals
        elif items[:1] == ["RANGE"]:
            nums = [int(x) for x in items[1:] if re.fullmatch(r"-?\d+", x)]
            rng = range(nums[0] + 1) if len(nums) == 1 else range(nums[0], nums[1] + 1) if nums else range(0)
            items = [str(v) for v in rng]
        for v in items[:1000]:
            self.vars[var] = v
            self.block(body, cur, file, depth)

    # --- commands
    def command(self, c: _Command, cur: Path, file: Path, depth: int) -> None:
        name = c.name
        if name in ("set", "option", "list", "unset", "string", "math", "get_filename_component"):
            self._variables(c, cur)
            return
        a = self.args(c.args, cur)
        if name == "message":
            if a and a[0] in ("FATAL_ERROR", "SEND_ERROR"):
                raise CMakeError(f"{file}:{c.line}: the sample refuses this configuration: {' '.join(a[1:])}")
            return
        if name == "file" and a and a[0] in ("GLOB", "GLOB_RECURSE") and len(a) > 1:
            self.vars[a[1]] = ";".join(str(p) for p in _glob(a[2:], cur, recurse=a[0] == "GLOB_RECURSE"))
            return
        if name == "include" and a:
            target = Path(a[0])
            cand = (
                [target]
                if target.is_absolute()
                else [cur / target, Path(self.vars.get("CMAKE_CURRENT_LIST_DIR", cur)) / target]
            )
            for p in cand:
                if p.is_file():
                    saved = (
                        self.vars.get("CMAKE_CURRENT_LIST_DIR"),
                        self.vars.get("CMAKE_CURRENT_LIST_FILE"),
                    )
                    self.run_file(p, cur, depth + 1)
                    self.vars["CMAKE_CURRENT_LIST_DIR"], self.vars["CMAKE_CURRENT_LIST_FILE"] = (
                        saved[0] or str(cur),
                        saved[1] or "",
                    )
                    return
            return  # a CANN cmake module: not present, not needed
        if name == "add_subdirectory" and a:
            sub = (cur / a[0]).resolve()
            if (sub / "CMakeLists.txt").is_file():
                saved_vars = dict(self.vars)
                self.vars["CMAKE_CURRENT_SOURCE_DIR"] = str(sub)
                self.vars["CMAKE_CURRENT_BINARY_DIR"] = str(sub / "build")
                self.run_file(sub / "CMakeLists.txt", sub, depth + 1)
                keep = {k: v for k, v in self.vars.items() if k.startswith("CACHE:")}
                self.vars = {**saved_vars, **keep}
            return
        if name in ("add_executable", "add_library", "ascendc_library", "ascendc_fatbin_library") and a:
            tname = a[0]
            kind = (
                "executable"
                if name == "add_executable"
                else "ascendc_fatbin"
                if name == "ascendc_fatbin_library"
                else "ascendc_library"
                if name.startswith("ascendc")
                else "library"
            )
            rest = [
                x
                for x in a[1:]
                if x
                not in (
                    "STATIC",
                    "SHARED",
                    "OBJECT",
                    "MODULE",
                    "INTERFACE",
                    "WIN32",
                    "MACOSX_BUNDLE",
                    "EXCLUDE_FROM_ALL",
                    "IMPORTED",
                    "GLOBAL",
                    "ALIAS",
                )
            ]
            if "IMPORTED" in a or "ALIAS" in a:
                return
            t = self.p.targets.get(tname) or Target(name=tname, kind=kind, dir=cur)
            t.sources.extend(_paths(rest, cur))
            self.p.targets[tname] = t
            return
        if name == "target_sources" and a and a[0] in self.p.targets:
            self.p.targets[a[0]].sources.extend(_paths(_strip_scopes(a[1:]), cur))
            return
        if name in ("target_include_directories", "ascendc_include_directories") and a:
            tg = self.p.targets.get(a[0])
            if tg is not None:
                tg.include_dirs.extend(_paths(_strip_scopes(a[1:]), cur))
            return
        if name == "include_directories":
            self.p.include_dirs.extend(_paths(_strip_scopes(a), cur))
            return
        if name in ("target_compile_definitions", "ascendc_compile_definitions") and a:
            tg = self.p.targets.get(a[0])
            if tg is not None:
                for d in _strip_scopes(a[1:]):
                    _define(tg.defines, d)
            return
        if name in ("add_definitions", "add_compile_definitions", "add_compile_options"):
            for d in a:
                if name == "add_compile_definitions":
                    _define(self.p.defines, d)
                elif d.startswith("-D"):
                    _define(self.p.defines, d[2:])
            return
        if name in ("target_compile_options", "ascendc_compile_options") and a:
            tg = self.p.targets.get(a[0])
            if tg is not None:
                for d in _strip_scopes(a[1:]):
                    if d.startswith("-D") and len(d) > 2:
                        _define(tg.defines, d[2:])
            return
        if name == "target_link_libraries" and a:
            tg = self.p.targets.get(a[0])
            if tg is not None:
                tg.links.extend(x for x in _strip_scopes(a[1:]) if x)
            return
        if name == "npu_op_code_gen" and "SRC" in a:
            srcs = _keyword_values(a, "SRC", _OP_GEN_KEYWORDS)
            self.p.op_host_sources.extend(x for x in _paths(srcs, cur) if x not in self.p.op_host_sources)
            return
        if name == "npu_op_kernel_library" and a:
            base = _keyword_values(a, "SRC_BASE", _OP_GEN_KEYWORDS)
            if base:
                self.kernel_bases[a[0]] = _paths(base[:1], cur)[0]
            return
        if name == "npu_op_kernel_sources" and a:
            op_type = _keyword_values(a, "OP_TYPE", _OP_GEN_KEYWORDS)[:1]
            files = _keyword_values(a, "KERNEL_FILE", _OP_GEN_KEYWORDS)[:1]
            if op_type and files:
                self.p.op_kernels.append((op_type[0], _paths(files, self.kernel_bases.get(a[0], cur))[0]))
            return
        if name == "execute_process":
            self._execute_process(a)
            return
        if name == "project":
            self.vars.setdefault("PROJECT_SOURCE_DIR", str(cur))
            self.vars.setdefault("PROJECT_BINARY_DIR", str(cur / "build"))
            if a:
                self.vars["PROJECT_NAME"] = a[0]
            return

    def _execute_process(self, a: list[str]) -> None:
        """execute_process(): only a compiler query is run (`${CMAKE_CXX_COMPILER} -print-file-name=libgcc.a`, as
        samples that locate their GCC toolchain do), with the C++ compiler the emulator builds with; anything else
        (Python probing torch, scripts) is not run and leaves its variables unset, as before."""
        keywords = {"COMMAND", "WORKING_DIRECTORY", "TIMEOUT", "RESULT_VARIABLE", "RESULTS_VARIABLE",
                    "OUTPUT_VARIABLE", "ERROR_VARIABLE", "INPUT_FILE", "OUTPUT_FILE", "ERROR_FILE", "OUTPUT_QUIET",
                    "ERROR_QUIET", "OUTPUT_STRIP_TRAILING_WHITESPACE", "ERROR_STRIP_TRAILING_WHITESPACE",
                    "COMMAND_ECHO", "ENCODING", "ECHO_OUTPUT_VARIABLE", "ECHO_ERROR_VARIABLE", "COMMAND_ERROR_IS_FATAL"}
        commands: list[list[str]] = []
        options: dict[str, str] = {}
        i = 0
        while i < len(a):
            if a[i] == "COMMAND":
                j = i + 1
                while j < len(a) and a[j] not in keywords:
                    j += 1
                commands.append(a[i + 1 : j])
                i = j
            elif a[i] in keywords:
                takes_value = i + 1 < len(a) and a[i + 1] not in keywords and a[i].endswith(
                    ("VARIABLE", "DIRECTORY", "TIMEOUT", "FILE", "ENCODING", "ECHO", "FATAL")
                )
                options[a[i]] = a[i + 1] if takes_value else "1"
                i += 2 if takes_value else 1
            else:
                i += 1
        compilers = {self.vars.get("CMAKE_CXX_COMPILER"), self.vars.get("CMAKE_C_COMPILER")} - {None, ""}
        if len(commands) != 1 or not commands[0] or commands[0][0] not in compilers:
            return
        query = commands[0][1:]
        if len(query) != 1 or not re.fullmatch(
            r"-print-(?:file|prog)-name=[\w.+-]+|-dumpversion|-dumpfullversion|-dumpmachine", query[0]
        ):
            return
        cxx = find_cxx()
        if cxx is None:
            return
        try:
            done = subprocess.run([cxx, query[0]], capture_output=True, text=True, timeout=20, check=False)
            out, code = done.stdout, str(done.returncode)
        except (OSError, subprocess.SubprocessError):
            out, code = "", "1"
        if "OUTPUT_STRIP_TRAILING_WHITESPACE" in options:
            out = out.rstrip()
        if "OUTPUT_VARIABLE" in options:
            self.vars[options["OUTPUT_VARIABLE"]] = out
        if "RESULT_VARIABLE" in options:
            self.vars[options["RESULT_VARIABLE"]] = code

    def _variables(self, c: _Command, cur: Path) -> None:
        a = self.args(c.args, cur)
        if not a:
            return
        if c.name == "set":
            var, vals = a[0], a[1:]
            if "PARENT_SCOPE" in vals:
                vals = vals[: vals.index("PARENT_SCOPE")]
            if "CACHE" in vals:
                k = vals.index("CACHE")
                value = ";".join(vals[:k])
                force = "FORCE" in vals[k:]
                self.p.cache_defaults.setdefault(var, value)
                if var in self.overrides:
                    return
                if force or var not in self.vars:
                    self.vars[var] = value
                return
            self.vars[var] = ";".join(vals)
        elif c.name == "option":
            if a[0] not in self.vars:
                self.vars[a[0]] = a[2] if len(a) > 2 else "OFF"
        elif c.name == "unset":
            self.vars.pop(a[0], None)
        elif c.name == "list" and len(a) >= 2:
            op, var = a[0], a[1]
            items = [x for x in self.vars.get(var, "").split(";") if x]
            if op == "APPEND":
                items.extend(a[2:])
            elif op == "PREPEND":
                items = a[2:] + items
            elif op == "REMOVE_ITEM":
                items = [x for x in items if x not in a[2:]]
            self.vars[var] = ";".join(items)
        elif c.name == "get_filename_component" and len(a) >= 3:
            p = Path(a[1])
            mode = a[2]
            self.vars[a[0]] = {
                "DIRECTORY": str(p.parent),
                "PATH": str(p.parent),
                "NAME": p.name,
                "NAME_WE": p.name.split(".")[0],
                "ABSOLUTE": str((cur / p).resolve()),
                "REALPATH": str((cur / p).resolve()),
            }.get(mode, str(p))
        elif c.name == "string":
            self._string(a)

    def _string(self, a: list[str]) -> None:
        """string(): the subcommands samples use to derive values (an architecture number from
        CMAKE_ASC_ARCHITECTURES, a toolchain root from a compiler path)."""
        op = a[0]
        if op in ("TOUPPER", "TOLOWER") and len(a) >= 3:
            self.vars[a[2]] = a[1].upper() if op == "TOUPPER" else a[1].lower()
        elif op == "REGEX" and len(a) >= 4:
            mode, regex = a[1], _cmake_regex(a[2])
            if regex is None:
                return
            if mode in ("MATCH", "MATCHALL"):
                text = "".join(a[4:])
                if mode == "MATCHALL":
                    self.vars[a[3]] = ";".join(m.group(0) for m in regex.finditer(text))
                    return
                m = regex.search(text)
                self.vars[a[3]] = m.group(0) if m else ""
                for k in range(10):
                    group = m.group(k) if m and k <= regex.groups else None
                    self.vars[f"CMAKE_MATCH_{k}"] = group or ""
            elif mode == "REPLACE" and len(a) >= 5:
                template = a[3]

                def expand(m: re.Match[str]) -> str:
                    return re.sub(r"\\(\d)", lambda g: m.group(int(g.group(1))) or "", template)

                self.vars[a[4]] = regex.sub(expand, "".join(a[5:]))
        elif op == "REPLACE" and len(a) >= 4:
            self.vars[a[3]] = "".join(a[4:]).replace(a[1], a[2]) if a[1] else "".join(a[4:])
        elif op in ("APPEND", "PREPEND") and len(a) >= 2:
            old = self.vars.get(a[1], "")
            self.vars[a[1]] = old + "".join(a[2:]) if op == "APPEND" else "".join(a[2:]) + old
        elif op == "CONCAT" and len(a) >= 2:
            self.vars[a[1]] = "".join(a[2:])
        elif op == "STRIP" and len(a) >= 3:
            self.vars[a[2]] = a[1].strip()
        elif op == "LENGTH" and len(a) >= 3:
            self.vars[a[2]] = str(len(a[1]))
        elif op == "FIND" and len(a) >= 4:
            self.vars[a[3]] = str(a[1].rfind(a[2]) if "REVERSE" in a[4:] else a[1].find(a[2]))
        elif op == "SUBSTRING" and len(a) >= 5 and all(re.fullmatch(r"-?\d+", x) for x in a[2:4]):
            begin, length = int(a[2]), int(a[3])
            self.vars[a[4]] = a[1][begin:] if length < 0 else a[1][begin : begin + length]
        elif op == "JOIN" and len(a) >= 3:
            self.vars[a[2]] = a[1].join(a[3:])


def _cmake_regex(pattern: str) -> re.Pattern[str] | None:
    """A CMake regular expression (POSIX-extended-like: ^ $ . [] * + ? | () ) as a Python one; None when it
    does not compile (the command then leaves its variable alone)."""
    try:
        return re.compile(pattern)
    except re.error:
        return None


def _cmp_num(a: str, b: str, op: str) -> bool:
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return {"EQUAL": x == y, "LESS": x < y, "GREATER": x > y, "LESS_EQUAL": x <= y, "GREATER_EQUAL": x >= y}[
        op
    ]


def _version(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v)[:4])


_BINARY = {
    "STREQUAL": lambda a, b, v: a == b,
    "STRLESS": lambda a, b, v: a < b,
    "STRGREATER": lambda a, b, v: a > b,
    "MATCHES": lambda a, b, v: (rx := _cmake_regex(b)) is not None and rx.search(a) is not None,
    "EQUAL": lambda a, b, v: _cmp_num(a, b, "EQUAL"),
    "LESS": lambda a, b, v: _cmp_num(a, b, "LESS"),
    "GREATER": lambda a, b, v: _cmp_num(a, b, "GREATER"),
    "LESS_EQUAL": lambda a, b, v: _cmp_num(a, b, "LESS_EQUAL"),
    "GREATER_EQUAL": lambda a, b, v: _cmp_num(a, b, "GREATER_EQUAL"),
    "VERSION_LESS": lambda a, b, v: _version(a) < _version(b),
    "VERSION_GREATER": lambda a, b, v: _version(a) > _version(b),
    "VERSION_EQUAL": lambda a, b, v: _version(a) == _version(b),
    "VERSION_LESS_EQUAL": lambda a, b, v: _version(a) <= _version(b),
    "VERSION_GREATER_EQUAL": lambda a, b, v: _version(a) >= _version(b),
    "IN_LIST": lambda a, b, v: a in b.split(";"),
}


_OP_GEN_KEYWORDS = frozenset(
    {"SRC", "PACKAGE", "OUT_DIR", "OPTIONS", "OP_TYPE", "KERNEL_FILE", "SRC_BASE", "TILING_LIBRARY", "COMPUTE_UNIT",
     "KERNEL_DIR", "COMPILE_OPTIONS", "OPS_PRODUCT_NAME"}
)  # fmt: skip


def _keyword_values(args: list[str], keyword: str, keywords: frozenset[str]) -> list[str]:
    """The values after `keyword` up to the next keyword of the command (`SRC a.cpp b.cpp PACKAGE ...`)."""
    if keyword not in args:
        return []
    out: list[str] = []
    for x in args[args.index(keyword) + 1 :]:
        if x in keywords:
            break
        out.append(x)
    return out


def _strip_scopes(items: list[str]) -> list[str]:
    return [x for x in items if x not in ("PRIVATE", "PUBLIC", "INTERFACE", "SYSTEM", "BEFORE", "AFTER")]


def _define(into: dict[str, str | None], d: str) -> None:
    d = d.strip()
    if d.startswith("-D"):
        d = d[2:]
    if not d or not re.match(r"[A-Za-z_]", d):
        return
    name, eq, val = d.partition("=")
    into[name] = val if eq else None


def _paths(items: list[str], cur: Path) -> list[Path]:
    out: list[Path] = []
    for x in items:
        if not x or x.startswith("$<") or x.startswith("-"):
            continue
        p = Path(x)
        out.append(p if p.is_absolute() else cur / p)
    return out


def _glob(patterns: list[str], cur: Path, recurse: bool) -> list[Path]:
    out: list[Path] = []
    skip = {"LIST_DIRECTORIES", "RELATIVE", "CONFIGURE_DEPENDS", "FOLLOW_SYMLINKS"}
    for pat in patterns:
        if pat in skip or pat in ("true", "false"):
            continue
        p = Path(pat)
        base = p if p.is_absolute() else cur / p
        parent, name = base.parent, base.name
        if not parent.is_dir():
            continue
        cands = parent.rglob("*") if recurse else parent.glob("*")
        for c in sorted(cands):
            if c.is_file() and fnmatch.fnmatch(c.name, name):
                out.append(c)
    return out


def read_project(root: Path, overrides: dict[str, str] | None = None) -> Project:
    """Evaluate root/CMakeLists.txt with `-D` style overrides; raises CMakeError with a one-line reason."""
    root = root.resolve()
    cml = root / "CMakeLists.txt"
    if not cml.is_file():
        raise CMakeError(f"{root}: no CMakeLists.txt")
    project = Project(root=root)
    ev = _Evaluator(project, dict(overrides or {}))
    for k, v in {
        "CMAKE_SOURCE_DIR": str(root),
        "CMAKE_CURRENT_SOURCE_DIR": str(root),
        "PROJECT_SOURCE_DIR": str(root),
        "CMAKE_BINARY_DIR": str(root / "build"),
        "CMAKE_CURRENT_BINARY_DIR": str(root / "build"),
        "CMAKE_INSTALL_PREFIX": "/usr/local",
        "CMAKE_SYSTEM_PROCESSOR": "x86_64",
        "CMAKE_HOST_SYSTEM_PROCESSOR": "x86_64",
        "UNIX": "1",
        "CMAKE_CXX_COMPILER_ID": "GNU",
        # the host compiler of the emulated build (execute_process runs only its -print-file-name style queries)
        "CMAKE_CXX_COMPILER": find_cxx() or "c++",
        "CMAKE_C_COMPILER": find_cxx() or "c++",
        "ASCEND_CANN_PACKAGE_PATH": VIRTUAL_CANN,
        "ASCEND_HOME_PATH": VIRTUAL_CANN,
        "ASCEND_INSTALL_PATH": VIRTUAL_CANN,
    }.items():
        ev.vars.setdefault(k, v)
    ev.run_file(cml, root)
    project.variables = dict(ev.vars)
    return project


__all__ = ["CMakeError", "Project", "Target", "read_project"]
