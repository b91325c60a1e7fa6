"""`ascendc-lsp check` as a newcomer and a CI use it: the summary counts every severity, folders without kernels
and skipped host files are said, SARIF is relative to a base with encoded URIs, fingerprints and the unreadable
files, and many files run in parallel with the same result as one by one."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from ascendc_lsp.checks.command import check_files

KERNELS = Path(__file__).resolve().parent / "kernels"  # correct/ and buggy/ kernels of our own

CLI = [sys.executable, "-m", "ascendc_lsp", "check"]


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_help_lists_socs_and_exit_codes() -> None:
    out = subprocess.run([*CLI, "--help"], capture_output=True, text=True, timeout=60).stdout
    assert "Ascend910B" in out and "Ascend310P" in out and "exit codes: 0" in out


def test_a_folder_without_kernels_says_so_and_host_files_are_skipped_with_a_word(tmp_path: Path) -> None:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_host" / "add_custom.cpp").write_text("int main() { return 0; }\n", encoding="utf-8")
    r = _run(str(tmp_path))
    assert r.returncode == 2
    assert "no AscendC kernel sources in this folder" in r.stderr
    assert "skipped 1 C++ file(s) that are not kernels (host code)" in r.stderr


def test_the_summary_counts_information_findings(tmp_path: Path) -> None:
    r = _run(str(KERNELS / "correct"))
    last = r.stdout.strip().splitlines()[-1]
    assert "error(s)" in last and "warning(s)" in last and "information" in last


def test_sarif_is_relative_encoded_fingerprinted_and_names_unreadable_files(tmp_path: Path) -> None:
    src = next(p for p in sorted((KERNELS / "buggy").iterdir()) if p.suffix == ".cpp")
    spaced = tmp_path / "my kernels" / "a b.cpp"
    spaced.parent.mkdir()
    shutil.copy(src, spaced)
    binary = tmp_path / "my kernels" / "blob.cpp"
    binary.write_bytes(b"__aicore__\0\0\0")
    r = _run("--format", "sarif", str(spaced), str(binary), cwd=tmp_path)
    assert r.returncode == 2, r.stderr  # an unreadable input
    log = json.loads(r.stdout)
    run = log["runs"][0]
    assert log["version"] == "2.1.0" and run["originalUriBaseIds"]["SRCROOT"]["uri"].startswith("file://")
    assert run["results"], "the buggy kernel has findings"
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location == {"uri": "my%20kernels/a%20b.cpp", "uriBaseId": "SRCROOT"}
        assert len(result["partialFingerprints"]["primaryLocationLineHash/v1"]) == 32
        assert 0 <= result["ruleIndex"] < len(run["tool"]["driver"]["rules"])
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert "blob.cpp" in invocation["toolExecutionNotifications"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"]["uri"]  # fmt: skip


def test_parallel_checks_match_serial_ones() -> None:
    files = sorted(p for d in ("correct", "buggy") for p in (KERNELS / d).iterdir() if p.suffix == ".cpp")[:8]
    assert len(files) >= 4
    serial = check_files(files, None, jobs=1)
    parallel = check_files(files, None, jobs=2)
    assert [(p, [f.to_json() for f in fs or []], why) for p, fs, _, why in serial] == [
        (p, [f.to_json() for f in fs or []], why) for p, fs, _, why in parallel
    ]
