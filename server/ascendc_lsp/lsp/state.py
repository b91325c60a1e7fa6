"""The one owner of per-document state (after clangd's TUScheduler).

Per open URI the store keeps the current version (`DocumentState`: text, tree, model, budgets, findings) and what
outlives a version (the last built model for completion, the toolchain findings of the last save). Every feature
reads documents from here; nothing else keeps per-document state.

* The model of a version is built once, under the version's lock, by whoever asks first (the
  diagnostics worker or a request on the event loop): the other caller waits for that build instead of repeating it.
* A version is current until the next change; `is_current` is how publishers drop a stale version's results.
* `close` drops everything of the URI: the states of older versions are referenced by no one after that.
* An edit that only touches a comment or whitespace between tokens keeps the previous version's findings, moved
  with the text (`carry_findings`): the rules never read comments, so re-checking would give the same findings.
* When the session traces edits (lsp/server.py EDIT_TRACE_ENV, for bench/lsp_latency.py), each version carries
  the times of its stages (`timing`) and the session's `WorkLog` records the other work that ran meanwhile
  (model builds, garbage collections, requests): why a given edit was slow.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import tree_sitter

from ascendc_lsp.checks.incremental import CheckedVersion, Shift, shift_finding
from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.syntax.document import SourceDocument, common_prefix, common_suffix
from ascendc_lsp.syntax.model import DocumentModel, build_model

if TYPE_CHECKING:
    from ascendc_lsp.hardware.budget import ClassBudget


class WorkLog:
    """The session's recent stretches of work besides an edit's own stages (what, start, end in perf_counter
    seconds), bounded: an edit's trace lists those that overlapped it."""

    def __init__(self, size: int = 4096) -> None:
        self._intervals: deque[tuple[str, float, float]] = deque(maxlen=size)
        self._lock = threading.Lock()  # appended from worker threads and the event loop

    def add(self, what: str, start: float, end: float) -> None:
        with self._lock:
            self._intervals.append((what, start, end))

    def during(self, start: float, end: float) -> list[tuple[str, float, float]]:
        with self._lock:
            return [item for item in self._intervals if item[2] > start and item[1] < end]


@dataclass
class DocumentHistory:
    """What a document keeps across its versions (freed with the document)."""

    last_model: DocumentModel | None = None  # the newest model built, of this or an older version
    clean_model: DocumentModel | None = None  # the newest model of a version without syntax errors
    toolchain_findings: list[Diagnostic] = field(default_factory=list)  # from the last on-save compile
    checked: CheckedVersion | None = None  # the last rules run: the next code edit reuses its untouched units
    # work scheduled for the document (lsp/features/diagnostics.py, knowledge.py); `cancel_work` on close
    check_timer: asyncio.TimerHandle | None = None  # the debounced rules run
    last_check: float = 0.0  # event-loop time the last rules run started
    checking: bool = False  # a rules run is in flight (one at a time per document)
    recheck: bool = False  # a newer version arrived during it: run again when it ends
    warm_timer: asyncio.TimerHandle | None = None  # builds the model of a version whose findings were carried
    # builds the model the waiting requests (outline, lenses, inlay hints) answer from (lsp/server.py modelled_state)
    model_task: asyncio.Task[DocumentState | None] | None = None
    compile_task: asyncio.Task[None] | None = None  # the on-save toolchain compile
    compile_cancel: threading.Event | None = None  # kills that compile's process
    work_log: WorkLog | None = None  # the session's, when it traces edits

    def cancel_work(self) -> None:
        if self.check_timer is not None:
            self.check_timer.cancel()
            self.check_timer = None
        self.recheck = False
        if self.warm_timer is not None:
            self.warm_timer.cancel()
            self.warm_timer = None
        if self.model_task is not None:
            self.model_task.cancel()
            self.model_task = None
        if self.compile_cancel is not None:
            self.compile_cancel.set()
            self.compile_cancel = None
        if self.compile_task is not None:
            self.compile_task.cancel()
            self.compile_task = None

    def remember(self, model: DocumentModel) -> None:
        if self.last_model is None or self.last_model.document.version <= model.document.version:
            self.last_model = model
        if not model.document.tree.root_node.has_error:
            self.clean_model = model


class DocumentState:
    """One version of one open document. Derived values are computed at most once."""

    __slots__ = ("__weakref__", "_lock", "_model", "document", "findings", "history", "how", "timing", "uri")

    def __init__(self, uri: str, document: SourceDocument, history: DocumentHistory) -> None:
        self.uri = uri
        self.document = document
        self.history = history
        # None until the rules ran on this version (or the previous version's findings were carried over)
        self.findings: list[Diagnostic] | None = None
        self._model: DocumentModel | None = None
        self._lock = threading.Lock()
        # when the session traces edits: perf_counter time of each stage reached ("received", "synced",
        # "scheduled", "check started", "checked", "published") and how the findings were found
        self.timing: dict[str, float] | None = None
        self.how = ""

    def mark(self, stage: str) -> None:
        """Note that this version reached `stage` now (only when the session traces edits)."""
        if self.timing is not None:
            self.timing[stage] = time.perf_counter()

    @property
    def version(self) -> int:
        return self.document.version

    @property
    def model(self) -> DocumentModel:
        model = self._model
        if model is not None:
            return model
        with self._lock:
            if self._model is None:
                started = time.perf_counter()
                self._model = build_model(self.document)
                self.history.remember(self._model)
                if self.history.work_log is not None:
                    what = f"model of version {self.version} ({threading.current_thread().name})"
                    self.history.work_log.add(what, started, time.perf_counter())
            return self._model

    def built_model(self) -> DocumentModel | None:
        """The model if it is already built (never builds)."""
        return self._model

    @property
    def budgets(self) -> list[ClassBudget]:
        """UB/L1 budgets per class (hardware/budget.py), memoised on the version's model: the memory rules, hover,
        completion, the lenses and the status bar share one computation."""
        from ascendc_lsp.hardware.budget import class_budgets

        return class_budgets(self.model)


class DocumentStore:
    """The open documents, by URI."""

    def __init__(self, work_log: WorkLog | None = None) -> None:
        self._states: dict[str, DocumentState] = {}
        self.work_log = work_log  # set when the session traces edits

    def update(self, uri: str, text: str, version: int, path: str = "") -> DocumentState:
        """The new current version of `uri` (opened when it was not). The tree is re-parsed incrementally from the
        previous version's."""
        previous = self._states.get(uri)
        if previous is None:
            history = DocumentHistory(work_log=self.work_log)
            state = DocumentState(uri, SourceDocument(text, path=path, version=version), history)
        else:
            document = SourceDocument(
                text, path=path or previous.document.path, version=version, previous=previous.document
            )
            state = DocumentState(uri, document, previous.history)
            if previous.findings is not None:
                state.findings = carry_findings(previous.document, document, previous.findings)
                if state.findings is not None:
                    state.how = "carried (a comment or spacing edit)"
        self._states[uri] = state
        return state

    def close(self, uri: str) -> None:
        """Forget `uri`: its scheduled work is cancelled and nothing of it stays referenced here."""
        state = self._states.pop(uri, None)
        if state is not None:
            state.history.cancel_work()

    def get(self, uri: str) -> DocumentState | None:
        return self._states.get(uri)

    def is_current(self, state: DocumentState) -> bool:
        return self._states.get(state.uri) is state

    def __contains__(self, uri: str) -> bool:
        return uri in self._states

    def __len__(self) -> int:
        return len(self._states)

    def uris(self) -> list[str]:
        return list(self._states)

    def recent_model(self, uri: str) -> DocumentModel | None:
        """The current version's model when built, else the newest built one (requests that can answer from a
        slightly older model, like completion, need not wait for a build)."""
        state = self._states.get(uri)
        if state is None:
            return None
        return state.built_model() or state.history.last_model or state.model

    def clean_model(self, uri: str) -> DocumentModel | None:
        state = self._states.get(uri)
        return state.history.clean_model if state is not None else None

    def set_toolchain_findings(self, uri: str, findings: list[Diagnostic]) -> DocumentState | None:
        """Record an on-save compile's findings; the current state (to publish) or None when the URI is closed."""
        state = self._states.get(uri)
        if state is not None:
            state.history.toolchain_findings = findings
        return state


# ------------------------------------------------------------------------------------------- comment-only edits


def _trivia_edit(old: SourceDocument, new: SourceDocument) -> Shift | None:
    """The edit from `old` to `new` when it lies inside one comment or between tokens (whitespace), in both
    versions, outside any syntax error; None otherwise (or when the documents are not one edit apart)."""
    a, b = old.parsed, new.parsed
    start = common_prefix(a, b)
    suffix = common_suffix(a, b, start)
    old_end, new_end = len(a) - suffix, len(b) - suffix
    if start == old_end == new_end:
        at = old.lines.position(start)
        return Shift(at, at, at)  # the same text (a didChange that changed nothing): every position stays
    # The enclosing comment (or node) must be the same one in both versions, only longer or shorter by the
    # edit: a `\\` typed at the end of a `//` comment, for one, makes the next line part of it.
    before, after = _inside_trivia(old, start, old_end), _inside_trivia(new, start, new_end)
    if before is None or before != after:
        return None
    return Shift(old.lines.position(start), old.lines.position(old_end), new.lines.position(new_end))


def _inside_trivia(document: SourceDocument, start: int, end: int) -> tuple[str, int, int] | None:
    """(node type, bytes before the edit, bytes after it) of the comment or node around an edit of trivia."""
    data, parsed = document.data, document.parsed
    changed = parsed[start:end]
    root = document.tree.root_node
    node = root.descendant_for_byte_range(start, end)
    if end == start and start > 0 and (node is None or node.type != "comment"):
        node = root.descendant_for_byte_range(start - 1, start)  # an insertion at the end of a comment
        if node is not None and (node.type != "comment" or node.end_byte != start):
            node = root.descendant_for_byte_range(start, end)
    if node is None:
        return None
    if node.type == "comment":
        if not (node.start_byte <= start and end <= node.end_byte):
            return None
        # A comment in the rewritten bytes that is not one in the source is AscendC syntax the dialect layer hid
        # from tree-sitter (a `<<<...>>>` launch): the rules read it.
        if data[node.start_byte : node.start_byte + 2] not in (b"//", b"/*"):
            return None
    elif changed.strip(b" \t") or node.child_count == 0:
        return None  # only spaces and tabs between two tokens (not inside a token, not a line break)
    # Nothing inside an ERROR node: syntax-error messages quote the text around.
    walk: tree_sitter.Node | None = node
    while walk is not None:
        if walk.is_error or walk.is_missing:
            return None
        walk = walk.parent
    if root.has_error:
        return None
    return (node.type, start - node.start_byte, node.end_byte - end)


def carry_findings(old: SourceDocument, new: SourceDocument, findings: list[Diagnostic]) -> list[Diagnostic] | None:
    """`findings` of `old`, moved to their place in `new`, when the edit cannot change what the rules see
    (comments and spacing); None when the new version must be checked."""
    if new.path != old.path:
        return None
    shift = _trivia_edit(old, new)
    if shift is None:
        return None
    moved: list[Diagnostic] = []
    for finding in findings:
        carried = shift_finding(finding, shift)
        if carried is None:
            return None
        moved.append(carried)
    return moved
