"""SDK headers direct-launch samples include beside kernel_operator.h (emulator include/utils/debug/asc_dump.h,
...): each one built into a small program of ours and run, its output checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendc_lsp.toolchain.emulator.build import find_cxx
from ascendc_lsp.toolchain.program.build import build_program
from ascendc_lsp.toolchain.program.discover import discover
from ascendc_lsp.toolchain.program.run import ProgramOptions, ProgramRunResult, run_program
from tests.public_sources import tree_or_skip

pytestmark = pytest.mark.skipif(find_cxx() is None, reason="g++ is needed to build programs")


def run_asc(tmp_path: Path, code: str, must_run: bool = True) -> ProgramRunResult:
    (tmp_path / "probe.asc").write_text(code, encoding="utf-8")
    r = run_program(tmp_path / "probe.asc", ProgramOptions(timeout=180))
    assert r.compiled and (r.ran or not must_run), [d.message for d in r.diagnostics]
    return r


ASC_DUMP = """#include "acl/acl.h"
#include "kernel_operator.h"
#include "utils/debug/asc_dump.h"

__global__ __aicore__ void dumper(GM_ADDR x)
{
    AscendC::GlobalTensor<int32_t> xGm;
    xGm.SetGlobalBuffer((__gm__ int32_t*)x, 16);
    asc_dump_gm<int32_t>((__gm__ int32_t*)xGm.GetPhyAddr(), 7, 4);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    AscendC::LocalTensor<int32_t> ub = buf.Get<int32_t>();
    AscendC::DataCopy(ub, xGm, 16);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(ub, ub, 3, 16);
    AscendC::PipeBarrier<PIPE_ALL>();
    asc_dump_ubuf<int32_t>((__ubuf__ int32_t*)ub.GetPhyAddr(), 8, 5);
    asc_dump<int32_t>((__ubuf__ int32_t*)ub.GetPhyAddr() + 10, 9, 2);
}

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    int32_t host[16];
    for (int i = 0; i < 16; i++) host[i] = 100 + i;
    void* dev = nullptr;
    aclrtMalloc(&dev, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dev, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE);
    dumper<<<1, nullptr, stream>>>((GM_ADDR)dev);
    aclrtSynchronizeStream(stream);
    aclrtFree(dev);
    aclFinalize();
    return 0;
}
"""


def test_asc_dump_prints_gm_and_ub_elements_with_the_users_desc(tmp_path: Path) -> None:
    r = run_asc(tmp_path, ASC_DUMP)
    lines = r.stdout.splitlines()

    def after(header: str) -> str:
        i = next(i for i, line in enumerate(lines) if header in line)
        return lines[i + 1]

    assert after("desc=7, GM") == "100 101 102 103"
    assert after("desc=8, UB") == "300 303 306 309 312"  # after Muls by 3: what the UB holds, not the GM
    assert after("desc=9,") == "330 333"


def test_mmad_unitflag_sample_with_set_fixpipe_config_passes_its_own_verification() -> None:
    root = tree_or_skip("cannmirror+asc-devkit") / "examples/01_simd_cpp_api/03_basic_api/03_matrix_compute"
    r = run_program(root / "mmad_unitflag", ProgramOptions(timeout=300))
    assert r.correct, [d.message for d in r.diagnostics]


FIXPIPE_CONFIG_ON_UB = """#include "acl/acl.h"
#include "kernel_operator.h"

__global__ __aicore__ void misuse(GM_ADDR x)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    AscendC::SetFixPipeConfig(buf.Get<uint64_t>());  // a quant tensor must be in the Fixpipe Buffer
}

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    misuse<<<1, nullptr, stream>>>(nullptr);
    aclrtSynchronizeStream(stream);
    aclFinalize();
    return 0;
}
"""


def test_set_fixpipe_config_on_a_ub_tensor_is_reported_at_its_line(tmp_path: Path) -> None:
    r = run_asc(tmp_path, FIXPIPE_CONFIG_ON_UB, must_run=False)
    msgs = [(d.span.start.line + 1, d.message) for d in r.diagnostics if "SetFixPipeConfig" in d.message]
    assert msgs and msgs[0][0] == 9, [d.message for d in r.diagnostics]
    assert "C2PIPE2GM" in msgs[0][1] and "VECCALC" in msgs[0][1]


@pytest.mark.parametrize(
    ("header", "framework"),
    [("torch/extension.h", "PyTorch"), ("pybind11/pybind11.h", "pybind11"), ("graph/operator_reg.h", "graph engine")],
)
def test_a_sample_written_against_a_framework_is_one_clear_cause_not_a_compile(
    tmp_path: Path, header: str, framework: str
) -> None:
    # the framework header comes through a header beside the source, as the GE samples' *_proto.h
    (tmp_path / "op_proto.h").write_text(f"#pragma once\n#include <{header}>\n", encoding="utf-8")
    (tmp_path / "op.asc").write_text('#include "kernel_operator.h"\n#include "op_proto.h"\nint main() { return 0; }\n')
    pb = build_program(discover(tmp_path / "op.asc"))
    assert not pb.ok
    (d,) = pb.diagnostics
    assert d.code == "external-framework" and framework in d.message and header in d.message
    assert d.file == str(tmp_path / "op_proto.h") and d.span.start.line == 1


def test_a_samples_own_header_named_like_a_framework_one_is_not_taken_for_it(tmp_path: Path) -> None:
    (tmp_path / "graph").mkdir()
    (tmp_path / "graph" / "nodes.h").write_text("#pragma once\nconstexpr int kNodes = 3;\n")
    (tmp_path / "op.asc").write_text('#include "graph/nodes.h"\nint main() { return kNodes == 3 ? 0 : 1; }\n')
    pb = build_program(discover(tmp_path / "op.asc"))
    assert pb.ok, [d.message for d in pb.diagnostics]


def test_a_graph_header_the_emulator_shims_is_not_an_external_framework(tmp_path: Path) -> None:
    (tmp_path / "op.asc").write_text('#include "graph/tensor.h"\nint main() { return 0; }\n')
    pb = build_program(discover(tmp_path / "op.asc"))
    assert all(d.code != "external-framework" for d in pb.diagnostics)
