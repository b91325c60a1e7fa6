"""Our own probe programs (tests/programs/*): run one on the emulator and read the `name: v1 v2 ...` lines it
prints, so each test compares a named result with NumPy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascendc_lsp.toolchain.emulator.build import find_cxx
from ascendc_lsp.toolchain.program.run import ProgramOptions, run_program


def probe_results(program: Path, timeout: float = 180) -> dict[str, np.ndarray]:
    """The named results of `program`; skips without g++, fails when it does not build, run or reports an error."""
    if find_cxx() is None:
        pytest.skip("g++ is needed to build programs")
    r = run_program(program, ProgramOptions(timeout=timeout))
    assert r.compiled and r.ran, [d.message for d in r.diagnostics]
    assert not [d for d in r.diagnostics if d.severity == "error"], [d.message for d in r.diagnostics]
    out: dict[str, np.ndarray] = {}
    for line in r.stdout.splitlines():
        name, sep, values = line.partition(":")
        if sep:
            out[name] = np.array([float(v) for v in values.split()])
    return out
