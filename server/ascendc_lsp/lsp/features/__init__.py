"""Language features; adding a feature is adding its class here. Several may serve one LSP method: the core
merges their answers in this order (lsp/aggregate.py)."""

from ascendc_lsp.lsp.features.base import LanguageFeature
from ascendc_lsp.lsp.features.clangd import ClangdFeature
from ascendc_lsp.lsp.features.code_actions import CodeActionsFeature
from ascendc_lsp.lsp.features.completion import CompletionFeature
from ascendc_lsp.lsp.features.diagnostics import DiagnosticsFeature
from ascendc_lsp.lsp.features.knowledge import KnowledgeFeature
from ascendc_lsp.lsp.features.lens import ApiCallHoverFeature, CodeLensFeature, InlayHintsFeature
from ascendc_lsp.lsp.features.llm import LlmFeature
from ascendc_lsp.lsp.features.run import RunFeature
from ascendc_lsp.lsp.features.symbols import HoverFeature, SymbolsFeature

FEATURES: tuple[type[LanguageFeature], ...] = (
    DiagnosticsFeature,
    SymbolsFeature,
    ApiCallHoverFeature,  # hover: API-call facts (folded counts, alignment, dtype support), shown first
    HoverFeature,  # hover: what the model knows about the symbol (queues, buffers, constants, catalogue APIs)
    CodeActionsFeature,  # code actions: the quick fixes our diagnostics carry
    LlmFeature,  # code actions: rewrite/optimise with the LLM (checked); the generate/rewrite commands
    CompletionFeature,
    CodeLensFeature,
    InlayHintsFeature,
    KnowledgeFeature,  # on-save toolchain diagnostics explained by the knowledge base; explain command
    RunFeature,  # the runKernel command: a spec, an op test case or a direct-launch program
    ClangdFeature,  # the clangdConfig command: a .clangd beside our server (emulator headers without CANN)
)
