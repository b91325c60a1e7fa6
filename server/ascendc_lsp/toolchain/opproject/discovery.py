"""Find an msOpGen-style op project (`op_host/` + `op_kernel/`) from any path in it, its kernels, its host sources,
and the include directories the real build would give a translation unit.

Include rule (documented in docs/op-test-case.md): a quoted `#include "a/b.h"` (or an angled one that is neither a
system header nor one of the emulator's) that does not resolve next to the including file is searched for in the
repository the project lives in; among the files whose path ends with `a/b.h`, the one nearest to the including
file wins (fewest directory steps between them), and the folder that makes `a/b.h` resolve is added to the include
path. Repeated until every reachable include resolves or is missing everywhere. The repository root is the nearest
ancestor with `.git` (or `ascendc-lsp.toml`), else the top of an extracted public tree, else the project folder.
An SDK's own header tree (a folder holding `kernel_operator.h`, and `impl/` beside it) is never searched: the
emulator's headers stand in for it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ascendc_lsp.paths import cache_dir

SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c")
HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".inc", ".inl", ".cuh")
_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)
_GLOBAL_KERNEL = re.compile(
    r"(?:extern\s+\"C\"\s+)?__global__\s+(?:__aicore__\s+|__vector__\s+|__cube__\s+|__mix__\([^)]*\)\s+)*void\s+"
    r"(\w+)\s*\(",
)
MAX_INDEX_FILES = 200_000
_NOT_SOURCES = frozenset({"node_modules", "__pycache__", "site-packages"})


class OpProjectError(Exception):
    """A problem with an op project or a test case, worded for one line naming the file (and line)."""


@dataclass(frozen=True)
class KernelEntry:
    name: str
    file: Path
    line: int  # 1-based


@dataclass(frozen=True)
class OpProject:
    root: Path  # the folder holding op_host/ and op_kernel/
    op_host: Path
    op_kernel: Path
    repo_root: Path
    # an op package built by the CANN cmake modules in one folder (npu_op_code_gen SRC ..., npu_op_kernel_sources
    # KERNEL_FILE ...): its host sources and kernel files as the CMakeLists.txt names them; empty for op_host/ +
    # op_kernel/ projects
    host_files: tuple[Path, ...] = ()
    kernel_files: tuple[Path, ...] = ()

    def host_sources(self) -> list[Path]:
        """The op_host translation units (top level only: op_api/ and other subfolders are not tiling code)."""
        if self.host_files:
            return sorted(p for p in self.host_files if p.is_file())
        return sorted(p for p in self.op_host.iterdir() if p.is_file() and p.suffix in SOURCE_SUFFIXES)

    def kernel_entries(self) -> list[KernelEntry]:
        out: list[KernelEntry] = []
        files = sorted(self.kernel_files) if self.kernel_files else sorted(self.op_kernel.rglob("*"))
        for p in files:
            if not p.is_file() or p.suffix not in SOURCE_SUFFIXES:
                continue
            text = p.read_text(encoding="utf-8", errors="replace")
            for m in _GLOBAL_KERNEL.finditer(_strip_comments(text)):
                out.append(KernelEntry(m.group(1), p, text.count("\n", 0, m.start()) + 1))
        return out

    def kernel_for(self, op_type: str) -> KernelEntry:
        """The kernel entry of an op type: the op_kernel function named like the op (AddCustom -> add_custom)."""
        entries = self.kernel_entries()
        if not entries:
            raise OpProjectError(
                f'{self.op_kernel}: no kernel entry (an `extern "C" __global__` function) found'
            )
        want = _squash(op_type)
        named = [e for e in entries if _squash(e.name) == want]
        if not named:
            named = [e for e in entries if _squash(e.file.stem) == want]
        if not named and len({e.name for e in entries}) == 1:
            named = entries
        if not named:
            names = ", ".join(sorted({e.name for e in entries}))
            raise OpProjectError(
                f"{self.op_kernel}: no kernel entry for op {op_type} (expected {snake_case(op_type)}; found {names})"
            )
        # prefer the file named after the op, then the first definition
        named.sort(key=lambda e: (_squash(e.file.stem) != want, str(e.file), e.line))
        return named[0]


def snake_case(op_type: str) -> str:
    """msOpGen's file and kernel name of an op type: AddCustom -> add_custom, AvgPool3D -> avg_pool3_d."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", op_type)
    s = re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", "_", s)
    return s.lower()


def _squash(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def public_trees_dir() -> Path:
    """Where bench/corpus.py extracts public repositories (`ASCENDC_PUBLIC_TREES`, else the user's cache)."""
    env = os.environ.get("ASCENDC_PUBLIC_TREES")
    return Path(env) if env else cache_dir("public")


def repository_root(start: Path) -> Path:
    start = start.resolve()
    trees = public_trees_dir().resolve()
    home = Path.home().resolve()
    for anc in [start, *start.parents]:
        if anc in (Path("/"), home):
            break
        if (anc / ".git").exists() or (anc / "ascendc-lsp.toml").exists() or anc.parent == trees:
            return anc
    return start


def find_project(path: str | Path) -> OpProject:
    """The op project containing `path` (the project folder, op_host/, op_kernel/, or any file in them)."""
    p = Path(path).expanduser()
    if not p.exists():
        raise OpProjectError(f"{p}: no such file or folder")
    p = p.resolve()
    start = p if p.is_dir() else p.parent
    for anc in [start, *start.parents]:
        both = [a for a in (anc, anc.parent) if (a / "op_host").is_dir() and (a / "op_kernel").is_dir()]
        if not both or (both[0] != anc and anc.name not in ("op_host", "op_kernel")):
            continue
        root = both[0]
        host, kernel = root / "op_host", root / "op_kernel"
        # a project of several ops keeps each in op_host/<op>/ and op_kernel/<op>/: narrow to the one asked for
        if not any(q.suffix in SOURCE_SUFFIXES for q in host.iterdir() if q.is_file()):
            for side in (host, kernel):
                if start != side and start.is_relative_to(side):
                    sub = start.relative_to(side).parts[0]
                    if (host / sub).is_dir() and (kernel / sub).is_dir():
                        host, kernel = host / sub, kernel / sub
                    break
        return OpProject(root, host, kernel, repository_root(root))
    package = _cmake_op_package(start)
    if package is not None:
        return package
    raise OpProjectError(
        f"{p}: not inside an op project (no folder with both op_host/ and op_kernel/ above it)"
    )


def _cmake_op_package(folder: Path) -> OpProject | None:
    """An op package whose CMakeLists.txt (in `folder`) generates the op from host sources (npu_op_code_gen) and
    names the kernel file per op type (npu_op_kernel_sources), all in one folder: the real build compiles that
    kernel file with the DTYPE_/ORIG_DTYPE_ macros of the op definition, as for op_host/ + op_kernel/."""
    cml = folder / "CMakeLists.txt"
    try:
        if not cml.is_file() or b"npu_op_kernel_sources" not in cml.read_bytes():
            return None
    except OSError:
        return None
    from ascendc_lsp.toolchain.program.cmake import CMakeError, read_project

    try:
        project = read_project(folder)
    except CMakeError:
        return None
    host_files = tuple(p.resolve() for p in project.op_host_sources if p.is_file())
    kernel_files = tuple(p.resolve() for _op, p in project.op_kernels if p.is_file())
    if not host_files or not kernel_files:
        return None
    return OpProject(folder, folder, folder, repository_root(folder), host_files, kernel_files)


# ----------------------------------------------------------------------------------------------------------------
# include resolution


@cache
def _sdk_roots(repo: Path) -> tuple[Path, ...]:
    """Header trees of an SDK inside a repository (never searched: the emulator stands in for them)."""
    out: list[Path] = []
    if (repo / "include" / "kernel_operator.h").is_file():
        out += [repo / "include", repo / "impl"]
    return tuple(out)


@cache
def _index(repo: Path) -> dict[str, tuple[Path, ...]]:
    """Every header/source file under the repository, by file name."""
    skip = _sdk_roots(repo)
    by_name: dict[str, list[Path]] = {}
    count = 0
    for dirpath, dirnames, filenames in os.walk(repo):
        d = Path(dirpath)
        dirnames[:] = sorted(
            n for n in dirnames if not n.startswith(".") and n not in _NOT_SOURCES and (d / n) not in skip
        )
        for f in filenames:
            if f.endswith(HEADER_SUFFIXES + SOURCE_SUFFIXES):
                by_name.setdefault(f, []).append(d / f)
                count += 1
        if count > MAX_INDEX_FILES:
            break
    return {k: tuple(v) for k, v in by_name.items()}


_IMPL_TILING = re.compile(rb"\bIMPL_OP(?:_OPTILING)?\s*\(\s*(\w+)\s*\)")


@cache
def tiling_registrations(repo: Path) -> dict[str, tuple[Path, ...]]:
    """Op type -> the repository's sources registering its tiling with IMPL_OP_OPTILING / IMPL_OP (op libraries
    such as cann-ops keep shared tiling code outside the op's own op_host folder)."""
    out: dict[str, list[Path]] = {}
    for paths in _index(repo.resolve()).values():
        for p in paths:
            if p.suffix not in SOURCE_SUFFIXES:
                continue
            try:
                data = p.read_bytes()
            except OSError:
                continue
            if b"IMPL_OP" not in data:
                continue
            for m in _IMPL_TILING.finditer(data):
                out.setdefault(m.group(1).decode(), []).append(p)
    return {k: tuple(sorted(set(v))) for k, v in out.items()}


def companion_sources(headers: Sequence[Path], repo: Path, exclude: Sequence[Path] = ()) -> list[Path]:
    """For each header, the source file of the same name nearest to it (`foo.h` -> `foo.cpp`): what a library's
    build compiles beside the header (cann-ops keeps `common/inc/x/y.h` and `common/src/x/y.cpp`)."""
    index = _index(repo.resolve())
    out: list[Path] = []
    for h in headers:
        cands = [
            p
            for suffix in (".cpp", ".cc")
            for p in index.get(h.stem + suffix, ())
            if p not in exclude and "op_api" not in p.parts and not p.name.startswith("aclnn_")
        ]
        if cands:
            best = min(cands, key=lambda p: (_distance(h.parent, p.parent), str(p)))
            if best not in out:
                out.append(best)
    return out


def _distance(a: Path, b: Path) -> int:
    pa, pb = a.parts, b.parts
    common = 0
    for x, y in zip(pa, pb, strict=False):
        if x != y:
            break
        common += 1
    return (len(pa) - common) + (len(pb) - common)


def includes_of(path: Path) -> list[tuple[str, str]]:
    """(kind, name) of every #include in a file: kind is '"' or '<'."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    return [
        (m.group(1).decode(), m.group(2).decode("utf-8", "replace").strip()) for m in _INCLUDE.finditer(data)
    ]


def resolve_include_dirs(
    roots: Sequence[Path],
    repo: Path,
    provided: Sequence[Path],
    system: Sequence[Path] = (),
    max_files: int = 2000,
) -> list[Path]:
    """Folders to add (-I) so the includes reachable from `roots` resolve, by the rule in the module doc.

    `provided`: include folders already on the path (the emulator's or the host shims', the project's);
    `system`: the compiler's own folders (angled includes found there are left alone).
    """
    return _walk_includes(roots, repo, provided, system, max_files)[0]


def repository_headers(
    roots: Sequence[Path], repo: Path, provided: Sequence[Path], system: Sequence[Path] = ()
) -> list[Path]:
    """The repository's files the includes reachable from `roots` resolve to (the roots excluded)."""
    seen = _walk_includes(roots, repo, provided, system, 2000)[1]
    rs = {r.resolve() for r in roots}
    return sorted(f for f in seen if f not in rs and f.is_relative_to(repo.resolve()))


def _walk_includes(
    roots: Sequence[Path], repo: Path, provided: Sequence[Path], system: Sequence[Path], max_files: int
) -> tuple[list[Path], set[Path]]:
    added: list[Path] = []
    seen: set[Path] = set()
    queue: list[Path] = [r.resolve() for r in roots]
    index = _index(repo.resolve())
    while queue and len(seen) < max_files:
        f = queue.pop()
        if f in seen:
            continue
        seen.add(f)
        for kind, name in includes_of(f):
            found = _lookup(name, kind, f.parent, [*provided, *added], system)
            if found is not None:
                if found.is_relative_to(repo):
                    queue.append(found)
                continue
            cand = [
                p for p in index.get(Path(name).name, ()) if p.as_posix().endswith("/" + name.lstrip("./"))
            ]
            if not cand:
                continue
            best = min(cand, key=lambda p: (_distance(f.parent, p.parent), str(p)))
            base = Path(str(best)[: -len(name.lstrip("./"))]).resolve()
            if base not in added:
                added.append(base)
            queue.append(best.resolve())
    return added, seen


def _lookup(name: str, kind: str, here: Path, dirs: Iterable[Path], system: Iterable[Path]) -> Path | None:
    if kind == '"':
        p = here / name
        if p.is_file():
            return p.resolve()
    for d in dirs:
        p = Path(d) / name
        if p.is_file():
            return p.resolve()
    for d in system:
        if (Path(d) / name).is_file():
            return Path(d) / name  # a system header: not followed
    return None
