"""The emulator's own scheduler (ascendc_emu/cost_model.h) against cost.py's on the same traces: every event's
start and end, every block's totals and the estimate must be equal, on the shipped examples and on kernels that
exercise SyncAll rounds, barriers, merged scalar events, waves and the cube-only core count. Also: the constants
reach the emulator only through soc.txt, the Perfetto timeline never overlaps slices on a track, and several
launches in one program are estimated one after the other."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from ascendc_lsp.toolchain.base import RunOptions, RunResult
from ascendc_lsp.toolchain.emulator import build, cost
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.emulator.soc import load_soc
from ascendc_lsp.toolchain.spec import KernelSpec, spec_from_dict

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
FIXTURES = Path(__file__).parent / "fixtures" / "cost"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed"),
]


def _example(name: str, **overrides: Any) -> KernelSpec:
    path = EXAMPLES / name / "spec.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data.update(overrides)
    return spec_from_dict(data, base_dir=path.parent, origin=f"{name}{overrides or ''}")


def _syncall_spec(blocks: int = 4) -> KernelSpec:
    n = blocks * 1024
    data = {
        "kernel": "syncall_phases",
        "source": "syncall_phases.cpp",
        "block_dim": blocks,
        "inputs": [{"name": "x", "shape": [n], "dtype": "float32"}],
        "outputs": [
            {"name": "y", "shape": [n], "dtype": "float32"},
            {"name": "z", "shape": [n], "dtype": "float32"},
        ],
        "reference": "y = x * np.float32(2)\nz = np.roll(y, -1024) + np.float32(1)",
    }
    return spec_from_dict(data, base_dir=FIXTURES, origin="syncall_phases")


CASES = {
    "add_double_buffer": lambda: _example("add_double_buffer"),
    "add_double_buffer_64_blocks": lambda: _example("add_double_buffer", block_dim=64),  # waves on 48 cores
    "softmax_rows": lambda: _example("softmax_rows"),  # V_S / S_V flags, merged GetValue
    "framework_sub": lambda: _example("framework_sub"),  # GET_TILING_DATA: scalar GM reads, DCache misses
    "leaky_relu_tail": lambda: _example("leaky_relu_tail"),  # DataCopyPad, uneven blocks
    "matmul_cube_30_blocks": lambda: _example(
        "matmul_cube", block_dim=30
    ),  # cube-only, more blocks than AICs
    "syncall_phases": _syncall_spec,  # SyncAll rounds, PipeBarrier<PIPE_V/ALL>, SetValue/GetValue
}


def _run(spec: KernelSpec, tmp_path: Path) -> tuple[RunResult, Path]:
    keep = tmp_path / "run"
    res = EmulatorToolchain().run(
        spec, RunOptions(keep_dir=keep, trace_out=tmp_path / "timeline.json", timeout=120)
    )
    assert res.correct, [d.message for d in res.diagnostics]
    return res, keep


def _python_schedule(spec: KernelSpec, trace: Path) -> cost.Schedule:
    soc = load_soc(spec.soc)
    return cost.estimate_from_file(
        trace, spec.block_dim, soc.cost_model, int(soc.values["aiv_cores"]), int(soc.values["aic_cores"]),
        soc.clock_ghz,
    )  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
def test_emulator_schedule_equals_cost_py(case: str, tmp_path: Path) -> None:
    spec = CASES[case]()
    res, keep = _run(spec, tmp_path)
    native = cost.read_native(keep / "estimate.jsonl")
    assert len(native) == 1
    launch = native[0]
    py = _python_schedule(spec, keep / "trace.jsonl")
    start, end = ("start2", "end2") if launch.lane == 1 else ("start", "end")
    n_events = 0
    for bs in py.blocks:
        for ev in bs.events:
            assert (ev.raw[start], ev.raw[end]) == (ev.start, ev.end), (case, bs.block, ev.seq, ev.api)
            n_events += 1
    assert n_events == launch.events > 0
    for mine, theirs in zip(py.blocks, launch.blocks, strict=True):
        assert mine.makespan == theirs.makespan
        assert mine.busy == theirs.busy
        assert (mine.issue_cycles, mine.gm_bytes) == (theirs.issue_cycles, theirs.gm_bytes)
    assert res.estimate is not None
    assert res.estimate.to_json() == py.estimate.to_json()
    # what each case is there to cover
    apis = {ev.api for bs in py.blocks for ev in bs.events}
    if case == "matmul_cube_30_blocks":
        assert launch.lane == 1 and launch.active == 24 and launch.cores == 24 and {"Mmad", "Fixpipe"} <= apis
    if case == "syncall_phases":
        assert launch.has_syncall and {"SyncAll", "PipeBarrier", "GetValue", "SetValue"} <= apis
        makespans = {bs.makespan for bs in py.blocks}
        assert len(makespans) == 1  # the last phase is equal work after the rendezvous
    if case == "add_double_buffer_64_blocks":
        assert any("waves" in n for n in res.estimate.notes)
    if case == "framework_sub":
        assert any(ev.raw.get("dcache_miss") for bs in py.blocks for ev in bs.events)


def test_timeline_slices_never_overlap_on_a_track(tmp_path: Path) -> None:
    spec = _syncall_spec(blocks=3)
    _run(spec, tmp_path)
    doc = json.loads((tmp_path / "timeline.json").read_text())
    assert "displayTimeUnit" not in doc
    _assert_no_overlap(doc["traceEvents"])
    slices = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    assert {e["pid"] for e in slices} == {0, 1, 2}


def _assert_no_overlap(events: list[dict[str, Any]]) -> None:
    tracks: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for e in events:
        if e.get("ph") == "X":
            tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["dur"]))
    assert tracks
    for spans in tracks.values():
        spans.sort()
        for (ts, dur), (next_ts, _) in itertools.pairwise(spans):
            assert dur > 0 and ts + dur <= next_ts


def test_constants_come_only_from_soc_txt(tmp_path: Path) -> None:
    """The emulator schedules with whatever cost.* lines soc.txt holds, and without them it estimates nothing."""
    spec = _example("add_double_buffer")
    res, keep = _run(spec, tmp_path)
    binary = EmulatorToolchain().compile(spec).binary
    assert binary is not None
    soc = load_soc(spec.soc)
    changed = cost.params_for(
        {"mte_t0_cycles": 1000.0, "vector_cycles_per_repeat": {"Add": 9}}, soc.clock_ghz
    )
    (keep / "soc2.txt").write_text(soc.soc_txt() + cost.native_params(changed), encoding="utf-8")
    (keep / "soc3.txt").write_text(soc.soc_txt(), encoding="utf-8")
    base = [str(binary), "--dir", str(keep), "--report", str(keep / "r.jsonl")]
    run2 = subprocess.run(
        [*base, "--soc-file", str(keep / "soc2.txt"), "--estimate", str(keep / "e2.jsonl"),
         "--trace", str(keep / "t2.jsonl")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run2.returncode == 0, run2.stderr
    trace, _ = cost.read_trace(keep / "t2.jsonl")
    py = cost.schedule(
        trace, spec.block_dim, changed, int(soc.values["aiv_cores"]), int(soc.values["aic_cores"])
    )
    mine = cost.estimate_from_native(
        keep / "e2.jsonl", spec.block_dim, {"mte_t0_cycles": 1000.0, "vector_cycles_per_repeat": {"Add": 9}},
        int(soc.values["aiv_cores"]), int(soc.values["aic_cores"]), soc.clock_ghz,
    )  # fmt: skip
    assert mine.estimate.cycles == py.estimate.cycles
    assert res.estimate is not None and mine.estimate.cycles > res.estimate.cycles
    adds = [e for evs in trace.values() for e in evs if e["api"] == "Add"]
    assert adds and all(e["end"] - e["start"] == pytest.approx(9 * e["repeats"]) for e in adds)
    run3 = subprocess.run(
        [*base, "--soc-file", str(keep / "soc3.txt"), "--estimate", str(keep / "e3.jsonl")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run3.returncode == 0
    assert "cost.* lines" in run3.stderr and (keep / "e3.jsonl").read_text() == ""


def test_native_params_cover_the_model() -> None:
    p = cost.params_for({"measured_cube_mac_per_cycle": 3000, "dma_bytes_per_cycle": {"gm_ub": 64}})
    text = cost.native_params(p)
    keys = dict(line.split(" ", 1) for line in text.splitlines())
    for key, default in cost.DEFAULTS.items():
        if not isinstance(default, dict) and not key.startswith("launch_"):
            assert f"cost.{key}" in keys
    assert float(keys["cost.dma.gm_ub"]) == 64 and float(keys["cost.measured_cube_mac_per_cycle"]) == 3000
    assert float(keys["cost.vcpr.Exp.half"]) == cost.DEFAULTS["vector_cycles_per_repeat"]["Exp.half"]
    assert {f"cost.zero.{a}" for a in cost.ZERO_COST_APIS} <= set(keys)
    assert all(len(k) <= 63 for k in keys)


TWO_LAUNCHES = r"""
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, float k) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> in;
    TQue<TPosition::VECOUT, 1> out;
    pipe.InitBuffer(in, 1, 4096);
    pipe.InitBuffer(out, 1, 4096);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * 1024, 1024);
    yg.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * 1024, 1024);
    LocalTensor<float> t = in.AllocTensor<float>();
    DataCopy(t, xg, 1024);
    in.EnQue(t);
    t = in.DeQue<float>();
    LocalTensor<float> r = out.AllocTensor<float>();
    Muls(r, t, k, 1024);
    out.EnQue(r);
    in.FreeTensor(t);
    r = out.DeQue<float>();
    DataCopy(yg, r, 1024);
    out.FreeTensor(r);
}
int main(int argc, char** argv) {
    ascendc_emu::Harness h(argc, argv);
    GM_ADDR x = h.Input("x");
    GM_ADDR y = h.Output("y", 4 * 1024 * 4);
    GM_ADDR z = h.Output("z", 4 * 1024 * 4);
    h.Launch(2, [&] { scale(x, y, 2.0f); });
    h.Launch(4, [&] { scale(x, z, 3.0f); });
    return h.Finish();
}
"""


def test_two_launches_are_estimated_one_after_the_other(tmp_path: Path) -> None:
    src = tmp_path / "two.cpp"
    src.write_text(TWO_LAUNCHES, encoding="utf-8")
    binary = tmp_path / "two"
    cmd = ["g++", "-std=c++17", "-O1", "-w", f"-I{build.include_dir()}", str(src), "-o", str(binary)]
    assert subprocess.run(cmd, capture_output=True, check=False).returncode == 0
    np.arange(4096, dtype=np.float32).tofile(tmp_path / "x.bin")
    soc = load_soc(None)
    params = cost.params_for(soc.cost_model, soc.clock_ghz)
    (tmp_path / "soc.txt").write_text(soc.soc_txt() + cost.native_params(params), encoding="utf-8")
    r = subprocess.run(
        [str(binary), "--dir", str(tmp_path), "--soc-file", str(tmp_path / "soc.txt"), "--report",
         str(tmp_path / "r.jsonl"), "--estimate", str(tmp_path / "e.jsonl"), "--trace", str(tmp_path / "t.jsonl")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in (tmp_path / "e.jsonl").read_text().splitlines()]
    assert [(d["launch"], d["block_dim"]) for d in lines] == [(0, 2), (1, 4)]
    trace = [json.loads(x) for x in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert {e.get("launch", 0) for e in trace} == {0, 1}
    sched = cost.estimate_from_native(
        tmp_path / "e.jsonl", 2, soc.cost_model, int(soc.values["aiv_cores"]), int(soc.values["aic_cores"]),
        soc.clock_ghz, trace_path=tmp_path / "t.jsonl",
    )  # fmt: skip
    parts = [cost.summarise(ls, params) for ls in cost.read_native(tmp_path / "e.jsonl")]
    assert sched.estimate.cycles == sum(p.cycles for p in parts)
    assert any("2 launches" in n for n in sched.estimate.notes)
    out = tmp_path / "timeline.json"
    cost.write_perfetto(sched, out)
    events = json.loads(out.read_text())["traceEvents"]
    pids = {e["pid"] for e in events if e.get("ph") == "X"}
    assert pids == {0, 1, 1 << 16, (1 << 16) + 1, (1 << 16) + 2, (1 << 16) + 3}
    first_end = max(e["ts"] + e["dur"] for e in events if e.get("ph") == "X" and e["pid"] < 1 << 16)
    second_start = min(e["ts"] for e in events if e.get("ph") == "X" and e["pid"] >= 1 << 16)
    assert second_start >= first_end
    _assert_no_overlap(events)


@pytest.mark.parametrize("order", ["reverse", "interleaved"])
def test_block_order_does_not_change_the_estimate(order: str, tmp_path: Path) -> None:
    """Blocks run as fibres in any order (PROTOCOL.md --block-order); the schedule is per block, so the estimate
    is the same, SyncAll rounds included."""
    spec = _syncall_spec(blocks=4)
    tc = EmulatorToolchain()
    base = tc.run(spec, RunOptions(timeout=120))
    other = tc.run(spec, RunOptions(timeout=120, block_order=order, trace_out=tmp_path / "t.json",
                                    keep_dir=tmp_path / "run"))  # fmt: skip
    assert base.correct and other.correct
    assert base.estimate is not None and other.estimate is not None
    assert other.estimate.to_json() == base.estimate.to_json()
    py = _python_schedule(spec, tmp_path / "run" / "trace.jsonl")
    assert py.estimate.to_json() == other.estimate.to_json()


def test_trace_limit_caps_the_timeline_not_the_estimate(tmp_path: Path) -> None:
    spec = _example("add_double_buffer")
    tc = EmulatorToolchain()
    full = tc.run(spec, RunOptions(timeout=120))
    binary = tc.compile(spec).binary
    assert binary is not None and full.estimate is not None
    soc = load_soc(spec.soc)
    (tmp_path / "soc.txt").write_text(
        soc.soc_txt() + cost.native_params(cost.params_for(soc.cost_model, soc.clock_ghz)), encoding="utf-8"
    )
    inputs = tmp_path / "in"
    tc.run(spec, RunOptions(timeout=120, keep_dir=inputs))
    r = subprocess.run(
        [str(binary), "--dir", str(inputs), "--soc-file", str(tmp_path / "soc.txt"), "--report",
         str(tmp_path / "r.jsonl"), "--estimate", str(tmp_path / "e.jsonl"), "--trace", str(tmp_path / "t.jsonl"),
         "--trace-limit", "10"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in (tmp_path / "t.jsonl").read_text().splitlines()]
    per_block = {b: sum(1 for e in lines if e["block"] == b) for b in range(spec.block_dim)}
    assert set(per_block.values()) == {10}
    (launch,) = cost.read_native(tmp_path / "e.jsonl")
    assert launch.trace_dropped == launch.events - 10 * spec.block_dim > 0
    sched = cost.estimate_from_native(
        tmp_path / "e.jsonl", spec.block_dim, soc.cost_model, int(soc.values["aiv_cores"]),
        int(soc.values["aic_cores"]), soc.clock_ghz, trace_path=tmp_path / "t.jsonl",
    )  # fmt: skip
    assert sched.estimate.cycles == full.estimate.cycles
    assert any("left out" in n for n in sched.estimate.notes)
    assert sum(len(bs.events) for bs in sched.blocks) == 10 * spec.block_dim
