"""Re-check only what an edit can change: findings of the untouched top-level units are reused.

A document is cut into its top-level units (the children of the translation unit: a class, a function, a global
constant, a macro, an alias...). A unit *declares* the top-level names it introduces and *mentions* every
identifier in its text. Two units depend on each other when one mentions a name the other declares; the
dependency is taken both ways (a kernel entry instantiating a class template binds the class's parameters, the
class's findings then depend on the entry), and transitively: the units that must be checked again are the
connected components, in the old and in the new version, of the units the edit touched.

The check runs on a copy of the new text where every other unit is blanked (spaces, line breaks kept), so byte
offsets and positions are those of the real document; the other units' findings are the previous version's,
moved with the text. Anything this cannot vouch for is a full check instead:

* a changed unit that declares nothing (an `#include`, `using namespace`, a macro call the parser cannot place:
  they can change how everything else reads), a syntax error in either version, different options or project;
* a finding, old or new, outside the units that declare something (file-level findings such as a missing
  kernel entry or an internal error are computed on the whole file);
* most of the file being dirty anyway.

tests/test_incremental_check.py compares, edit after edit on public kernels and examples/, these findings with a
fresh `check_document` of the same text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import tree_sitter

from ascendc_lsp.diagnostics import Diagnostic, Fix, Related, TextEdit
from ascendc_lsp.syntax.document import SourceDocument, common_prefix, common_suffix
from ascendc_lsp.syntax.positions import Position, Span

_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
# A message that quotes a line number ("... the DataCopy on line 12") changes when lines move: not reused then.
_LINE_REFERENCE = re.compile(r"\bline \d")
_LAUNCH = "<<<"  # a pseudo-name: mentioned by a unit holding a kernel launch
_TAIL = "<tail>"  # a pseudo-name: mentioned by a unit with a `%` or a word of tail handling
# Rules that match library calls across the whole file rather than through names the file declares: every unit
# mentioning one of the first words depends on every other such unit, and on every unit mentioning one of the
# second words. checks/rules/sync.py pairs SetFlag/WaitFlag by event anywhere in the file, and sizes event ids
# by whether the file has a TPipe. A rule that adds such a file-wide match adds its words here.
_COUPLINGS: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (frozenset({"SetFlag", "WaitFlag", "set_flag", "wait_flag"}), frozenset({"TPipe", "TQue", "TQueBind"})),
    # checks/rules/entry.py: whether a kernel must be extern "C" depends on a `<<<` launch anywhere in the file
    # and multicore.launches() reads every launch of the file (its block count) for the kernels' multicore rules
    (frozenset({_LAUNCH, "ICPU_RUN_KF", "ACLRT_LAUNCH_KERNEL"}), frozenset({"__global__", "GetBlockIdx", "GetBlockNum"})),
    # checks/rules/multicore.py ASC030: a split over GetBlockNum() is fine when tail code is anywhere in the file
    (frozenset({"GetBlockNum"}), frozenset({_TAIL})),
)
# Findings about the whole file, wherever they are placed (checks/engine.py): never reused, never partial.
# ASC031 (checks/rules/namespace.py) is one finding per API name for its uses across the whole file; ASC032 is
# about the file's includes, placed at the first AscendC name anywhere.
FILE_LEVEL_CODES = frozenset({"syntax", "internal-error", "too-deep", "too-wide", "ASC031", "ASC032"})
# Past this size a file is checked whole (a check takes seconds anyway; the bookkeeping would copy it).
_MAX_BYTES = 2_000_000
# Past this share of dirty bytes a full check is about as fast and needs no bookkeeping.
_MAX_DIRTY_SHARE = 0.6

# The declarator shapes a name is found under (int *x[4] = ..., T& f(...)...).
_DECLARATOR_WRAPPERS = frozenset({
    "init_declarator", "pointer_declarator", "reference_declarator", "array_declarator",
    "parenthesized_declarator", "attributed_declarator", "function_declarator",
})  # fmt: skip
_NAMED_TYPES = frozenset({"class_specifier", "struct_specifier", "union_specifier", "enum_specifier"})


# ------------------------------------------------------------------------------------------------ moving findings


@dataclass(frozen=True)
class Shift:
    """An edit of bytes [start, old_end) into [start, new_end), as positions: everything at or after `old_end`
    moves by `lines`, and on `old_end`'s line also by `columns`."""

    start: Position
    old_end: Position
    new_end: Position

    def move(self, position: Position) -> Position | None:
        key = (position.line, position.character)
        if key <= (self.start.line, self.start.character):
            return position
        if key < (self.old_end.line, self.old_end.character):
            return None  # inside the edited text
        if position.line == self.old_end.line:
            return Position(self.new_end.line, self.new_end.character + position.character - self.old_end.character)
        return Position(position.line + self.new_end.line - self.old_end.line, position.character)

    def span(self, span: Span) -> Span | None:
        start, end = self.move(span.start), self.move(span.end)
        if start is None or end is None:
            return None
        return Span(start, end)


def shift_finding(finding: Diagnostic, shift: Shift) -> Diagnostic | None:
    """`finding` with its span, related locations and fix edits moved by `shift`; None when one of them lies
    inside the edited text."""
    span = shift.span(finding.span)
    if span is None:
        return None
    related: list[Related] = []
    for item in finding.related:
        item_span = shift.span(item.span)
        if item_span is None:
            return None
        related.append(replace(item, span=item_span))
    fixes: list[Fix] = []
    for fix in finding.fixes:
        edits: list[TextEdit] = []
        for edit in fix.edits:
            edit_span = shift.span(edit.span)
            if edit_span is None:
                return None
            edits.append(replace(edit, span=edit_span))
        fixes.append(replace(fix, edits=tuple(edits)))
    return replace(finding, span=span, related=related, fixes=fixes)


def edit_between(old: SourceDocument, new: SourceDocument) -> tuple[int, int, int]:
    """(start, old_end, new_end) bytes of the one contiguous edit that turns `old` into `new`."""
    a, b = old.data, new.data
    start = common_prefix(a, b)
    suffix = common_suffix(a, b, start)
    return start, len(a) - suffix, len(b) - suffix


# ---------------------------------------------------------------------------------------------------- the units


@dataclass(frozen=True, slots=True)
class QueueUse:
    """How a unit uses queue members by name: the queue rules (checks/rules/queues.py) match those across the
    whole file by name, whatever class declares them."""

    declared: frozenset[str] = frozenset()  # TQue/TQueBind members or variables it declares
    passed: frozenset[str] = frozenset()  # names it passes as a call argument (not to InitBuffer): may escape
    dequeued: frozenset[str] = frozenset()  # names it calls DeQue on


_NO_QUEUES = QueueUse()
_QUEUE_DECLARATION = re.compile(rb"\bTQue(?:Bind)?\s*<[^;{}()]*>\s*([^;{}()=]+)")
_ARGUMENT = re.compile(rb"(\w+)?\s*(?:<[^;{}()]*>)?\s*\(|,")
_DEQUE = re.compile(rb"\b(\w+)\s*(?:\.|->)\s*DeQue\b")


def _queue_use(text: bytes) -> QueueUse:
    if b"TQue" not in text and b"DeQue" not in text:
        return _NO_QUEUES
    declared = {
        name.decode() for match in _QUEUE_DECLARATION.finditer(text)
        for name in re.findall(rb"\w+", match.group(1))
    }  # fmt: skip
    passed: set[str] = set()
    for match in _ARGUMENT.finditer(text):
        if match.group(1) == b"InitBuffer":
            continue
        argument = re.match(rb"\s*[&*]*\s*(?:this\s*->\s*)?(\w+)\s*[,)]", text[match.end() :])
        if argument is not None:
            passed.add(argument.group(1).decode())
    dequeued = {m.group(1).decode() for m in _DEQUE.finditer(text)}
    return QueueUse(frozenset(declared), frozenset(passed), frozenset(dequeued))


@dataclass(frozen=True, slots=True)
class Unit:
    start: int
    end: int
    kind: str
    declares: frozenset[str]  # empty: a context unit (include, using, unknown): never blanked, never reused alone
    mentions: frozenset[str]
    queues: QueueUse = _NO_QUEUES
    methods: frozenset[str] = frozenset()  # member functions of the classes it defines


def _identifiers(data: bytes) -> frozenset[str]:
    return frozenset(m.decode("ascii") for m in _IDENTIFIER.findall(data))


def _declarator_names(
    node: tree_sitter.Node | None, data: bytes, function: bool = False
) -> set[str] | None:
    """The name a declarator introduces; None for a shape we do not know (the caller then over-approximates).
    `function`: the declarator of a function definition (its parameters declare nothing at top level)."""
    while node is not None and node.type in _DECLARATOR_WRAPPERS:
        if node.type == "function_declarator" and not function:
            return None  # a prototype, or a macro call read as one: its arguments may be names it declares
        inner = node.child_by_field_name("declarator")
        if inner is None:
            inner = next((c for c in node.named_children if c.type not in ("type_qualifier", "attribute_declaration")), None)
        node = inner
    if node is None:
        return set()
    if node.type in ("identifier", "field_identifier", "type_identifier"):
        return {data[node.start_byte : node.end_byte].decode("utf-8", "replace")}
    if node.type in ("qualified_identifier", "destructor_name", "operator_name", "template_function"):
        return set(_identifiers(data[node.start_byte : node.end_byte]))
    return None


def _type_names(node: tree_sitter.Node | None, data: bytes) -> set[str]:
    """The class/struct/union/enum a declaration's type defines or names (and an enum's enumerators)."""
    if node is None or node.type not in _NAMED_TYPES:
        return set()
    names: set[str] = set()
    name = node.child_by_field_name("name")
    if name is not None:
        names |= _identifiers(data[name.start_byte : name.end_byte])
    if node.type == "enum_specifier":
        body = node.child_by_field_name("body")
        for child in body.named_children if body is not None else ():
            if child.type == "enumerator":
                enumerator = child.child_by_field_name("name")
                if enumerator is not None:
                    names.add(data[enumerator.start_byte : enumerator.end_byte].decode("utf-8", "replace"))
    return names


def _declared(node: tree_sitter.Node, data: bytes) -> set[str] | None:
    """Top-level names `node` declares; empty for a node that declares nothing; None: unknown shape."""
    kind = node.type
    if kind == "template_declaration":
        inner = [c for c in node.named_children if c.type != "template_parameter_list"]
        if len(inner) != 1:
            return None
        return _declared(inner[0], data)
    if kind == "function_definition":
        return _declarator_names(node.child_by_field_name("declarator"), data, function=True)
    if kind in _NAMED_TYPES:
        return _type_names(node, data) or None
    if kind in ("declaration", "type_definition", "field_declaration"):
        names = _type_names(node.child_by_field_name("type"), data)
        for child in node.children_by_field_name("declarator"):
            found = _declarator_names(child, data)
            if found is None:
                return None
            names |= found
        return names or None
    if kind == "alias_declaration":
        name = node.child_by_field_name("name")
        return {data[name.start_byte : name.end_byte].decode("utf-8", "replace")} if name is not None else None
    if kind in ("preproc_def", "preproc_function_def"):
        name = node.child_by_field_name("name")
        return {data[name.start_byte : name.end_byte].decode("utf-8", "replace")} if name is not None else None
    if kind == "linkage_specification":
        body = node.child_by_field_name("body")
        if body is None:
            return None
        if body.type == "declaration_list":
            return _declared_all(body.named_children, data)
        return _declared(body, data)
    if kind == "namespace_definition":
        body = node.child_by_field_name("body")
        inside = _declared_all(body.named_children, data) if body is not None else set()
        name = node.child_by_field_name("name")
        if inside is None:
            return None
        if name is not None:
            inside |= _identifiers(data[name.start_byte : name.end_byte])
        return inside
    if kind in ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"):
        # What the branches declare (the condition only reads names).
        condition = node.child_by_field_name("condition") or node.child_by_field_name("name")
        return _declared_all((c for c in node.named_children if c != condition), data)
    if kind in ("comment", "preproc_include", "using_declaration", "preproc_call", ";"):
        return set()
    return None


def _declared_all(nodes: Iterable[tree_sitter.Node], data: bytes) -> set[str] | None:
    names: set[str] = set()
    for node in nodes:
        found = _declared(node, data)
        if found is None:
            return None
        names |= found
    return names


def _has_tail_code(text: bytes) -> bool:
    from ascendc_lsp.checks.rules.multicore import TAIL_WORDS

    return b"%" in text or TAIL_WORDS.search(text) is not None


# (node type, source bytes, rewritten bytes) of a top-level node -> (declares, mentions, queue use)
UnitNames = dict[tuple[str, bytes, bytes], tuple[frozenset[str], frozenset[str], QueueUse, frozenset[str]]]


def units_of(document: SourceDocument, known: UnitNames | None = None) -> list[Unit]:
    """The top-level units of `document`, in order. A node of unknown shape is taken to declare every name it
    mentions (more dependencies, never fewer). `known`: the names of the previous version's units (most of a
    file is unchanged between two versions)."""
    data, parsed = document.data, document.parsed
    units: list[Unit] = []
    previous_end = 0
    for node in document.tree.root_node.children:
        start, end, kind = node.start_byte, node.end_byte, node.type
        # Qualifiers the dialect layer blanked (`__global__ __aicore__` before a function) belong to the unit.
        lead = start
        while lead > previous_end and parsed[lead - 1] in b" \t\r\n":
            lead -= 1
        if data[lead:start].strip():
            start = lead + (len(data[lead:start]) - len(data[lead:start].lstrip()))
        previous_end = end
        key = (kind, data[start:end], parsed[start:end])
        names = known.get(key) if known is not None else None
        if names is None:
            # A comment reads nothing (the dialect's launch-as-comment is no comment in the source bytes).
            comment = kind == "comment" and key[1][:2] in (b"//", b"/*")
            mentions = frozenset() if comment else _identifiers(key[1])
            if b"<<<" in key[1]:
                mentions |= {_LAUNCH}
            if _has_tail_code(key[1]):
                mentions |= {_TAIL}
            declared = _declared(node, data)
            if declared is None:
                # Unknown shape: a context unit when it names nothing, else a unit that may declare all it names.
                declares = mentions if kind not in ("ERROR", "expression_statement") else frozenset()
            else:
                declares = frozenset(declared)
            names = (declares, mentions, _queue_use(key[1]), _methods(node, data))
        units.append(Unit(start, end, kind, *names))
    return units


def _methods(node: tree_sitter.Node, data: bytes) -> frozenset[str]:
    """Names of the member functions of the classes `node` defines (the rules' sets of "functions the file
    defines" hold methods too: checks/rules/sync.py, scalar.py, namespace.py)."""
    if node.type == "template_declaration":
        inner = [c for c in node.named_children if c.type != "template_parameter_list"]
        return _methods(inner[0], data) if len(inner) == 1 else frozenset()
    if node.type == "declaration":
        node = node.child_by_field_name("type") or node
    if node.type not in _NAMED_TYPES:
        return frozenset()
    body = node.child_by_field_name("body")
    names: set[str] = set()
    for member in body.named_children if body is not None else ():
        if member.type == "template_declaration":
            member = next((c for c in member.named_children if c.type != "template_parameter_list"), member)
        if member.type in ("function_definition", "field_declaration", "declaration"):
            declarator = member.child_by_field_name("declarator")
            if (declarator is not None and declarator.type == "function_declarator") or member.type == "function_definition":
                found = _declarator_names(declarator, data, function=True)
                names |= found if found is not None else set(_identifiers(data[member.start_byte : member.end_byte]))
    return frozenset(names)


def _unit_names(document: SourceDocument, units: list[Unit]) -> UnitNames:
    data, parsed = document.data, document.parsed
    return {
        (u.kind, data[u.start : u.end], parsed[u.start : u.end]): (u.declares, u.mentions, u.queues, u.methods) for u in units
    }


def _components(units: list[Unit]) -> list[int]:
    """The dependency component of each unit (an index; units of one component share it)."""
    parent = list(range(len(units)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(a: int, b: int) -> None:
        a, b = find(a), find(b)
        if a != b:
            parent[a] = b

    # The units declaring one name are joined (each also mentions it); a unit mentioning it joins the first.
    declarer: dict[str, int] = {}
    for index, unit in enumerate(units):
        for name in unit.declares:
            first = declarer.setdefault(name, index)
            if first != index:
                union(index, first)
    for index, unit in enumerate(units):
        for name in unit.mentions:
            other = declarer.get(name)
            if other is not None:
                union(index, other)
    # Queues by name, across classes: a queue passed to other code counts as escaping in every class declaring
    # one of that name; a DeQue on a name anywhere decides the fix offered for every queue of that name.
    queue_declarers: dict[str, list[int]] = {}
    for index, unit in enumerate(units):
        for name in unit.queues.declared:
            queue_declarers.setdefault(name, []).append(index)
    for index, unit in enumerate(units):
        for name in unit.queues.passed:
            for other in queue_declarers.get(name, ()):
                union(index, other)
    dequeuers: dict[str, list[int]] = {}
    for index, unit in enumerate(units):
        for name in unit.queues.dequeued:
            dequeuers.setdefault(name, []).append(index)
    for name, declaring in queue_declarers.items():
        dequeuing = dequeuers.get(name, [])
        if dequeuing and any(name not in units[i].queues.dequeued for i in declaring):
            for index in [*declaring, *dequeuing]:
                union(index, declaring[0])
    # A call to a name only some other class defines as a method: that class's methods count as the file's own
    # functions for the rules (a user function may synchronise; a libm or API name defined here is not the
    # library's).
    # Only a name the unit's own component does not define matters (the component is always checked whole).
    method_declarers: dict[str, list[int]] = {}
    for index, unit in enumerate(units):
        for name in unit.methods:
            method_declarers.setdefault(name, []).append(index)
    if method_declarers:
        provided: dict[int, set[str]] = {}
        for index, unit in enumerate(units):
            provided.setdefault(find(index), set()).update(unit.methods)
        for index, unit in enumerate(units):
            own = provided[find(index)]
            for name in unit.mentions & method_declarers.keys():
                if name not in own:
                    for other in method_declarers[name]:
                        union(index, other)
    for triggers, also in _COUPLINGS:
        coupled = [i for i, unit in enumerate(units) if not unit.mentions.isdisjoint(triggers)]
        if coupled:
            coupled += [i for i, unit in enumerate(units) if not unit.mentions.isdisjoint(also)]
            for index in coupled[1:]:
                union(index, coupled[0])
    return [find(i) for i in range(len(units))]


def _components_after(previous: CheckedVersion, units: list[Unit]) -> list[int]:
    """`_components(units)`, taken from `previous` when every unit, in order, declares, mentions, uses queues and
    defines methods as the previous version's did (an edit of a value or inside a body: the usual keystroke):
    the components depend on nothing else. Saves ~2 ms of a ~10 ms check on a 1,000-line kernel."""
    old = previous.units
    if len(old) == len(units) and all(
        (a.declares, a.mentions, a.queues, a.methods) == (b.declares, b.mentions, b.queues, b.methods)
        for a, b in zip(old, units, strict=True)
    ):
        return previous.components
    return _components(units)


# --------------------------------------------------------------------------------------------- the check itself


@dataclass(frozen=True)
class CheckedVersion:
    """What the next version's check may reuse: the findings of a version and how its file was cut up."""

    document: SourceDocument
    settings_key: object  # options and project context the findings were computed with
    findings: list[Diagnostic]
    units: list[Unit]
    components: list[int]
    owners: list[int]  # for each finding, the index of the unit it lies in (-1: none)
    partial: SourceDocument | None = None  # the last blanked copy checked (its tree speeds up the next parse)
    incremental: bool = False  # these findings reused the previous version's (a full check: False)
    unit_names: UnitNames | None = None  # what each unit declares and mentions, by its text
    # how they were found: "reused" (no unit to check again), "partial: N of M units" or "full: <why>"
    # (bench/lsp_latency.py --split and the server's edit trace report it per edit)
    how: str = "full: first check"


def _owner(document: SourceDocument, starts: list[int], units: list[Unit], finding: Diagnostic) -> int:
    if finding.code in FILE_LEVEL_CODES:
        return -1
    offset = document.lines.offset(finding.span.start)
    index = bisect_right(starts, offset) - 1
    if index >= 0 and units[index].start <= offset < max(units[index].end, units[index].start + 1):
        return index
    return -1


def _owners(document: SourceDocument, units: list[Unit], findings: list[Diagnostic]) -> list[int]:
    starts = [unit.start for unit in units]
    return [_owner(document, starts, units, finding) for finding in findings]


def checked_version(
    document: SourceDocument, settings_key: object, findings: list[Diagnostic], partial: SourceDocument | None = None
) -> CheckedVersion:
    units = units_of(document)
    return CheckedVersion(
        document, settings_key, findings, units, _components(units), _owners(document, units, findings), partial,
        unit_names=_unit_names(document, units),
    )


@dataclass(frozen=True)
class _Plan:
    dirty: list[int]  # indices of new units to check again
    reused: list[Diagnostic]  # the old findings of the other units, moved


def _plan(previous: CheckedVersion, document: SourceDocument, units: list[Unit], components: list[int]) -> _Plan | str:
    """What to check again and what to reuse; a string (why) when only a full check can vouch for the findings."""
    old = previous.document
    start, old_end, new_end = edit_between(old, document)
    delta = new_end - old_end
    old_by_range = {(u.start, u.end, u.kind): i for i, u in enumerate(previous.units)}
    new_to_old: dict[int, int] = {}
    changed_new: list[int] = []
    for index, unit in enumerate(units):
        counterpart: int | None = None
        if unit.end < start:
            counterpart = old_by_range.get((unit.start, unit.end, unit.kind))
        elif unit.start > new_end:
            counterpart = old_by_range.get((unit.start - delta, unit.end - delta, unit.kind))
        if counterpart is None or previous.units[counterpart].mentions != unit.mentions:
            changed_new.append(index)
        else:
            new_to_old[index] = counterpart
    old_to_new = {o: n for n, o in new_to_old.items()}
    changed_old = [i for i in range(len(previous.units)) if i not in old_to_new]
    # Comments between units are read by no rule (the comment-edit carry in lsp/state.py relies on it too).
    changed_new = [i for i in changed_new if not _is_comment(units[i], document)]
    changed_old = [i for i in changed_old if not _is_comment(previous.units[i], old)]
    if any(not units[i].declares for i in changed_new) or any(not previous.units[i].declares for i in changed_old):
        return "a changed unit declares nothing"  # an include, a using directive, an unplaceable macro call...
    dirty_names: set[str] = set()
    for i in changed_new:
        dirty_names |= units[i].declares
    for i in changed_old:
        dirty_names |= previous.units[i].declares
    dirty = set(changed_new) | {i for i, u in enumerate(units) if not u.mentions.isdisjoint(dirty_names)}
    old_dirty = set(changed_old)
    # Close over the components of both versions until nothing is added.
    while True:
        new_components = {components[i] for i in dirty}
        old_dirty |= {new_to_old[i] for i in dirty if i in new_to_old}
        old_components = {previous.components[i] for i in old_dirty}
        old_dirty = {i for i, c in enumerate(previous.components) if c in old_components}
        grown = {i for i, c in enumerate(components) if c in new_components}
        grown |= {old_to_new[i] for i in old_dirty if i in old_to_new}
        if grown == dirty:
            break
        dirty = grown
    if sum(units[i].end - units[i].start for i in dirty) > _MAX_DIRTY_SHARE * max(1, len(document.data)):
        return "most of the file is reached by the edit"
    shift = Shift(old.lines.position(start), old.lines.position(old_end), document.lines.position(new_end))
    reused: list[Diagnostic] = []
    for finding, owner in zip(previous.findings, previous.owners, strict=True):
        if owner < 0 or not previous.units[owner].declares:
            return "a file-level finding"  # only a full check recomputes it
        if owner in old_dirty:
            continue
        moved = shift_finding(finding, shift)
        if moved is None:
            return "a finding inside the edited text"
        if moved.span.start.line != finding.span.start.line and _LINE_REFERENCE.search(finding.message):
            return "a finding quotes a line number that moved"
        reused.append(moved)
    return _Plan(sorted(dirty), reused)


def _is_comment(unit: Unit, document: SourceDocument) -> bool:
    # A comment in the rewritten bytes that is not one in the source is AscendC syntax the dialect layer hid from
    # tree-sitter (a `<<<...>>>` launch): the rules read that.
    return unit.kind == "comment" and document.data[unit.start : unit.start + 2] in (b"//", b"/*")


def _blanked_spans(document: SourceDocument, units: list[Unit], keep: set[int]) -> list[tuple[int, int]] | None:
    """The units to blank: every one that declares something and is not in `keep`; None when blanking would move
    a position (a non-ASCII character blanked before text kept on its line: columns count UTF-16 units)."""
    data = document.data
    spans: list[tuple[int, int]] = []
    for index, unit in enumerate(units):
        if index in keep or not unit.declares:
            continue
        if not data[unit.start : unit.end].isascii():
            line_end = data.find(b"\n", unit.end)
            if data[unit.end : line_end if line_end >= 0 else len(data)].strip():
                return None
        spans.append((unit.start, unit.end))
    return spans


def check_incrementally(
    previous: CheckedVersion | None,
    document: SourceDocument,
    settings_key: object,
    full_check: Callable[[SourceDocument], list[Diagnostic]],
    sort_key: Callable[[Diagnostic], tuple[int, int, int, str, str]],
) -> CheckedVersion:
    """The findings of `document`: those of a `full_check` of it, computed from `previous` where the edit leaves
    units untouched (see the module docstring)."""

    def full(why: str) -> CheckedVersion:
        findings = full_check(document)
        if len(document.data) > _MAX_BYTES:
            return CheckedVersion(document, settings_key, findings, [], [], [], how=f"full: {why}")  # nothing kept
        return replace(checked_version(document, settings_key, findings), how=f"full: {why}")

    if len(document.data) > _MAX_BYTES:
        return full("a large file")
    if previous is None or not previous.units:
        return full("no previous check")
    if previous.settings_key != settings_key or previous.document.path != document.path:
        return full("other options, project or path")
    if previous.document.tree.root_node.has_error or document.tree.root_node.has_error:
        return full("a syntax error")
    units = units_of(document, previous.unit_names)
    components = _components_after(previous, units)
    plan = _plan(previous, document, units, components)
    if isinstance(plan, str):
        return full(plan)
    if not plan.dirty:
        findings = sorted(plan.reused, key=sort_key)
        return CheckedVersion(document, settings_key, findings, units, components,
                              _owners(document, units, findings), previous.partial, incremental=True,
                              unit_names=_unit_names(document, units), how="reused")  # fmt: skip
    spans = _blanked_spans(document, units, set(plan.dirty))
    if spans is None:
        return full("a non-ASCII unit would move a position")
    partial = document.blanked(spans, previous=previous.partial)
    if partial.tree.root_node.has_error:
        return full("the blanked copy does not parse")
    fresh = full_check(partial)
    starts = [unit.start for unit in units]
    dirty = set(plan.dirty)
    for finding in fresh:
        owner = _owner(document, starts, units, finding)
        if owner not in dirty or not units[owner].declares:
            return full("a finding about the file or a blanked unit")  # its absence says nothing
    findings = sorted([*plan.reused, *fresh], key=sort_key)
    return CheckedVersion(document, settings_key, findings, units, components, _owners(document, units, findings),
                          partial, incremental=True, unit_names=_unit_names(document, units),
                          how=f"partial: {len(plan.dirty)} of {len(units)} units")  # fmt: skip
