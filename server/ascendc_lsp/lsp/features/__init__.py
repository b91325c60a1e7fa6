"""Language features; adding a feature is adding its class here."""

from ascendc_lsp.lsp.features.base import LanguageFeature
from ascendc_lsp.lsp.features.clangd import ClangdFeature
from ascendc_lsp.lsp.features.completion import CompletionFeature
from ascendc_lsp.lsp.features.diagnostics import DiagnosticsFeature
from ascendc_lsp.lsp.features.knowledge import KnowledgeFeature
from ascendc_lsp.lsp.features.lens import ApiCallHoverFeature, CodeLensFeature, InlayHintsFeature
from ascendc_lsp.lsp.features.llm import LlmFeature
from ascendc_lsp.lsp.features.run import RunFeature
from ascendc_lsp.lsp.features.symbols import SymbolsFeature

FEATURES: tuple[type[LanguageFeature], ...] = (
    DiagnosticsFeature,
    SymbolsFeature,
    ApiCallHoverFeature,  # HoverFeature plus API-call facts (folded counts, alignment, dtype support)
    LlmFeature,  # extends CodeActionsFeature (quick fixes) with the LLM actions: one codeAction handler
    CompletionFeature,
    CodeLensFeature,
    InlayHintsFeature,
    KnowledgeFeature,  # on-save toolchain diagnostics explained by the knowledge base; explain command
    RunFeature,  # the runKernel command: a spec, an op test case or a direct-launch program
    ClangdFeature,  # the clangdConfig command: a .clangd beside our server (emulator headers without CANN)
)
