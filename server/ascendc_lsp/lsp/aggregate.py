"""Per-method aggregation (after esbonio's `gather_results`): every feature may serve any LSP method; the core
registers one handler per method that asks each contributor in FEATURES order and merges their answers.

How answers merge, per method: hovers are joined (Markdown, separated by a rule); lists (code actions, lenses,
inlay hints, symbols) are concatenated; completion lists are concatenated; a completion item is resolved by each
contributor in turn; any other method takes the first answer that is not None. Registration options merge too
(code action kinds and completion trigger characters are unions). One contributor failing is logged and
contributes nothing: the others still answer.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lsprotocol import types

log = logging.getLogger(__name__)

HOVER_SEPARATOR = "\n\n---\n\n"

_LISTS = frozenset({
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.TEXT_DOCUMENT_CODE_LENS,
    types.TEXT_DOCUMENT_INLAY_HINT,
    types.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
})  # fmt: skip


@dataclass(frozen=True)
class Contributor:
    name: str  # Feature.handler, for the log
    function: Callable[..., Any]


def empty_answer(method: str) -> Any:
    if method in _LISTS:
        return []
    if method == types.TEXT_DOCUMENT_COMPLETION:
        return types.CompletionList(is_incomplete=False, items=[])
    return None


def merge_answers(method: str, answers: Sequence[Any]) -> Any:
    """One answer from the contributors' answers (None: a contributor with nothing to say)."""
    present = [a for a in answers if a is not None]
    if method == types.TEXT_DOCUMENT_HOVER:
        return _merge_hovers(present)
    if method in _LISTS:
        return [item for answer in present for item in answer]
    if method == types.TEXT_DOCUMENT_COMPLETION:
        items: list[types.CompletionItem] = []
        incomplete = False
        for answer in present:
            if isinstance(answer, types.CompletionList):
                items.extend(answer.items)
                incomplete = incomplete or answer.is_incomplete
            else:
                items.extend(answer)
        return types.CompletionList(is_incomplete=incomplete, items=items)
    return present[0] if present else empty_answer(method)


def _markdown(hover: types.Hover) -> str:
    contents = hover.contents
    if isinstance(contents, types.MarkupContent):
        return contents.value
    if isinstance(contents, str):
        return contents
    if isinstance(contents, types.MarkedStringWithLanguage):
        return f"```{contents.language}\n{contents.value}\n```"
    return "\n\n".join(_markdown(types.Hover(contents=part)) for part in contents)


def _merge_hovers(hovers: list[types.Hover]) -> types.Hover | None:
    texts = [text for text in (_markdown(h).strip() for h in hovers) if text]
    if not texts:
        return None
    if len(hovers) == 1 and len(texts) == 1:
        return hovers[0]
    range_ = next((h.range for h in hovers if h.range is not None), None)
    value = HOVER_SEPARATOR.join(texts)
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value), range=range_)


def merge_options(method: str, options: Sequence[Any]) -> Any:
    """The registration options of a method served by several features."""
    present = [o for o in options if o is not None]
    if not present:
        return None
    first = present[0]
    if len(present) == 1:
        return first
    if isinstance(first, types.CodeActionOptions):
        kinds: list[Any] = []
        for option in present:
            for kind in option.code_action_kinds or []:
                if kind not in kinds:
                    kinds.append(kind)
        resolve = any(getattr(o, "resolve_provider", False) for o in present)
        return types.CodeActionOptions(code_action_kinds=kinds or None, resolve_provider=resolve or None)
    if isinstance(first, types.CompletionOptions):
        triggers: list[str] = []
        for option in present:
            for character in option.trigger_characters or []:
                if character not in triggers:
                    triggers.append(character)
        resolve = any(getattr(o, "resolve_provider", False) for o in present)
        return types.CompletionOptions(trigger_characters=triggers or None, resolve_provider=resolve)
    if isinstance(first, types.CodeLensOptions):
        return types.CodeLensOptions(resolve_provider=any(o.resolve_provider for o in present))
    return first


def aggregated(method: str, contributors: Sequence[Contributor]) -> Callable[..., Any]:
    """The one handler of `method`: synchronous when every contributor is (they then answer on the event loop
    without a task switch), else a coroutine awaiting the asynchronous ones in order."""
    chain = method == types.COMPLETION_ITEM_RESOLVE  # each contributor fills in the item the previous one returned
    asynchronous = any(inspect.iscoroutinefunction(c.function) for c in contributors)

    if asynchronous:

        async def gather_async(params: Any) -> Any:
            answers: list[Any] = []
            for contributor in contributors:
                try:
                    answer = contributor.function(params)
                    if inspect.isawaitable(answer):
                        answer = await answer
                except Exception:
                    log.exception("%s failed", contributor.name)
                    continue
                if chain and answer is not None:
                    params = answer
                answers.append(answer)
            return params if chain else merge_answers(method, answers)

        gather_async.__name__ = f"gather_{method.replace('/', '_')}"
        return gather_async

    def gather(params: Any) -> Any:
        answers: list[Any] = []
        for contributor in contributors:
            try:
                answer = contributor.function(params)
            except Exception:
                log.exception("%s failed", contributor.name)
                continue
            if chain and answer is not None:
                params = answer
            answers.append(answer)
        return params if chain else merge_answers(method, answers)

    gather.__name__ = f"gather_{method.replace('/', '_')}"
    return gather
