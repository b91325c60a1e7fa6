"""`ascendc.server.clangdConfig`: the `.clangd` that lets clangd (beside our server, never instead) understand
AscendC kernels in a workspace.

With a CANN toolkit, its AscendC headers and the AI Core arch macro; without one, the emulator's headers in IDE mode
(`-DASCENDC_EMU_IDE`), so clangd resolves `kernel_operator.h` and every catalogue API with no toolkit installed.
`.asc` files are C++ to clangd (`-xc++`), as the devkit's own workspace settings associate them with `cpp`.
bench/clangd_fidelity.py measures how many public kernel files clangd then reads without an error.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

from ascendc_lsp.lsp.features.base import LanguageFeature
from ascendc_lsp.lsp.protocol import CLANGD_CONFIG, ClangdConfigParams, ClangdConfigResult, CommandError

IDE_MACRO = "ASCENDC_EMU_IDE"  # the emulator headers' IDE mode: declarations for the editor, internals hidden
HEADER_MARK = '# Written by "AscendC: Configure clangd" (ascendc-lsp)'


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
    from ascendc_lsp.toolchain.emulator.build import TILING_MACRO, include_dir

    return (
        "-std=c++17",
        f"-I{include_dir()}",
        *(f"-I{d}" for d in extra_includes),
        f"-D{IDE_MACRO}=1",
        f"-DASCENDC_EMU_TILING_TYPE={TILING_MACRO}",
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
    flags = ("-std=c++17", *(f"-I{d}" for d in dirs), f"-I{inst.home / 'include'}", *arch_macros(soc))
    return ClangdSetup("cann", flags, f"{inst.describe()}: its AscendC headers for {soc}")


def clangd_setup(soc: str, cann_home: str = "") -> ClangdSetup:
    found = cann_flags(cann_home, soc)
    if found is not None:
        return found
    note = "no CANN toolkit found: the ascendc-lsp emulator headers stand in (IDE mode), no toolkit needed"
    return ClangdSetup("emulator", emulator_flags(soc), note)


def _yaml_list(flags: tuple[str, ...]) -> str:
    return "[" + ", ".join(_yaml_scalar(f) for f in flags) + "]"


def _yaml_scalar(text: str) -> str:
    if text and all(c.isalnum() or c in "-_=./+:" for c in text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dot_clangd(setup: ClangdSetup) -> str:
    """The `.clangd` text: the flags for every C++ file of the folder, and `-xc++` for `.asc`."""
    return (
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


def command_line(setup: ClangdSetup) -> str:
    return shlex.join(setup.flags)


class ClangdFeature(LanguageFeature):
    commands: ClassVar[dict[str, str]] = {CLANGD_CONFIG.id: "clangd_config"}

    def clangd_config(self, params: ClangdConfigParams) -> ClangdConfigResult:
        if not Path(params.folder).is_dir():
            raise CommandError(f"{params.folder}: not a folder", command=CLANGD_CONFIG.id)
        settings = self.server.settings
        setup = clangd_setup(params.soc or settings.soc, settings.toolchain.cannHome)
        return ClangdConfigResult(substrate=setup.substrate, text=dot_clangd(setup), flags=list(setup.flags),
                                  note=setup.note)  # fmt: skip
