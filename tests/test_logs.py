"""Log parsers: every real message in real-errors.dev.jsonl, recorded public logs, and constructed formats.

Recorded logs live in tests/fixtures/logs/ (each cites its public source on its first line). The
constructed samples below (clang include chains, msSanitizer, CPU twin, verify scripts) are written from the
formats documented in /work/shared/design/emulator-memo.md sections 1.4, 1.5 and 5; they are labelled as such.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from ascendc_lsp.toolchain.logs import (
    MAX_LINE_CHARS,
    LineMap,
    LogEvent,
    map_locations,
    parse_log,
    sanitize,
)
from tests.conftest import REAL_ERRORS

FIXTURES = Path(__file__).parent / "fixtures" / "logs"


def _fixture(name: str) -> str:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("# source:"))


def _real_records() -> list[dict[str, Any]]:
    if not REAL_ERRORS.exists():
        return []
    return [json.loads(line) for line in REAL_ERRORS.read_text(encoding="utf-8").splitlines() if line.strip()]


def _structured(events: list[LogEvent]) -> bool:
    return any(e.codes or e.has_location for e in events)


# ---------------------------------------------------------------------------------------------------------
# Every real message
# ---------------------------------------------------------------------------------------------------------

# What each real message must yield: (kind of the first error event, code that must be present or None,
# (file suffix, line) that must be present or None, errorStr substring or None)
EXPECTED: dict[str, tuple[str, str | None, tuple[str, int] | None, str | None]] = {
    "ascendc-err-004": (
        "compiler-diagnostic",
        None,
        ("conv3d_max_log_sum_exp_relu_custom_wiaulfqulxywqvhb20260310162800.cpp", 112),
        None,
    ),
    "ascendc-err-001": (
        "compiler-diagnostic",
        None,
        ("adam_custom_wbhnuildpmxmujeb20260310044314.cpp", 47),
        None,
    ),
    "ascendc-err-006": ("compiler-diagnostic", None, ("topqcweymhxtrzqm20260310143742.cpp", 131), None),
    "ascendc-err-053": ("compiler-diagnostic", None, ("/tmp/tmpXXX.cpp", 43), None),
    "ascendc-err-008": ("compiler-diagnostic", None, ("dezkfaeuhpyltdse20260311105136.cpp", 81), None),
    "ascendc-err-010": ("compiler-diagnostic", None, ("djlrvlczhlafibot20260310112954.cpp", 17), None),
    "ascendc-err-013": ("compiler-diagnostic", None, ("op_kernel/ct3d_sg_hs_custom.cpp", 22), None),
    "ascendc-err-054": ("compiler-diagnostic", None, None, None),
    "ascendc-err-012": ("compiler-diagnostic", None, ("dav_c220/kernel_operator_vec_cmp_impl.h", 227), None),
    "ascendc-err-014": ("compiler-diagnostic", None, ("ghizmkkkcztkmxbc20260310043256.cpp", 48), None),
    "ascendc-err-021": ("compiler-diagnostic", None, ("wauirjoqrhcymsnc20260310051942.cpp", 3), None),
    "ascendc-err-015": ("compiler-diagnostic", None, ("qlgwmoewlqboovgi20260311193904.cpp", 50), None),
    "ascendc-err-020": ("compiler-diagnostic", None, ("ddogdiptxcknmkix20260310035420.cpp", 27), None),
    "ascendc-err-019": ("compiler-diagnostic", None, ("kjozknmryfzxaqfe20260310032025.cpp", 33), None),
    "ascendc-err-042": ("compiler-diagnostic", None, ("csrc/kernels/pos_encoding_kernels.cpp", 22), None),
    "ascendc-err-048": ("compiler-diagnostic", None, None, None),
    "ascendc-err-045": ("build", None, None, None),
    "ascendc-err-046": ("runtime-error", "107000", None, None),
    "ascendc-err-065": ("runtime-error", "E40024", None, None),
    "ascendc-err-030": ("runtime-error", "561103", None, None),
    "ascendc-err-047": ("cmake", None, ("lib64/cmake/ASCConfig.cmake", 20), None),
    "ascendc-err-031": ("runtime-error", "507000", None, None),
    "ascendc-err-029": ("runtime-error", "EZ9999", None, None),
    "ascendc-err-059": ("runtime-error", "507015", None, "D-cache reads and writes data to the UB"),
    "ascendc-err-055": ("runtime-error", "507035", None, "the ub address out of bounds"),
    "ascendc-err-060": ("runtime-error", "0x31", None, "D-cache reads and writes data to the UB"),
    "ascendc-err-064": ("runtime-error", None, None, None),
    "ascendc-err-034": (
        "runtime-error",
        "0x31",
        None,
        "The write address of the MTE instruction is out of range",
    ),
    "ascendc-err-035": (
        "runtime-error",
        None,
        None,
        "The write address of the MTE instruction is out of range",
    ),
    "ascendc-err-036": ("runtime-error", "0x31", None, "The MPU address access is invalid"),
    "ascendc-err-057": ("runtime-error", "507035", None, "unaligned UUB addresses"),
    "ascendc-err-039": ("precision", None, None, None),
    "ascendc-err-040": ("precision", None, None, None),
    "ascendc-err-041": ("runtime-error", None, None, None),
    "ascendc-err-067": ("runtime-error", "507046", None, None),
    "ascendc-err-061": ("runtime-error", "507035", None, "The VEC instruction parameter is invalid"),
    "ascendc-err-062": ("runtime-error", "507015", None, None),
    "ascendc-err-066": ("other", None, None, None),
}


def test_real_errors_file_is_covered() -> None:
    records = _real_records()
    if not records:
        pytest.skip("real-errors.dev.jsonl not available")
    ids = {r["id"] for r in records}
    assert ids <= set(EXPECTED), f"new real messages without expectations: {sorted(ids - set(EXPECTED))}"


@pytest.mark.parametrize("rec", _real_records(), ids=lambda r: r["id"])
def test_real_message(rec: dict[str, Any]) -> None:
    events = parse_log(rec["message"])
    assert events, "every real message yields at least one event"
    kind, code, loc, error_str = EXPECTED[rec["id"]]
    errors = [e for e in events if e.severity == "error"]
    assert errors and errors[0].kind == kind
    if code is not None:
        assert any(code in e.codes for e in events), [e.codes for e in events]
    if loc is not None:
        suffix, line = loc
        assert any(e.file and e.file.endswith(suffix) and e.line == line for e in events)
    if error_str is not None:
        assert any(e.error_str and error_str in e.error_str for e in events)
    # JSON round trip never fails
    json.dumps([e.to_json() for e in events])


def test_real_errors_structured_fraction() -> None:
    records = _real_records()
    if not records:
        pytest.skip("real-errors.dev.jsonl not available")
    structured = sum(_structured(parse_log(r["message"])) for r in records)
    # 29 of 38 at the time of writing; the rest carry neither a code nor a location in their text
    assert structured / len(records) >= 0.75


# ---------------------------------------------------------------------------------------------------------
# Recorded public logs
# ---------------------------------------------------------------------------------------------------------


def test_ptoas_ub_oob_block_is_one_event() -> None:
    events = parse_log(_fixture("ptoas_pr1161_ub_oob.log"))
    assert len(events) == 1
    ev = events[0]
    assert ev.kind == "runtime-error"
    assert ev.codes[:3] == ["507035", "EZ9999", "0x31"]
    assert ev.ret_code == "0x31"
    assert ev.error_str == "VEC instruction error: the ub address out of bounds."
    assert ev.message == ev.error_str
    assert ev.core_id == 36 and ev.block == 0
    assert ev.api == "aclrtSynchronizeStream"
    assert ev.file is not None and ev.file.endswith("Divs/divs/main.cpp") and ev.line == 114
    assert ev.extra["location_kind"] == "host"
    assert ev.extra["exception"] == "aivec error"
    assert ev.extra["task_exception"] == "vector core exception"
    # CANN-internal source locations never become the event location
    assert "device_error_core_proc.cc:645 (PrintCoreInfo)" in ev.extra["origins"]
    assert ev.span == (0, 6)


def test_ptoas_aicore_timeout() -> None:
    (ev,) = parse_log(_fixture("ptoas_pr726_aicore_timeout.log"))
    assert "507014" in ev.codes and ev.ret_code == "0x25"
    assert ev.error_str == "timeout or trap error."
    assert ev.extra["task_exception"] == "aicore timeout"
    assert ev.core_id == 3


def test_two_faults_in_one_block_are_two_events() -> None:
    events = parse_log(_fixture("ptoas_pr426_a5_two_faults.log"))
    assert [e.error_str for e in events] == [
        "The DDR address of the MTE instruction is out of range.",
        "Illegal instruction, which is usually caused by unaligned UUB addresses.",
    ]
    assert all("507015" in e.codes for e in events), "the block's ACL code is shared"
    assert events[0].extra["hw_error_code"] == "95"


def test_older_single_line_format() -> None:
    (ev,) = parse_log(_fixture("llamacpp_10108_310p_unaligned.log"))
    assert ev.error_str == "Illegal instruction, which is usually caused by unaligned UUB addresses."
    assert ev.core_id == 0 and ev.extra["hw_error_code"] == "0x10"
    assert "EZ9999" in ev.codes


def test_dcache_block_with_kernel_name() -> None:
    (ev,) = parse_log(_fixture("vllm_ascend_2630_dcache.log"))
    assert ev.core_id == 44 and ev.block == 3 and ev.ret_code == "0x31"
    assert ev.extra["kernel_name"] == "ApplyTopKTopPWithSorted_fp32_high_performance_0"
    assert ev.extra["errcode"] == "0, 0x8000, 0"


def test_cceld_link_failure() -> None:
    events = parse_log(_fixture("ptoas_pr742_cceld_link.log"))
    first = events[0]
    assert first.kind == "build" and first.stage == "link"
    assert first.extra["symbol"] == "Sqrt_kernel_2d(float*, float*)"
    assert first.notes and "libsqrt_kernel.so" in first.notes[0].message
    assert any(e.tool == "bisheng" and "linker command failed" in e.message for e in events)
    assert [e.extra.get("exit_code") for e in events if e.tool and e.tool.startswith("gmake")] == [1, 2, 2]


def test_bisheng_register_failure() -> None:
    (ev,) = parse_log(_fixture("tilelang_587_bisheng_register.log"))
    assert ev.codes == ["107000", "100000"]
    assert ev.message.startswith("Kernel binary register failure")


def test_plog_lines_keep_cann_sources_out_of_the_location() -> None:
    (ev,) = parse_log(_fixture("vllm_ascend_12776_plog.log"))
    assert ev.file is None
    assert ev.ret_code == "0x2a"
    assert ev.extra["task_exception"] == "aicpu exception"
    assert "stars_engine.cc:1548" in ev.extra["origins"]
    assert ev.tool == "runtime"


def test_tbe_compile_error_code() -> None:
    (ev,) = parse_log(_fixture("shirwy_910a_4_tbe_compile.log"))
    assert "E90003" in ev.codes and "ERR00100" in ev.codes
    assert ev.message.startswith("Compile operator failed")


def test_successful_build_log_has_no_errors() -> None:
    assert [e for e in parse_log(_fixture("vllm_ascend_1774_ccec_link.log")) if e.severity == "error"] == []


# ---------------------------------------------------------------------------------------------------------
# Constructed samples of documented formats
# ---------------------------------------------------------------------------------------------------------

CLANG_CHAIN = """\
In file included from /tmp/ascendc-cann-x1/add_custom.cpp:2:
In file included from /usr/local/Ascend/ascend-toolkit/latest/compiler/tikcpp/tikcfw/kernel_operator.h:20:
/usr/local/Ascend/ascend-toolkit/latest/compiler/tikcpp/tikcfw/impl/kernel_operator_vec_binary_impl.h:88:12: error: no matching function for call to 'vadd'
    return vadd(dst, src0, src1, repeat);
           ^~~~
/tmp/ascendc-cann-x1/add_custom.cpp:41:9: note: in instantiation of function template specialization 'AscendC::Add<int8_t>' requested here
        Add(zLocal, xLocal, yLocal, this->tileLength);
        ^
/tmp/ascendc-cann-x1/add_custom.cpp:57:5: warning: unused variable 'k' [-Wunused-variable]
1 error and 1 warning generated.
"""


def test_clang_include_chain_notes_and_mapping() -> None:
    events = parse_log(CLANG_CHAIN)
    err, warn = events
    assert err.kind == "compiler-diagnostic" and err.severity == "error"
    assert err.line == 88 and err.column == 12 and err.api == "vadd"
    assert [n.message for n in err.notes][:2] == ["In file included from", "In file included from"]
    inst = [n for n in err.notes if "instantiation" in n.message]
    assert inst and inst[0].line == 41
    assert "^~~~" in err.raw
    assert warn.severity == "warning" and warn.line == 57
    mapped = map_locations(events, "/home/me/ops/add_custom.cpp")
    # the header error moves to the user's line (instantiation preferred over the #include line)
    assert mapped[0].file == "/home/me/ops/add_custom.cpp" and mapped[0].line == 41
    assert mapped[0].extra["origin_location"].startswith("/usr/local/Ascend/")
    assert mapped[1].file == "/home/me/ops/add_custom.cpp" and mapped[1].line == 57
    # the input events are not modified
    assert events[1].file == "/tmp/ascendc-cann-x1/add_custom.cpp"


GCC_LOG = """\
op_host/add_custom.cpp: In function 'ge::graphStatus optiling::TilingFunc(gert::TilingContext*)':
op_host/add_custom.cpp:27:28: error: 'platform_ascendc' has not been declared
   27 |     auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
      |                            ^~~~~~~~~~~~~~~~
/usr/bin/ld: add.o: in function `main':
add.cpp:(.text+0x1c): undefined reference to `aclrtSetDevice'
collect2: error: ld returned 1 exit status
ld.lld: error: undefined symbol: expf
>>> referenced by add_custom.cpp:51 (/tmp/k/add_custom.cpp:51)
>>>               add_custom.o:(KernelAdd::Compute(int))
"""


def test_gcc_and_linkers() -> None:
    events = parse_log(GCC_LOG)
    diag = events[0]
    assert diag.kind == "compiler-diagnostic" and diag.line == 27 and diag.column == 28
    assert diag.notes[0].message.startswith("In function")
    assert diag.api == "platform_ascendc"
    undef = next(e for e in events if e.extra.get("symbol") == "aclrtSetDevice")
    assert undef.stage == "link" and undef.extra["object"] == "add.cpp"
    collect = next(e for e in events if e.tool == "collect2")
    assert collect.stage == "link"
    lld = next(e for e in events if e.extra.get("symbol") == "expf")
    assert lld.tool == "ld.lld" and lld.api == "expf"
    assert lld.file == "add_custom.cpp" and lld.line == 51
    assert len(lld.notes) == 2


CMAKE_LOG = """\
-- The CXX compiler identification is GNU 11.4.0
CMake Error at CMakeLists.txt:12 (find_package):
  By not providing "FindASC.cmake" in CMAKE_MODULE_PATH this project has
  asked CMake to find a package configuration file provided by "ASC", but
  CMake did not find one.

-- Configuring incomplete, errors occurred!
"""


def test_cmake_error_body() -> None:
    (ev,) = parse_log(CMAKE_LOG)
    assert ev.kind == "cmake" and ev.file == "CMakeLists.txt" and ev.line == 12 and ev.api == "find_package"
    assert "FindASC.cmake" in ev.message and "did not find one." in ev.message


# Constructed from the CPU twin conventions in emulator-memo.md section 5 (kernel_log.h wording).
TWIN_LOG = """\
[ERROR][Block_2][AIV_0][/tmp/k/add_custom.cpp:52][CheckDataCopyParams][pid 4242] Failed to check blockCount value in DataCopy, its valid range is 0 ~ 4095, current value is 5000.
add_custom_cpu: /tmp/k/add_custom.cpp:60: void KernelAdd::Compute(int): Assertion `false && "check vconv instr failed"' failed.
[SUCCESS][AIV_1][pid 4243] exit success!
"""


def test_cpu_twin_lines() -> None:
    err, assertion, ok = parse_log(TWIN_LOG)
    assert err.kind == "cpu-twin" and err.block == 2 and err.core_id == 0 and err.extra["core"] == "AIV_0"
    assert err.file == "/tmp/k/add_custom.cpp" and err.line == 52
    assert err.api == "DataCopy" and err.extra["pid"] == 4242 and err.extra["func"] == "CheckDataCopyParams"
    assert (
        assertion.kind == "cpu-twin"
        and assertion.line == 60
        and "check vconv instr failed" in assertion.message
    )
    assert ok.severity == "info" and ok.extra["success"] is True


# Constructed from the msSanitizer wording quoted in emulator-memo.md section 5.
SANITIZER_LOG = """\
====== ERROR: illegal read of size 224
======    at 0x12c0c0015000 on GM in add_custom_kernel
======    in block aiv(3) on device 0
======    code in add_custom.cpp:52
====== ERROR: Potential RAW hazard detected at UB :
======    PIPE_MTE2 Write at RAW()+0xf280 in block 0 (aiv) add_custom.cpp:48
======    PIPE_V Read at RAW()+0xf280 in block 0 (aiv) add_custom.cpp:55
====== WARNING: out of bounds of size 256 at 0x12c0c0016000 on GM when writing data
====== ERROR SUMMARY: 2 errors
"""


def test_sanitizer_blocks() -> None:
    read, race, oob = parse_log(SANITIZER_LOG)
    assert read.kind == "sanitizer" and read.extra["size"] == 224 and read.extra["space"] == "GM"
    assert read.block == 3 and read.extra["core_type"] == "aiv"
    assert read.file == "add_custom.cpp" and read.line == 52
    assert race.extra["hazard"] == "RAW" and race.pipe == "PIPE_MTE2"
    assert race.extra["pipes"] == ["PIPE_MTE2 Write", "PIPE_V Read"]
    assert race.file == "add_custom.cpp" and race.line == 48 and race.block == 0
    assert [n.line for n in race.notes] == [48, 55]
    assert oob.severity == "warning" and oob.extra["space"] == "GM" and oob.extra["size"] == 256
    assert oob.extra["summary"] == "ERROR SUMMARY: 2 errors"


# The verify_result.py wording of the samples (emulator-memo.md section 1.5).
PRECISION_LOG = """\
data index: 000012, expected: 1.000000000, actual: 2.000000000, rdiff: 1.000000
data index: 000013, expected: 1.500000000, actual: 0.000000000, rdiff: 1.000000
error ratio: 0.0100, tolerance: 0.0010
[ERROR] result error
"""


def test_precision_sample_output() -> None:
    (ev,) = parse_log(PRECISION_LOG)
    assert ev.kind == "precision" and ev.severity == "error"
    assert ev.extra["mismatches"][0] == {
        "index": 12,
        "expected": "1.000000000",
        "actual": "2.000000000",
        "rdiff": "1.000000",
    }
    assert ev.extra["mismatch_lines"] == 2
    assert ev.extra["error_ratio"] == 0.01 and ev.extra["verdict"] == "fail"
    (ok,) = parse_log("error ratio: 0.0000, tolerance: 0.0010\ntest pass\n")[-1:]
    assert ok.extra["verdict"] == "pass" and ok.severity == "info"


def test_precision_other_formats() -> None:
    (ev,) = parse_log("[ERROR] result error for output index [7] , expect True but False.")
    assert ev.extra["mismatches"] == [{"index": 7, "expected": "True", "actual": "False"}]
    torch_log = (
        "AssertionError: Tensor-likes are not close!\n\n"
        "Mismatched elements: 12 / 100 (12.0%)\n"
        "Greatest absolute difference: 0.5 at index (1, 2) (up to 1e-05 allowed)\n"
    )
    (t,) = parse_log(torch_log)
    assert (
        t.extra["mismatch_count"] == 12
        and t.extra["elements"] == 100
        and t.extra["max_absolute_diff"] == "0.5"
    )


def test_emulator_report_lines() -> None:
    line = json.dumps(
        {
            "severity": "error",
            "check": "ub-capacity",
            "category": "ub-overflow",
            "code": "507035",
            "block": 0,
            "pipe": "MTE2",
            "api": "InitBuffer",
            "file": "/abs/add_custom.cpp",
            "line": 42,
            "message": "InitBuffer of inQueueX needs 65,536 B",
            "errorStr": "VEC instruction error: the ub address out of bounds",
            "extra_field": 1,
        }
    )
    (ev,) = parse_log(line + "\nnot json {\n")
    assert ev.kind == "emulator" and ev.category == "ub-overflow" and ev.check == "ub-capacity"
    assert ev.codes == ["507035"] and ev.file == "/abs/add_custom.cpp" and ev.line == 42
    assert ev.block == 0 and ev.pipe == "MTE2" and ev.api == "InitBuffer"
    assert ev.extra == {"extra_field": 1}


def test_wrapped_prefixes_are_stripped() -> None:
    log = (
        "(Worker_TP3 pid=1526) ERROR 09-26 15:32:25 [multiproc_executor.py:654] "
        "EZ9999: Inner Error!\n"
        "[rank0]: The extend info: errcode:(0x800000, 0, 0) errorStr: The DDR address of the MTE instruction is out of range. fixp_error0 info: 0x30296b9\n"
    )
    (ev,) = parse_log(log)
    assert ev.error_str == "The DDR address of the MTE instruction is out of range."
    assert "EZ9999" in ev.codes


def test_pid_is_not_a_code() -> None:
    (ev,) = parse_log(
        "EE9999[PID: 185371] 2026-04-08-15:52:26.358.347 (EE9999):  rtDeviceSynchronizeWithTimeout execution failed"
    )
    assert "185371" not in ev.codes


# ---------------------------------------------------------------------------------------------------------
# Robustness
# ---------------------------------------------------------------------------------------------------------


def test_garbage_never_raises() -> None:
    rng = random.Random(0)
    for _ in range(50):
        blob = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4000)))
        parse_log(blob)
        parse_log(blob.decode("latin-1"))
    assert parse_log(None) == []
    assert parse_log("") == []
    assert parse_log(b"\x00\x01\xff\xfe") == [] or True


def test_ansi_and_crlf() -> None:
    log = "\x1b[1m/tmp/a.cpp:3:4: \x1b[0;1;31merror: \x1b[0m\x1b[1mboom\x1b[0m\r\n"
    (ev,) = parse_log(log)
    assert (ev.file, ev.line, ev.column, ev.message) == ("/tmp/a.cpp", 3, 4, "boom")


def test_long_lines_are_capped() -> None:
    assert len(sanitize("x" * 1_000_000)[0]) == MAX_LINE_CHARS
    events = parse_log("/tmp/a.cpp:3:4: error: " + "y" * 100_000)
    assert events and len(events[0].message) < MAX_LINE_CHARS


def test_huge_log_is_linear() -> None:
    block = CLANG_CHAIN + _fixture("ptoas_pr1161_ub_oob.log") + SANITIZER_LOG + "noise line\n" * 20
    small = block * 50
    big = block * 500
    t0 = time.perf_counter()
    parse_log(small)
    t1 = time.perf_counter()
    events = parse_log(big)
    t2 = time.perf_counter()
    assert len(events) > 1000
    assert (t2 - t1) < max(2.0, 25 * (t1 - t0))
    # pathological: one enormous line of colons and digits
    t3 = time.perf_counter()
    parse_log(("a:1:" * 200_000) + "\n" + ("(" * 100_000))
    assert time.perf_counter() - t3 < 5.0


# ---------------------------------------------------------------------------------------------------------
# Location mapping
# ---------------------------------------------------------------------------------------------------------


def test_line_map_from_directives(tmp_path: Path) -> None:
    generated = tmp_path / "harness.cpp"
    generated.write_text(
        '#include "kernel_operator.h"\n'
        "// preamble\n"
        '#line 1 "/home/me/ops/add_custom.cpp"\n'
        "int x;\n"
        "int y;\n"
        "int z;\n",
        encoding="utf-8",
    )
    lm = LineMap.from_generated_text(str(generated), generated.read_text(encoding="utf-8"))
    assert lm.lookup(4) == ("/home/me/ops/add_custom.cpp", 1)
    assert lm.lookup(6) == ("/home/me/ops/add_custom.cpp", 3)
    assert lm.lookup(1) is None
    events = parse_log(f"{generated}:6:3: error: expected ';'\n")
    (mapped,) = map_locations(events, "/home/me/ops/add_custom.cpp", line_maps=[lm])
    assert (mapped.file, mapped.line) == ("/home/me/ops/add_custom.cpp", 3)
    assert mapped.extra["origin_location"] == f"{generated}:6:3"


def test_offset_map_and_aliases() -> None:
    lm = LineMap.offset("/tmp/w/prelude_kernel.cpp", "/src/k.cpp", first_line=11)
    events = parse_log("/tmp/w/prelude_kernel.cpp:15:2: error: x\n/opt/gen/tiling.h:3:1: error: y\n")
    a, b = map_locations(events, "/src/k.cpp", line_maps=[lm], aliases={"/opt/gen/tiling.h": "/src/tiling.h"})
    assert (a.file, a.line) == ("/src/k.cpp", 5)
    assert (b.file, b.line) == ("/src/tiling.h", 3)


def test_map_keeps_unrelated_files() -> None:
    events = parse_log("/usr/include/c++/11/bits/stl_algo.h:10:1: error: z\n")
    (m,) = map_locations(events, "/src/k.cpp")
    assert m.file == "/usr/include/c++/11/bits/stl_algo.h" and "origin_location" not in m.extra
