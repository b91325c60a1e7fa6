"""Programs whose real build finds things the plain file layout hides (toolchain/program/discover.py, build.py,
scan.py): a project moved one folder deeper than its CMakeLists.txt's `../..` paths expect, a kernel library
source that is `#include "kernel.cpp"` with the kernel's launch wrapper inside, and kernels only one run mode's
preprocessor branch defines."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascendc_lsp.toolchain.emulator.build import find_cxx
from ascendc_lsp.toolchain.program.discover import discover
from ascendc_lsp.toolchain.program.run import ProgramOptions, run_program
from ascendc_lsp.toolchain.program.scan import inactive_branches_blanked


def test_inactive_branches_are_blanked_only_when_decided() -> None:
    text = "\n".join(
        [
            "#ifdef CPU",  # 1: decided false (CPU undefined)
            "cpu_only();",
            "#else",
            "npu_only();",
            "#endif",
            "#if !defined(CPU) && MODE == 1",  # 6: undecided: both branches kept
            "maybe();",
            "#else",
            "other();",
            "#endif",
            "#if defined(NPU)",  # 11: decided true; the #elif and #else after it are not compiled
            "npu_a();",
            "#elif X",
            "never();",
            "#else",
            "never_either();",
            "#endif",
            "#ifndef NPU // comment",
            "not_npu();",
            "#endif",
        ]
    )
    out = inactive_branches_blanked(text, {"NPU": None}, {"CPU"}).split("\n")
    assert len(out) == len(text.split("\n"))  # line numbers kept
    kept = [line for line in out if line and not line.startswith("#")]
    assert kept == ["npu_only();", "maybe();", "other();", "npu_a();"]
    # nothing known: every branch stays
    assert inactive_branches_blanked(text, {}, set()) == text


def test_numbered_scenarios_keep_only_the_chosen_one() -> None:
    text = "#if SCENARIO == 1\nk1();\n#elif SCENARIO == 2\nk2();\n#elif OTHER\nk3();\n#else\nk4();\n#endif"

    def kept(values: dict[str, str | None]) -> list[str]:
        return [x for x in inactive_branches_blanked(text, values, set()).split("\n") if x and x[0] != "#"]

    assert kept({"SCENARIO": "2"}) == ["k2();"]
    assert kept({"SCENARIO": "1"}) == ["k1();"]
    assert kept({"SCENARIO": "3"}) == ["k3();", "k4();"]  # OTHER unknown: it or the #else
    assert kept({}) == ["k1();", "k2();", "k3();", "k4();"]


KERNEL = """#include "kernel_operator.h"
#include "addc_params.h"

constexpr uint32_t kTile = 256;

#ifdef ASCENDC_CPU_DEBUG
// only the CPU-debug build has this kernel: the NPU build must not declare a launch for it
extern "C" __global__ __aicore__ void addc_cpu_only(GM_ADDR x) {}
#endif

extern "C" __global__ __aicore__ void addc(GM_ADDR x, GM_ADDR y, uint32_t perCore)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * kTile * sizeof(float));
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + perCore * AscendC::GetBlockIdx(), perCore);
    yGm.SetGlobalBuffer((__gm__ float*)y + perCore * AscendC::GetBlockIdx(), perCore);
    AscendC::LocalTensor<float> in = buf.Get<float>();
    AscendC::LocalTensor<float> out = in[kTile];
    for (uint32_t i = 0; i < perCore / kTile; i++) {
        AscendC::DataCopy(in, xGm[i * kTile], kTile);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Adds(out, in, kAddConst, kTile);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yGm[i * kTile], out, kTile);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}

#ifndef ASCENDC_CPU_DEBUG
void addc_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* y, uint32_t perCore)
{
    addc<<<blockDim, l2ctrl, stream>>>(x, y, perCore);
}
#endif
"""

MAIN = """#include <cstdio>
#include <cstring>
#include <fstream>
#include "acl/acl.h"
#include "aclrtlaunch_addc.h"
#include "addc_params.h"
void addc_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* y, uint32_t perCore);

int main()
{
    const uint32_t blocks = 2, perCore = 512, n = blocks * perCore;
    size_t bytes = n * sizeof(float);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    float *xHost, *yHost;
    void *xDev, *yDev, *zDev;
    aclrtMallocHost((void**)&xHost, bytes);
    aclrtMallocHost((void**)&yHost, bytes);
    aclrtMalloc(&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&yDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&zDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    for (uint32_t i = 0; i < n; i++) xHost[i] = (float)(i % 17) * 0.25f - 2.0f;
    aclrtMemcpy(xDev, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    ACLRT_LAUNCH_KERNEL(addc)(blocks, stream, xDev, yDev, perCore);  // y = x + c
    addc_do(blocks, nullptr, stream, (uint8_t*)yDev, (uint8_t*)zDev, perCore);  // z = y + c
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(yHost, bytes, zDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("output_z.bin", std::ios::binary).write((const char*)yHost, (std::streamsize)bytes);
    printf("done\\n");
    aclFinalize();
    return 0;
}
"""

# Written when the project lived at tests/addc: `../..` was the repository root. It now lives one folder deeper.
CMAKE = """cmake_minimum_required(VERSION 3.16)
project(addc)
set(REPO_ROOT "${CMAKE_CURRENT_LIST_DIR}/../..")
set(SHARED_INC "${REPO_ROOT}/library/shared/addc")
ascendc_library(addc_kernels SHARED ${CMAKE_CURRENT_LIST_DIR}/kern/addc_entry.cpp)
ascendc_include_directories(addc_kernels PRIVATE ${SHARED_INC})
add_executable(addc_bbit ${CMAKE_CURRENT_LIST_DIR}/main.cpp)
target_include_directories(addc_bbit PRIVATE ${SHARED_INC})
target_link_libraries(addc_bbit PRIVATE addc_kernels)
"""


def _moved_project(repo: Path) -> Path:
    files = {
        "library/shared/addc/addc_params.h": "#pragma once\nconstexpr float kAddConst = 1.5f;\n",
        "tests/frozen/addc/CMakeLists.txt": CMAKE,
        "tests/frozen/addc/main.cpp": MAIN,
        "tests/frozen/addc/kern/addc_kernel.cpp": KERNEL,
        "tests/frozen/addc/kern/addc_entry.cpp": '// the library source is the kernel file included whole\n#include "addc_kernel.cpp"\n',
    }
    for rel, text in files.items():
        p = repo / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return repo / "tests/frozen/addc"


def test_a_moved_project_finds_its_shared_headers_one_level_up_and_says_so(tmp_path: Path) -> None:
    root = _moved_project(tmp_path)
    layout = discover(root)
    shared = tmp_path / "library/shared/addc"
    assert shared in layout.include_dirs
    assert any("does not exist" in n and str(shared) in n for n in layout.notes)
    # a folder that exists is left as CMake names it, and nothing is invented when no higher folder has it
    (tmp_path / "library").rename(tmp_path / "elsewhere")
    assert shared not in discover(root).include_dirs


@pytest.mark.skipif(find_cxx() is None, reason="g++ is needed to build programs")
def test_an_included_kernel_source_gets_its_launch_header_and_wrapper_and_computes(tmp_path: Path) -> None:
    root = _moved_project(tmp_path)
    x = (np.arange(1024) % 17).astype(np.float32) * np.float32(0.25) - np.float32(2.0)  # as main() fills it
    kept = tmp_path / "kept"
    r = run_program(root, ProgramOptions(timeout=180, keep_dir=kept))
    assert r.compiled and r.ran, [d.message for d in r.diagnostics]
    assert "done" in r.stdout
    assert [ln.kernel for ln in r.launches] == ["addc", "addc"]
    (z_file,) = kept.rglob("output_z.bin")
    z = np.fromfile(z_file, dtype=np.float32)
    np.testing.assert_allclose(z, x + np.float32(1.5) + np.float32(1.5), rtol=1e-6)
