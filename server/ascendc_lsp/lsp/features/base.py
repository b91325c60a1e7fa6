"""The small core that features plug into (after esbonio's LanguageFeature).

A feature declares the LSP methods it contributes to as data (`methods`), and gets lifecycle hooks from the
server. Several features may contribute to one method: the core merges their answers (lsp/aggregate.py).
Per-document state is the server's `documents` store (lsp/state.py); features keep none of their own.
Adding a feature is adding a class to `FEATURES` in lsp/features/__init__.py.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ascendc_lsp.lsp.protocol import CommandError, CommandSpec, structure_params, unstructure_result

if TYPE_CHECKING:
    from ascendc_lsp.lsp.core import ServerCore
    from ascendc_lsp.lsp.state import DocumentState
    from ascendc_lsp.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Method:
    """One LSP method a feature contributes to: the handler's attribute name and the registration options (merged
    with the other contributors' by lsp/aggregate.py)."""

    handler: str
    options: Any = None


class LanguageFeature:
    methods: ClassVar[dict[str, Method]] = {}
    # server command id (lsp/protocol.py COMMANDS) -> handler attribute name; the handler takes the command's
    # params class and returns its result class, or raises protocol.CommandError
    commands: ClassVar[dict[str, str]] = {}

    def __init__(self, server: ServerCore) -> None:
        self.server = server

    # Lifecycle hooks: the core calls these; features override what they need.
    def initialized(self) -> None: ...

    def document_opened(self, state: DocumentState) -> None: ...

    def document_changed(self, state: DocumentState) -> None: ...

    def document_saved(self, state: DocumentState) -> None: ...

    def document_closed(self, uri: str) -> None: ...

    def settings_changed(self, settings: Settings) -> None: ...


def guarded(name: str, function: Callable[..., Any], empty: Any) -> Callable[..., Any]:
    """A handler that logs its own failure and answers `empty` instead of taking the server down."""
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def run_async(*args: Any) -> Any:
            try:
                return await function(*args)
            except Exception:
                log.exception("%s failed", name)
                return empty

        return run_async

    @functools.wraps(function)
    def run(*args: Any) -> Any:
        try:
            return function(*args)
        except Exception:
            log.exception("%s failed", name)
            return empty

    return run


def typed_command(spec: CommandSpec, function: Callable[[Any], Any]) -> Callable[..., Any]:
    """A `workspace/executeCommand` handler: the one argument structured into `spec.params` (InvalidParams when
    it does not fit), the handler's result unstructured, and any failure a CommandError (one error shape)."""
    from pygls.lsp.server import LanguageServer

    async def run(*arguments: Any) -> Any:
        # pygls passes the server first to some handlers; the client's arguments follow
        params = structure_params(spec, [a for a in arguments if not isinstance(a, LanguageServer)])
        try:
            result = function(params)
            if inspect.isawaitable(result):
                result = await result
        except (CommandError, asyncio.CancelledError):
            raise
        except Exception as exc:
            log.exception("%s failed", spec.id)
            raise CommandError(f"{spec.name} failed: {exc}", command=spec.id) from None
        return unstructure_result(spec, result)

    run.__name__ = spec.name
    return run
