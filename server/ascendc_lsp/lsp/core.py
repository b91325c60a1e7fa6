"""What a feature may use of the server: the core's interface.

Features (lsp/features/) are typed against `ServerCore`, never against lsp/server.py, so the server can import
the features without an import cycle. `AscendcLanguageServer` is the one implementation: pygls' LanguageServer
(protocol, workspace, progress, window/* requests) plus the per-document store, the settings and the few helpers
below.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING

from pygls.lsp.server import LanguageServer

if TYPE_CHECKING:
    from ascendc_lsp.lsp.state import DocumentState, DocumentStore
    from ascendc_lsp.settings import Settings


class ServerCore(LanguageServer, abc.ABC):
    documents: DocumentStore  # the one owner of per-document state
    settings: Settings  # the merged settings (client, ascendc-lsp.toml, defaults)

    @abc.abstractmethod
    def publish_diagnostics(self, state: DocumentState) -> bool:
        """Publish a version's findings; False when that version is no longer current (nothing published)."""

    @abc.abstractmethod
    def soc_profile(self) -> object | None:
        """The loaded profile of the configured SoC (hardware.soc.SocProfile), None when it cannot be loaded."""

    @abc.abstractmethod
    def api_hover(self, name: str) -> str | None:
        """Markdown describing an AscendC API for the configured SoC, None when unknown."""
