"""Shared fixtures. Tests never touch the user's real cache: HOME and XDG dirs point into a temp dir."""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

FIXTURES = Path(__file__).parent / "fixtures"
KERNELS = FIXTURES / "kernels"
# Real error messages from public reports: the project's shared folder sits beside the checkout.
REAL_ERRORS = Path(
    os.environ.get("ASCENDC_REAL_ERRORS", Path(__file__).resolve().parents[2] / "shared" / "real-errors.dev.jsonl")
)

# Public code nobody here wrote (bench/corpus.py extracts it into the user's cache, never into the repository):
# found through the real home, before HOME is redirected below. Tests that need it skip when it is absent.
_REAL_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
os.environ.setdefault("ASCENDC_PUBLIC_TREES", str(_REAL_CACHE / "ascendc-lsp" / "public"))
os.environ.setdefault("ASCENDC_CORPUS", str(_REAL_CACHE / "ascendc-lsp" / "corpus"))

_TEST_HOME = tempfile.mkdtemp(prefix="ascendc-lsp-test-home-")
os.environ.setdefault("XDG_CACHE_HOME", os.path.join(_TEST_HOME, ".cache"))
os.environ["HOME"] = _TEST_HOME


@pytest.fixture
def collections_by_the_server_only() -> Iterator[None]:
    """LSP memory and edit-trace tests: as under `serve` (gc thresholds far apart): only the server's own collections free cycles."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.fixture
def kernel_text() -> object:
    def read(name: str) -> str:
        return (KERNELS / name).read_text(encoding="utf-8")

    return read


def _allow_unisolated_without_bwrap() -> None:
    """Without a usable bubblewrap (some CI containers) untrusted runs are refused; the suite runs our own kernels,
    so it opts in there. The refusal itself is tested in test_sandbox_hostile.py."""
    from ascendc_lsp.toolchain import sandbox

    if sandbox.isolation_mode() != "bwrap":
        os.environ.setdefault(sandbox.ALLOW_UNISOLATED_ENV, "1")


_allow_unisolated_without_bwrap()


# The language server over stdio with the VS Code client's capabilities, one per test; files that need other
# settings define their own `client`.
@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "ascendc_lsp", "serve", "--stdio"])
)
async def client(lsp_client: LanguageClient) -> Any:
    lsp_client.set_configuration({"soc": "Ascend910B"}, section="ascendc")
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=pytest_lsp.client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()
