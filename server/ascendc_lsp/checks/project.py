"""What the project around a kernel file says: its SoC, and the concrete values a spec attaches to it.

The SoC of a file is its project's unless the user chose one:

* CMake and build scripts: `set(CMAKE_ASC_ARCHITECTURES "dav-3510")`, `--npu-arch=dav-2201`,
  `__NPU_ARCH__=3510`, `set(SOC_VERSION "Ascend310P3")`, `SOC_VERSION="Ascend910B4"` (run.sh);
* op projects: `AddConfig("ascend910b")` in `op_host/*.cpp`, `ASCEND_COMPUTE_UNIT` in `CMakePresets.json`.

Folders are searched from the file's own upward (at most `_MAX_LEVELS`, never above a repository root, a
`.git` folder, or the home folder); the nearest folder with any evidence decides. When a project builds
for several SoCs, the default one (Ascend910B) is taken if it is among them, else the first named.
Architecture names go through the profiles (`hardware.soc.soc_for_arch`), SoC names through
`hardware.soc.find_soc`: one source of SoC facts.

Concrete values: a kernel spec (`*.yaml` with `kernel:`, see docs/kernel-spec.md) in the file's folder or
its parent whose `source` is the file attaches its tiling fields, block_dim and tensor sizes
(`KnownValues`). An op-project test case will attach the values its host TilingFunc computes through the
same record (checks/concrete.py: the values the op's host TilingFunc computes for a test case next to the
kernel). Rules fold them in and name them in their messages.

Everything is cached per folder and re-read at most every `_TTL_SECONDS` (the editor asks on every edit).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from ascendc_lsp.checks.reads import recording_reads, stamp, watch
from ascendc_lsp.checks.values import KnownValues, known_values
from ascendc_lsp.hardware.limits import DEFAULT_SOC

_MAX_LEVELS = 6
_TTL_SECONDS = 2.0
_MAX_SCRIPT_BYTES = 512 * 1024
_BUILD_FILES = ("CMakeLists.txt", "CMakePresets.json", "run.sh", "build.sh", "compile.sh", "main.sh")

# (pattern, kind, firm): kind "arch" goes through soc_for_arch, "soc" through find_soc, "socs" is a ;-list.
# Not firm: a default the build lets the user override (`set(SOC_VERSION "Ascend310P3" CACHE STRING ...)`,
# `SOC_VERSION="..."` in run.sh before its `-v` option): official samples keep a placeholder there while
# their README names another product, so such a SoC never turns a SoC-dependent finding into an error.
_EVIDENCE: tuple[tuple[re.Pattern[str], str, bool], ...] = (
    (re.compile(r"CMAKE_ASC_ARCHITECTURES\s+\"?(dav-[\w-]+)"), "arch", True),
    (re.compile(r"--npu-arch[= ]\"?(dav-[\w-]+)"), "arch", True),
    (re.compile(r"__NPU_ARCH__=(\d{4})\b"), "arch", True),
    (re.compile(r"-DSOC_VERSION=\"?((?i:ascend)\w+)"), "soc", True),
    (re.compile(r"\bset\(\s*SOC_VERSION\s+\"?((?i:ascend)\w+)\"?\s*\)"), "soc", True),
    (re.compile(r"\bset\(\s*SOC_VERSION\s+\"?((?i:ascend)\w+)\"?\s+CACHE\b"), "soc", False),
    (re.compile(r"(?m)^\s*(?:export\s+)?SOC_VERSION=\"?((?i:ascend)\w+)"), "soc", False),
    (re.compile(r"\"ASCEND_COMPUTE_UNIT\"\s*:\s*\{[^}]*?\"value\"\s*:\s*\"([\w;]+)\""), "socs", True),
)
_ADD_CONFIG = re.compile(r"\bAddConfig\s*\(\s*\"(\w+)\"")
# File-name markers of per-SoC variants, by profile name.
_SOC_MARK = {"Ascend310P": r"(?:^|[_\-.])310p(?:[_\-.]|$)", "Ascend310B": r"(?:^|[_\-.])310b(?:[_\-.]|$)",
             "Ascend910_93": r"(?:^|[_\-.])910_?93(?:[_\-.]|$)", "Ascend950": r"(?:^|[_\-.])(?:950|3510)(?:[_\-.]|$)"}


@dataclass(frozen=True)
class ProjectSoc:
    soc: str  # a profile name
    source: str  # `CMakeLists.txt:14 (dav-3510)`, for messages
    socs: tuple[str, ...]  # every SoC the project names, in order
    firm: bool = True  # False: an overridable default of the build (see _EVIDENCE)

    def describe(self) -> str:
        others = [s for s in self.socs if s != self.soc]
        also = f"; also builds for {', '.join(others)}" if others else ""
        default = ", a default the build lets you override" if not self.firm else ""
        return f"{self.soc}, from {self.source}{default}{also}"


@dataclass(frozen=True)
class ProjectContext:
    soc: ProjectSoc | None = None
    known: KnownValues | None = None


# (path, (mtime_ns, size)) of every file and folder a context was read from; (-1, -1): it did not exist.
Stamps = tuple[tuple[str, tuple[int, int]], ...]


@dataclass
class _Entry:
    checked: float  # monotonic time of the last stamp check
    stamps: Stamps
    context: ProjectContext


_CACHE: dict[str, _Entry] = {}
def _fresh(stamps: Stamps) -> bool:
    return all(stamp(Path(path)) == recorded for path, recorded in stamps)


def project_context(path: str | Path | None) -> ProjectContext:
    """The project facts for a file (an empty context for unsaved buffers and files outside any project).

    Cached per file with the stamps of everything it was read from: re-checked (one stat per path, no
    parsing) at most every `_TTL_SECONDS`, recomputed only when one of them changed."""
    if not path:
        return ProjectContext()
    file = Path(path)
    key = str(file)
    now = time.monotonic()
    cached = _CACHE.get(key)
    if cached is not None and (now - cached.checked < _TTL_SECONDS or _fresh(cached.stamps)):
        cached.checked = now
        return cached.context
    with recording_reads() as reads:
        try:
            context = ProjectContext(soc=_project_soc(file), known=_attached_values(file))
        except OSError:
            context = ProjectContext()
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[key] = _Entry(now, tuple(reads.items()), context)
    return context


def clear_cache() -> None:
    _CACHE.clear()


# -- SoC ---------------------------------------------------------------------------------------------------


def _project_soc(file: Path) -> ProjectSoc | None:
    home = Path.home()
    folder = file.parent
    for _ in range(_MAX_LEVELS):
        watch(folder)
        if not folder.is_dir() or folder == home:
            return None
        found = _evidence_in(folder)
        if found:
            return _choose(found, file.name)
        if (folder / ".git").exists() or folder.parent == folder:
            return None
        folder = folder.parent
    return None


def _read(path: Path) -> str | None:
    watch(path)
    try:
        if not path.is_file() or path.stat().st_size > _MAX_SCRIPT_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _evidence_in(folder: Path) -> list[tuple[str, str, bool]]:
    """(profile name, source, firm) from the folder's build files and its op_host sources."""
    found: list[tuple[str, str, bool]] = []
    candidates = [folder / name for name in _BUILD_FILES] + sorted(folder.glob("*.cmake"))[:8]
    for path in candidates:
        text = _read(path)
        if text is None or text.startswith("\0"):
            continue
        for pattern, kind, firm in _EVIDENCE:
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                for name in _socs_of(match.group(1), kind):
                    found.append((name, f"{path.name}:{line} ({match.group(1)})", firm))
    op_host = folder / "op_host"
    watch(op_host)
    if op_host.is_dir():
        for path in sorted(op_host.glob("*.cpp"))[:32]:
            text = _read(path)
            if text is None or "AddConfig" not in text:
                continue
            for match in _ADD_CONFIG.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                for name in _socs_of(match.group(1), "soc"):
                    found.append((name, f"op_host/{path.name}:{line} (AddConfig(\"{match.group(1)}\"))", True))
    return found


def _socs_of(text: str, kind: str) -> list[str]:
    from ascendc_lsp.hardware.soc import find_soc, soc_for_arch

    if kind == "arch":
        name = soc_for_arch(text)
        return [name] if name else []
    names: list[str] = []
    for part in text.split(";") if kind == "socs" else [text]:
        profile = find_soc(part.strip()) if part.strip() else None
        if profile is not None and profile.name not in names:
            names.append(profile.name)
    return names


def _choose(found: list[tuple[str, str, bool]], file_name: str = "") -> ProjectSoc:
    firm = [f for f in found if f[2]] or found
    socs = tuple(dict.fromkeys(name for name, _, _ in firm))
    chosen = DEFAULT_SOC if DEFAULT_SOC in socs else socs[0]
    # A project building for several SoCs keeps per-SoC variants in files named after them
    # (`grid_sample_2d_310p.h`): such a file is checked for its own SoC.
    marked = [name for name in socs if _SOC_MARK.get(name) and re.search(_SOC_MARK[name], file_name.lower())]
    if len(socs) > 1 and len(marked) == 1:
        chosen = marked[0]
    source, is_firm = next((src, f) for name, src, f in firm if name == chosen)
    return ProjectSoc(chosen, source, socs, is_firm)


# -- concrete values ------------------------------------------------------------------------------------


def _attached_values(file: Path) -> KnownValues | None:
    """The values of the first spec next to the file (or one folder up) whose `source` is the file."""
    for folder in (file.parent, file.parent.parent):
        watch(folder)
        if not folder.is_dir():
            continue
        for spec_path in sorted(folder.glob("*.yaml"))[:16]:
            text = _read(spec_path)
            if text is None or not re.search(r"(?m)^kernel\s*:", text) or not re.search(r"(?m)^source\s*:", text):
                continue
            known = _values_from_spec(spec_path, file)
            if known is not None:
                return known
    # An op test case's values, as far as a check with run_host (the CLI, a save) has computed them.
    from ascendc_lsp.checks.concrete import attached_test_case_values

    return attached_test_case_values(file)


def _values_from_spec(spec_path: Path, file: Path) -> KnownValues | None:
    from ascendc_lsp.toolchain.spec import SpecError, load_spec

    try:
        spec = load_spec(spec_path)
    except SpecError:
        return None
    if spec.source is None or spec.source.resolve() != file.resolve():
        return None
    return known_values(
        origin=spec_path.name,
        fields=spec.tiling.fields if spec.tiling is not None else {},
        block_dim=spec.block_dim,
        tensor_elements={t.name: t.size for t in (*spec.inputs, *spec.outputs)},
        kernel=spec.kernel,
    )


def effective_soc(path: str | Path | None, chosen: str | None, default: str = DEFAULT_SOC) -> tuple[str, str | None]:
    """(SoC name, where it came from) for a file: the user's choice, else its project's, else the default."""
    if chosen:
        return chosen, None
    found = project_context(path).soc
    if found is not None:
        return found.soc, found.describe()
    return default, None
