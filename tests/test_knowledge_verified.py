"""Knowledge stays true: every entry's kernel examples go through the toolchain.

- every `after` compiles against the emulator headers and has no error-severity static finding;
- with a run spec, `after` runs correct on the emulator and `before` fails with the entry's category;
- compile-stage entries with rules: the static checks flag `before` with the entry's category.
"""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

import pytest
import yaml

from ascendc_lsp.checks.engine import CheckOptions, check_document
from ascendc_lsp.knowledge.entries import Entry, load_entries
from ascendc_lsp.resources import emulator_include_dir, knowledge_dir
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.model import build_model

pytestmark = pytest.mark.slow


@cache
def _entries() -> list[Entry]:
    entries, errors = load_entries([knowledge_dir() / "entries"])
    assert not errors
    return [e for e in entries if e.fix.is_kernel]


def _ids(predicate) -> list[str]:  # type: ignore[no-untyped-def]
    return [e.id for e in _entries() if predicate(e)]


def _entry(entry_id: str) -> Entry:
    return next(e for e in _entries() if e.id == entry_id)


def _syntax_check(source: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "kernel.cpp"
    path.write_text(source, encoding="utf-8")
    defines = []
    tiling = build_model(SourceDocument(source)).tiling_structs
    if "GET_TILING_DATA" in source and tiling:  # the emulator's GET_TILING_DATA needs the struct's name
        defines.append(f"-DASCENDC_EMU_TILING_TYPE={tiling[0].name}")
    return subprocess.run(
        ["g++", "-std=c++17", "-fsyntax-only", f"-I{emulator_include_dir()}", *defines, str(path)],
        capture_output=True, text=True, timeout=120,
    )


def _options(entry: Entry) -> CheckOptions:
    socs = [s for s in entry.socs if s != "all"]
    return CheckOptions(soc_name=socs[0] if socs else "Ascend910B")


@pytest.mark.parametrize("entry_id", _ids(lambda e: True))
def test_after_compiles_and_passes_the_static_checks(entry_id: str, tmp_path: Path) -> None:
    entry = _entry(entry_id)
    compiled = _syntax_check(entry.fix.after, tmp_path)
    assert compiled.returncode == 0, compiled.stderr[-2000:]
    errors = [f for f in check_document(SourceDocument(entry.fix.after), _options(entry)) if f.severity == "error"]
    assert errors == [], [(f.code, f.message) for f in errors]


@pytest.mark.parametrize("entry_id", _ids(lambda e: e.stage == "compile" and bool(e.context.rules)))
def test_compile_stage_before_is_flagged_with_the_category(entry_id: str, tmp_path: Path) -> None:
    entry = _entry(entry_id)
    findings = check_document(SourceDocument(entry.fix.before), _options(entry))
    categories = {f.category for f in findings}
    if entry.category not in categories:
        # Some compile errors are only caught by the compiler (e.g. a missing include).
        assert _syntax_check(entry.fix.before, tmp_path).returncode != 0, categories


def _run(entry: Entry, source: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    from ascendc_lsp.toolchain.base import RunOptions
    from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
    from ascendc_lsp.toolchain.spec import load_spec

    (tmp_path / "kernel.cpp").write_text(source, encoding="utf-8")
    spec = dict(entry.fix.spec or {})
    spec["source"] = "kernel.cpp"
    spec_path = tmp_path / "spec.yaml"
    spec_path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return EmulatorToolchain().run(load_spec(spec_path), RunOptions())


@pytest.mark.parametrize("entry_id", _ids(lambda e: e.fix.spec is not None))
def test_after_runs_correct(entry_id: str, tmp_path: Path) -> None:
    result = _run(_entry(entry_id), _entry(entry_id).fix.after, tmp_path)
    assert result.correct, [(d.category, d.message) for d in result.diagnostics]


# The emulator reports these bugs through a downstream symptom rather than the entry's own category:
# a truncated DataCopy leaves output elements unwritten (reported as multicore-partition), and a
# zero dst block stride overwrites lanes, which only the numbers show (precision-mismatch).
SYMPTOM_CATEGORIES = {
    "datacopy-unaligned-length": {"misaligned-access", "multicore-partition"},
    "dst-block-stride-zero": {"vector-param-invalid", "precision-mismatch"},
}


@pytest.mark.parametrize("entry_id", _ids(lambda e: e.fix.spec is not None and e.stage == "runtime"))
def test_runtime_before_fails_with_the_category(entry_id: str, tmp_path: Path) -> None:
    entry = _entry(entry_id)
    result = _run(entry, entry.fix.before, tmp_path)
    assert not result.correct
    reported = {d.category for d in result.diagnostics} | {result.category}
    assert reported & SYMPTOM_CATEGORIES.get(entry_id, {entry.category}), reported
