"""The UB-overflow quick fix: smaller constants, each verified by re-folding the sizes."""

from __future__ import annotations

from ascendc_lsp.checks.engine import check_document
from ascendc_lsp.checks.fixes import apply_edits
from ascendc_lsp.syntax.document import SourceDocument

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE = 16384;
constexpr int32_t TILE_LENGTH = TILE * 2;
class KernelBig {
public:
    __aicore__ inline void Init() {
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
};
extern "C" __global__ __aicore__ void big(GM_ADDR x) { KernelBig op; op.Init(); }
"""


def _ub_findings(text: str):  # type: ignore[no-untyped-def]
    return [f for f in check_document(SourceDocument(text)) if f.code == "ASC001"]


def test_fixes_follow_constants_through_expressions_and_remove_the_error() -> None:
    (finding,) = _ub_findings(KERNEL)
    assert finding.severity == "error" and "524,288 B" in finding.message  # 2 queues x 2 x 128 KB
    titles = [f.title for f in finding.fixes]
    # TILE_LENGTH is an expression, so the literal to change is TILE, two levels down; halving
    # BUFFER_NUM alone (256 KB) would not fit, so single buffering is not offered.
    assert titles == ["Set TILE = 4096 to shrink the tile (UB 131,072 B of 188,416 B usable)"]
    # one story: the message names the UB and the usable part the fix aims at, and why they differ
    assert "196,608 B (188,416 B usable: 8,192 B are reserved for Select" in finding.message
    fixed = apply_edits(KERNEL, finding.fixes[0].edits)
    assert "constexpr int32_t TILE = 4096;" in fixed
    assert _ub_findings(fixed) == []


def test_single_buffering_offered_when_it_is_enough() -> None:
    text = KERNEL.replace("TILE = 16384", "TILE = 8192")  # 2 x 2 x 64 KB; single buffering: 128 KB
    (finding,) = _ub_findings(text)
    fixed_titles = [f.title for f in finding.fixes]
    assert fixed_titles[0].startswith("Set BUFFER_NUM = 1 to use single buffering")
    for fix in finding.fixes:
        assert _ub_findings(apply_edits(text, fix.edits)) == []


def test_no_fix_when_sizes_are_not_literal_constants() -> None:
    text = KERNEL.replace("constexpr int32_t TILE = 16384;", "constexpr int32_t TILE = 8192 * 2;")
    (finding,) = _ub_findings(text)
    assert all("TILE =" not in f.title for f in finding.fixes)


BRANCHES = """#include "kernel_operator.h"
using namespace AscendC;
class KernelModes {
public:
    __aicore__ inline void Init(uint32_t mode) {
        pipe.InitBuffer(common, 2, 32768);
        if (mode == 0) {
            pipe.InitBuffer(wide, 2, 65536);
        } else {
            pipe.InitBuffer(narrow, 2, 65536);
        }
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> common, wide, narrow;
};
extern "C" __global__ __aicore__ void modes(GM_ADDR x) { KernelModes op; op.Init(0); }
"""


def test_rule_and_shared_budget_agree_on_branch_alternatives() -> None:
    from ascendc_lsp.hardware.budget import class_budgets
    from ascendc_lsp.syntax.model import build_model

    # if/else InitBuffers are alternatives: 64 KB + 128 KB on the heaviest path, not 64 + 128 + 128.
    (budget,) = class_budgets(build_model(SourceDocument(BRANCHES)))
    assert budget.total("UB") == 196_608
    assert {u.name for u in budget.in_memory("UB")} in ({"common", "wide"}, {"common", "narrow"})
    (finding,) = _ub_findings(BRANCHES)  # 192 KB: inside the UB, but over the part left beside the reserve
    assert finding.severity == "warning" and "196,608 B" in finding.message
