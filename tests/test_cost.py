"""Cost model: durations, list scheduling with `after` deps, double-buffer overlap, SyncAll, waves, Perfetto."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from ascendc_lsp.toolchain.emulator import cost


def copy_in(seq: int, nbytes: int = 16384, after: list[int] | None = None, block: int = 0) -> dict[str, Any]:
    return {"block": block, "seq": seq, "pipe": "mte2", "api": "DataCopy", "bytes": nbytes, "src": "gm", "dst": "ub",
            "gm_aligned512": True, "after": after or []}  # fmt: skip


def vec(seq: int, elements: int = 8192, after: list[int] | None = None, api: str = "Add") -> dict[str, Any]:
    return {
        "block": 0,
        "seq": seq,
        "pipe": "v",
        "api": api,
        "dtype": "half",
        "elements": elements,
        "after": after or [],
    }


def copy_out(seq: int, nbytes: int = 16384, after: list[int] | None = None) -> dict[str, Any]:
    return {"block": 0, "seq": seq, "pipe": "mte3", "api": "DataCopy", "bytes": nbytes, "src": "ub", "dst": "gm",
            "after": after or []}  # fmt: skip


P = cost.params_for(None)


def test_mte_duration_follows_the_size_curve() -> None:
    small = cost.event_cycles(copy_in(0, 1024), P, 1)
    big = cost.event_cycles(copy_in(0, 65536), P, 1)
    clock = 1.8e9
    gbps_small = 1024 / (small / clock) / 1e9
    gbps_big = 65536 / (big / clock) / 1e9
    assert 5 < gbps_small < 12  # measured about 7-8 GB/s at 1 KB (memo 4.1)
    assert 70 < gbps_big < 130  # and about 77-147 GB/s at 64 KB
    unaligned = cost.event_cycles({**copy_in(0, 65536), "gm_aligned512": False}, P, 1)
    assert unaligned > big


def test_hbm_share_limits_many_cores() -> None:
    one = cost.event_cycles(copy_in(0, 65536), P, 1)
    many = cost.event_cycles(copy_in(0, 65536), P, 48)
    assert many > one  # 1.6 TB/s shared by 48 cores is about 33 GB/s each


def test_vector_duration() -> None:
    # 8192 half = 16 KB = 64 repeats; Add costs 2 cycles/repeat
    assert cost.event_cycles(vec(0, 8192), P, 1) == pytest.approx(128)
    assert cost.event_cycles(vec(0, 16), P, 1) == pytest.approx(3)  # the single-repeat floor
    assert cost.event_cycles({**vec(0, 8192, api="Exp")}, P, 1) == pytest.approx(256)  # Exp.half 4
    assert cost.event_cycles(
        {"pipe": "v", "api": "Muls", "dtype": "float", "repeats": 10}, P, 1
    ) == pytest.approx(10)
    assert cost.event_cycles({"pipe": "v", "api": "WholeReduceSum", "dtype": "half", "repeats": 1}, P, 1) == 7


def test_cube_and_scalar_durations() -> None:
    assert (
        cost.event_cycles({"pipe": "m", "api": "Mmad", "m": 16, "n": 16, "k": 16, "dtype": "half"}, P, 1)
        == 25
    )
    big = cost.event_cycles({"pipe": "m", "api": "Mmad", "m": 128, "n": 128, "k": 128, "dtype": "half"}, P, 1)
    assert big == pytest.approx(128**3 / 4096)
    f32 = cost.event_cycles(
        {"pipe": "m", "api": "Mmad", "m": 128, "n": 128, "k": 128, "dtype": "float"}, P, 1
    )
    assert f32 == pytest.approx(4 * big)
    miss = cost.event_cycles({"pipe": "s", "api": "GetValue", "space": "gm", "dcache_miss": True}, P, 1)
    hit = cost.event_cycles({"pipe": "s", "api": "GetValue", "space": "ub"}, P, 1)
    assert miss == 200 and hit == 4
    assert cost.event_cycles({"pipe": "mte2", "api": "SetFlag", "event": "MTE2_V", "id": 0}, P, 1) == 0
    merged = {
        "pipe": "s",
        "api": "GetValue",
        "space": "gm",
        "count": 10,
        "dcache_misses": 2,
        "dcache_miss": True,
    }
    assert cost.event_cycles(merged, P, 1) == 2 * 200 + 8 * 4
    assert cost.event_cycles({"pipe": "s", "api": "SetValue", "space": "ub", "count": 5}, P, 1) == 20


def _tile_loop(n_tiles: int, double_buffer: bool) -> list[dict[str, Any]]:
    """CopyIn -> Compute -> CopyOut per tile with queue events as SetFlag/WaitFlag pairs."""
    evs: list[dict[str, Any]] = []
    seq = 0
    free_in: dict[int, int] = {}  # slot -> seq of the V_MTE2 SetFlag that frees it
    free_out: dict[int, int] = {}
    slots = 2 if double_buffer else 1
    for t in range(n_tiles):
        slot = t % slots
        wait_alloc = [free_in[slot]] if slot in free_in else []
        evs.append({"block": 0, "seq": seq, "pipe": "mte2", "api": "AllocTensor", "after": wait_alloc})
        seq += 1
        evs.append(copy_in(seq))
        cin = seq
        seq += 1
        evs.append({"block": 0, "seq": seq, "pipe": "mte2", "api": "EnQue"})
        enq = seq
        seq += 1
        evs.append({"block": 0, "seq": seq, "pipe": "v", "api": "DeQue", "after": [enq]})
        seq += 1
        wait_out = [free_out[slot]] if slot in free_out else []
        evs.append({"block": 0, "seq": seq, "pipe": "v", "api": "AllocTensor", "after": wait_out})
        seq += 1
        evs.append(vec(seq, 8192))
        seq += 1
        evs.append({"block": 0, "seq": seq, "pipe": "v", "api": "FreeTensor"})
        free_in[slot] = seq
        seq += 1
        evs.append({"block": 0, "seq": seq, "pipe": "v", "api": "EnQue"})
        enq2 = seq
        seq += 1
        evs.append({"block": 0, "seq": seq, "pipe": "mte3", "api": "DeQue", "after": [enq2]})
        seq += 1
        evs.append(copy_out(seq))
        seq += 1
        evs.append({"block": 0, "seq": seq, "pipe": "mte3", "api": "FreeTensor"})
        free_out[slot] = seq
        seq += 1
        del cin
    return evs


def test_double_buffering_overlaps_copies() -> None:
    single = cost.estimate_events(_tile_loop(8, False)).estimate
    double = cost.estimate_events(_tile_loop(8, True)).estimate
    assert double.cycles < single.cycles
    assert single.lower_cycles <= single.cycles <= single.upper_cycles
    assert double.lower_cycles <= double.cycles <= double.upper_cycles
    assert double.bottleneck in ("mte2", "mte3")
    assert double.pipes["mte2"] > 0 and double.pipes["v"] > 0


def test_after_dependency_delays_start() -> None:
    sched = cost.estimate_events([copy_in(0), vec(1, after=[0]), vec(2)])
    evs = sched.blocks[0].events
    assert evs[1].start == pytest.approx(evs[0].end)
    assert evs[2].start == pytest.approx(evs[1].end)  # same pipe: in order


def test_scalar_wait_blocks_issue() -> None:
    evs = [copy_in(0), {"block": 0, "seq": 1, "pipe": "s", "api": "WaitFlag", "event": "MTE2_S", "after": [0]},
           vec(2)]  # fmt: skip
    sched = cost.estimate_events(evs)
    e = sched.blocks[0].events
    assert e[2].start >= e[0].end  # the vector op is issued only after the scalar waited


def test_syncall_aligns_blocks() -> None:
    evs = [copy_in(0, 1 << 20, block=0), {"block": 0, "seq": 1, "pipe": "s", "api": "SyncAll"}]
    evs += [{"block": 1, "seq": 0, "pipe": "s", "api": "SyncAll"}, copy_in(1, 1024, block=1)]
    sched = cost.estimate_events(evs, block_dim=2)
    b1 = sched.blocks[1].events
    assert b1[1].start >= sched.blocks[0].events[0].end


def test_waves_when_blocks_exceed_cores() -> None:
    evs = [copy_in(0, 65536, block=b) for b in range(8)]
    four = cost.estimate_events(evs, block_dim=8, cores=4).estimate
    eight = cost.estimate_events(evs, block_dim=8, cores=8).estimate
    assert four.cycles > eight.cycles
    assert any("waves" in n for n in four.notes)


def test_profile_constants_override_defaults() -> None:
    slow = cost.params_for({"measured_gm_ub_gbps": 10.0})
    assert slow.provenance == "model:soc-profile"
    assert cost.event_cycles(copy_in(0, 65536), slow, 1) > cost.event_cycles(copy_in(0, 65536), P, 1)
    table = cost.params_for({"vector_cycles_per_repeat": {"Add": 10}})
    assert cost.event_cycles(vec(0, 8192), table, 1) == pytest.approx(640)


def test_perfetto_trace(tmp_path: Path) -> None:
    sched = cost.estimate_events(_tile_loop(2, True))
    out = tmp_path / "t.json"
    cost.write_perfetto(sched, out)
    doc = json.loads(out.read_text())
    names = {e["args"]["name"] for e in doc["traceEvents"] if e.get("name") == "thread_name"}
    assert {"mte2", "v", "mte3"} <= names
    spans = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    assert spans and all(e["dur"] > 0 and e["pid"] == 0 for e in spans)
    assert doc["otherData"]["estimate"]["cycles"] == sched.estimate.cycles


def test_read_trace_tolerates_garbage(tmp_path: Path) -> None:
    p = tmp_path / "trace.jsonl"
    p.write_text('{"block":0,"seq":1,"pipe":"v","api":"Add","elements":128,"dtype":"half"}\nnot json\n[1]\n'
                 '{"block":0,"seq":0,"pipe":"mte2","api":"DataCopy","bytes":32}\n{"block":0,"seq":2,')  # fmt: skip
    trace, truncated = cost.read_trace(p)
    assert [e["seq"] for e in trace[0]] == [0, 1] and not truncated
    est = cost.estimate_from_file(p, 1, None, 48).estimate
    assert est.cycles > 0 and est.microseconds > 0


def test_empty_trace_gives_launch_only() -> None:
    est = cost.estimate_events([], block_dim=1).estimate
    assert est.cycles > 0 and any("no trace events" in n for n in est.notes)


def test_perfetto_back_to_back_slices_never_overlap(tmp_path: Path) -> None:
    """A slice's end is rounded and its duration derived: rounding ts and dur separately made neighbours overlap."""
    rng = random.Random(5)
    evs = [
        {"block": 0, "seq": i, "pipe": "v", "api": "Add", "cycles": rng.uniform(0.5, 500.0)}
        for i in range(400)
    ]
    evs += [{"block": 0, "seq": 400 + i, "pipe": "mte2", "api": "DataCopy", "cycles": rng.uniform(0.01, 3.0)}
            for i in range(400)]  # fmt: skip
    sched = cost.estimate_events(evs)
    out = tmp_path / "t.json"
    cost.write_perfetto(sched, out)
    doc = json.loads(out.read_text())
    assert "displayTimeUnit" not in doc
    tracks: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for e in doc["traceEvents"]:
        if e.get("ph") == "X":
            tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["dur"]))
    assert len(tracks) == 2
    for spans in tracks.values():
        spans.sort()
        assert all(dur > 0 for _, dur in spans)
        for (ts, dur), (next_ts, _) in itertools.pairwise(spans):
            assert ts + dur <= next_ts


def test_launches_in_sequence_add_up_and_keep_the_longest_launchs_shape() -> None:
    from ascendc_lsp.toolchain.base import Estimate

    short = Estimate(cycles=100, microseconds=1.0, bottleneck="mte2", pipes={"v": 10, "mte2": 80}, blocks=8,
                     cores_used=8, cores_available=48, ratios={"mte2": 0.8}, events=5, provenance="model:a")
    long = Estimate(cycles=300, microseconds=2.5, bottleneck="v", pipes={"v": 250, "mte3": 20}, blocks=4,
                    cores_used=4, cores_available=24, ratios={"v": 0.9}, events=7, provenance="model:b")
    assert Estimate.in_sequence([short], ["ignored"]) is short
    total = Estimate.in_sequence([short, long], ["two launches"])
    assert (total.cycles, total.microseconds, total.events) == (400, 3.5, 12)
    assert total.pipes == {"v": 260, "mte2": 80, "mte3": 20}
    assert (total.blocks, total.cores_used, total.cores_available) == (8, 8, 24)
    assert (total.bottleneck, total.ratios, total.provenance, total.notes) == ("v", {"v": 0.9}, "model:b", ["two launches"])
