"""Language features; adding a feature is adding its class here."""

from ascendc_lsp.lsp.features.base import LanguageFeature
from ascendc_lsp.lsp.features.code_actions import CodeActionsFeature
from ascendc_lsp.lsp.features.diagnostics import DiagnosticsFeature
from ascendc_lsp.lsp.features.symbols import HoverFeature, SymbolsFeature

FEATURES: tuple[type[LanguageFeature], ...] = (
    DiagnosticsFeature,
    SymbolsFeature,
    HoverFeature,
    CodeActionsFeature,
)
