"""Quick fixes: apply each fix's edits to the text, check again, the finding is gone and no new error appears."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendc_lsp.checks.engine import CheckOptions, check_document
from ascendc_lsp.checks.fixes import apply_edits
from ascendc_lsp.diagnostics import Diagnostic, TextEdit
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.positions import Position, Span

BUGGY = Path(__file__).parent / "kernels" / "buggy"


def check_text(text: str, soc: str = "Ascend910B", path: str = "kernel.cpp") -> list[Diagnostic]:
    return check_document(SourceDocument(text, path=path), CheckOptions(soc_name=soc))


def errors(findings: list[Diagnostic]) -> set[str]:
    return {f.code for f in findings if f.severity == "error"}


# (buggy kernel, rule, fix title prefix)
CASES = [
    ("ASC005_datacopy_unaligned.cpp", "ASC005", "Use DataCopyPad"),
    ("ASC005_datacopy_unaligned.cpp", "ASC005", "Round TILE_LENGTH"),
    ("ASC008_alloc_without_free.cpp", "ASC008", "Add inQueueX.FreeTensor"),
    ("ASC014_setflag_without_waitflag.cpp", "ASC014", "Add the matching WaitFlag"),
    ("ASC031_namespace_missing.cpp", "ASC031", "Add 'using namespace AscendC;'"),
    ("ASC031_namespace_missing.cpp", "ASC031", "Qualify as AscendC::"),
    ("ASC032_include_missing.cpp", "ASC032", "Add #include"),
]


@pytest.mark.parametrize(("name", "rule_id", "title"), CASES, ids=[f"{c[1]}-{c[2]}" for c in CASES])
def test_fix_removes_the_finding(name: str, rule_id: str, title: str) -> None:
    text = (BUGGY / name).read_text(encoding="utf-8")
    before = check_text(text, path=name)
    targets = [f for f in before if f.code == rule_id]
    assert targets
    fixes = [fx for f in targets for fx in f.fixes if fx.title.startswith(title)]
    assert fixes, f"no fix titled {title!r}: {[fx.title for f in targets for fx in f.fixes]}"
    fixed = apply_edits(text, fixes[0].edits)
    assert fixed != text
    after = check_text(fixed, path=name)
    assert len([f for f in after if f.code == rule_id]) < len(targets), fixed
    assert errors(after) <= errors(before), f"new errors: {errors(after) - errors(before)}"
    assert "syntax" not in {f.code for f in after}


def test_all_fixes_of_namespace_rule_together_clear_it() -> None:
    text = (BUGGY / "ASC031_namespace_missing.cpp").read_text(encoding="utf-8")
    for _ in range(20):
        findings = [f for f in check_text(text) if f.code == "ASC031"]
        if not findings:
            break
        qualify = next(fx for fx in findings[0].fixes if fx.title.startswith("Qualify"))
        text = apply_edits(text, qualify.edits)
    assert not [f for f in check_text(text) if f.code == "ASC031"]
    assert not errors(check_text(text))


def test_datacopypad_fix_text() -> None:
    text = (BUGGY / "ASC005_datacopy_unaligned.cpp").read_text(encoding="utf-8")
    finding = next(f for f in check_text(text) if f.code == "ASC005")
    pad = next(fx for fx in finding.fixes if fx.title.startswith("Use DataCopyPad"))
    fixed = apply_edits(text, pad.edits)
    assert (
        "DataCopyPad(xLocal, xGm[progress * TILE_LENGTH], DataCopyExtParams{1, static_cast<uint32_t>((TILE_LENGTH) * "
        "sizeof(half)), 0, 0, 0}, DataCopyPadExtParams<half>{false, 0, 0, 0})" in fixed
    )


def test_no_datacopypad_fix_where_the_soc_lacks_it() -> None:
    text = (BUGGY / "ASC005_datacopy_unaligned.cpp").read_text(encoding="utf-8")
    finding = next(f for f in check_text(text, soc="Ascend310P") if f.code == "ASC005")
    assert not [fx for fx in finding.fixes if "DataCopyPad" in fx.title]
    assert "use DataCopyPad" not in finding.message


def test_round_constant_fix_rounds_to_32_bytes() -> None:
    text = (BUGGY / "ASC005_datacopy_unaligned.cpp").read_text(encoding="utf-8")
    finding = next(f for f in check_text(text) if f.code == "ASC005")
    rounded = next(fx for fx in finding.fixes if fx.title.startswith("Round"))
    assert "constexpr int32_t TILE_LENGTH = 112;" in apply_edits(text, rounded.edits)


def test_waitflag_fix_mirrors_the_setflag() -> None:
    text = (BUGGY / "ASC014_setflag_without_waitflag.cpp").read_text(encoding="utf-8")
    finding = next(f for f in check_text(text) if f.code == "ASC014")
    fixed = apply_edits(text, finding.fixes[0].edits)
    assert "SetFlag<HardEvent::MTE2_V>(EVENT_ID0);\n            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);" in fixed


def test_apply_edits_uses_utf16_columns() -> None:
    text = "// 中文 😀 x\nint a = 1;\n"
    # "😀" takes UTF-16 columns 6-7, so the 'x' is at column 9 (byte 17).
    edit = TextEdit(Span(Position(0, 9), Position(0, 10)), "y")
    assert apply_edits(text, [edit]) == "// 中文 😀 y\nint a = 1;\n"
    inserts = [TextEdit(Span(Position(1, 0), Position(1, 0)), "A"), TextEdit(Span(Position(1, 0), Position(1, 0)), "B")]
    assert apply_edits(text, inserts).endswith("ABint a = 1;\n")
