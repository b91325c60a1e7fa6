"""The CMakeLists.txt of a CANN build: the CPU twin (tikicpulib) or the NPU (ascendc_library)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ascendc_lsp.hardware.soc import soc_version as soc_version_of
from ascendc_lsp.toolchain.cann.discovery import CannInstall
from ascendc_lsp.toolchain.emulator.harness import c_string

if TYPE_CHECKING:
    from ascendc_lsp.toolchain.spec import KernelSpec


def cmakelists(
    spec: KernelSpec, source: Path, inst: CannInstall, mode: str, soc: str, include_dirs: Sequence[Path] = ()
) -> str:
    """A CMakeLists.txt for the CPU twin (tikicpulib) or the NPU (ascendc_library) build."""
    soc_version = soc_version_of(soc)
    incs = " ".join(c_string(str(d)) for d in [source.parent, *include_dirs])
    defs = " ".join(f"{k}" if v is None else f"{k}={v}" for k, v in spec.defines.items())
    head = [
        "cmake_minimum_required(VERSION 3.16)",
        "project(ascendc_lsp_cann LANGUAGES CXX)",
        "set(CMAKE_CXX_STANDARD 17)",
        f"set(ASCEND_CANN_PACKAGE_PATH {c_string(str(inst.home))})",
        f"set(SOC_VERSION {c_string(soc_version)})",
    ]
    if mode == "cpu":
        lib = inst.require_tikicpulib()
        body = [
            f"list(APPEND CMAKE_PREFIX_PATH {c_string(str(lib / 'cmake'))} {c_string(str(lib))})",
            "find_package(tikicpulib REQUIRED)",
            "add_executable(cann_kernel main.cpp)",
            "target_compile_definitions(cann_kernel PRIVATE ASCENDC_CPU_DEBUG"
            + (f" {defs}" if defs else "")
            + ")",
            f"target_include_directories(cann_kernel PRIVATE {incs})",
            "target_compile_options(cann_kernel PRIVATE -g -O0)",
            "target_link_libraries(cann_kernel PRIVATE tikicpulib::${SOC_VERSION})",
        ]
    else:
        cm = inst.require_kernel_cmake()
        body = [
            f"set(ASCENDC_CMAKE_DIR {c_string(str(cm))})",
            "set(RUN_MODE npu)",
            "include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)",
            f"ascendc_library(cann_kernels STATIC {c_string(str(source))})",
            f"ascendc_include_directories(cann_kernels PRIVATE {incs})",
        ]
        if defs:
            body.append(f"ascendc_compile_definitions(cann_kernels PRIVATE {defs})")
        body += [
            "add_executable(cann_kernel main.cpp)",
            f"target_include_directories(cann_kernel PRIVATE {incs} ${{ASCEND_CANN_PACKAGE_PATH}}/include)",
            "target_link_directories(cann_kernel PRIVATE ${ASCEND_CANN_PACKAGE_PATH}/lib64)",
            "target_link_libraries(cann_kernel PRIVATE cann_kernels ascendcl runtime)",
        ]
    return "\n".join(head + body) + "\n"
