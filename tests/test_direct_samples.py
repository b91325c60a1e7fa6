"""Official direct-launch samples run unchanged on the emulator and pass by their own verification.

The samples are public code (never committed): tests read them through tests/public_sources.py and skip when
the trees are absent. Each runs exactly as its sample describes (`ascendc-lsp run SAMPLE_DIR`): the devkit
examples in build/ with scripts/gen_data.py before and scripts/verify_result.py after (or their own check in
main()), the kernel-launch samples as their run.sh does. The verdict is the sample's own verification plus no
error from the emulator's hardware checks.

| repository | sample | how it checks itself |
|---|---|---|
| cannmirror/asc-devkit | examples/01_simd_cpp_api/00_introduction/01_add/add_tpipe_tque | verify_result.py |
| LnickOne/Ascend | AscendC/lesson_01/0_introduction/3_add_kernellaunch/AddKernelInvocationNeo | verify_result.py |
| LnickOne/Ascend | AscendC/lesson_01/0_introduction/3_add_kernellaunch/AddKernelInvocationTilingNeo | verify_result.py |
| LnickOne/Ascend | AscendC/lesson_01/0_introduction/19_unaligned_wholereduces_kernellaunch/WholeReduceSumKernelInvocation | verify_result.py |
| LnickOne/Ascend | AscendC/lesson_01/0_introduction/20_mmad_kernellaunch/MmadInvocation | verify_result.py |
| LnickOne/Ascend | AscendC/lesson_01/4_best_practices/4_bank_conflict/KernelLaunch | verify_result.py (twice) |
| LnickOne/Ascend | AscendC/lesson_01/tutorials/AddCustomSample/KernelLaunch/AddKernelInvocationNeo | verify_result.py |
| LnickOne/Ascend | AscendC/lesson_01/tutorials/AddCustomSample/KernelLaunch/AddKernelInvocationTilingNeo | verify_result.py |
"""

from __future__ import annotations

import pytest

from ascendc_lsp.toolchain.emulator.build import find_cxx
from ascendc_lsp.toolchain.program.run import ProgramOptions, run_program
from tests.public_sources import tree_or_skip

SAMPLES: list[tuple[str, str]] = [
    (cells[1].strip().replace("/", "+"), cells[2].strip())
    for cells in (line.split("|") for line in (__doc__ or "").splitlines() if line.startswith("| "))
    if "/" in cells[2]
]

pytestmark = pytest.mark.skipif(find_cxx() is None, reason="g++ is needed to build programs")


@pytest.mark.parametrize(("repo", "path"), SAMPLES, ids=["/".join(p.split("/")[-2:]) for _, p in SAMPLES])
def test_official_sample_passes_by_its_own_verification(repo: str, path: str) -> None:
    sample = tree_or_skip(repo) / path
    r = run_program(sample, ProgramOptions(timeout=180))
    detail = (
        [s.to_json() for s in r.steps],
        [f"{d.severity} {d.code} {d.message[:300]}" for d in r.diagnostics],
    )
    assert r.compiled, detail
    assert r.verified, detail  # its own check ran: a verify script or its pass/fail output
    assert not [d for d in r.diagnostics if d.severity == "error"], detail
    assert r.correct, detail
    assert r.launches and all(ln.estimate is not None for ln in r.launches)
