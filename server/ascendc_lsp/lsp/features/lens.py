"""Hardware annotations in the editor: a UB budget code lens on each kernel class (click: the budget table),
inlay hints with folded constant sizes, and hover that adds what the document says about an API call.

The numbers come from `hardware/budget.py` (the same as the UB rule, hover and the status bar).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from lsprotocol import types

from ascendc_lsp.hardware.api_hover import call_markdown
from ascendc_lsp.hardware.budget import ClassBudget, budget_table_markdown, class_budgets, ub_capacity
from ascendc_lsp.lsp.convert import to_position, to_range
from ascendc_lsp.lsp.features.base import LanguageFeature, Method
from ascendc_lsp.lsp.protocol import SHOW_BUDGET, CommandError, ErrorCode, ShowBudgetParams, ShowBudgetResult
from ascendc_lsp.syntax.constfold import parse_number_literal
from ascendc_lsp.syntax.model import DocumentModel
from ascendc_lsp.syntax.positions import Position, Span

# --------------------------------------------------------------------------------------------- plain records


@dataclass(frozen=True, slots=True)
class BudgetLens:
    span: Span
    title: str
    owner: str | None


@dataclass(frozen=True, slots=True)
class SizeHint:
    position: Position
    label: str
    tooltip: str


def _kb(value: int) -> str:
    return f"{value / 1024:.1f} KB"


def _number(value: int | float) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return f"{value:,}"


def _lens_span(model: DocumentModel, budget: ClassBudget) -> Span | None:
    if budget.owner is not None:
        for cls in model.classes:
            if cls.name == budget.owner:
                return cls.name_span
    function = budget.uses[0].init.call.function if budget.uses else None
    return function.name_span if function is not None else None


def budget_lenses(
    model: DocumentModel, soc_name: str, soc: object | None, budgets: list[ClassBudget] | None = None
) -> list[BudgetLens]:
    """One lens per class (or free function) with InitBuffer calls: `UB 24.0 KB / 184.0 KB usable (13.0%) on <SoC>
    · 192.0 KB - 8.0 KB reserved`."""
    ub_bytes, reserved = ub_capacity(soc, soc_name)
    lenses: list[BudgetLens] = []
    for budget in class_budgets(model) if budgets is None else budgets:
        span = _lens_span(model, budget)
        if span is None:
            continue
        used = budget.total("UB")
        usable = ub_bytes - reserved
        share = f"{100 * used / usable:.1f}%" if usable > 0 else "?"
        # the same numbers as the status bar and the budget table: usable = UB - the reserve (hardware/limits.py)
        title = f"UB {_kb(used)} / {_kb(usable)} usable ({share}) on {soc_name}"
        if reserved:
            title += f" · {_kb(ub_bytes)} - {_kb(reserved)} reserved"
        if used > usable:
            title += " ⚠ over the usable UB"
        unknown = budget.unknown("UB")
        if unknown:
            title += f" · +{unknown} of unknown size"
        l1 = budget.total("L1")
        if l1:
            title += f" · L1 {_kb(l1)}"
        lenses.append(BudgetLens(span, title, budget.owner))
    return lenses


def budget_markdown(
    model: DocumentModel, owner: str | None, soc_name: str, soc: object | None, budgets: list[ClassBudget] | None = None
) -> str | None:
    ub_bytes, reserved = ub_capacity(soc, soc_name)
    for budget in class_budgets(model) if budgets is None else budgets:
        if budget.owner == owner:
            heading = f"**{owner or 'kernel functions'}**: on-chip buffers\n\n"
            return heading + budget_table_markdown(budget, soc_name, ub_bytes, reserved)
    return None


def _is_literal(text: str) -> bool:
    return parse_number_literal(text.strip()) is not None


def size_hints(model: DocumentModel, span: Span | None = None) -> list[SizeHint]:
    """Folded values at InitBuffer length arguments and at constant declarations whose initializer is an expression."""
    hints: list[SizeHint] = []
    lines = model.document.lines

    def visible(position: Position) -> bool:
        if span is None:
            return True
        return (span.start.line, span.start.character) <= (position.line, position.character) <= (
            span.end.line, span.end.character
        )

    for init in model.init_buffers:
        length = init.call.args[-1] if init.call.args else None
        value = init.length.as_int()
        if length is None or value is None or _is_literal(length.text):
            continue
        label = f"= {_number(value)} B"
        each = init.bytes_each()
        if each is not None and each != value:
            label += f" → {_number(each)} B"
        position = length.span.end
        if visible(position):
            hints.append(SizeHint(position, label, f"`{length.text}` folded; buffers are rounded up to 32 B"))
    for const in model.constants:
        value_ = const.value.value
        if not const.is_constant or value_ is None or not const.value.text or _is_literal(const.value.text):
            continue
        line = const.span.start.line
        start = lines.line_start(line)
        end = lines.line_end(line)
        line_text = model.document.data[start:end].decode("utf-8", errors="replace")
        if line_text.lstrip().startswith("#"):
            position = lines.position(end)  # `#define NAME expr`: the end of the line
            if "//" in line_text or "/*" in line_text:
                continue
        else:
            position = const.span.end
        if visible(position):
            hints.append(SizeHint(position, f"= {_number(value_)}", f"`{const.value.text}` folded"))
    hints.sort(key=lambda h: (h.position.line, h.position.character))
    return hints


# --------------------------------------------------------------------------------------------- features


class CodeLensFeature(LanguageFeature):
    methods: ClassVar[dict[str, Method]] = {
        types.TEXT_DOCUMENT_CODE_LENS: Method("code_lens", options=types.CodeLensOptions(resolve_provider=False))
    }
    commands: ClassVar[dict[str, str]] = {SHOW_BUDGET.id: "show_budget"}

    def code_lens(self, params: types.CodeLensParams) -> list[types.CodeLens]:
        state = self.server.documents.get(params.text_document.uri)
        if state is None:
            return []
        soc_name = self.server.settings.soc
        return [
            types.CodeLens(
                range=to_range(lens.span),
                command=types.Command(
                    title=lens.title,
                    command=SHOW_BUDGET.id,
                    arguments=[{"uri": params.text_document.uri, "owner": lens.owner}],
                ),
            )
            for lens in budget_lenses(state.model, soc_name, self.server.soc_profile(), state.budgets)
        ]

    def show_budget(self, params: ShowBudgetParams) -> ShowBudgetResult:
        """`ascendc.server.showBudget {uri, owner?}`: the budget table as Markdown (also shown as a message)."""
        state = self.server.documents.get(params.uri)
        if state is None:
            raise CommandError(f"{params.uri} is not open", ErrorCode.NOT_AVAILABLE, SHOW_BUDGET.id)
        text = budget_markdown(
            state.model, params.owner, self.server.settings.soc, self.server.soc_profile(), state.budgets
        )
        if text is None:
            raise CommandError(f"no UB budget in {params.uri}" + (f" for {params.owner}" if params.owner else ""),
                               command=SHOW_BUDGET.id)  # fmt: skip
        plain = text.replace("**", "").replace("`", "")
        self.server.window_show_message(types.ShowMessageParams(type=types.MessageType.Info, message=plain))
        return ShowBudgetResult(markdown=text)


class InlayHintsFeature(LanguageFeature):
    methods: ClassVar[dict[str, Method]] = {types.TEXT_DOCUMENT_INLAY_HINT: Method("inlay_hints")}

    def inlay_hints(self, params: types.InlayHintParams) -> list[types.InlayHint]:
        state = self.server.documents.get(params.text_document.uri)
        if state is None:
            return []
        span = Span(to_position(params.range.start), to_position(params.range.end))
        return [
            types.InlayHint(
                position=types.Position(line=hint.position.line, character=hint.position.character),
                label=hint.label,
                kind=types.InlayHintKind.Type,
                tooltip=types.MarkupContent(kind=types.MarkupKind.Markdown, value=hint.tooltip),
                padding_left=True,
            )
            for hint in size_hints(state.model, span)
        ]


class ApiCallHoverFeature(LanguageFeature):
    """What the document says about an API call under the cursor (folded count, 32-byte alignment, dtype support
    on the SoC); merged above the model's hover (symbols.HoverFeature) by the core."""

    methods: ClassVar[dict[str, Method]] = {types.TEXT_DOCUMENT_HOVER: Method("hover")}

    def hover(self, params: types.HoverParams) -> types.Hover | None:
        state = self.server.documents.get(params.text_document.uri)
        if state is None:
            return None
        text = call_markdown(state.model, to_position(params.position), self.server.settings.soc, self.server.soc_profile())
        if not text:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))
