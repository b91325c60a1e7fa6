"""API hover: catalogue Markdown per SoC, call facts (folded counts, 32-byte alignment, dtypes), and the LSP hover."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from ascendc_lsp.hardware.api_hover import api_markdown, call_at, call_markdown
from ascendc_lsp.hardware.soc import get_soc
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.model import build_model
from ascendc_lsp.syntax.positions import Position
from tests.conftest import KERNELS

ADD = (KERNELS / "add_double_buffer.cpp").read_text(encoding="utf-8")
COPY_X = "DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);"


def _at(text: str, needle: str, inside: int = 1) -> Position:
    index = text.index(needle) + inside
    line = text.count("\n", 0, index)
    return Position(line, index - (text.rfind("\n", 0, index) + 1))


def test_api_markdown_has_forms_dtypes_constraints_and_source() -> None:
    text = api_markdown("Add", "Ascend910B")
    assert text is not None
    assert text.startswith("**`AscendC::Add`** · function · vector-binary")
    assert "// count form" in text and "// mask-bitwise form" in text
    assert "void Add(const LocalTensor<T>& dst" in text
    assert "**Data types on Ascend910B:** `half`, `int16_t`, `float`, `int32_t`" in text
    assert "**Constraints**" in text and "repeatTime <= 255" in text
    assert "Source: cannmirror/asc-devkit" in text
    assert api_markdown("AscendC::Add", "Ascend910B") == text


def test_api_markdown_per_soc_and_variants() -> None:
    on_910a = api_markdown("Add", "Ascend910A")
    assert on_910a is not None and "`int16_t`" not in on_910a.split("**Data types")[1].split("\n")[0]
    variant = api_markdown("Add", "Ascend910B3")
    assert variant is not None and "**Data types on Ascend910B3:** `half`, `int16_t`" in variant
    pad = api_markdown("DataCopyPad", "Ascend910A")
    assert pad is not None and "⚠ **Not available on Ascend910A**" in pad
    cast = api_markdown("Cast", "Ascend910B")
    assert cast is not None and "**Conversions on Ascend910B:**" in cast and "`float->half`" in cast


def test_api_markdown_members_and_unknown_names() -> None:
    alloc = api_markdown("AllocTensor", "Ascend910B")
    assert alloc is not None and alloc.startswith("**`TQue::AllocTensor`** · member")
    assert api_markdown("TQue::AllocTensor", "Ascend910B") == alloc
    get_value = api_markdown("GetValue", "Ascend910B")
    assert get_value is not None and "Also a member of: `GlobalTensor`" in get_value
    assert api_markdown("NotAnApi", "Ascend910B") is None
    assert api_markdown("", "Ascend910B") is None
    unknown_soc = api_markdown("Add", "NoSuchSoc")
    assert unknown_soc is not None and "Add" in unknown_soc  # still the description and forms


def test_call_markdown_for_an_aligned_datacopy() -> None:
    model = build_model(SourceDocument(ADD))
    text = call_markdown(model, _at(ADD, COPY_X), "Ascend910B", get_soc("Ascend910B"))
    assert text is not None
    assert "count `TILE_LENGTH` = **128** x 2 B (`half`) = 256 B ✓ a multiple of 32 B" in text


def test_call_markdown_for_an_unaligned_datacopy_suggests_datacopypad_where_it_exists() -> None:
    source = ADD.replace(COPY_X, "DataCopy(xLocal, xGm[progress * TILE_LENGTH], 100);")
    model = build_model(SourceDocument(source))
    position = _at(source, "DataCopy(xLocal")
    on_910b = call_markdown(model, position, "Ascend910B", get_soc("Ascend910B"))
    assert on_910b is not None
    assert "count **100** x 2 B (`half`) = 200 B ⚠ not a multiple of 32 B: only 192 B are moved. Use DataCopyPad." in on_910b
    on_310p = call_markdown(model, position, "Ascend310P", get_soc("Ascend310P"))
    assert on_310p is not None and "only 192 B are moved." in on_310p and "DataCopyPad" not in on_310p


def test_call_markdown_for_init_buffer_and_vector_ops() -> None:
    source = ADD.replace("TILE_LENGTH * sizeof(half));\n        pipe.InitBuffer(inQueueY", "50 * sizeof(half));\n        pipe.InitBuffer(inQueueY", 1)
    model = build_model(SourceDocument(source))
    init = call_markdown(model, _at(source, "InitBuffer(inQueueX"), "Ascend910B")
    assert init is not None and "length `50 * sizeof(half)` = **100 B** → 128 B (rounded up to 32 B); 2 buffer(s) = 256 B" in init
    add = call_markdown(model, _at(source, "Add(zLocal"), "Ascend910B")
    assert add is not None and "`half` ✓ supported by Add on Ascend910B" in add and "count `TILE_LENGTH` = **128**" in add
    int8 = ADD.replace("LocalTensor<half> zLocal", "LocalTensor<int8_t> zLocal")
    bad = call_markdown(build_model(SourceDocument(int8)), _at(int8, "Add(zLocal"), "Ascend910B")
    assert bad is not None and "`int8_t` ⚠ not supported by Add on Ascend910B" in bad


def test_call_markdown_only_on_api_call_names() -> None:
    model = build_model(SourceDocument(ADD))
    assert call_markdown(model, _at(ADD, "xLocal, xGm[progress"), "Ascend910B") is None  # an argument
    assert call_markdown(model, _at(ADD, "CopyIn(i)"), "Ascend910B") is None  # not an API
    assert call_markdown(model, Position(10**6, 0), "Ascend910B") is None
    call = call_at(model, _at(ADD, COPY_X))
    assert call is not None and call.name == "DataCopy"


# --------------------------------------------------------------------------------------------- LSP


async def _hover(client: LanguageClient, uri: str, position: Position) -> str | None:
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=position.line, character=position.character),
        )
    )
    if result is None:
        return None
    assert isinstance(result.contents, types.MarkupContent)
    return result.contents.value


async def test_lsp_hover_on_api_calls(client: LanguageClient) -> None:
    source = ADD.replace(COPY_X, "DataCopy(xLocal, xGm[progress * TILE_LENGTH], 100);")
    uri = Path("/tmp/ascendc-lsp-tests", "hover_api.cpp").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=source))
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    copy = await _hover(client, uri, _at(source, "DataCopy(xLocal"))
    assert copy is not None
    assert "only 192 B are moved" in copy and "**`AscendC::DataCopy`**" in copy
    add = await _hover(client, uri, _at(source, "Add(zLocal"))
    assert add is not None and "`half` ✓ supported by Add on Ascend910B" in add and "**Data types on Ascend910B:**" in add
    queue = await _hover(client, uri, _at(source, "inQueueX, BUFFER_NUM"))
    assert queue is not None and "TQue" in queue  # the model's hover is untouched
    missing = Path("/tmp/ascendc-lsp-tests", "never-opened.cpp").as_uri()
    assert await _hover(client, missing, Position(0, 0)) is None
    assert await _hover(client, uri, Position(10**5, 0)) is None
