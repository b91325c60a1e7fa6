"""Real op projects nobody here wrote run from a test case alone and pass.

Each test case in tests/op_cases/public/ names a public repository and an op project path in it; the project
(op_host + op_kernel, unchanged) is read from the extracted tree (bench/corpus.py; tests/public_sources.py skips
when it is absent). No tiling is computed by hand: block_dim, tiling key, tiling bytes and workspace come from the
project's own TilingFunc run on the CPU. Cases that do not pass yet (an emulator API missing) live in
tests/op_cases/pending/ and are counted by bench/fidelity.py instead. Projects whose kernel is wrong under the
documented semantics live in tests/op_cases/public_faulty/ (each file says why): their fault must be reported.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.opproject.opbuild import run_case
from ascendc_lsp.toolchain.opproject.testcase import load_test_case
from tests.public_sources import tree_or_skip

CASES = Path(__file__).resolve().parent / "op_cases" / "public"
CASE_FILES = sorted(CASES.glob("*.yaml"))

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("g++") is None, reason="the op build needs g++"),
]


def _tree_of(case_file: Path) -> None:
    case = load_test_case(case_file)
    assert case.repository is not None, f"{case_file.name}: a public case names its repository"
    tree_or_skip(case.repository.replace("/", "+"))


def test_at_least_thirty_public_projects_have_test_cases() -> None:
    projects = {(c.repository, str(c.project)) for c in map(load_test_case, CASE_FILES)}
    assert len(projects) >= 30
    assert len({r for r, _p in projects}) >= 3  # several repositories, not one author's style


@pytest.mark.parametrize("case_file", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_public_op_project_runs_from_its_test_case(case_file: Path) -> None:
    _tree_of(case_file)
    r = run_case(load_test_case(case_file))
    errors = [f"{d.code}: {d.message}" for d in r.diagnostics if d.severity == "error"]
    assert r.correct, errors
    assert r.stage_reached == "done"


FAULTY = sorted((CASES.parent / "public_faulty").glob("*.yaml"))


@pytest.mark.parametrize("case_file", FAULTY, ids=[p.stem for p in FAULTY])
def test_public_op_project_with_a_latent_bug_is_reported(case_file: Path) -> None:
    """Public projects whose kernel is wrong under the documented semantics (the case file says why): the run
    reports the fault by its category instead of passing."""
    _tree_of(case_file)
    r = run_case(load_test_case(case_file))
    assert not r.correct
    assert "gm-out-of-bounds" in {d.category for d in r.diagnostics if d.severity == "error"}
