"""Every rule both ways: seeded bugs under tests/kernels/buggy/<rule>_*.cpp are reported with the rule's code
and category; the correct kernels under tests/kernels/correct/ get no error-severity diagnostic at all."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ascendc_lsp.checks.base import rule_table
from ascendc_lsp.checks.engine import CheckOptions, check_document
from ascendc_lsp.checks.rules import registered_rules
from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.syntax.document import SourceDocument

KERNELS = Path(__file__).parent / "kernels"
BUGGY = sorted((KERNELS / "buggy").glob("ASC*.cpp"))
CORRECT = sorted((KERNELS / "correct").glob("*.cpp"))
# Warnings a correct kernel may legitimately get: the framework sample splits the tiling's length over
# GetBlockNum() and trusts the host to make it divide (the official add_custom does the same).
ALLOWED_WARNINGS = {("framework_tiling.cpp", "ASC030")}


def soc_of(path: Path) -> str:
    match = re.search(r"^// soc: (\w+)", path.read_text(encoding="utf-8"), re.MULTILINE)
    return match.group(1) if match else "Ascend910B"


def check(path: Path, soc: str | None = None) -> list[Diagnostic]:
    document = SourceDocument(path.read_text(encoding="utf-8"), path=str(path))
    return check_document(document, CheckOptions(soc_name=soc or soc_of(path)))


def test_every_rule_is_implemented_and_has_a_seeded_bug() -> None:
    table = rule_table()
    assert set(registered_rules()) == set(table)
    seeded = {path.name.split("_")[0] for path in BUGGY}
    assert seeded == set(table), f"rules without a buggy kernel: {sorted(set(table) - seeded)}"


def test_correct_corpus_is_big_enough() -> None:
    assert len(CORRECT) >= 12


@pytest.mark.parametrize("path", BUGGY, ids=lambda p: p.stem)
def test_seeded_bug_is_reported(path: Path) -> None:
    rule_id = path.name.split("_")[0]
    meta = rule_table()[rule_id]
    findings = check(path)
    assert not [f for f in findings if f.code == "syntax"], "the seeded kernel must parse"
    hits = [f for f in findings if f.code == rule_id]
    assert hits, f"{rule_id} not reported on {path.name}: {[(f.code, f.message) for f in findings]}"
    for finding in hits:
        assert finding.category == meta.category
        assert finding.knowledge == [meta.entry]
        assert finding.message
        assert finding.severity in ("error", "warning")
    # The seeded bug is the only error-severity problem of its kernel.
    others = {f.code for f in findings if f.severity == "error"} - {rule_id}
    assert not others, f"unexpected errors on {path.name}: {others}"


@pytest.mark.parametrize("path", BUGGY, ids=lambda p: p.stem)
def test_rule_is_silent_on_every_correct_kernel(path: Path) -> None:
    rule_id = path.name.split("_")[0]
    soc = soc_of(path)
    for kernel in CORRECT:
        # DataCopyPad and GET_TILING_DATA are correct where the SoC has them.
        soc_for_kernel = "Ascend910B" if rule_id in ("ASC006", "ASC039") else soc
        # Information ("the UB total needs the tiling values to decide") reports no problem.
        found = [f for f in check(kernel, soc_for_kernel) if f.code == rule_id and f.severity != "information"]
        found = [f for f in found if (kernel.name, f.code) not in ALLOWED_WARNINGS]
        assert not found, f"{rule_id} on correct kernel {kernel.name}: {[f.message for f in found]}"


@pytest.mark.parametrize("path", CORRECT, ids=lambda p: p.stem)
def test_correct_kernel_has_no_error(path: Path) -> None:
    findings = check(path)
    assert not [f for f in findings if f.severity == "error"], [(f.code, f.message) for f in findings]
    unexpected = [f for f in findings if (path.name, f.code) not in ALLOWED_WARNINGS and f.severity != "information"]
    assert not unexpected, [(f.code, f.message) for f in unexpected]


def test_check_json_over_correct_corpus_reports_no_error() -> None:
    """The false-positive guard, through the CLI as users run it."""
    result = subprocess.run(
        [sys.executable, "-m", "ascendc_lsp", "check", "--format", "json", str(KERNELS / "correct")],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    payload = json.loads(result.stdout)
    assert len(payload["files"]) == len(CORRECT)
    errors = [d for f in payload["files"] for d in f["diagnostics"] if d["severity"] == "error"]
    assert errors == []


def test_messages_name_the_numbers() -> None:
    findings = check(KERNELS / "buggy" / "ASC001_ub_overflow.cpp")
    message = next(f.message for f in findings if f.code == "ASC001")
    assert "393,216 B exceeds Ascend910B's 196,608 B" in message
    assert "inQueueX 2 x 65,536 B" in message
    findings = check(KERNELS / "buggy" / "ASC005_datacopy_unaligned.cpp")
    message = next(f.message for f in findings if f.code == "ASC005")
    assert "100 x 2 B (half) = 200 B" in message and "192 B" in message
