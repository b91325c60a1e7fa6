"""Code lens (UB budget per kernel class, showBudget command) and inlay hints (folded sizes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from ascendc_lsp.hardware.soc import get_soc
from ascendc_lsp.lsp.features.lens import budget_lenses, budget_markdown, size_hints
from ascendc_lsp.lsp.protocol import SHOW_BUDGET
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.model import build_model
from ascendc_lsp.syntax.positions import Position, Span
from tests.conftest import KERNELS

ADD = (KERNELS / "add_double_buffer.cpp").read_text(encoding="utf-8")

BIG = """#include "kernel_operator.h"
using namespace AscendC;
#define TILE (16 * 1024)
constexpr int32_t BUFFER_NUM = 2;
class KernelBig {
public:
    __aicore__ inline void Init() {
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, 24 * 1024);
        pipe.InitBuffer(tmp, 50 * 2);
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<TPosition::VECCALC> tmp;
};
extern "C" __global__ __aicore__ void big(GM_ADDR x) { KernelBig op; op.Init(); }
"""


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n")


def test_lens_title_on_each_kernel_class() -> None:
    model = build_model(SourceDocument(ADD))
    lenses = budget_lenses(model, "Ascend910B", get_soc("Ascend910B"))
    assert len(lenses) == 1
    lens = lenses[0]
    # 3 queues x 2 buffers x 256 B = 1,536 B of 188,416 B usable (196,608 B less the 8 KB reserve).
    assert lens.title == "UB 1.5 KB / 184.0 KB usable (0.8%) on Ascend910B · 192.0 KB - 8.0 KB reserved"
    assert lens.owner == "KernelAdd" and lens.span.start.line == _line_of(ADD, "class KernelAdd")


def test_lens_warns_over_the_usable_ub() -> None:
    model = build_model(SourceDocument(BIG))
    (lens,) = budget_lenses(model, "Ascend910B", get_soc("Ascend910B"))
    # 2 x 64 KB + 2 x 24 KB + 128 B = 180,352 B: above the 188,416 B usable? no; 310P has 256 KB.
    assert lens.title.startswith("UB 176.1 KB / 184.0 KB usable (95.7%) on Ascend910B")
    huge = BIG.replace("#define TILE (16 * 1024)", "#define TILE (20 * 1024)")
    (over,) = budget_lenses(build_model(SourceDocument(huge)), "Ascend910B", get_soc("Ascend910B"))
    assert "⚠ over the usable UB" in over.title
    (p,) = budget_lenses(model, "Ascend310P", get_soc("Ascend310P"))
    assert p.title.startswith("UB 176.1 KB / 248.0 KB usable (71.0%) on Ascend310P")


def test_budget_markdown_is_the_shared_table() -> None:
    model = build_model(SourceDocument(ADD))
    text = budget_markdown(model, "KernelAdd", "Ascend910B", get_soc("Ascend910B"))
    assert text is not None and text.startswith("**KernelAdd**: on-chip buffers")
    assert "| `inQueueX` | VECIN | 2 x 256 | 512 |" in text
    assert "**UB 1,536 B of 188,416 B usable on Ascend910B (0.8%)**" in text
    assert budget_markdown(model, "NoSuchClass", "Ascend910B", None) is None


def test_inlay_hints_for_folded_sizes() -> None:
    model = build_model(SourceDocument(BIG))
    hints = {(h.position.line, h.label) for h in size_hints(model)}
    assert (_line_of(BIG, "InitBuffer(inQueueX"), "= 65,536 B") in hints
    assert (_line_of(BIG, "InitBuffer(outQueueZ"), "= 24,576 B") in hints
    assert (_line_of(BIG, "InitBuffer(tmp"), "= 100 B → 128 B") in hints
    assert (_line_of(BIG, "#define TILE"), "= 16,384") in hints
    assert not any(line == _line_of(BIG, "constexpr int32_t BUFFER_NUM") for line, _ in hints)  # a literal
    init_hint = next(h for h in size_hints(model) if h.label == "= 65,536 B")
    line = BIG.splitlines()[init_hint.position.line]
    assert line[: init_hint.position.character].endswith("TILE * sizeof(float)")
    define = next(h for h in size_hints(model) if h.label == "= 16,384")
    assert define.position.character == len("#define TILE (16 * 1024)")


def test_inlay_hints_for_constexpr_expressions_and_ranges() -> None:
    model = build_model(SourceDocument(ADD))
    labels = {(h.position.line, h.label) for h in size_hints(model)}
    assert (_line_of(ADD, "constexpr int32_t TILE_LENGTH"), "= 128") in labels
    assert (_line_of(ADD, "constexpr int32_t BLOCK_LENGTH"), "= 2,048") in labels
    assert (_line_of(ADD, "constexpr int32_t loopCount"), "= 16") in labels
    assert (_line_of(ADD, "pipe.InitBuffer(inQueueX"), "= 256 B") in labels
    tile = next(h for h in size_hints(model) if h.position.line == _line_of(ADD, "constexpr int32_t TILE_LENGTH"))
    assert ADD.splitlines()[tile.position.line][: tile.position.character].endswith("BUFFER_NUM")  # before the comment
    first = Span(Position(0, 0), Position(12, 0))
    assert {h.position.line for h in size_hints(model, first)} <= set(range(13))
    assert size_hints(model, Span(Position(500, 0), Position(600, 0))) == []


# --------------------------------------------------------------------------------------------- LSP


async def test_lsp_code_lens_command_and_inlay_hints(client: LanguageClient) -> None:
    uri = Path("/tmp/ascendc-lsp-tests", "lens.cpp").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=ADD))
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    document = types.TextDocumentIdentifier(uri=uri)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=document))
    assert lenses is not None and len(lenses) == 1
    command = lenses[0].command
    assert command is not None and command.command == SHOW_BUDGET.id
    assert command.title == "UB 1.5 KB / 184.0 KB usable (0.8%) on Ascend910B · 192.0 KB - 8.0 KB reserved"
    table = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=SHOW_BUDGET.id, arguments=command.arguments)
    )
    assert "| `outQueueZ` | VECOUT | 2 x 256 | 512 |" in table["markdown"]
    assert any("KernelAdd" in m.message for m in client.messages)  # shown before the response was sent
    with pytest.raises(JsonRpcException, match="is not open"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command=SHOW_BUDGET.id, arguments=[{"uri": "file:///nowhere.cpp", "owner": "KernelAdd"}]))
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=document,
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=200, character=0)),
        )
    )
    assert hints is not None
    assert {"= 128", "= 256 B"} <= {h.label for h in hints if isinstance(h.label, str)}
    missing = types.TextDocumentIdentifier(uri=Path("/tmp/ascendc-lsp-tests", "never-opened.cpp").as_uri())
    assert not await client.text_document_code_lens_async(types.CodeLensParams(text_document=missing))
