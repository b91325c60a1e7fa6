"""Knowledge entries: typed model, loader and validator.

An entry is one YAML file `knowledge/entries/<id>.yaml` (schema in `knowledge/README.md`). The loader reads
every file it is given, checks every field, and returns the entries that passed together with a list of
`ValidationError`s that name the file and the field (dotted path) at fault. It never raises on bad data.

The taxonomy slugs and the resource-tag vocabulary are parsed from `knowledge/README.md`, so that file stays
the one place of truth; rule ids come from `knowledge/rules.yaml`; SoC names from `knowledge/hardware/*.yaml`
when that folder has profiles.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ascendc_lsp import safeio
from ascendc_lsp.errors import DataProblem
from ascendc_lsp.knowledge.triggers import compile_trigger
from ascendc_lsp.resources import knowledge_dir

# yaml and the spec loader are imported when entries are validated, not when cached entries are used.

STAGES: tuple[str, ...] = ("compile", "link", "runtime", "precision", "perf")
RECIPE_KINDS: tuple[str, ...] = ("replace-regex", "insert-line-after", "insert-line-before")
SPEC_DTYPES: tuple[str, ...] = (
    "float16",
    "bfloat16",
    "float32",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "bool",
)
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
KERNEL_INCLUDE = '#include "kernel_operator.h"'

_TOP_KEYS = {"id", "title", "category", "stage", "socs", "context", "fix", "rationale"}
_CONTEXT_KEYS = {"messages", "examples", "codes", "apis", "resources", "rules", "query"}
MAX_EXAMPLE_CHARS = 1500
_FIX_KEYS = {"summary", "language", "before", "after", "spec", "recipe"}
# What fix.before/after hold. Only `kernel` examples must be complete kernels (compiled and run by the tests);
# host, build and shell examples document fixes outside the kernel (op_host code, CMake, environment).
FIX_LANGUAGES: tuple[str, ...] = ("kernel", "host", "cmake", "shell")
_RECIPE_KEYS = {"kind", "pattern", "replacement"}
_RATIONALE_KEYS = {"text", "sources"}


def _yaml_load(text: str) -> Any:
    """yaml.load with libyaml when available (the pure-Python loader takes ~1.5 s for the shipped entries), after
    safeio's nesting check (a knowledge path may point at a hostile file)."""
    import yaml

    return safeio.load_yaml(text, getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _spec_keys() -> tuple[set[str], set[str]]:
    """An entry's run spec is a kernel spec: the spec loader's key lists are the one place of truth."""
    from ascendc_lsp.toolchain import spec as spec_format

    return set(spec_format.TOP_KEYS), set(spec_format.TENSOR_KEYS)


# --------------------------------------------------------------------------------------------- model


ValidationError = DataProblem  # one problem in one entry file, `field` such as `context.messages[2]`


class _LazyPatterns(tuple):  # type: ignore[type-arg,unused-ignore]
    """The compiled message templates of an unpickled entry, compiled when first iterated or indexed."""

    _messages: tuple[str, ...]
    _compiled: tuple[re.Pattern[str], ...] | None

    def __new__(cls, messages: tuple[str, ...]) -> _LazyPatterns:
        obj = super().__new__(cls, ())
        obj._messages = messages
        obj._compiled = None
        return obj

    def _get(self) -> tuple[re.Pattern[str], ...]:
        if self._compiled is None:
            self._compiled = tuple(compile_trigger(m) for m in self._messages)
        return self._compiled

    def __iter__(self) -> Any:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._messages)

    def __getitem__(self, i: Any) -> Any:
        return self._get()[i]

    def __bool__(self) -> bool:
        return bool(self._messages)

    def __reduce__(self) -> Any:
        return (tuple, (self._get(),))


@dataclass(frozen=True)
class EntryContext:
    """The trigger: where and how the error shows itself."""

    messages: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()  # what messages of this family look like (our own templates, not copies)
    codes: tuple[str, ...] = ()
    apis: tuple[str, ...] = ()
    resources: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    query: str | None = None
    patterns: tuple[re.Pattern[str], ...] = field(default=(), repr=False, compare=False)

    def matches(self, text: str) -> list[str]:
        """The message regexes (expanded) that match somewhere in `text`."""
        return [p.pattern for p in self.patterns if p.search(text)]

    # Pickled (the compiled-knowledge cache) without the compiled patterns: they are recompiled on first use,
    # so loading the cache costs no regex compilation until a pattern is needed.
    def __getstate__(self) -> dict[str, Any]:
        state = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "patterns"}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
        object.__setattr__(self, "patterns", _LazyPatterns(tuple(state.get("messages", ()))))


@dataclass(frozen=True)
class Recipe:
    """A mechanical edit a code action may apply."""

    kind: str
    pattern: str
    replacement: str


@dataclass(frozen=True)
class EntryFix:
    """Executable semantics: a before/after pair of complete kernels and an optional run spec and recipe."""

    summary: str
    before: str
    after: str
    spec: Mapping[str, Any] | None = None
    recipe: Recipe | None = None
    language: str = "kernel"

    @property
    def is_kernel(self) -> bool:
        """True when before/after are complete kernels that the emulator can compile."""
        return self.language == "kernel"


@dataclass(frozen=True)
class EntryRationale:
    """Why the hardware behaves so, with numbers and public sources."""

    text: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    category: str
    stage: str
    socs: tuple[str, ...]
    context: EntryContext
    fix: EntryFix
    rationale: EntryRationale
    path: Path | None = None

    def applies_to(self, soc: str) -> bool:
        return "all" in self.socs or soc in self.socs


# ------------------------------------------------------------------------------------ vocabularies


def _readme_path(root: Path | None = None) -> Path:
    return (root or knowledge_dir()) / "README.md"


def _table_slugs(text: str) -> list[str]:
    slugs: list[str] = []
    for line in text.splitlines():
        m = re.match(r"^\|\s*`([a-z0-9-]+)`\s*\|", line)
        if m:
            slugs.append(m.group(1))
    return slugs


@cache
def taxonomy(root: Path | None = None) -> tuple[str, ...]:
    """Category slugs from the tables after the `## Categories` heading of knowledge/README.md."""
    text = _readme_path(root).read_text(encoding="utf-8")
    start = re.search(r"^## Categories.*$", text, re.M)
    section = text[start.end() :] if start else text
    return tuple(dict.fromkeys(_table_slugs(section)))


@cache
def resource_tags(root: Path | None = None) -> tuple[str, ...]:
    """The hardware-semantic tag vocabulary from the `### Resource tags` section of knowledge/README.md."""
    text = _readme_path(root).read_text(encoding="utf-8")
    m = re.search(r"^### Resource tags.*?$(.*?)(?=^#)", text, re.M | re.S)
    if not m:
        return ()
    return tuple(dict.fromkeys(re.findall(r"`([a-z0-9-]+)`", m.group(1))))


@cache
def rules_table(root: Path | None = None) -> dict[str, dict[str, Any]]:
    """rules.yaml as {rule id: rule mapping}; empty when the file is missing or unreadable."""
    path = (root or knowledge_dir()) / "rules.yaml"
    try:
        data = _yaml_load(safeio.read_text(path, safeio.MAX_ENTRY_BYTES, "rules file"))
    except Exception:  # unreadable or not YAML: no rules
        return {}
    rules = data.get("rules", []) if isinstance(data, dict) else []
    return {str(r["id"]): dict(r) for r in rules if isinstance(r, dict) and "id" in r}


@cache
def known_socs(root: Path | None = None) -> tuple[str, ...]:
    """SoC names an entry may list: every profile, alias and variant of the hardware catalogue (the one reader of
    the SoC profiles, hardware/soc.py) in `root`/hardware, else the shipped catalogue when that folder is missing
    or does not load."""
    from ascendc_lsp.hardware.soc import HardwareDataError, load_soc_profiles, soc_names

    folder = (root or knowledge_dir()) / "hardware"
    for directory in (folder, None) if folder.is_dir() else (None,):
        try:
            profiles = load_soc_profiles(directory)
            names = soc_names(directory)
        except HardwareDataError:
            continue
        return tuple(dict.fromkeys([*names, *(alias for p in profiles.values() for alias in p.aliases)]))
    return ()


@cache
def _cpp_language() -> Any:
    import tree_sitter
    import tree_sitter_cpp

    return tree_sitter.Language(tree_sitter_cpp.language())


def compile_query(text: str) -> Any:
    """Compile a tree-sitter query over C++; raises tree_sitter.QueryError (or ValueError) when invalid."""
    import tree_sitter

    return tree_sitter.Query(_cpp_language(), text)


# --------------------------------------------------------------------------------------- validation


class _Checker:
    """Collects errors for one file while converting its mapping into an Entry."""

    def __init__(self, file: str, root: Path | None) -> None:
        self.file = file
        self.root = root
        self.errors: list[ValidationError] = []

    def err(self, where: str, message: str) -> None:
        self.errors.append(ValidationError(self.file, where, message))

    def unknown_keys(self, data: Mapping[str, Any], allowed: set[str], where: str) -> None:
        for key in data:
            if key not in allowed:
                prefix = f"{where}." if where else ""
                self.err(f"{prefix}{key}", f"unknown field (allowed: {', '.join(sorted(allowed))})")

    def text(self, data: Mapping[str, Any], key: str, where: str, required: bool = True) -> str | None:
        if key not in data or data[key] is None:
            if required:
                self.err(where, "required field is missing")
            return None
        value = data[key]
        if not isinstance(value, str):
            self.err(where, f"must be a string, not {type(value).__name__}")
            return None
        if required and not value.strip():
            self.err(where, "must not be empty")
            return None
        return value

    def str_list(self, data: Mapping[str, Any], key: str, where: str, allow_int: bool = False) -> list[str]:
        value = data.get(key)
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            self.err(where, f"must be a list of strings, not {type(value).__name__}")
            return []
        out: list[str] = []
        for i, item in enumerate(value):
            if allow_int and isinstance(item, int) and not isinstance(item, bool):
                item = str(item)
            if not isinstance(item, str) or not item.strip():
                self.err(f"{where}[{i}]", f"must be a non-empty string, not {item!r}")
                continue
            out.append(item)
        return out

    def mapping(
        self, data: Mapping[str, Any], key: str, where: str, required: bool = True
    ) -> dict[str, Any] | None:
        if key not in data or data[key] is None:
            if required:
                self.err(where, "required part is missing")
            return None
        value = data[key]
        if not isinstance(value, dict):
            self.err(where, f"must be a mapping, not {type(value).__name__}")
            return None
        return value

    # -- parts

    def context(self, data: Mapping[str, Any]) -> EntryContext | None:
        ctx = self.mapping(data, "context", "context")
        if ctx is None:
            return None
        self.unknown_keys(ctx, _CONTEXT_KEYS, "context")
        messages = self.str_list(ctx, "messages", "context.messages")
        patterns: list[re.Pattern[str]] = []
        for i, msg in enumerate(messages):
            try:
                patterns.append(compile_trigger(msg))
            except re.error as exc:
                self.err(f"context.messages[{i}]", f"regex does not compile: {exc}")
        examples = self.str_list(ctx, "examples", "context.examples")
        for i, example in enumerate(examples):
            if len(example) > MAX_EXAMPLE_CHARS:
                self.err(f"context.examples[{i}]", f"longer than {MAX_EXAMPLE_CHARS} characters: quote the lines "
                         "that carry the error")
        codes = self.str_list(ctx, "codes", "context.codes", allow_int=True)
        apis = self.str_list(ctx, "apis", "context.apis")
        for i, api in enumerate(apis):
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_:<>]*", api):
                self.err(f"context.apis[{i}]", f"not an identifier: {api!r}")
        resources = self.str_list(ctx, "resources", "context.resources")
        tags = resource_tags(self.root)
        if not resources:
            self.err("context.resources", "at least one resource tag is required")
        for i, tag in enumerate(resources):
            if tags and tag not in tags:
                self.err(f"context.resources[{i}]", f"unknown resource tag {tag!r} (see knowledge/README.md)")
        rules = self.str_list(ctx, "rules", "context.rules")
        table = rules_table(self.root)
        for i, rule in enumerate(rules):
            if rule not in table:
                self.err(f"context.rules[{i}]", f"no rule {rule!r} in rules.yaml")
        query = self.text(ctx, "query", "context.query", required=False)
        if query is not None:
            if not query.strip():
                self.err("context.query", "must not be empty when present")
            else:
                try:
                    compile_query(query)
                except Exception as exc:
                    self.err("context.query", f"tree-sitter query does not compile: {exc}")
        if not messages and not query and not apis:
            self.err("context", "needs at least one trigger: messages, query or apis")
        return EntryContext(
            messages=tuple(messages),
            examples=tuple(examples),
            codes=tuple(codes),
            apis=tuple(apis),
            resources=tuple(resources),
            rules=tuple(rules),
            query=query,
            patterns=tuple(patterns),
        )

    def _kernel(self, fix: Mapping[str, Any], key: str, language: str) -> str | None:
        code = self.text(fix, key, f"fix.{key}")
        # `before` may lack the include when the missing include is the bug being shown.
        if code is not None and language == "kernel" and key == "after" and KERNEL_INCLUDE not in code:
            self.err(f"fix.{key}", f"must be a complete kernel that has {KERNEL_INCLUDE}")
        return code

    def spec(self, fix: Mapping[str, Any]) -> dict[str, Any] | None:
        spec = self.mapping(fix, "spec", "fix.spec", required=False)
        if spec is None:
            return None
        spec_keys, tensor_keys = _spec_keys()
        self.unknown_keys(spec, spec_keys, "fix.spec")
        self.text(spec, "kernel", "fix.spec.kernel")
        block_dim = spec.get("block_dim", 1)
        if not isinstance(block_dim, int) or isinstance(block_dim, bool) or not 1 <= block_dim <= 65535:
            self.err("fix.spec.block_dim", f"must be an integer in [1, 65535], not {block_dim!r}")
        for part in ("inputs", "outputs"):
            tensors = spec.get(part)
            where = f"fix.spec.{part}"
            if tensors is None:
                if part == "outputs":
                    self.err(where, "required field is missing")
                continue
            if not isinstance(tensors, list):
                self.err(where, "must be a list of tensors")
                continue
            for i, tensor in enumerate(tensors):
                tw = f"{where}[{i}]"
                if not isinstance(tensor, dict):
                    self.err(tw, "must be a mapping with name, shape and dtype")
                    continue
                self.unknown_keys(tensor, tensor_keys, tw)
                self.text(tensor, "name", f"{tw}.name")
                shape = tensor.get("shape")
                if not (
                    isinstance(shape, list)
                    and shape
                    and all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in shape)
                ):
                    self.err(f"{tw}.shape", f"must be a non-empty list of positive integers, not {shape!r}")
                if tensor.get("dtype") not in SPEC_DTYPES:
                    self.err(
                        f"{tw}.dtype",
                        f"unknown dtype {tensor.get('dtype')!r} (one of {', '.join(SPEC_DTYPES)})",
                    )
        self.text(spec, "reference", "fix.spec.reference")
        return spec

    def recipe(self, fix: Mapping[str, Any]) -> Recipe | None:
        rec = self.mapping(fix, "recipe", "fix.recipe", required=False)
        if rec is None:
            return None
        self.unknown_keys(rec, _RECIPE_KEYS, "fix.recipe")
        kind = self.text(rec, "kind", "fix.recipe.kind")
        if kind is not None and kind not in RECIPE_KINDS:
            self.err("fix.recipe.kind", f"unknown kind {kind!r} (one of {', '.join(RECIPE_KINDS)})")
        pattern = self.text(rec, "pattern", "fix.recipe.pattern")
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as exc:
                self.err("fix.recipe.pattern", f"regex does not compile: {exc}")
        replacement = rec.get("replacement")
        if not isinstance(replacement, str):
            self.err("fix.recipe.replacement", "required string is missing")
            replacement = None
        if kind is None or pattern is None or replacement is None:
            return None
        return Recipe(kind=kind, pattern=pattern, replacement=replacement)

    def fix(self, data: Mapping[str, Any]) -> EntryFix | None:
        fix = self.mapping(data, "fix", "fix")
        if fix is None:
            return None
        self.unknown_keys(fix, _FIX_KEYS, "fix")
        summary = self.text(fix, "summary", "fix.summary")
        language = self.text(fix, "language", "fix.language", required=False) or "kernel"
        if language not in FIX_LANGUAGES:
            self.err("fix.language", f"unknown language {language!r} (one of {', '.join(FIX_LANGUAGES)})")
        before = self._kernel(fix, "before", language)
        after = self._kernel(fix, "after", language)
        if before is not None and after is not None and before.strip() == after.strip():
            self.err("fix.after", "is identical to fix.before")
        spec = self.spec(fix)
        recipe = self.recipe(fix)
        if summary is None or before is None or after is None:
            return None
        if spec is not None and language != "kernel":
            self.err("fix.spec", "a run spec needs kernel examples (fix.language: kernel)")
        return EntryFix(
            summary=summary, before=before, after=after, spec=spec, recipe=recipe, language=language
        )

    def rationale(self, data: Mapping[str, Any]) -> EntryRationale | None:
        rat = self.mapping(data, "rationale", "rationale")
        if rat is None:
            return None
        self.unknown_keys(rat, _RATIONALE_KEYS, "rationale")
        text = self.text(rat, "text", "rationale.text")
        sources = self.str_list(rat, "sources", "rationale.sources")
        if "sources" not in rat:
            self.err("rationale.sources", "required field is missing")
        elif not sources:
            self.err("rationale.sources", "at least one source URL is required")
        for i, url in enumerate(sources):
            if not re.match(r"^https?://\S+$", url):
                self.err(f"rationale.sources[{i}]", f"must be an http(s) URL, not {url!r}")
        if text is None:
            return None
        return EntryRationale(text=text, sources=tuple(sources))

    def entry(self, data: Mapping[str, Any], path: Path) -> Entry | None:
        self.unknown_keys(data, _TOP_KEYS, "")
        entry_id = self.text(data, "id", "id")
        if entry_id is not None:
            if not ID_PATTERN.match(entry_id):
                self.err("id", f"{entry_id!r} must be lowercase letters, digits and single '-'")
            if entry_id != path.stem:
                self.err("id", f"{entry_id!r} must equal the file name without .yaml ({path.stem!r})")
        title = self.text(data, "title", "title")
        category = self.text(data, "category", "category")
        cats = taxonomy(self.root)
        if category is not None and category not in cats:
            self.err("category", f"unknown category {category!r} (taxonomy in knowledge/README.md)")
        stage = self.text(data, "stage", "stage")
        if stage is not None and stage not in STAGES:
            self.err("stage", f"unknown stage {stage!r} (one of {', '.join(STAGES)})")
        if "socs" not in data:
            self.err("socs", "required field is missing (use [all] for every SoC)")
        socs = self.str_list(data, "socs", "socs")
        if "socs" in data and not socs:
            self.err("socs", "must list at least one SoC or 'all'")
        allowed = set(known_socs(self.root)) | {"all"}
        for i, soc in enumerate(socs):
            if soc not in allowed:
                self.err(f"socs[{i}]", f"unknown SoC {soc!r} (known: {', '.join(sorted(allowed))})")
        context = self.context(data)
        fix = self.fix(data)
        rationale = self.rationale(data)
        if self.errors:
            return None
        assert entry_id and title and category and stage and context and fix and rationale
        return Entry(
            id=entry_id,
            title=title,
            category=category,
            stage=stage,
            socs=tuple(socs),
            context=context,
            fix=fix,
            rationale=rationale,
            path=path,
        )


def _expand(paths: Iterable[Path | str]) -> tuple[list[Path], list[ValidationError]]:
    files: list[Path] = []
    errors: list[ValidationError] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file()))
        elif path.is_file():
            files.append(path)
        else:
            errors.append(ValidationError(str(path), "(file)", "no such file or folder"))
    return files, errors


def load_entry_file(path: Path, root: Path | None = None) -> tuple[Entry | None, list[ValidationError]]:
    """Read and validate one entry file."""
    name = str(path)
    try:
        raw = safeio.read_bytes(path, safeio.MAX_ENTRY_BYTES, "knowledge entry")
    except safeio.InputError as exc:
        return None, [ValidationError(name, "(file)", str(exc).removeprefix(f"{name}: "))]
    except OSError as exc:
        return None, [ValidationError(name, "(file)", f"cannot read: {exc.strerror or exc}")]
    if b"\x00" in raw:
        return None, [ValidationError(name, "(file)", "binary file (NUL bytes), not a YAML entry")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [ValidationError(name, "(file)", f"not UTF-8 text (byte {exc.start})")]
    import yaml

    try:
        data = _yaml_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return None, [ValidationError(name, "(yaml)", f"not valid YAML{where}: {problem}")]
    if not isinstance(data, dict):
        kind = "empty" if data is None else type(data).__name__
        return None, [
            ValidationError(name, "(document)", f"must be a YAML mapping of entry fields, not {kind}")
        ]
    checker = _Checker(name, root)
    entry = checker.entry(data, path)
    return entry, checker.errors


def default_entry_dir() -> Path:
    return knowledge_dir() / "entries"


def load_entries(
    paths: Sequence[Path | str] | None = None,
    root: Path | None = None,
) -> tuple[list[Entry], list[ValidationError]]:
    """Load and validate entry files (files or folders; default: the shipped `knowledge/entries/`).

    Returns the valid entries and every error found. Ids must be unique across all files loaded together.
    `root` overrides the knowledge folder used for the taxonomy, rules and SoC names (tests).
    """
    files, errors = _expand(paths if paths is not None else [default_entry_dir()])
    entries: list[Entry] = []
    seen: dict[str, str] = {}
    for path in files:
        entry, errs = load_entry_file(path, root)
        errors.extend(errs)
        if entry is None:
            continue
        if entry.id in seen:
            errors.append(
                ValidationError(str(path), "id", f"duplicate id {entry.id!r} (also in {seen[entry.id]})")
            )
            continue
        seen[entry.id] = str(path)
        entries.append(entry)
    return entries, errors


def check_coverage(entries: Sequence[Entry], root: Path | None = None) -> list[ValidationError]:
    """Set-level checks for the shipped knowledge: each rule's entry exists and every category has entries."""
    errors: list[ValidationError] = []
    ids = {e.id for e in entries}
    rules_file = str((root or knowledge_dir()) / "rules.yaml")
    for rule_id, rule in rules_table(root).items():
        entry_id = rule.get("entry")
        if entry_id not in ids:
            errors.append(ValidationError(rules_file, f"{rule_id}.entry", f"no knowledge entry {entry_id!r}"))
    used = {e.category for e in entries}
    readme = str(_readme_path(root))
    for slug in taxonomy(root):
        if slug not in used:
            errors.append(ValidationError(readme, f"category {slug}", "no knowledge entry has this category"))
    return errors
