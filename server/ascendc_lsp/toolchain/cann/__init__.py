"""The CANN backend: drives an installed Ascend CANN toolkit behind the same `Toolchain` interface as the emulator.

What it does (docs/cann-backend.md has the details and what could not be tested without CANN):

* **Discovery** (`discover`): an explicit home (setting `toolchain.cannHome`), else `ASCEND_HOME_PATH`, else
  `ASCEND_TOOLKIT_HOME`, else the first of `$HOME/Ascend/ascend-toolkit/latest`,
  `/usr/local/Ascend/ascend-toolkit/latest` that holds a `set_env.sh` (the same order as the samples' run.sh).
* **Version** (`detect_version`): `version.cfg`, `*/ascend_toolkit_install.info`, `*/version.info`, then the
  resolved directory name (`8.0.RC1`, `cann-8.5.1`).
* **Pieces**: the device compiler (`bisheng`, else `ccec`), the CPU twin library (`tools/tikicpulib/lib`),
  the AscendC headers (the directory holding `kernel_operator.h`), the kernel CMake helpers (`ascendc.cmake`).
* **compile_source**: a device-compile of one kernel file with bisheng (the on-save check), its log parsed by
  `logs.parse_log` and mapped back to the user's file.
* **CannToolchain.run**: generates a CPU twin-debug harness (`-DASCENDC_CPU_DEBUG`, `AscendC::GmAlloc`,
  `AscendC::SetKernelMode`, `ICPU_RUN_KF`) or an NPU harness (`aclrtMalloc`, `ACLRT_LAUNCH_KERNEL`) plus a
  CMakeLists.txt, builds it with cmake, runs it, parses the logs, and verifies the outputs against the spec's
  reference with the same comparison as the emulator.

One job per module: `discovery` (home, version, pieces), `sandboxed` (every CANN tool and every program it builds
runs through toolchain/sandbox.py: the toolkit read-only, the work directory the only writable place, no network,
a minimal environment), `diagnostics` (logs -> diagnostics), `device_compile` (bisheng on one file), `harness` and
`cmake` (the generated main.cpp and CMakeLists.txt; C literals by the emulator's one writer), `toolchain`
(`CannToolchain`).

Every missing piece gives a sentence that names it, e.g.
"ASCEND_HOME_PATH=/x has no bisheng or ccec (looked in bin/, compiler/ccec_compiler/bin/, ...); is CANN installed?".
Nothing heavy is imported at module level; numpy comes in only when a run verifies outputs.
"""

from __future__ import annotations

from ascendc_lsp.toolchain.cann.cmake import cmakelists
from ascendc_lsp.toolchain.cann.device_compile import compile_command, compile_source
from ascendc_lsp.toolchain.cann.diagnostics import SOURCE_NAME, event_to_diagnostic, log_to_diagnostics
from ascendc_lsp.toolchain.cann.discovery import (
    COMPILER_DIRS,
    COMPILER_NAMES,
    DEFAULT_ROOTS,
    HEADER_GLOBS,
    KERNEL_CMAKE_GLOBS,
    TIKICPULIB_DIRS,
    CannInstall,
    CannNotFound,
    CannVersion,
    detect_version,
    discover,
    inspect_home,
    parse_version_text,
)
from ascendc_lsp.toolchain.cann.harness import cpu_harness, npu_harness
from ascendc_lsp.toolchain.cann.sandboxed import (
    CANN_MEMORY_BYTES,
    run_tool,
    sandbox_failure,
    toolkit_environment,
    toolkit_read_paths,
)
from ascendc_lsp.toolchain.cann.toolchain import CannToolchain

__all__ = [
    "CANN_MEMORY_BYTES",
    "COMPILER_DIRS",
    "COMPILER_NAMES",
    "DEFAULT_ROOTS",
    "HEADER_GLOBS",
    "KERNEL_CMAKE_GLOBS",
    "SOURCE_NAME",
    "TIKICPULIB_DIRS",
    "CannInstall",
    "CannNotFound",
    "CannToolchain",
    "CannVersion",
    "cmakelists",
    "compile_command",
    "compile_source",
    "cpu_harness",
    "detect_version",
    "discover",
    "event_to_diagnostic",
    "inspect_home",
    "log_to_diagnostics",
    "npu_harness",
    "parse_version_text",
    "run_tool",
    "sandbox_failure",
    "toolkit_environment",
    "toolkit_read_paths",
]
