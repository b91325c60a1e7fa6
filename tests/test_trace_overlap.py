"""Issue 13's done-when for timelines: no two slices on one pipe row (a Perfetto track: pid, tid) overlap, in the
trace of every shipped example and in a multi-launch program trace; no `displayTimeUnit`."""

from __future__ import annotations

import itertools
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from ascendc_lsp.toolchain.base import RunOptions
from ascendc_lsp.toolchain.emulator import cost
from ascendc_lsp.toolchain.program.run import write_program_trace
from ascendc_lsp.toolchain.spec import load_spec

EXAMPLE_SPECS = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*/spec.yaml"))


def _overlaps(doc: dict[str, Any]) -> tuple[int, list[str]]:
    """(slices seen, every overlap found on a track, said as 'pid/tid: a [ts, end) > next ts')."""
    tracks: dict[tuple[int, int], list[tuple[float, float, str]]] = {}
    for e in doc["traceEvents"]:
        if e.get("ph") == "X":
            tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["dur"], e["name"]))
    found = []
    for (pid, tid), spans in tracks.items():
        spans.sort()
        for (ts, dur, name), (next_ts, _, next_name) in itertools.pairwise(spans):
            if dur <= 0 or ts + dur > next_ts:
                found.append(f"{pid}/{tid}: {name} [{ts}, {ts + dur}) > {next_name} at {next_ts}")
    return sum(len(s) for s in tracks.values()), found


@pytest.mark.slow
@pytest.mark.parametrize("spec_path", EXAMPLE_SPECS, ids=lambda p: p.parent.name)
def test_no_slices_overlap_on_a_pipe_row_in_any_example_trace(spec_path: Path, tmp_path: Path) -> None:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain

    trace = tmp_path / "trace.json"
    result = EmulatorToolchain().run(load_spec(spec_path), RunOptions(trace_out=trace))
    assert result.correct, [d.message for d in result.diagnostics]
    assert result.trace_file == str(trace.resolve())
    doc = json.loads(trace.read_text(encoding="utf-8"))
    assert "displayTimeUnit" not in doc
    slices, overlaps = _overlaps(doc)
    assert slices > 0
    assert not overlaps, overlaps[:5]


def test_a_multi_launch_program_trace_keeps_slices_apart(tmp_path: Path) -> None:
    """Later launches are shifted in time; the shift rounds each slice's end, not its duration."""
    rng = random.Random(13)
    schedules = []
    for _ in range(3):
        events = [{"block": 0, "seq": i, "pipe": "v", "api": "Add", "cycles": rng.uniform(0.3, 300.0)}
                  for i in range(300)]  # fmt: skip
        schedules.append(cost.estimate_events(events))
    out = tmp_path / "program.json"
    write_program_trace(schedules, out)
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert "displayTimeUnit" not in doc
    slices, overlaps = _overlaps(doc)
    assert slices == 900
    assert not overlaps, overlaps[:5]
