"""Completion: context detection, receiver types, hardware-aware details, snippets, and the LSP round trip."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from ascendc_lsp.checks.engine import CheckOptions, check_document
from ascendc_lsp.hardware.budget import class_budgets, ub_capacity
from ascendc_lsp.hardware.completion import (
    Candidate,
    check_snippet_body,
    complete,
    load_snippet_templates,
    parse_snippet,
    receiver_type,
    strip_receiver,
)
from ascendc_lsp.hardware.soc import HardwareDataError, get_soc
from ascendc_lsp.syntax.completion_context import completion_context
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.model import build_model
from ascendc_lsp.syntax.positions import Position
from tests.conftest import KERNELS

ADD = (KERNELS / "add_double_buffer.cpp").read_text(encoding="utf-8")
ENQUE = "inQueueX.EnQue(xLocal);"
COMPUTE_ADD = "Add(zLocal, xLocal, yLocal, TILE_LENGTH);"


def _split(marked: str) -> tuple[str, Position]:
    index = marked.index("|")
    text = marked[:index] + marked[index + 1 :]
    line = text.count("\n", 0, index)
    column = index - (text.rfind("\n", 0, index) + 1)
    return text, Position(line, column)


def _complete(
    marked: str, soc: str = "Ascend910B", trigger: str | None = None, clean: str | None = None
) -> tuple[Any, dict[str, Candidate]]:
    text, position = _split(marked)
    document = SourceDocument(text)
    fallback = build_model(SourceDocument(clean)) if clean is not None else None
    result = complete(document, build_model(document), position, soc, get_soc(soc), trigger, fallback)
    return result, {c.label: c for c in result.candidates}


def _context(marked: str) -> Any:
    text, position = _split(marked)
    return completion_context(SourceDocument(text), position)


# --------------------------------------------------------------------------------------------- context


@pytest.mark.parametrize(
    ("replacement", "kind", "detail"),
    [
        ("inQueueX.|", "member", "inQueueX"),
        ("inQueueX.En|", "member", "inQueueX"),
        ("this->pipe.|", "member", "this->pipe"),
        ("xGm[progress * 2].|", "member", "xGm[progress * 2]"),
        ("auto t = inQueueX.AllocTensor<half>().|", "member", "inQueueX.AllocTensor<half>()"),
        ("GetTPipePtr()->|", "member", "GetTPipePtr()"),
        ("AscendC::|", "scope", "AscendC"),
        ("AscendC::Ad|", "scope", "AscendC"),
        ("SetFlag<HardEvent::|", "scope", "HardEvent"),
        ("auto t = inQueueX.AllocTensor<|", "template", "AllocTensor"),
        ("Ad|", "statement", None),
        ("int32_t a = Ad|", "expression", None),
        ("if (progress > 0) Ad|", "statement", None),
    ],
)
def test_context_in_a_method(replacement: str, kind: str, detail: str | None) -> None:
    ctx = _context(ADD.replace(ENQUE, replacement, 1))
    assert ctx.kind == kind
    assert ctx.where == "function"
    assert (ctx.receiver or ctx.scope or ctx.template) == detail


def test_context_prefix_and_statement_start() -> None:
    ctx = _context(ADD.replace(ENQUE, "inQueueX.En|", 1))
    assert ctx.prefix == "En" and ctx.at_statement_start
    assert not _context(ADD.replace(ENQUE, "auto t = inQueueX.|", 1)).at_statement_start


def test_context_scopes_and_nothing_in_comments_strings_includes() -> None:
    assert _context(ADD.replace("TPipe pipe;", "TPipe pipe;\n    TQ|", 1)).where == "class"
    top = _context(ADD.replace("class KernelAdd {", "Ker|\nclass KernelAdd {", 1))
    assert (top.kind, top.where) == ("statement", "namespace")  # after a line comment
    assert _context(ADD + "\n|").kind == "statement"
    assert _context(ADD.replace("// 总长度", "// 总长|度", 1)).kind == "none"
    assert _context(ADD.replace('"kernel_operator.h"', '"kernel_|operator.h"', 1)).kind == "none"
    assert _context(ADD.replace(ENQUE, 'printf("a.|");', 1)).kind == "none"
    assert _context(ADD.replace(ENQUE, "float f = 1.|", 1)).kind == "none"
    template = _context(ADD.replace("TPipe pipe;", "TPipe pipe;\n    TQueBind<TPosition::VECIN, |", 1))
    assert (template.kind, template.template, template.template_index) == ("template", "TQueBind", 1)


# --------------------------------------------------------------------------------------------- receivers


def test_receiver_types_through_the_model() -> None:
    text = ADD.replace(
        ENQUE,
        "auto t = inQueueX.AllocTensor<float>();\n        LocalTensor<int16_t> w = inQueueY.DeQue<int16_t>();\n        "
        + ENQUE,
        1,
    )
    model = build_model(SourceDocument(text))
    at = text.index(ENQUE)
    assert receiver_type(model, "inQueueX", at).name == "TQue"  # type: ignore[union-attr]
    assert receiver_type(model, "pipe", at).name == "TPipe"  # type: ignore[union-attr]
    assert receiver_type(model, "this->pipe", at).name == "TPipe"  # type: ignore[union-attr]
    assert receiver_type(model, "GetTPipePtr()", at).name == "TPipe"  # type: ignore[union-attr]
    t = receiver_type(model, "t", at)
    assert t is not None and (t.name, t.dtype) == ("LocalTensor", "float")
    w = receiver_type(model, "w[8]", at)
    assert w is not None and (w.name, w.dtype) == ("LocalTensor", "int16_t")
    gm = receiver_type(model, "xGm[progress * TILE_LENGTH]", at)
    assert gm is not None and (gm.name, gm.dtype) == ("GlobalTensor", "half")
    chained = receiver_type(model, "inQueueX.AllocTensor<half>()", at)
    assert chained is not None and (chained.name, chained.dtype) == ("LocalTensor", "half")
    assert receiver_type(model, "this", at) == receiver_type(model, "this", at)
    me = receiver_type(model, "this", at)
    assert me is not None and me.user_class and me.name == "KernelAdd"
    assert receiver_type(model, "unknownThing", at) is None
    assert receiver_type(model, "", at) is None


def test_receiver_types_from_parameters_and_declarations() -> None:
    text = (
        '#include "kernel_operator.h"\nusing namespace AscendC;\n'
        "__aicore__ inline void Scale(const LocalTensor<float>& src, TBuf<TPosition::VECCALC>& tmp) {\n"
        "    matmul::Matmul<A, B, C> mm;\n    KernelAdd op;\n    src.GetSize();\n}\nclass KernelAdd { public: void Init() {} };\n"
    )
    model = build_model(SourceDocument(text))
    at = text.index("src.GetSize")
    src = receiver_type(model, "src", at)
    assert src is not None and (src.name, src.dtype) == ("LocalTensor", "float")
    assert receiver_type(model, "tmp", at).name == "TBuf"  # type: ignore[union-attr]
    assert receiver_type(model, "mm", at).name == "Matmul"  # type: ignore[union-attr]
    op = receiver_type(model, "op", at)
    assert op is not None and op.user_class and op.name == "KernelAdd"


# --------------------------------------------------------------------------------------------- candidates


def test_tque_members_with_receiver_stripped_snippets() -> None:
    _, items = _complete(ADD.replace(ENQUE, "inQueueX.|", 1), trigger=".")
    assert {"AllocTensor", "EnQue", "DeQue", "FreeTensor"} <= set(items)
    assert "InitBuffer" not in items and "Add" not in items
    assert items["AllocTensor"].insert_text == "AllocTensor<${1:half}>()"
    assert items["EnQue"].insert_text == "EnQue(${1:tensor});"  # at a statement start the `;` stays
    _, expr = _complete(ADD.replace(ENQUE, "auto t = inQueueX.|", 1), trigger=".")
    assert not (expr["FreeTensor"].insert_text or "").endswith(";")


@pytest.mark.parametrize(
    ("replacement", "expected", "absent"),
    [
        ("pipe.|", {"InitBuffer", "Reset"}, {"AllocTensor"}),
        ("auto t = inQueueX.AllocTensor<half>();\n        t.|", {"GetValue", "SetValue", "GetSize"}, {"EnQue"}),
        ("xGm[progress].|", {"SetGlobalBuffer", "GetValue"}, {"EnQue"}),
        ("this->|", {"CopyIn", "Compute", "pipe", "inQueueX", "xGm"}, {"AllocTensor"}),
    ],
)
def test_members_by_receiver_type(replacement: str, expected: set[str], absent: set[str]) -> None:
    _, items = _complete(ADD.replace(ENQUE, replacement, 1), trigger=".")
    assert expected <= set(items)
    assert not absent & set(items)


def test_init_buffer_shows_the_ub_left_on_the_soc() -> None:
    marked = ADD.replace(ENQUE, "pipe.|", 1)
    text, _ = _split(marked)
    budget = next(b for b in class_budgets(build_model(SourceDocument(text))) if b.owner == "KernelAdd")
    for soc in ("Ascend910B", "Ascend310P"):
        ub, reserved = ub_capacity(get_soc(soc))
        left = ub - reserved - budget.total("UB")
        _, items = _complete(marked, soc=soc, trigger=".")
        detail = items["InitBuffer"].detail
        assert f"UB left on {soc}: {left:,} B of {ub - reserved:,} B usable" in detail
        assert "KernelAdd uses 1,536 B" in detail


def test_datacopy_shows_aligned_counts_for_the_tensor_dtype() -> None:
    _, items = _complete(ADD.replace(ENQUE, "Data|", 1))
    assert "count must be a multiple of 16 for half" in items["DataCopy"].detail
    _, items = _complete(ADD.replace("<half>", "<float>").replace(ENQUE, "Data|", 1))
    assert "count must be a multiple of 8 for float" in items["DataCopy"].detail
    _, items = _complete(ADD.replace(ENQUE, "Data|", 1), soc="Ascend310P")
    assert "no DataCopyPad on this SoC" in items["DataCopy"].detail


def test_vector_ops_flag_dtypes_the_soc_does_not_support() -> None:
    _, items = _complete(ADD.replace(COMPUTE_ADD, COMPUTE_ADD + "\n        |", 1))
    assert items["Exp"].detail.startswith("✓ half on Ascend910B") and not items["Exp"].deprecated
    int8 = ADD.replace("LocalTensor<half>", "LocalTensor<int8_t>").replace("<half>()", "<int8_t>()")
    _, items = _complete(int8.replace(COMPUTE_ADD, COMPUTE_ADD + "\n        |", 1))
    exp = items["Exp"]
    assert exp.deprecated and "int8_t not supported on Ascend910B" in exp.detail
    assert exp.sort_text > items["DataCopy"].sort_text  # unsupported ops sort last
    int16 = ADD.replace("LocalTensor<half>", "LocalTensor<int16_t>").replace("<half>()", "<int16_t>()")
    marked = int16.replace(COMPUTE_ADD, COMPUTE_ADD + "\n        |", 1)
    assert not _complete(marked, soc="Ascend910B")[1]["Add"].deprecated
    assert _complete(marked, soc="Ascend910A")[1]["Add"].deprecated  # 910A's Add has no int16_t


def test_namespace_template_and_enum_completions() -> None:
    _, items = _complete(ADD.replace(ENQUE, "AscendC::|", 1), trigger=":")
    assert {"Add", "DataCopy", "TQue", "LocalTensor"} <= set(items) and "GET_TILING_DATA" not in items
    _, items = _complete(ADD.replace(ENQUE, "auto t = inQueueX.AllocTensor<|", 1), trigger="<")
    assert items["half"].detail.startswith("2 B · 16 per 32-B block")
    _, items = _complete(ADD.replace(ENQUE, "SetFlag<|", 1), trigger="<")
    assert "HardEvent::MTE2_V" in items
    _, items = _complete(ADD.replace(ENQUE, "SetFlag<HardEvent::|", 1), trigger=":")
    assert "V_MTE3" in items
    _, items = _complete(ADD.replace("TPipe pipe;", "TPipe pipe;\n    TQue<|", 1), trigger="<")
    assert "TPosition::VECIN" in items and items["TPosition::VECIN"].detail == "buffers in UB"
    _, items = _complete(ADD.replace(ENQUE, "Exp<|", 1), trigger="<")
    assert items["int32_t"].deprecated and not items["float"].deprecated


def test_trigger_characters_that_do_not_start_a_completion() -> None:
    assert _complete(ADD.replace(ENQUE, "bool b = progress < |", 1), trigger="<")[0].candidates == []
    assert _complete(ADD.replace(ENQUE, "int32_t a = progress ? 1 :|", 1), trigger=":")[0].candidates == []
    assert _complete(ADD.replace(ENQUE, "// see inQueueX.|", 1), trigger=".")[0].candidates == []
    # `i < n|` without a trigger is a comparison: ordinary expression completions. The unclosed `for` breaks the
    # tree around the method, so where the cursor is comes from the last model that parsed cleanly.
    _, items = _complete(ADD.replace(ENQUE, "for (int32_t i = 0; i < T|", 1), clean=ADD)
    assert "GetBlockNum" in items and "ascendc-kernel" not in items


def test_snippets_by_place() -> None:
    _, top = _complete(ADD + "\n|")
    assert {"ascendc-kernel", "ascendc-kernel-tail", "ascendc-tiling", "ascendc-entry"} <= set(top)
    assert "Add" not in top
    _, body = _complete(ADD.replace("TPipe pipe;", "TPipe pipe;\n    |", 1))
    assert {"ascendc-copyin", "ascendc-compute", "ascendc-copyout", "TQue", "TBuf"} <= set(body)
    _, statement = _complete(ADD.replace(ENQUE, "|", 1))
    assert {"ascendc-tile-loop", "ascendc-sync", "Add", "inQueueX", "xLocal"} <= set(statement)
    assert "ascendc-kernel" not in statement
    kernel = top["ascendc-kernel"]
    assert kernel.snippet and kernel.group == 0 and "class ${1:KernelAdd}" in (kernel.insert_text or "")


def test_bad_positions_do_not_raise() -> None:
    document = SourceDocument(ADD)
    model = build_model(document)
    for position in (Position(10**6, 0), Position(0, 10**6), Position(-1, -5)):
        complete(document, model, position, "Ascend910B", None)
    empty = SourceDocument("")
    assert complete(empty, build_model(empty), Position(0, 0), "Ascend910B", None).context.where == "namespace"


# --------------------------------------------------------------------------------------------- snippets


def test_snippet_helpers() -> None:
    assert strip_receiver("${1:que}.AllocTensor<${2:half}>()") == "AllocTensor<${1:half}>()"
    assert strip_receiver("${1:pipe}.InitBuffer(${2:que}, $3);") == "InitBuffer(${1:que}, $2);"
    assert strip_receiver("Add(${1:dst})") == "Add(${1:dst})"
    parsed = parse_snippet("for (${1:i}; ${2:n}) {\n    \\$x ${3:a${4:b}}\n}$0")
    assert parsed.text == "for (i; n) {\n    $x ab\n}" and parsed.tabstops == (1, 2, 3, 4, 0)
    assert check_snippet_body("${1:a} ${3:b}") is not None
    assert check_snippet_body("cost $ 5") is not None
    assert check_snippet_body("${1:a") is not None
    assert check_snippet_body("${1:a} $0") is None


PRELUDE = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def _assert_clean(text: str, what: str) -> None:
    document = SourceDocument(text)
    assert document.syntax_errors() == [], what
    errors = [f for f in check_document(document, CheckOptions(soc_name="Ascend910B")) if f.severity == "error"]
    assert errors == [], (what, [f.message for f in errors])


def test_skeleton_snippets_parse_and_pass_the_rules() -> None:
    templates = load_snippet_templates()
    assert len(templates) >= 8
    expanded = {t.id: parse_snippet(t.body).text for t in templates}
    for template in templates:
        if "toplevel" in template.contexts:
            body = expanded[template.id]
            _assert_clean(body if body.lstrip().startswith("#include") else PRELUDE + body, template.id)
        if "statement" in template.contexts:
            _assert_clean(PRELUDE + "__aicore__ inline void f(int32_t loopCount) {\n" + expanded[template.id] + "\n}\n",
                          template.id)
    # The three stage methods together make a whole pipeline class.
    methods = "\n".join(expanded[t.id] for t in templates if "class_body" in t.contexts)
    fields = (
        "TPipe pipe;\nTQue<TPosition::VECIN, 2> inQueueX;\nTQue<TPosition::VECOUT, 2> outQueueY;\n"
        "GlobalTensor<half> xGm, yGm;\nuint32_t tileLength = 128;\n"
    )
    init = "__aicore__ inline void Init() { pipe.InitBuffer(inQueueX, 2, 256); pipe.InitBuffer(outQueueY, 2, 256); }\n"
    _assert_clean(PRELUDE + "class K {\npublic:\n" + init + methods + "\n" + fields + "};\n", "class_body")


def test_snippet_files_are_validated_on_load(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(
        "schema: 1\nsnippets:\n"
        "- {id: a, label: x, contexts: [toplevel], description: d, body: '${1:a} ${3:b}'}\n"
        "- {id: b, label: y, contexts: [nowhere], description: d, body: 'x'}\n"
        "- {id: c, label: z, contexts: [statement], body: 'x', extra: 1}\n"
        "- {id: d, label: x, contexts: [statement], description: d, body: 'cost $ 5'}\n",
        encoding="utf-8",
    )
    with pytest.raises(HardwareDataError) as raised:
        load_snippet_templates(tmp_path)
    text = str(raised.value)
    assert "without gaps" in text and "contexts" in text and "description" in text
    assert "extra: unknown field" in text and "stray `$`" in text


# --------------------------------------------------------------------------------------------- latency


def _thousand_lines() -> str:
    block = ADD[: ADD.index("#ifndef ASCENDC_CPU_DEBUG")]
    names = ["TOTAL_LENGTH", "USE_CORE_NUM", "BLOCK_LENGTH", "TILE_NUM", "BUFFER_NUM", "TILE_LENGTH", "KernelAdd", "add_custom"]
    copies = []
    index = 0
    while sum(c.count("\n") + 1 for c in copies) < 1000:
        text = block
        for name in names:
            text = re.sub(rf"\b{name}\b", f"{name}_{index}", text)
        copies.append(text)
        index += 1
    return "\n".join(copies)


def test_completion_on_a_thousand_line_file() -> None:
    # Its speed is measured by bench/lsp_latency.py (no timing assertions in unit tests): here, that the
    # completion deep in a large file still sees that file's kernel context.
    text = _thousand_lines()
    line = text.splitlines().index(next(x for x in text.splitlines()[500:] if COMPUTE_ADD.split("(")[0] + "(" in x))
    document = SourceDocument(text)
    model = build_model(document)
    for k in range(3):
        items = complete(document.apply([]), model, Position(line, 8 + k), "Ascend910B", get_soc("Ascend910B"))
        assert items, k


# --------------------------------------------------------------------------------------------- LSP


async def _open(client: LanguageClient, name: str, text: str) -> str:
    uri = Path("/tmp/ascendc-lsp-tests", name).as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=text))
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


async def _request(client: LanguageClient, uri: str, position: Position, trigger: str | None = None) -> types.CompletionList:
    context = (
        types.CompletionContext(trigger_kind=types.CompletionTriggerKind.TriggerCharacter, trigger_character=trigger)
        if trigger
        else types.CompletionContext(trigger_kind=types.CompletionTriggerKind.Invoked)
    )
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=position.line, character=position.character),
            context=context,
        )
    )
    assert isinstance(result, types.CompletionList)
    return result


async def test_lsp_member_completion_and_resolve(client: LanguageClient) -> None:
    text, position = _split(ADD.replace(ENQUE, "inQueueX.|", 1))
    uri = await _open(client, "complete_member.cpp", text)
    result = await _request(client, uri, position, ".")
    items = {item.label: item for item in result.items}
    assert {"AllocTensor", "EnQue", "DeQue", "FreeTensor"} <= set(items)
    alloc = items["AllocTensor"]
    assert alloc.insert_text_format == types.InsertTextFormat.Snippet
    assert alloc.insert_text == "AllocTensor<${1:half}>()"
    resolved = await client.completion_item_resolve_async(alloc)
    assert isinstance(resolved.documentation, types.MarkupContent)
    assert "TQue::AllocTensor" in resolved.documentation.value


async def test_lsp_completion_details_and_empty_answers(client: LanguageClient) -> None:
    int8 = ADD.replace("LocalTensor<half>", "LocalTensor<int8_t>").replace("<half>()", "<int8_t>()")
    text, position = _split(int8.replace(COMPUTE_ADD, COMPUTE_ADD + "\n        |", 1))
    uri = await _open(client, "complete_vector.cpp", text)
    items = {item.label: item for item in (await _request(client, uri, position)).items}
    assert list(items["Exp"].tags or []) == [types.CompletionItemTag.Deprecated]
    assert "int8_t not supported on Ascend910B" in (items["Exp"].detail or "")
    assert "multiple of 32 for int8_t" in (items["DataCopy"].detail or "")
    missing = Path("/tmp/ascendc-lsp-tests", "never-opened.cpp").as_uri()
    assert not (await _request(client, missing, Position(0, 0))).items
    assert not (await _request(client, uri, Position(10**5, 3), ".")).items
