"""Language features; adding a feature is adding its class here."""

from ascendc_lsp.lsp.features.base import LanguageFeature
from ascendc_lsp.lsp.features.code_actions import CodeActionsFeature
from ascendc_lsp.lsp.features.completion import CompletionFeature
from ascendc_lsp.lsp.features.diagnostics import DiagnosticsFeature
from ascendc_lsp.lsp.features.lens import ApiCallHoverFeature, CodeLensFeature, InlayHintsFeature
from ascendc_lsp.lsp.features.symbols import SymbolsFeature

FEATURES: tuple[type[LanguageFeature], ...] = (
    DiagnosticsFeature,
    SymbolsFeature,
    ApiCallHoverFeature,  # HoverFeature plus API-call facts (folded counts, alignment, dtype support)
    CodeActionsFeature,
    CompletionFeature,
    CodeLensFeature,
    InlayHintsFeature,
)
