"""Triage benchmark: explain on NPU-style logs of the seeded-bug kernels, top-1 with and without the kernel.

    python bench/triage.py [--no-run] [--json OUT] [--misses]

Every seeded-bug kernel of the project (tests/kernels/buggy/ASCnnn_*.cpp, the category of rule ASCnnn in
knowledge/rules.yaml; examples/*/*_buggy.cpp, the `x-expect-category` of spec_buggy.yaml) gets the log the NPU
would print for its bug, written here by us in the runtime's wording: most runtime bugs surface only as a family
(an aivec exception with an error code and no errorStr, a stream timeout, an output mismatch); compile bugs as
the device compiler's error. `explain` ranks each log alone, then with `--source <kernel>` (static checks, and an
emulator run when a kernel spec names the kernel); the table reports top-1 category accuracy of both.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

# ------------------------------------------------------------------------------------------ NPU-style logs

AIVEC_UB = """[ERROR] aclrtSynchronizeStream(stream) failed: 507035
EZ9999: Inner Error!
EZ9999[PID: 41231] 2026-05-11-10:21:33.418.229 (EZ9999):  The error from device(chipId:0, dieId:0), serial number is 17, there is an aivec error exception, core id is 0, error code = 0x4000000000000000, dump info: pc start: 0x124400000000, current: 0x1244000003a0, vec error info: 0x6b0000002c, mte error info: 0x1d03000040, ifu error info: 0x0, ccu error info: 0x0, cube error info: 0, biu error info: 0, aic error mask: 0x6500020bd00028c, para base: 0x12c100000000.[FUNC:PrintCoreInfo][FILE:device_error_core_proc.cc][LINE:645]
       Kernel task happen error, retCode=0x31, [vector core exception].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1729]"""
AIVEC_DDR = """[ERROR] aclrtSynchronizeStream(stream) failed: 507035
EZ9999: Inner Error!
EZ9999[PID: 41231] 2026-05-11-10:24:02.101.337 (EZ9999):  The error from device(chipId:0, dieId:0), serial number is 21, there is an aivec error exception, core id is 7, error code = 0x800000, dump info: pc start: 0x124400000000, current: 0x124400000288, vec error info: 0x0, mte error info: 0x5a03000041, ifu error info: 0x0, ccu error info: 0x0, cube error info: 0, biu error info: 0, aic error mask: 0x6500020bd00028c, para base: 0x12c100000000.[FUNC:PrintCoreInfo][FILE:device_error_core_proc.cc][LINE:645]
       Kernel task happen error, retCode=0x31, [vector core exception].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1729]"""
AICORE_GENERIC = """[ERROR] aclrtSynchronizeStream(stream) failed: 507015
[Error]: The aicore execution is abnormal.
        Rectify the fault based on the error information in the ascend log.
EZ9999: Inner Error!
EZ9999[PID: 41231] (EZ9999):  The error from device(chipId:0, dieId:0), serial number is 5, there is an aicore error exception, core id is 0, error code = 0, dump info: pc start: 0x124000000000, current: 0x124000000510, vec error info: 0, mte error info: 0x8d03000087, ifu error info: 0x0, ccu error info: 0x4f80002c, cube error info: 0x12
       Kernel task happen error, retCode=0x26, [aicore exception]."""
TIMEOUT_AIV = """[ERROR] aclrtSynchronizeStream(stream) failed: 507034
[Error]: Vector core execution timed out.
EZ9999[PID: 41231] (EZ9999):  The error from device(chipId:0, dieId:0), serial number is 9, there is an exception of aivec error, core id is 0, error code = 0, dump info: pc start: 0x124400000000, current: 0x124400000158
       The extend info: errcode:(0, 0, 0) errorStr: timeout or trap error. fixp_error0 info: 0x0, fixp_error1 info: 0x0, fsmId:0, tslot:0
       Kernel task happen error, retCode=0x30, [vector core timeout]."""
MISMATCH = """[FAIL] Output mismatch, max diff: 1.984375, location: (3, 1017)
Diff count: 211
Diff indices: [(0, 12), (0, 77), (1, 3), (2, 45), (3, 1017)]"""
MISMATCH_TAIL = """[FAIL] Output mismatch, max diff: 5.8125, location: (10006,)
Diff count: 23
Diff indices: [(9984,), (9985,), (9986,), (9987,), (9988,)]...[(10002,), (10003,), (10004,), (10005,), (10006,)]"""
MISMATCH_INF = """[FAIL] Output mismatch, max diff: inf, location: (117,)
Diff count: 3310
Diff indices: [(5,), (9,), (17,), (21,), (30,)]"""
CCU = """EZ9999: The error from device(chipId:0, dieId:0), serial number is 3, there is an aicore error exception, core id is 0, error code = 0x4000, dump info: pc start: 0x124000000000
       The extend info: errcode:(0, 0x4000, 0) errorStr: CCU instruction address check error. fixp_error0 info: 0x0, fixp_error1 info: 0x0, fsmId:0
       Kernel task happen error, retCode=0x26, [aicore exception]."""
UNALIGNED = """EZ9999: The error from device(chipId:0, dieId:0), serial number is 2, there is an aivec error exception, core id is 0, error code = 0x10, dump info: pc start: 0x124400000000
       The extend info: errcode:(0x10, 0, 0) errorStr: Illegal instruction, which is usually caused by unaligned UUB addresses. fixp_error0 info: 0x0, fsmId:0
       Kernel task happen error, retCode=0x31, [vector core exception]."""
VEC_PARAM = """EZ9999: The error from device(chipId:0, dieId:0), serial number is 4, there is an aivec error exception, core id is 0, error code = 0x1000000, dump info: pc start: 0x124400000000
       The extend info: errcode:(0, 0x1000, 0) errorStr: The VEC instruction parameter is invalid. fixp_error0 info: 0x0, fsmId:0
       Kernel task happen error, retCode=0x31, [vector core exception]."""


def cc(file: str, line: int, message: str) -> str:
    return f"op_kernel/{file}:{line}:9: error: {message}\n1 error generated."


# kernel (relative to the repository) -> the log its bug gives on an NPU
SEEDED: dict[str, str] = {
    "tests/kernels/buggy/ASC001_ub_overflow.cpp": AIVEC_UB,
    "tests/kernels/buggy/ASC002_l0a_overflow.cpp": CCU,
    "tests/kernels/buggy/ASC003_too_many_buffers.cpp": TIMEOUT_AIV,
    "tests/kernels/buggy/ASC004_initbuffer_in_loop.cpp": AIVEC_UB,
    "tests/kernels/buggy/ASC005_datacopy_unaligned.cpp": MISMATCH_TAIL,
    "tests/kernels/buggy/ASC006_datacopypad_310p.cpp": cc(
        "pad_custom.cpp", 40, "use of undeclared identifier 'DataCopyPad'"
    ),
    "tests/kernels/buggy/ASC007_offset_unaligned.cpp": UNALIGNED,
    "tests/kernels/buggy/ASC008_alloc_without_free.cpp": TIMEOUT_AIV,
    "tests/kernels/buggy/ASC009_enque_without_deque.cpp": TIMEOUT_AIV,
    "tests/kernels/buggy/ASC010_deque_type_mismatch.cpp": MISMATCH,
    "tests/kernels/buggy/ASC011_use_after_free.cpp": MISMATCH,
    "tests/kernels/buggy/ASC012_live_tensors_exceed_buffers.cpp": TIMEOUT_AIV,
    "tests/kernels/buggy/ASC013_depth_as_double_buffer.cpp": TIMEOUT_AIV,
    "tests/kernels/buggy/ASC014_setflag_without_waitflag.cpp": TIMEOUT_AIV,
    "tests/kernels/buggy/ASC015_getvalue_without_sync.cpp": MISMATCH,
    "tests/kernels/buggy/ASC016_tbuf_missing_sync.cpp": MISMATCH,
    "tests/kernels/buggy/ASC017_repeat_times.cpp": VEC_PARAM,
    "tests/kernels/buggy/ASC018_mask_width.cpp": VEC_PARAM,
    "tests/kernels/buggy/ASC019_dtype_unsupported.cpp": cc(
        "abs_custom.cpp",
        33,
        "no matching function for call to 'Exp'\nnote: candidate template ignored: requirement 'SupportType<int32_t, half, float>()' was not satisfied",
    ),
    "tests/kernels/buggy/ASC020_kernel_entry.cpp": cc(
        "add_custom.cpp", 60, "__global__ function 'add_custom' must have a void return type"
    ),
    "tests/kernels/buggy/ASC021_double.cpp": cc(
        "add_custom.cpp", 48, "double precision operation is not allowed in aicore function"
    ),
    "tests/kernels/buggy/ASC022_half_arithmetic.cpp": cc(
        "add_custom.cpp", 48, "half precision operation is not allowed in aicore function"
    ),
    "tests/kernels/buggy/ASC023_float_unsigned_cast.cpp": cc(
        "add_custom.cpp",
        48,
        "cast between floating and unsigned integer variable is not allowed in aicore function",
    ),
    "tests/kernels/buggy/ASC024_libm.cpp": cc(
        "add_custom.cpp", 48, "no matching function for call to 'expf'"
    ),
    "tests/kernels/buggy/ASC025_new.cpp": "ld.lld: error: undefined symbol: operator new(unsigned long)\n>>> referenced by add_custom.cpp",
    "tests/kernels/buggy/ASC026_std.cpp": cc(
        "add_custom.cpp", 48, "no member named 'min' in namespace 'std'"
    ),
    "tests/kernels/buggy/ASC027_virtual.cpp": "ld.lld: error: undefined symbol: vtable for KernelBase\n>>> referenced by add_custom.cpp",
    "tests/kernels/buggy/ASC028_recursion.cpp": cc(
        "add_custom.cpp", 52, "recursive call is not allowed in aicore function"
    ),
    "tests/kernels/buggy/ASC029_block_offset_overrun.cpp": AIVEC_DDR,
    "tests/kernels/buggy/ASC030_tail_not_handled.cpp": MISMATCH_TAIL,
    "tests/kernels/buggy/ASC031_namespace_missing.cpp": cc(
        "add_custom.cpp", 20, "use of undeclared identifier 'TPipe'; did you mean 'AscendC::TPipe'?"
    ),
    "tests/kernels/buggy/ASC032_include_missing.cpp": cc("add_custom.cpp", 12, "unknown type name 'GM_ADDR'"),
    "tests/kernels/buggy/ASC033_pipe_barrier_s.cpp": cc(
        "add_custom.cpp", 50, "the range of 1st parameter must be in [PIPE_V, PIPE_MTE2, PIPE_MTE3, PIPE_ALL]"
    ),
    "tests/kernels/buggy/ASC034_tiling_key_else.cpp": MISMATCH,
    "tests/kernels/buggy/ASC035_event_id_910a.cpp": TIMEOUT_AIV,
    "tests/kernels/buggy/ASC037_atomic_add.cpp": MISMATCH,
    "tests/kernels/buggy/ASC038_mask_count.cpp": MISMATCH,
    "tests/kernels/buggy/ASC039_get_tiling_data_910a.cpp": cc(
        "add_custom.cpp", 40, "use of undeclared identifier 'GET_TILING_DATA'"
    ),
    "tests/kernels/buggy/ASC040_dtype_mismatch.cpp": cc(
        "add_custom.cpp",
        45,
        "no matching function for call to 'Add'\nnote: candidate template ignored: deduced conflicting types for parameter 'T' ('half' vs. 'float')",
    ),
    "examples/add_double_buffer/add_double_buffer_buggy.cpp": TIMEOUT_AIV,
    "examples/cast_hypot/cast_hypot_buggy.cpp": MISMATCH_INF,
    "examples/framework_sub/op_kernel/sub_scale_custom_buggy.cpp": AIVEC_DDR,
    "examples/leaky_relu_tail/leaky_relu_tail_buggy.cpp": MISMATCH_TAIL,
    "examples/matmul_cube/matmul_cube_buggy.cpp": AICORE_GENERIC,
    "examples/reduce_rows/reduce_rows_buggy.cpp": MISMATCH,
    "examples/softmax_rows/softmax_rows_buggy.cpp": AIVEC_UB,
    "examples/tbuf_manual_sync/tbuf_manual_sync_buggy.cpp": MISMATCH,
}
# The SoC a seeded kernel targets when it is not the default (the bug exists only there).
SOC = {"ASC006": "Ascend310P", "ASC035": "Ascend910A", "ASC039": "Ascend910A"}


def expected_category(path: Path) -> str | None:
    import yaml

    if path.name.startswith("ASC"):
        rules = yaml.safe_load((ROOT / "knowledge" / "rules.yaml").read_text(encoding="utf-8"))["rules"]
        by_id = {r["id"]: r["category"] for r in rules}
        return by_id.get(path.name.split("_")[0])
    for spec in (
        path.parent.parent.glob("spec_buggy.yaml")
        if path.parent.name == "op_kernel"
        else path.parent.glob("spec_buggy.yaml")
    ):
        data = yaml.safe_load(spec.read_text(encoding="utf-8"))
        return str(data.get("x-expect-category"))
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-run", action="store_true", help="static checks only (no emulator runs)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--misses", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ascendc-bench-triage-") as tmp:
        os.environ["XDG_CACHE_HOME"] = tmp
        from ascendc_lsp.knowledge.explain import explain_log
        from ascendc_lsp.knowledge.retrieval import Retriever
        from ascendc_lsp.knowledge.store import KnowledgeStore, shipped_entries

        entries, _ = shipped_entries()
        r = Retriever(entries, KnowledgeStore("memory"), use_stats=False)
        rows: list[dict[str, Any]] = []
        for rel, log_text in SEEDED.items():
            path = ROOT / rel
            if not path.is_file():
                print(f"note: {rel} not found", file=sys.stderr)
                continue
            want = expected_category(path)
            soc = SOC.get(path.name.split("_")[0], "Ascend910B")
            alone = explain_log(log_text, "", 3, r, events=False)
            t0 = time.perf_counter()
            both = explain_log(log_text, "", 3, r, source_path=str(path), source_text=path.read_text(encoding="utf-8"),
                               soc=soc, run=not args.no_run, events=False)  # fmt: skip
            seconds = time.perf_counter() - t0
            top_alone = alone["matches"][0]["category"] if alone["matches"] else None
            top_both = both["matches"][0]["category"] if both["matches"] else None
            diag = (both.get("triage") or {}).get("diagnosis")
            rows.append({
                "kernel": rel, "expected": want, "alone": top_alone, "with_source": top_both,
                "alone_ok": top_alone == want, "with_source_ok": top_both == want, "confidence": alone["confidence"],
                "diagnosis": diag["headline"] if diag else None, "emulator": bool((both.get("triage") or {}).get("run")),
                "seconds": round(seconds, 2),
            })  # fmt: skip
    n = len(rows)
    a = sum(x["alone_ok"] for x in rows)
    b = sum(x["with_source_ok"] for x in rows)
    runs = sum(x["emulator"] for x in rows)
    print(f"explain on NPU-style logs of {n} seeded-bug kernels ({runs} with an emulator run)")
    print("| input | top-1 |")
    print("|---|---|")
    print(f"| log alone | {a}/{n} = {a / n:.1%} |")
    print(
        f"| log + --source (static checks{', emulator' if not args.no_run else ''}) | {b}/{n} = {b / n:.1%} |"
    )
    if args.misses:
        for x in rows:
            if not x["with_source_ok"] or not x["alone_ok"]:
                print(f"  {x['kernel']}: want {x['expected']}, alone {x['alone']}, with source {x['with_source']}"
                      f" :: {x['diagnosis']}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
