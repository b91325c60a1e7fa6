"""Find an installed CANN toolkit and its pieces: home, version, device compiler, CPU twin library, AscendC headers,
kernel CMake helpers. Looks at files only; runs nothing."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ascendc_lsp.toolchain.base import (
    ToolchainUnavailable,
)

DEFAULT_ROOTS: tuple[str, ...] = ("~/Ascend/ascend-toolkit/latest", "/usr/local/Ascend/ascend-toolkit/latest")

# Where the device compiler lives, relative to the toolkit home, newest layouts last.
COMPILER_DIRS: tuple[str, ...] = (
    "compiler/ccec_compiler/bin",
    "tools/ccec_compiler/bin",
    "bin",
    "ccec_compiler/bin",
)
COMPILER_NAMES: tuple[str, ...] = ("bisheng", "ccec")

# Where kernel_operator.h lives (relative globs, first match wins per pattern).
HEADER_GLOBS: tuple[str, ...] = (
    "compiler/tikcpp/tikcfw",
    "tools/tikcpp/tikcfw",
    "*-linux/tikcpp/tikcfw",
    "*-linux/asc/include",
    "*-linux/asc/include/*",
    "asc/include",
    "include/ascendc",
)
KERNEL_CMAKE_GLOBS: tuple[str, ...] = (
    "tools/tikcpp/ascendc_kernel_cmake",
    "compiler/tikcpp/ascendc_kernel_cmake",
    "ascendc_devkit/tikcpp/samples/cmake",
    "*-linux/tikcpp/ascendc_kernel_cmake",
)
TIKICPULIB_DIRS: tuple[str, ...] = ("tools/tikicpulib/lib", "*-linux/tikicpulib/lib")


class CannNotFound(ToolchainUnavailable):
    """No usable CANN installation; the message says which piece is missing and where we looked."""


@dataclass(frozen=True)
class CannVersion:
    text: str  # as written: "8.0.RC1", "8.5.1", "7.0.0.5.242"
    source: str  # the file (or "path") it came from

    @property
    def parts(self) -> tuple[int, ...]:
        """Leading numeric components: "8.0.RC1" -> (8, 0); "8.5.1" -> (8, 5, 1)."""
        out: list[int] = []
        for p in self.text.split("."):
            if not p.isdigit():
                break
            out.append(int(p))
        return tuple(out)

    @property
    def major(self) -> int | None:
        return self.parts[0] if self.parts else None

    def at_least(self, *wanted: int) -> bool:
        return self.parts >= tuple(wanted)


_VERSION_KEY_RE = re.compile(
    r"^\s*(?:version|Version|VERSION|toolkit_version|ascend_version|package_version)\s*[=:]\s*\[?\s*"
    r"(?P<v>\d+(?:\.[0-9A-Za-z]+)+)",
    re.M,
)
_RUNNING_VERSION_RE = re.compile(r"^\s*\w*_running_version\s*=\s*\[\s*(?P<v>\d+(?:\.[0-9A-Za-z]+)+)", re.M)
_PATH_VERSION_RE = re.compile(r"(?:^|[-_/])(?:cann-)?(?P<v>\d+\.\d+(?:\.[0-9A-Za-z]+)*)$")


def parse_version_text(text: str) -> str | None:
    """The version in a version.cfg / version.info / *_install.info text, or None."""
    for rx in (_VERSION_KEY_RE, _RUNNING_VERSION_RE):
        m = rx.search(text)
        if m:
            return m.group("v")
    return None


def detect_version(home: Path) -> CannVersion | None:
    """Best-effort version of the toolkit at `home`; never raises."""
    candidates: list[Path] = [home / "version.cfg"]
    for pattern in ("*/ascend_toolkit_install.info", "*_install.info", "version.info", "*/version.info",
                    "share/info/*/version.info"):  # fmt: skip
        try:
            candidates.extend(sorted(home.glob(pattern)))
        except OSError:
            continue

    # prefer files that describe the toolkit or compiler as a whole
    def rank(p: Path) -> int:
        s = str(p)
        for i, key in enumerate(("toolkit", "version.cfg", "compiler", "runtime")):
            if key in s:
                return i
        return 9

    for p in sorted(candidates, key=rank):
        try:
            if not p.is_file() or p.stat().st_size > 1_000_000:
                continue
            v = parse_version_text(p.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if v:
            return CannVersion(v, str(p))
    try:
        resolved = home.resolve()
    except OSError:
        resolved = home
    for part in (resolved.name, resolved.parent.name, home.name):
        m = _PATH_VERSION_RE.search(part)
        if m:
            return CannVersion(m.group("v"), "path")
    return None


@dataclass
class CannInstall:
    home: Path
    how: str  # "setting", "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "default:<path>"
    set_env: Path | None = None
    version: CannVersion | None = None
    compiler: Path | None = None
    tikicpulib: Path | None = None
    header_dirs: list[Path] = field(default_factory=list)
    kernel_cmake_dir: Path | None = None
    problems: list[str] = field(default_factory=list)

    def describe(self) -> str:
        v = self.version.text if self.version else "unknown version"
        return f"CANN {v} at {self.home} (found via {self.how})"

    def require_compiler(self) -> Path:
        if self.compiler is None:
            looked = ", ".join(d + "/" for d in COMPILER_DIRS)
            raise CannNotFound(
                f"{self._where()} has no bisheng or ccec (looked in {looked}); is CANN installed?"
            )
        return self.compiler

    def require_tikicpulib(self) -> Path:
        if self.tikicpulib is None:
            raise CannNotFound(
                f"{self._where()} has no tools/tikicpulib/lib (the CPU twin-debug library); "
                "install the CANN toolkit package (not only the runtime/kernels package) or use --backend emulator"
            )
        return self.tikicpulib

    def require_kernel_cmake(self) -> Path:
        if self.kernel_cmake_dir is None:
            raise CannNotFound(
                f"{self._where()} has no ascendc_kernel_cmake directory (looked in "
                f"{', '.join(KERNEL_CMAKE_GLOBS)}); the NPU build needs the CANN toolkit's kernel CMake helpers"
            )
        return self.kernel_cmake_dir

    def _where(self) -> str:
        if self.how in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"):
            return f"{self.how}={self.home}"
        return f"the CANN toolkit at {self.home} ({self.how})"


def _first_existing(home: Path, patterns: Sequence[str], marker: str | None = None) -> list[Path]:
    found: list[Path] = []
    for pat in patterns:
        try:
            matches = sorted(home.glob(pat)) if any(c in pat for c in "*?[") else [home / pat]
        except OSError:
            continue
        for m in matches:
            target = m / marker if marker else m
            if target.exists() and m not in found:
                found.append(m)
    return found


def inspect_home(home: Path, how: str) -> CannInstall:
    """Look at a toolkit directory: version, compiler, CPU twin library, headers. Never raises."""
    inst = CannInstall(home=home, how=how)
    se = home / "set_env.sh"
    if not se.is_file():
        se = home.parent / "set_env.sh" if (home.parent / "set_env.sh").is_file() else se
    inst.set_env = se if se.is_file() else None
    inst.version = detect_version(home)
    for d in COMPILER_DIRS:
        for name in COMPILER_NAMES:
            p = home / d / name
            if p.is_file() and os.access(p, os.X_OK):
                inst.compiler = p
                break
        if inst.compiler:
            break
    libs = _first_existing(home, TIKICPULIB_DIRS)
    inst.tikicpulib = libs[0] if libs else None
    inst.header_dirs = _first_existing(home, HEADER_GLOBS, "kernel_operator.h")
    cm = _first_existing(home, KERNEL_CMAKE_GLOBS, "ascendc.cmake")
    inst.kernel_cmake_dir = cm[0] if cm else None
    if inst.compiler is None:
        inst.problems.append("no bisheng/ccec compiler")
    if not inst.header_dirs:
        inst.problems.append("no kernel_operator.h")
    if inst.tikicpulib is None:
        inst.problems.append("no tools/tikicpulib/lib (CPU twin)")
    return inst


def discover(
    cann_home: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    roots: Sequence[str] = DEFAULT_ROOTS,
) -> CannInstall:
    """Find the toolkit. Raises CannNotFound with a sentence naming what was tried."""
    env = os.environ if env is None else env
    tried: list[str] = []
    if cann_home:
        home = Path(os.path.expanduser(os.fspath(cann_home)))
        if not home.is_dir():
            raise CannNotFound(f"toolchain.cannHome={home} is not a directory; is CANN installed there?")
        return inspect_home(home, "setting")
    for var in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"):
        val = env.get(var)
        if val:
            home = Path(val)
            if not home.is_dir():
                raise CannNotFound(
                    f"{var}={val} is not a directory; is CANN installed? (source its set_env.sh)"
                )
            return inspect_home(home, var)
        tried.append(f"${var} (unset)")
    home_dir = env.get("HOME") or os.path.expanduser("~")
    for root in roots:
        p = Path(root.replace("~", home_dir, 1) if root.startswith("~") else root)
        if (p / "set_env.sh").is_file() or (p.parent / "set_env.sh").is_file():
            return inspect_home(p, f"default:{p}")
        tried.append(str(p))
    raise CannNotFound(
        "no CANN toolkit found: tried " + ", ".join(tried) + ". Install CANN and source set_env.sh, "
        "set ascendc.toolchain.cannHome, or use the emulator backend."
    )
