"""The one diagnostic type (ascendc_lsp/diagnostics.py): its JSON shape for a check's finding and for a toolchain
diagnostic (docs/architecture.md, "Shapes that cross layers"), its text line and its ranges."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascendc_lsp.diagnostics import Diagnostic, Fix, TextEdit, display_path, span_at
from ascendc_lsp.syntax.positions import Position, Span
from ascendc_lsp.toolchain.base import EMULATOR_SOURCE
from ascendc_lsp.toolchain.emulator.gccdiag import compile_failed


def test_a_finding_keeps_the_check_shape() -> None:
    span = Span(Position(3, 4), Position(3, 9))
    fix = Fix("pad it", (TextEdit(span, "DataCopyPad"),))
    finding = Diagnostic(span=span, severity="warning", code="ASC001", message="m", category="c", knowledge=["e"],
                         fixes=[fix])  # fmt: skip
    assert list(finding.to_json()) == ["range", "severity", "code", "message", "knowledge", "category", "fixes"]
    assert finding.to_json()["fixes"] == [fix.to_json()]
    # no category: the key is left out (syntax errors), as `check --format json` has always written it
    assert "category" not in Diagnostic(span=span, code="syntax", message="m").to_json()


def test_a_toolchain_diagnostic_always_carries_category_and_source() -> None:
    d = Diagnostic(message="m", code="spec", severity="warning", file="k.cpp", source=EMULATOR_SOURCE)
    out = d.to_json()
    assert out["category"] is None and out["source"] == EMULATOR_SOURCE and out["file"] == "k.cpp"
    assert "data" not in out and "fixes" not in out
    assert json.loads(json.dumps(out)) == out


def test_span_at_clamps_and_defaults_the_end() -> None:
    assert span_at(-1, -5) == Span(Position(0, 0), Position(0, 0))
    assert span_at(2, 3) == Span(Position(2, 3), Position(2, 3))
    assert span_at(2, 3, end_character=7) == Span(Position(2, 3), Position(2, 7))


def test_the_text_line_names_the_place_and_indents_further_lines(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    d = Diagnostic(message="first\nsecond", span=span_at(4, 2), code="507015", category="ub-out-of-bounds",
                   file=str(tmp_path / "k.cpp"), source=EMULATOR_SOURCE)  # fmt: skip
    assert d.to_text() == "  k.cpp:5:3: error [ub-out-of-bounds, 507015] first\n      second\n"
    assert Diagnostic(message="no place", code="toolchain").to_text() == "  ?: error [toolchain] no place\n"
    assert display_path(None) == "?" and display_path("/elsewhere/k.cpp") == "/elsewhere/k.cpp"


def test_a_compile_failure_without_a_placed_message_shows_the_last_lines() -> None:
    d = compile_failed("a\nb\nc\nd\n", "", 1, "k.cpp", 7)
    assert d.message == "compilation failed: b | c | d" and d.span.start.line == 7 and d.code == "compile-error"
    assert compile_failed("", "", 4, "k.cpp").message == "compilation failed: exit 4"


def test_a_trace_that_cannot_be_written_is_a_warning_naming_the_file() -> None:
    from ascendc_lsp.toolchain.emulator.report import trace_write_failed

    d = trace_write_failed(Path("/ro/t.json"), PermissionError(13, "Permission denied"))
    assert (d.severity, d.code, d.file) == ("warning", "trace", "/ro/t.json")
    assert d.message == "could not write the trace to /ro/t.json: Permission denied"
