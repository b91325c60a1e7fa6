"""A bounded, seeded fuzz run (bench/fuzz_lsp.py, about 40 s): mutated documents and hostile frames over stdio. The
server must neither die nor stop answering, and the LSP layer must log no traceback."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from fuzz_lsp import fuzz


def test_seeded_fuzz_over_stdio_neither_crashes_nor_hangs() -> None:
    report = fuzz(seed=3, seconds=40, hang=30, log=False)
    assert report.rounds >= 5, report.notes
    assert report.crashes == 0 and report.hangs == 0, report.notes
    ours = {k: n for k, n in report.traceback_kinds.items() if "/ascendc_lsp/lsp/" in k or "positions.py" in k}
    assert not ours, ours
