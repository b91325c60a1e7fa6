"""ascendc-lsp: a hardware-aware language server and toolchain for AscendC kernels."""

__version__ = "0.1.0"
