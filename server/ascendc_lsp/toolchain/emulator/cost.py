"""Cost model: list-schedule the emulator's trace onto the AI Core pipes and estimate the kernel time.

What it does
------------
Every traced API call of a block (trace.jsonl, PROTOCOL.md) becomes an event on one pipe (`s`, `v`, `mte1`,
`mte2`, `mte3`, `m`, `fix`). Per block, in issue order:

    start = max(scalar issue time, end of the previous event on the same pipe, end of every event in `after`)

The scalar unit pays `scalar_issue_cycles` per API call and executes scalar events (GetValue/SetValue, WaitFlag on
the scalar pipe) itself, so they block further issue; other pipes run asynchronously, which is how double
buffering overlaps copies and compute. `SyncAll` is a barrier across blocks. Blocks are then placed on
`min(block_dim, cores)` cores in block order (waves when block_dim exceeds the core count), a launch overhead is
added, and the result is checked against the chip-level HBM bound (all GM bytes / HBM bandwidth).

Where it runs: the emulator schedules every event itself as the kernel runs (`ascendc_emu/cost_model.h`, the same
rules, the constants below passed through soc.txt by `native_params`) and writes per-block totals
(`estimate.jsonl`); `estimate_from_native` turns them into the Estimate. The scheduler in this module is the
reference that one is tested against (tests/test_cost_native.py) and schedules traces that carry no schedule.

Per-event durations (memo section 4; every constant is read from the SoC profile's `cost_model:` when present):
- MTE (mte2/mte3/mte1/fix): `t0 + bytes / BW`, with BW the measured single-core plateau for the path
  (GM->UB, UB->GM, GM->L1, L0C->GM) or the theoretical bytes/cycle otherwise, capped at HBM / active cores for
  GM paths, and divided by `gm_unaligned_factor` (0.7) when the GM address is not 512-B aligned. The fixed t0
  (about 220 cycles) reproduces the measured size curve (7-8 GB/s at 1 KB, 70-90 GB/s at 16 KB).
- Vector: `max(min_cycles, repeats * cycles_per_repeat(op, dtype))`, repeats = ceil(bytes / 256) for count forms.
- Cube: `max(mmad_min_cycles, m*n*k / MACs_per_cycle(dtype))`.
- Scalar: GetValue/SetValue on UB or a DCache hit about 4 cycles, a DCache miss about 200 cycles.
- Sync events (SetFlag, WaitFlag, EnQue, DeQue, AllocTensor, FreeTensor, PipeBarrier) take no time themselves.

Limits (read these before trusting a number)
--------------------------------------------
- It is a model, not a measurement: the provenance field says `model:default` or `model:soc-profile`. Nothing
  here was calibrated on an NPU by this project; the figures come from public docs and msKPP's measured tables.
- The instruction queues are unbounded (hardware stalls issue when a 32-deep queue fills), pipes execute one
  instruction at a time (no intra-pipe pipelining), and bank conflicts, L2 hits, TLB misses and same-address
  contention between cores are ignored.
- Scalar code between API calls is invisible to the emulator: only a fixed issue cost per call is charged. Kernels
  dominated by scalar loops (GetValue/SetValue per element) are estimated with assumed costs.
- The launch overhead (about 20 us at full core count on Atlas A2 per the docs) is scaled down linearly for few
  cores: an assumption.
- High-level APIs are costed as whatever primitive events the emulator traces for them.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascendc_lsp.toolchain.base import Estimate

PIPES = ("s", "v", "mte1", "mte2", "mte3", "m", "fix")
BOTTLENECK_NAMES = {
    "mte2": "mte2",
    "mte3": "mte3",
    "v": "vector",
    "s": "scalar",
    "m": "cube",
    "mte1": "mte1",
    "fix": "fix",
}
ZERO_COST_APIS = frozenset(
    {
        "SetFlag",
        "WaitFlag",
        "EnQue",
        "DeQue",
        "AllocTensor",
        "FreeTensor",
        "PipeBarrier",
        "SyncAll",
        "CrossCoreSetFlag",
        "CrossCoreWaitFlag",
        "SetAtomicAdd",
        "SetAtomicNone",
        "SetMaskCount",
        "SetMaskNorm",
        "SetVectorMask",
        "ResetMask",
    }
)
MAX_EVENTS = 2_000_000
TIMELINE_EVENTS = (
    200_000  # trace lines a timeline asks for, shared among the blocks (all are still scheduled)
)


def timeline_limit(block_dim: int) -> int:
    """Trace lines per block for a timeline (`--trace-limit`): enough to see the pipeline of every block."""
    return max(2_000, TIMELINE_EVENTS // max(1, block_dim))


# Defaults when the SoC profile lacks a number. Sources (see the emulator memo, section 4):
#  clock 1800 MHz: msKPP arch_info.cpp; HBM about 1.6 TB/s: ADK L2-Cache切分.md;
#  DMA bytes/cycle (theoretical): msKPP TheoreticalBandwidth(); measured plateaus: msKPP resource910b.cpp
#  (GM->UB 79 GB/s on 910B1, 190 on 910B3: 120 is our mid-point assumption; UB->GM 110; GM->L1 280; L0C->GM 200);
#  t0 220 cycles: memo 4.3 fit to msKPP's 1-4 KB points; unaligned 0.7: ADK "GM地址尽量512B对齐";
#  vector cycles per 256-B repeat: memo 4.2 table derived from msKPP's measured instruction throughput;
#  cube 4096 fp16 MAC/cycle: Hot Chips 2019 Da Vinci; float 1/4: ADK 2201 constraints; min Mmad 25: msKPP;
#  launch about 20 us at full core count: ADK 分析性能数据.md; scalar costs: memo 4.3 assumptions.
DEFAULTS: dict[str, Any] = {
    "clock_mhz": 1800.0,
    "hbm_gbps": 1600.0,
    "dma_bytes_per_cycle": {
        "gm_ub": 128,
        "gm_l1": 256,
        "gm_l0": 128,
        "l1_l0a": 256,
        "l1_l0b": 128,
        "l1_bt": 64,
        "l1_fb": 64,
        "l0c_gm": 128,
        "l0c_l1": 256,
        "ub_ub": 128,
        "ub_gm": 128,
    },
    "measured_gm_ub_gbps": 120.0,
    "measured_ub_gm_gbps": 110.0,
    "measured_gm_l1_gbps": 280.0,
    "measured_l0c_gm_gbps": 200.0,
    "mte_t0_cycles": 220.0,
    "onchip_t0_cycles": 20.0,  # assumption: on-chip moves (L1->L0, UB->UB) have a short fixed cost
    "gm_unaligned_factor": 0.7,
    "dma_fallback_bytes_per_cycle": 128.0,  # a data path missing from dma_bytes_per_cycle
    "vector_min_cycles": 3.0,
    "reduce_min_cycles": 7.0,
    "vector_cycles_per_repeat": {
        "default": 2,
        "Adds": 1,
        "Muls": 1,
        "Maxs": 1,
        "Mins": 1,
        "Relu": 1,
        "LeakyRelu": 1,
        "Abs": 1,
        "Reciprocal": 1,
        "Rsqrt": 1,
        "Duplicate": 1,
        "Cast": 1,
        "BlockReduceSum.float": 1,
        "BlockReduceMax.float": 1,
        "PairReduceSum": 1,
        "Brcb": 1,
        "CompareScalar": 1,
        "Copy": 1,
        "Not": 1,
        "ShiftLeft": 1,
        "ShiftRight": 1,
        "Add": 2,
        "Sub": 2,
        "Mul": 2,
        "Max": 2,
        "Min": 2,
        "And": 2,
        "Or": 2,
        "AddRelu": 2,
        "SubRelu": 2,
        "Axpy": 2,
        "Select": 2,
        "Compare": 2,
        "Exp.float": 2,
        "Ln.float": 2,
        "Sqrt.float": 2,
        "GatherMask": 2,
        "WholeReduceSum.float": 3,
        "Div": 4,
        "Exp.half": 4,
        "Ln.half": 4,
        "Sqrt.half": 4,
        "FusedMulAdd": 6,
        "MulAddDst": 6,
        "WholeReduceSum.half": 7,
        "WholeReduceMax": 7,
        "WholeReduceMin": 7,
        "BlockReduceSum.half": 7,
        "Gather.uint32_t": 12,
        "Gather.uint16_t": 24,
        "MrgSort": 16,
    },
    "cube_mac_per_cycle": {"half": 4096, "int8_t": 8192, "float": 1024, "bfloat16_t": 4096},
    "mmad_min_cycles": 25.0,
    "launch_overhead_us": 20.0,
    "launch_min_fraction": 0.25,  # assumption: a 1-core launch costs a quarter of the full-core overhead
    "scalar_issue_cycles": 10.0,
    "scalar_local_access_cycles": 4.0,
    "scalar_gm_hit_cycles": 4.0,
    "scalar_dcache_miss_cycles": 200.0,
}


@dataclass
class Params:
    values: dict[str, Any]
    provenance: str

    def num(self, key: str) -> float:
        v = self.values.get(key)
        return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else float(DEFAULTS[key])

    def table(self, key: str) -> dict[str, float]:
        v = self.values.get(key)
        base = dict(DEFAULTS[key])
        if isinstance(v, dict):
            base.update({str(k): float(x) for k, x in v.items() if isinstance(x, int | float)})
        return base


def params_for(cost_model: dict[str, Any] | None, clock_ghz: float | None = None) -> Params:
    vals = dict(cost_model or {})
    if clock_ghz and "clock_mhz" not in vals:
        vals["clock_mhz"] = clock_ghz * 1000.0
    return Params(values=vals, provenance="model:soc-profile" if cost_model else "model:default")


@dataclass
class Event:
    block: int
    seq: int
    pipe: str
    api: str
    line: int
    after: list[int]
    raw: dict[str, Any]
    duration: float = 0.0
    start: float = 0.0
    end: float = 0.0


@dataclass
class BlockSchedule:
    block: int
    events: list[Event] = field(default_factory=list)
    busy: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PIPES, 0.0))  # "s" includes issue
    issue_cycles: float = 0.0
    makespan: float = 0.0
    core: int = 0
    offset: float = 0.0  # start of the block on its core (cycles after launch)
    gm_bytes: float = 0.0
    launch: int = 0


@dataclass
class LaunchSchedule:
    """One kernel launch scheduled per block (by the emulator or by `schedule_blocks`), before core placement."""

    blocks: list[BlockSchedule]
    n_blocks: int
    cores: int  # the core kind the launch runs on: AIC for cube-only kernels, else AIV
    active: int  # min(n_blocks, cores): the cores sharing HBM
    has_cube: bool = False
    has_vec: bool = False
    has_syncall: bool = False
    events: int = 0
    scalar_accesses: int = 0  # GetValue/SetValue calls
    truncated: bool = False
    trace_dropped: int = 0  # events scheduled but left out of the trace file (--trace-limit)
    index: int = 0
    lane: int = 0  # which of the emulator's schedules applies (trace "start"/"end" or "start2"/"end2")
    estimate: Estimate | None = None  # set by summarise()
    launch_cycles: float = 0.0
    start: float = 0.0  # cycles of the earlier launches of the program (timeline)


@dataclass
class Schedule:
    blocks: list[BlockSchedule]
    estimate: Estimate
    clock_mhz: float
    launch_cycles: float
    launches: list[LaunchSchedule] = field(default_factory=list)


# ----------------------------------------------------------------------------------------------------------------
# durations


def _bw_bytes_per_cycle(p: Params, src: str, dst: str) -> tuple[float, bool]:
    """(bytes per cycle, touches GM) for a data path."""
    clock_hz = p.num("clock_mhz") * 1e6
    measured = {
        ("gm", "ub"): "measured_gm_ub_gbps",
        ("ub", "gm"): "measured_ub_gm_gbps",
        ("gm", "l1"): "measured_gm_l1_gbps",
        ("l0c", "gm"): "measured_l0c_gm_gbps",
    }
    key = measured.get((src, dst))
    if key is not None:
        return p.num(key) * 1e9 / clock_hz, True
    table = p.table("dma_bytes_per_cycle")
    path = f"{src}_{dst}"
    if path in table:
        return table[path], "gm" in (src, dst)
    fallback = p.num("dma_fallback_bytes_per_cycle")
    if src == "gm" and dst in ("l0a", "l0b"):
        return table.get("gm_l0", fallback), True
    return fallback, "gm" in (src, dst)


def _norm_space(s: Any) -> str:
    s = str(s or "").lower()
    aliases = {
        "vecin": "ub",
        "vecout": "ub",
        "veccalc": "ub",
        "a1": "l1",
        "b1": "l1",
        "c1": "l1",
        "a2": "l0a",
        "b2": "l0b",
        "co1": "l0c",
        "c2": "bt",
        "co2": "gm",
        "out": "gm",
    }
    return aliases.get(s, s)


def event_cycles(ev: dict[str, Any], p: Params, active_cores: int) -> float:
    """Duration of one traced event in cycles (0 for sync events)."""
    if isinstance(ev.get("cycles"), int | float):  # the emulator may state a cost itself
        return max(0.0, float(ev["cycles"]))
    api = str(ev.get("api", ""))
    pipe = str(ev.get("pipe", ""))
    if api in ZERO_COST_APIS or pipe == "all":
        return 0.0
    if pipe in ("mte1", "mte2", "mte3", "fix") or ("bytes" in ev and pipe != "s"):
        nbytes = float(ev.get("bytes") or 0)
        if nbytes <= 0:
            return 0.0
        src = _norm_space(ev.get("src") or ("gm" if pipe == "mte2" else "ub" if pipe == "mte3" else "l1"))
        dst = _norm_space(ev.get("dst") or ("ub" if pipe == "mte2" else "gm" if pipe == "mte3" else "l0a"))
        if pipe == "fix" and not ev.get("src"):
            src = "l0c"
        bw, gm = _bw_bytes_per_cycle(p, src, dst)
        t0 = p.num("mte_t0_cycles") if gm else p.num("onchip_t0_cycles")
        if gm:
            hbm = p.num("hbm_gbps") * 1e9 / (p.num("clock_mhz") * 1e6)
            bw = min(bw, hbm / max(1, active_cores))
            if ev.get("gm_aligned512") is False:
                bw *= p.num("gm_unaligned_factor")
        return t0 + nbytes / max(bw, 1e-9)
    if pipe == "v":
        dtype = str(ev.get("dtype") or "")
        size = _dtype_bytes(dtype)
        repeats = ev.get("repeats")
        if not isinstance(repeats, int | float) or repeats <= 0:
            elements = float(ev.get("elements") or 0)
            repeats = math.ceil(elements * size / 256.0) if elements > 0 else 1
        table = p.table("vector_cycles_per_repeat")
        cpr = table.get(f"{api}.{dtype}", table.get(api, table.get("default", 2.0)))
        is_reduce = "Reduce" in api or api.startswith("Compare")
        floor = p.num("reduce_min_cycles") if is_reduce else p.num("vector_min_cycles")
        return max(floor, float(repeats) * cpr)
    if pipe == "m":
        m, n, k = (float(ev.get(x) or 16) for x in ("m", "n", "k"))
        dtype = str(ev.get("dtype") or "half")
        rates = p.table("cube_mac_per_cycle")
        rate = rates.get(dtype, rates.get("half", 4096.0))
        measured = p.values.get("measured_cube_mac_per_cycle")
        if dtype == "half" and isinstance(measured, int | float) and measured > 0:
            rate = float(measured)
        return max(p.num("mmad_min_cycles"), m * n * k / max(rate, 1.0))
    if pipe == "s":
        # merged runs of scalar accesses carry "count" (accesses) and "dcache_misses" (PROTOCOL.md additions)
        count = float(ev["count"]) if isinstance(ev.get("count"), int | float) and ev["count"] > 0 else 1.0
        space = str(ev.get("space", "ub")).lower()
        if api in ("GetValue", "SetValue", "operator[]", "GET_TILING_DATA") or space == "gm":
            if space == "gm":
                misses = ev.get("dcache_misses")
                k = (
                    float(misses)
                    if isinstance(misses, int | float)
                    else (count if ev.get("dcache_miss") else 0.0)
                )
                k = min(max(k, 0.0), count)
                return k * p.num("scalar_dcache_miss_cycles") + (count - k) * p.num("scalar_gm_hit_cycles")
            return count * p.num("scalar_local_access_cycles")
        if api == "DataCacheCleanAndInvalid":
            return p.num("scalar_dcache_miss_cycles")
        return 0.0
    return 0.0


def _dtype_bytes(dtype: str) -> int:
    d = dtype.lower()
    if d in ("half", "float16", "bfloat16_t", "bfloat16", "int16_t", "uint16_t", "int16", "uint16"):
        return 2
    if d in ("float", "float32", "int32_t", "uint32_t", "int32", "uint32"):
        return 4
    if d in ("int8_t", "uint8_t", "int8", "uint8", "bool"):
        return 1
    if d in ("int64_t", "uint64_t", "int64", "uint64", "double"):
        return 8
    return 2


def _is_gm_move(ev: dict[str, Any]) -> bool:
    return "gm" in (_norm_space(ev.get("src")), _norm_space(ev.get("dst"))) or (
        ev.get("pipe") in ("mte2", "mte3") and not ev.get("src") and not ev.get("dst")
    )


# ----------------------------------------------------------------------------------------------------------------
# the constants the emulator's own scheduler reads (ascendc_emu/cost_model.h)


def native_params(p: Params) -> str:
    """`cost.*` lines for soc.txt: every constant of the model as this Params resolves it (profile over DEFAULTS),
    so the in-kernel scheduler computes the same durations as event_cycles without numbers of its own."""
    lines: list[str] = []
    for key, default in DEFAULTS.items():
        if isinstance(default, dict):
            prefix = {
                "dma_bytes_per_cycle": "dma",
                "vector_cycles_per_repeat": "vcpr",
                "cube_mac_per_cycle": "mac",
            }
            short = prefix.get(key)
            if short is None:
                continue
            for name, v in p.table(key).items():
                _native_line(lines, f"cost.{short}.{name}", v)
        elif not key.startswith("launch_"):
            _native_line(lines, f"cost.{key}", p.num(key))
    measured = p.values.get("measured_cube_mac_per_cycle")
    if isinstance(measured, int | float) and not isinstance(measured, bool) and measured > 0:
        _native_line(lines, "cost.measured_cube_mac_per_cycle", float(measured))
    for api in sorted(ZERO_COST_APIS):
        _native_line(lines, f"cost.zero.{api}", 1.0)
    return "".join(lines)


def _native_line(lines: list[str], key: str, value: float) -> None:
    # soc.txt is read with fscanf("%63s %127s"): keys must be one short token
    if len(key) <= 63 and key.isprintable() and " " not in key:
        lines.append(f"{key} {float(value)!r}\n")


# ----------------------------------------------------------------------------------------------------------------
# reading and scheduling (the Python scheduler: the reference the emulator's is tested against, and the path for
# traces that carry no schedule)


def read_trace(path: Path, limit: int = MAX_EVENTS) -> tuple[dict[int, list[dict[str, Any]]], bool]:
    """Events grouped by block, in seq order; (events, truncated)."""
    rows = [ev for ev in _read_jsonl(path, limit + 1) if isinstance(ev, dict)]
    truncated = len(rows) > limit
    blocks: dict[int, list[dict[str, Any]]] = {}
    for ev in rows[:limit]:
        b = ev.get("block", 0)
        blocks.setdefault(int(b) if isinstance(b, int) else 0, []).append(ev)
    for evs in blocks.values():
        evs.sort(key=lambda e: e.get("seq", 0) if isinstance(e.get("seq"), int) else 0)
    return blocks, truncated


def _track(pipe: str, api: str) -> str:
    """The timeline track of an event: barriers on "all", SyncAll on the scalar unit, unknown pipes mapped."""
    if pipe == "all" or api == "PipeBarrier":
        return "all"
    if api == "SyncAll":
        return "s"
    if pipe not in PIPES:
        return "v" if pipe.startswith("v") else "s"
    return pipe


class _BlockState:
    def __init__(self, bs: BlockSchedule) -> None:
        self.bs = bs
        self.issue = 0.0
        self.free = dict.fromkeys(PIPES, 0.0)
        self.end: dict[int, float] = {}

    def drained(self) -> float:
        return max(self.issue, *self.free.values())

    def step(self, raw: dict[str, Any], p: Params, active: int) -> bool:
        """Schedule one event; True when it is a SyncAll (the caller synchronises the blocks)."""
        pipe = str(raw.get("pipe", "s"))
        api = str(raw.get("api", ""))
        rseq, rline = raw.get("seq"), raw.get("line")
        seq = rseq if isinstance(rseq, int) else len(self.bs.events)
        after = [a for a in raw.get("after", []) or [] if isinstance(a, int)]
        line = rline if isinstance(rline, int) else 0
        ev = Event(
            block=self.bs.block, seq=seq, pipe=_track(pipe, api), api=api, line=line, after=after, raw=raw
        )
        count = raw.get("count")
        n_calls = float(count) if pipe == "s" and isinstance(count, int | float) and count > 1 else 1.0
        issue_cost = p.num("scalar_issue_cycles") * n_calls
        self.issue += issue_cost
        self.bs.issue_cycles += issue_cost
        deps = max((self.end.get(a, 0.0) for a in after), default=0.0)
        if _is_gm_move(raw):
            self.bs.gm_bytes += float(raw.get("bytes") or 0)
        if ev.pipe == "all":
            target = str(raw.get("barrier", "all")).lower()
            if target == "all":
                t = max(self.drained(), deps)
                self.issue = t
                for k in self.free:
                    self.free[k] = t
                ev.start = ev.end = t
            else:
                ev.start = ev.end = max(self.issue, deps)
        elif api == "SyncAll":
            t = max(self.drained(), deps)
            ev.start = ev.end = t
            self.issue = t
        else:
            dur = event_cycles(raw, p, active)
            start = max(self.issue, self.free[ev.pipe], deps)
            ev.start, ev.end = start, start + dur
            self.free[ev.pipe] = ev.end
            if ev.pipe == "s":
                self.issue = ev.end
            self.bs.busy[ev.pipe] += dur
        ev.duration = ev.end - ev.start
        self.end[ev.seq] = ev.end
        self.bs.events.append(ev)
        return api == "SyncAll"


def schedule_blocks(
    trace: dict[int, list[dict[str, Any]]],
    block_dim: int,
    params: Params,
    cores_available: int,
    aic_cores: int | None = None,
    truncated: bool = False,
) -> LaunchSchedule:
    """List-schedule every block of one launch (the reference implementation of the model)."""
    p = params
    has_cube = any(e.get("pipe") in ("m", "mte1", "fix") for evs in trace.values() for e in evs)
    has_vec = any(e.get("pipe") == "v" for evs in trace.values() for e in evs)
    cores = cores_available
    if has_cube and not has_vec and aic_cores:
        cores = aic_cores
    n_blocks = max(block_dim, (max(trace) + 1) if trace else 0, 1)
    active = max(1, min(n_blocks, cores))
    states = [_BlockState(BlockSchedule(block=b)) for b in range(n_blocks)]
    cursors = [0] * n_blocks
    # run every block up to its next SyncAll; then align all blocks at the barrier
    while True:
        progressed = False
        hit_sync = [False] * n_blocks
        for b, st in enumerate(states):
            evs = trace.get(b, [])
            while cursors[b] < len(evs):
                is_sync = st.step(evs[cursors[b]], p, active)
                cursors[b] += 1
                progressed = True
                if is_sync:
                    hit_sync[b] = True
                    break
        if any(hit_sync):
            t = max(st.drained() for st in states)
            for st in states:
                st.issue = t
                for k in st.free:
                    st.free[k] = t
        if not progressed or all(cursors[b] >= len(trace.get(b, [])) for b in range(n_blocks)):
            break
    for st in states:
        st.bs.makespan = st.drained()
        st.bs.busy["s"] += st.bs.issue_cycles
    return LaunchSchedule(
        blocks=[st.bs for st in states],
        n_blocks=n_blocks,
        cores=cores,
        active=active,
        has_cube=has_cube,
        has_vec=has_vec,
        has_syncall=any(e.get("api") == "SyncAll" for evs in trace.values() for e in evs),
        events=sum(len(evs) for evs in trace.values()),
        scalar_accesses=sum(
            e["count"] if isinstance(e.get("count"), int) else 1
            for evs in trace.values()
            for e in evs
            if e.get("api") in ("GetValue", "SetValue")
        ),
        truncated=truncated,
    )


def summarise(launch: LaunchSchedule, params: Params) -> Estimate:
    """Place the launch's blocks on cores and summarise it as an Estimate (sets each block's core and offset)."""
    p = params
    clock_mhz = p.num("clock_mhz")
    has_cube, has_vec = launch.has_cube, launch.has_vec
    cores, active, n_blocks = launch.cores, launch.active, launch.n_blocks
    # place blocks on cores (all concurrent when SyncAll forces a rendezvous)
    core_free = [0.0] * active
    core_blocks: list[list[BlockSchedule]] = [[] for _ in range(active)]
    for bs in launch.blocks:
        if launch.has_syncall:
            c = bs.block % active
            bs.offset = 0.0
            core_free[c] = max(core_free[c], bs.makespan)
        else:
            c = min(range(active), key=lambda i: core_free[i])
            bs.offset = core_free[c]
            core_free[c] += bs.makespan
        bs.core = c
        core_blocks[c].append(bs)
    compute = max(core_free) if core_free else 0.0
    crit = max(range(active), key=lambda i: core_free[i]) if core_free else 0
    crit_busy = dict.fromkeys(PIPES, 0.0)
    for bs in core_blocks[crit]:
        for k, v in bs.busy.items():
            crit_busy[k] += v
    gm_total = sum(bs.gm_bytes for bs in launch.blocks)
    hbm_bpc = p.num("hbm_gbps") * 1e9 / (clock_mhz * 1e6)
    hbm_bound = gm_total / hbm_bpc if hbm_bpc > 0 else 0.0
    notes: list[str] = []
    bottleneck_pipe = max(PIPES, key=lambda k: crit_busy[k])
    if hbm_bound > compute:
        notes.append(
            f"chip-level HBM bandwidth bound ({gm_total:,.0f} B of GM traffic) exceeds the per-core schedule"
        )
        compute = hbm_bound
        bottleneck_pipe = "mte2"
    lower_core = max((sum(max(bs.busy.values()) for bs in blks) for blks in core_blocks), default=0.0)
    upper_core = max((sum(sum(bs.busy.values()) for bs in blks) for blks in core_blocks), default=0.0)
    lower_core = max(lower_core, hbm_bound)
    launch_full = p.num("launch_overhead_us")
    frac = p.num("launch_min_fraction")
    used = min(n_blocks, cores)
    launch_us = launch_full * (frac + (1 - frac) * used / max(1, cores))
    launch_cycles = launch_us * clock_mhz
    total = launch_cycles + compute
    lower = launch_cycles + min(lower_core, compute)
    upper = launch_cycles + max(upper_core, compute)
    to_us = 1.0 / clock_mhz
    ratios: dict[str, float] = {}
    crit_span = max(1.0, core_free[crit] if core_free else 1.0)
    names = {
        "v": "aiv_vec_ratio",
        "mte2": "aiv_mte2_ratio",
        "mte3": "aiv_mte3_ratio",
        "s": "aiv_scalar_ratio",
        "m": "aic_mac_ratio",
        "mte1": "aic_mte1_ratio",
        "fix": "aic_fixpipe_ratio",
    }
    for k, name in names.items():
        if crit_busy[k] > 0:
            ratios[name] = min(1.0, crit_busy[k] / crit_span)
    if used < cores:
        kind = "cube" if has_cube and not has_vec else "vector"
        notes.append(f"block_dim {n_blocks} uses {used} of {cores} {kind} cores")
    if n_blocks > cores:
        waves = math.ceil(n_blocks / cores)
        notes.append(f"block_dim {n_blocks} exceeds the {cores} cores: {waves} waves")
    if launch_cycles > compute:
        notes.append("launch-bound: the launch overhead exceeds the kernel's own time")
    if launch.scalar_accesses > 1000:
        notes.append(
            f"{launch.scalar_accesses:,} scalar GetValue/SetValue calls: scalar costs are assumptions, treat with care"
        )
    if launch.truncated:
        notes.append(f"trace truncated at {MAX_EVENTS:,} events: the estimate covers only part of the kernel")
    if not launch.events:
        notes.append("no trace events: only the launch overhead is estimated")
    est = Estimate(
        cycles=round(total),
        microseconds=total * to_us,
        bottleneck=BOTTLENECK_NAMES[bottleneck_pipe],
        pipes={k: round(v) for k, v in crit_busy.items()},
        lower_cycles=round(lower),
        upper_cycles=round(upper),
        lower_microseconds=lower * to_us,
        upper_microseconds=upper * to_us,
        launch_microseconds=launch_us,
        clock_ghz=clock_mhz / 1000.0,
        blocks=n_blocks,
        cores_used=used,
        cores_available=cores,
        ratios=ratios,
        notes=notes,
        provenance=p.provenance,
        events=launch.events,
    )
    launch.estimate = est
    launch.launch_cycles = launch_cycles
    return est


def _combine(launches: list[LaunchSchedule], params: Params) -> Schedule:
    """The program's Schedule: its launches one after the other (each pays its launch overhead)."""
    clock_mhz = params.num("clock_mhz")
    start = 0.0
    for ls in launches:
        summarise(ls, params)
        ls.start = start
        start += ls.estimate.cycles if ls.estimate is not None else 0.0
    ests = [ls.estimate for ls in launches if ls.estimate is not None]
    est = Estimate.in_sequence(
        ests,
        [
            f"{len(ests)} launches: the estimate is their sum (ratios and bottleneck of the longest)",
            *dict.fromkeys(n for e in ests for n in e.notes),
        ],
    )
    return Schedule(
        blocks=[bs for ls in launches for bs in ls.blocks],
        estimate=est,
        clock_mhz=clock_mhz,
        launch_cycles=launches[0].launch_cycles,
        launches=launches,
    )


def schedule(
    trace: dict[int, list[dict[str, Any]]],
    block_dim: int,
    params: Params,
    cores_available: int,
    aic_cores: int | None = None,
    truncated: bool = False,
) -> Schedule:
    """List-schedule every block, place blocks on cores, and summarise as an Estimate."""
    launch = schedule_blocks(trace, block_dim, params, cores_available, aic_cores, truncated)
    return _combine([launch], params)


def estimate_from_file(
    trace_path: Path,
    block_dim: int,
    cost_model: dict[str, Any] | None,
    cores_available: int,
    aic_cores: int | None = None,
    clock_ghz: float | None = None,
) -> Schedule:
    """Schedule a trace.jsonl in Python (a trace written without --estimate, or by another tool)."""
    trace, truncated = read_trace(trace_path)
    return schedule(
        trace, block_dim, params_for(cost_model, clock_ghz), cores_available, aic_cores, truncated
    )


def estimate_events(
    events: Iterable[dict[str, Any]],
    block_dim: int = 1,
    cost_model: dict[str, Any] | None = None,
    cores: int = 48,
) -> Schedule:
    """Convenience for tests and tools: schedule in-memory events."""
    trace: dict[int, list[dict[str, Any]]] = {}
    for e in events:
        trace.setdefault(int(e.get("block", 0)), []).append(e)
    return schedule(trace, block_dim, params_for(cost_model), cores)


# ----------------------------------------------------------------------------------------------------------------
# the emulator's own schedule (estimate.jsonl, PROTOCOL.md)


def read_native(path: Path) -> list[LaunchSchedule]:
    """The launches the emulator scheduled itself, one JSON line each; unreadable lines are skipped."""
    launches: list[LaunchSchedule] = []
    try:
        fh = path.open("r", encoding="utf-8", errors="replace")
    except OSError:
        return []
    with fh:
        for raw in fh:
            try:
                d = json.loads(raw)
                launches.append(_native_launch(d, len(launches)))
            except (ValueError, TypeError, KeyError, IndexError):
                continue
    return launches


def _native_launch(d: Any, index: int) -> LaunchSchedule:
    if not isinstance(d, dict):
        raise TypeError("not an object")
    pipes = [str(x) for x in d["pipes"]]
    blocks: list[BlockSchedule] = []
    for b, row in enumerate(d["blocks"]):
        vals = [float(x) for x in row]
        busy = dict.fromkeys(PIPES, 0.0)
        for name, v in zip(pipes, vals[3:], strict=False):
            if name in busy:
                busy[name] = v
        bs = BlockSchedule(block=b, busy=busy, issue_cycles=vals[1], makespan=vals[0], gm_bytes=vals[2])
        bs.busy["s"] += bs.issue_cycles
        bs.launch = int(d.get("launch", index))
        blocks.append(bs)
    n_blocks = max(int(d["block_dim"]), len(blocks), 1)
    while len(blocks) < n_blocks:
        blocks.append(BlockSchedule(block=len(blocks), launch=int(d.get("launch", index))))
    return LaunchSchedule(
        blocks=blocks,
        n_blocks=n_blocks,
        cores=max(1, int(d["cores"])),
        active=max(1, int(d["active"])),
        has_cube=bool(d.get("has_cube")),
        has_vec=bool(d.get("has_vec")),
        has_syncall=bool(d.get("has_syncall")),
        events=int(d.get("events", 0)),
        scalar_accesses=int(d.get("scalar_accesses", 0)),
        trace_dropped=int(d.get("trace_dropped", 0)),
        index=int(d.get("launch", index)),
        lane=1 if d.get("lane") == 1 else 0,
    )


def native_launch_schedules(
    estimate_path: Path,
    cost_model: dict[str, Any] | None,
    clock_ghz: float | None = None,
    trace_paths: dict[int, Path] | None = None,
) -> dict[int, Schedule]:
    """Each launch of a program as the emulator scheduled it (estimate.jsonl), keyed by its 0-based launch
    number, judged on its own; `trace_paths` (launch number -> that launch's trace) adds a timeline's events."""
    params = params_for(cost_model, clock_ghz)
    out: dict[int, Schedule] = {}
    for ls in read_native(estimate_path):
        trace = (trace_paths or {}).get(ls.index)
        if trace is not None and trace.is_file():
            _attach_native_trace([ls], trace)
        out[ls.index] = _combine([ls], params)
    return out


def _read_jsonl(path: Path, limit: int) -> list[Any]:
    """Up to `limit` JSON values, one per line; unreadable lines are skipped. Well-formed files are parsed in one
    call (a per-line json.loads costs more than the parse itself at hundreds of thousands of lines)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    lines = [ln for ln in text.splitlines() if ln.strip()][:limit]
    try:
        rows = json.loads("[" + ",".join(lines) + "]")
        return rows if isinstance(rows, list) else []
    except ValueError:
        out: list[Any] = []
        for ln in lines:
            with contextlib.suppress(ValueError):
                out.append(json.loads(ln))
        return out


def _attach_native_trace(launches: list[LaunchSchedule], trace_path: Path) -> None:
    """Fill each block's events from a trace.jsonl whose lines carry the emulator's start/end (timeline only)."""
    by_launch = {ls.index: ls for ls in launches}
    for ev in _read_jsonl(trace_path, MAX_EVENTS):
        if not isinstance(ev, dict):
            continue
        li = ev.get("launch", 0)
        ls = by_launch.get(li if isinstance(li, int) else 0)
        b = ev.get("block", 0)
        if ls is None or not isinstance(b, int) or not 0 <= b < len(ls.blocks):
            continue
        start, end = (ev.get("start2"), ev.get("end2")) if ls.lane == 1 else (ev.get("start"), ev.get("end"))
        if not isinstance(start, int | float) or not isinstance(end, int | float):
            continue
        pipe, api = str(ev.get("pipe", "s")), str(ev.get("api", ""))
        seq, line = ev.get("seq"), ev.get("line")
        after = ev.get("after") or []
        e = Event(
            block=b,
            seq=seq if isinstance(seq, int) else 0,
            pipe=_track(pipe, api),
            api=api,
            line=line if isinstance(line, int) else 0,
            after=[a for a in after if isinstance(a, int)] if after else [],
            raw=ev,
            start=float(start),
            end=float(end),
            duration=float(end) - float(start),
        )
        ls.blocks[b].events.append(e)


def estimate_from_native(
    estimate_path: Path,
    block_dim: int,
    cost_model: dict[str, Any] | None,
    cores_available: int,
    aic_cores: int | None = None,
    clock_ghz: float | None = None,
    trace_path: Path | None = None,
) -> Schedule:
    """The Estimate from the emulator's own schedule (estimate.jsonl); with `trace_path`, also the events for a
    timeline. A run that wrote no launch line gets its trace scheduled here when there is one, else the launch
    overhead only (it stopped before launching)."""
    params = params_for(cost_model, clock_ghz)
    launches = read_native(estimate_path)
    if not launches:  # a trace with no schedule of its own (another emulator build): schedule it here
        if trace_path is not None and trace_path.is_file():
            return estimate_from_file(
                trace_path, block_dim, cost_model, cores_available, aic_cores, clock_ghz
            )
        return schedule({}, block_dim, params, cores_available, aic_cores)
    if trace_path is not None:
        _attach_native_trace(launches, trace_path)
    sched = _combine(launches, params)
    dropped = sum(ls.trace_dropped for ls in launches)
    if trace_path is not None and dropped:
        total = sum(ls.events for ls in launches)
        sched.estimate.notes.append(
            f"the timeline draws the first events of each block: {dropped:,} of {total:,} events are left out "
            "(the estimate covers them all)"
        )
    return sched


_NOT_ARGS = frozenset({"block", "pipe", "api", "launch"})


def _slice(start_us: float, end_us: float) -> tuple[float, float]:
    """(ts, dur) of a slice: the start and the end are rounded, the duration derived from them and nudged down
    when the subtraction rounded up, so back-to-back slices on one pipe never overlap."""
    ts = round(start_us, 4)
    end = round(end_us, 4)
    dur = end - ts
    if ts + dur > end:
        dur = math.nextafter(dur, 0.0)
    return ts, dur


def shifted_slice(ts: float, dur: Any, offset_us: float) -> tuple[float, float | None]:
    """A trace event moved later by offset_us (a later launch of a program): (ts, dur or None for instants),
    with the end rounded rather than the duration, as write_perfetto does."""
    if not isinstance(dur, int | float):
        return round(ts + offset_us, 4), None
    return _slice(ts + offset_us, ts + dur + offset_us)


def write_perfetto(sched: Schedule, path: Path) -> None:
    """Chrome trace-event JSON (open in ui.perfetto.dev or chrome://tracing): one process per block, one
    thread per pipe; timestamps in microseconds after the launch overhead. A slice's end is rounded and its
    duration derived from it, so back-to-back slices on one pipe never overlap."""
    us = 1.0 / sched.clock_mhz
    out: list[dict[str, Any]] = []
    tids = {p: i for i, p in enumerate((*PIPES, "all"))}
    launches = sched.launches or [
        LaunchSchedule(blocks=sched.blocks, n_blocks=len(sched.blocks), cores=1, active=1,
                       launch_cycles=sched.launch_cycles)
    ]  # fmt: skip
    multi = len(launches) > 1
    for ls in launches:
        for bs in ls.blocks:
            pid = bs.block + (ls.index << 16 if multi else 0)
            label = f"launch {ls.index} block {bs.block}" if multi else f"block {bs.block}"
            out.append(
                {"ph": "M", "name": "process_name", "pid": pid, "args": {"name": f"{label} (core {bs.core})"}}
            )
            out.append({"ph": "M", "name": "process_sort_index", "pid": pid, "args": {"sort_index": pid}})
            used = {ev.pipe for ev in bs.events}
            for pipe, tid in tids.items():
                if pipe in used:
                    out.append(
                        {"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": pipe}}
                    )
                    out.append(
                        {
                            "ph": "M",
                            "name": "thread_sort_index",
                            "pid": pid,
                            "tid": tid,
                            "args": {"sort_index": tid},
                        }
                    )
            base_cycles = ls.start + ls.launch_cycles + bs.offset
            for ev in bs.events:
                args = {k: v for k, v in ev.raw.items() if k not in _NOT_ARGS}
                ts, dur = _slice((base_cycles + ev.start) * us, (base_cycles + ev.end) * us)
                tid = tids.get(ev.pipe, 0)
                if ev.duration > 0 and dur > 0:
                    out.append({"name": ev.api or "?", "pid": pid, "tid": tid, "ts": ts, "cat": ev.pipe,
                                "args": args, "ph": "X", "dur": dur})  # fmt: skip
                else:
                    out.append({"name": ev.api or "?", "pid": pid, "tid": tid, "ts": ts, "cat": ev.pipe,
                                "args": args, "ph": "i", "s": "t"})  # fmt: skip
    doc = {
        "traceEvents": out,
        "otherData": {"estimate": sched.estimate.to_json(), "generator": "ascendc-lsp emulator cost model"},
    }
    path.write_text(json.dumps(doc, separators=(",", ":")), encoding="utf-8")
