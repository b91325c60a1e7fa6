"""`ascendc.server.clangdConfig`: the `.clangd` that lets clangd (beside our server, never instead) understand
AscendC kernels in a workspace.

With a CANN toolkit, its AscendC headers and the AI Core arch macro; without one, the emulator's headers in IDE mode
(`-DASCENDC_EMU_IDE`), so clangd resolves `kernel_operator.h` and every catalogue API with no toolkit installed.
`.asc` files are C++ to clangd (`-xc++`), as the devkit's own workspace settings associate them with `cpp`.
bench/clangd_fidelity.py measures how many public kernel files clangd then reads without an error.
"""

from __future__ import annotations

import asyncio
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

from ascendc_lsp.lsp.features.base import LanguageFeature
from ascendc_lsp.lsp.protocol import CLANGD_CONFIG, ClangdConfigParams, ClangdConfigResult, CommandError

IDE_MACRO = "ASCENDC_EMU_IDE"  # the emulator headers' IDE mode: declarations for the editor, internals hidden
HEADER_MARK = '# Written by "AscendC: Configure clangd" (ascendc-lsp)'
MAX_OP_KERNELS = 40  # op kernel files given their op build's flags (each builds its op_host once, cached)


@dataclass(frozen=True)
class ClangdSetup:
    substrate: Literal["cann", "emulator"]
    flags: tuple[str, ...]
    note: str


def arch_macros(soc: str) -> tuple[str, ...]:
    """`__NPU_ARCH__` as bisheng predefines it for the SoC (docs/zh/guide/编程指南/语言扩展层/SIMD-BuiltIn关键字.md),
    from the SoC profile's npu_arch ("dav-2201" -> 2201); nothing when the profile does not say."""
    try:
        from ascendc_lsp.hardware.soc import get_soc

        arch = get_soc(soc).npu_arch or ""
    except Exception:
        return ()
    digits = arch.removeprefix("dav-")
    return (f"-D__NPU_ARCH__={digits}",) if digits.isdigit() else ()


def emulator_flags(soc: str, extra_includes: tuple[Path, ...] = ()) -> tuple[str, ...]:
    from ascendc_lsp.toolchain.emulator.build import CXX_STANDARD, EMULATOR_MACROS, include_dir

    return (
        CXX_STANDARD,
        f"-I{include_dir()}",
        *(f"-I{d}" for d in extra_includes),
        f"-D{IDE_MACRO}=1",
        # the build's macros: runtime bodies are declarations only (less for clangd to parse), the tiling type
        *EMULATOR_MACROS,
        *arch_macros(soc),
    )


def cann_flags(home: str, soc: str) -> ClangdSetup | None:
    """The toolkit's AscendC header dirs as clangd flags; None when no toolkit is found."""
    try:
        from ascendc_lsp.toolchain import cann

        inst = cann.discover(Path(home)) if home else cann.discover()
    except Exception:
        return None
    dirs: list[Path] = []
    for h in inst.header_dirs:
        dirs += [h, *(h / sub for sub in ("impl", "interface") if (h / sub).is_dir())]
    if not dirs:
        return None
    from ascendc_lsp.toolchain.emulator.build import CXX_STANDARD

    flags = (CXX_STANDARD, *(f"-I{d}" for d in dirs), f"-I{inst.home / 'include'}", *arch_macros(soc))
    return ClangdSetup("cann", flags, f"{inst.describe()}: its AscendC headers for {soc}")


def clangd_setup(soc: str, cann_home: str = "") -> ClangdSetup:
    found = cann_flags(cann_home, soc)
    if found is not None:
        return found
    note = "no CANN toolkit found: the ascendc-lsp emulator headers stand in (IDE mode), no toolkit needed"
    return ClangdSetup("emulator", emulator_flags(soc), note)


def op_kernel_flags(kernel_file: Path, timeout: float = 120.0) -> tuple[tuple[str, ...], str]:
    """What the real op build gives a kernel file of an op project, as clangd flags: the generated header (the
    DTYPE_<X> macros and the tiling structs at global scope, toolchain/opproject/tilingstruct.py) force-included,
    the struct GET_TILING_DATA fills, and the project's include folders. Builds the op_host program on the CPU
    (cached). Returns ((), why) when the file is not an op kernel or the host does not build."""
    from ascendc_lsp.toolchain.emulator.build import TILING_MACRO
    from ascendc_lsp.toolchain.opproject.discovery import OpProjectError, find_project
    from ascendc_lsp.toolchain.opproject.opbuild import Described, describe_project, kernel_build
    from ascendc_lsp.toolchain.opproject.opdef import variants

    try:
        project = find_project(kernel_file)
        described = describe_project(project, timeout=timeout)
        if not isinstance(described, Described):
            return (), f"{project.op_host}: the host code does not build on the CPU"
        target = kernel_file.resolve()
        for op in described.ops:
            try:
                entry = project.kernel_for(op.type)
            except OpProjectError:
                continue
            if entry.file.resolve() != target:
                continue
            built = kernel_build(described, op, variants(op)[0], None)
            flags = ["-include", str(built.header), *(f"-I{d}" for d in built.include_dirs)]
            if built.struct:
                flags.append(f"-D{TILING_MACRO}={built.struct}")
            return tuple(flags), f"op {op.type}"
        return (), f"{kernel_file.name}: no op of {project.root.name} has this kernel"
    except (OpProjectError, OSError, ValueError, IndexError) as exc:
        return (), str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _yaml_list(flags: tuple[str, ...]) -> str:
    return "[" + ", ".join(_yaml_scalar(f) for f in flags) + "]"


def _yaml_scalar(text: str) -> str:
    if text and all(c.isalnum() or c in "-_=./+:" for c in text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dot_clangd(setup: ClangdSetup, kernels: dict[str, tuple[str, ...]] | None = None) -> str:
    """The `.clangd` text: the flags for every C++ file of the folder, `-xc++` for `.asc`, and per op-project
    kernel file (a path relative to the folder) what its op build adds."""
    text = (
        f"{HEADER_MARK}: {setup.note}.\n"
        "# Delete this file or run the command again after moving the toolkit or the extension.\n"
        "CompileFlags:\n"
        f"  Add: {_yaml_list(setup.flags)}\n"
        "---\n"
        "If:\n"
        "  PathMatch: [.*\\.asc]\n"
        "CompileFlags:\n"
        "  Add: [-xc++]\n"
    )
    for rel, flags in sorted((kernels or {}).items()):
        text += (
            "---\n"
            "If:\n"
            f"  PathMatch: [{_yaml_scalar(re.escape(rel))}]\n"
            "CompileFlags:\n"
            f"  Add: {_yaml_list(flags)}\n"
        )
    return text


def op_kernel_files(folder: Path, limit: int = MAX_OP_KERNELS) -> list[Path]:
    """Kernel files of the op projects under `folder` (op_kernel/ beside op_host/), at most `limit`."""
    found: list[Path] = []
    for op_kernel in sorted(folder.rglob("op_kernel")):
        if not op_kernel.is_dir() or not (op_kernel.parent / "op_host").is_dir():
            continue
        if any(part.startswith(".") or part in ("build", "node_modules") for part in op_kernel.parts):
            continue
        for p in sorted(op_kernel.glob("*.cpp")):
            found.append(p)
            if len(found) >= limit:
                return found
    return found


def op_kernel_fragments(folder: Path, setup: ClangdSetup) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    """Per op kernel file under `folder`, its op-build flags (emulator substrate only: with CANN the toolkit's
    own op build generates these); and one line per kernel that could not be prepared."""
    if setup.substrate != "emulator":
        return {}, []
    fragments: dict[str, tuple[str, ...]] = {}
    problems: list[str] = []
    for path in op_kernel_files(folder):
        flags, why = op_kernel_flags(path)
        rel = path.relative_to(folder).as_posix()
        if flags:
            fragments[rel] = flags
        else:
            problems.append(f"{rel}: {why}")
    return fragments, problems


def command_line(setup: ClangdSetup) -> str:
    return shlex.join(setup.flags)


class ClangdFeature(LanguageFeature):
    commands: ClassVar[dict[str, str]] = {CLANGD_CONFIG.id: "clangd_config"}

    async def clangd_config(self, params: ClangdConfigParams) -> ClangdConfigResult:
        folder = Path(params.folder)
        if not folder.is_dir():
            raise CommandError(f"{params.folder}: not a folder", command=CLANGD_CONFIG.id)
        settings = self.server.settings
        setup = clangd_setup(params.soc or settings.soc, settings.toolchain.cannHome)
        fragments, problems = await asyncio.to_thread(op_kernel_fragments, folder, setup)
        note = setup.note
        if fragments:
            note += f"; {len(fragments)} op kernel file(s) get their op build's DTYPE macros and tiling structs"
        if problems:
            note += f"; {len(problems)} could not be prepared (first: {problems[0]})"
        return ClangdConfigResult(substrate=setup.substrate, text=dot_clangd(setup, fragments),
                                  flags=list(setup.flags), note=note)  # fmt: skip
