"""The AscendC API catalogue: typed, validated, cached view of `knowledge/api/*.yaml`.

Each file holds `schema: 1` and a list `apis:` of entries (schema in `knowledge/api/README.md`). Parameters and
template parameters are parsed from the signature strings, so the data files carry each signature once.
SoC names in `socs:` and `dtypes:` must be profile names of `knowledge/hardware/` (checked on load).

Lookups: `by_name("Add")`, `by_name("TQue::AllocTensor")`, `members_of("TQue")`, `free_functions()`,
`dtypes_supported("Add", "Ascend910B3")` (variants resolve to their profile).
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from ascendc_lsp.hardware.soc import (
    HardwareDataError,
    HardwareProblem,
    UnknownSocError,
    get_soc,
    listed_items,
    load_soc_profiles,
)
from ascendc_lsp.hardware.yaml_cache import read_folder
from ascendc_lsp.resources import knowledge_dir
from ascendc_lsp.syntax.brackets import split_top_level

SCHEMA_VERSION = 1
KINDS: tuple[str, ...] = ("function", "member", "macro", "class", "struct", "enum")
FAMILIES: tuple[str, ...] = (
    "data-movement", "vector-binary", "vector-unary", "vector-scalar", "advanced-math", "reduce", "cast",
    "compare-select", "rearrange", "sort", "sync", "memory", "multicore", "tiling", "cube", "matmul", "mask", "atomic",
    "language", "debug",
)
FORMS: tuple[str, ...] = ("count", "mask-bitwise", "mask-continuous", "repeat", "default", "class")
CLASSES: tuple[str, ...] = ("TPipe", "TQue", "TQueBind", "TBuf", "LocalTensor", "GlobalTensor", "Matmul")
POSITIONS: tuple[str, ...] = (
    "GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC", "LCM", "SPM", "SHM", "TSCM",
    "C2PIPE2GM", "C2PIPE2LOCAL",
)
# Members declared on one class that another class also has (TQue derives from TQueBind).
_SHARED_MEMBERS: dict[str, tuple[str, ...]] = {"TQue": ("TQueBind",), "TQueBind": ("TQue",)}

_ENTRY_KEYS = {
    "name", "kind", "class", "family", "description", "overloads", "aliases", "positions", "socs", "dtypes",
    "constraints", "snippet", "docs", "reference",
}
_REQUIRED = ("name", "kind", "family", "description", "overloads", "constraints", "snippet", "docs")
_OVERLOAD_KEYS = {"form", "signature", "socs", "note"}
_PLACEHOLDER = re.compile(r"\$\{(\d+)(?::([^{}]*))?\}|\$(\d+)")
_IDENT = re.compile(r"[A-Za-z_]\w*")


# --------------------------------------------------------------------------------------------- model


@dataclass(frozen=True)
class Param:
    """One function parameter parsed from a signature: `type name = default`."""

    type: str
    name: str
    default: str | None = None


@dataclass(frozen=True)
class TemplateParam:
    """One template parameter: `kind` is `typename`/`class` or the non-type parameter's type."""

    kind: str
    name: str
    default: str | None = None


@dataclass(frozen=True)
class Overload:
    """One prototype. Parameters are parsed from `signature` on first use (keeps start-up fast)."""

    form: str
    signature: str
    api_name: str
    socs: tuple[str, ...] | None = None
    note: str | None = None

    @cached_property
    def _parsed(self) -> tuple[tuple[TemplateParam, ...], tuple[Param, ...]]:
        return parse_signature(self.signature, self.api_name)

    @property
    def template_params(self) -> tuple[TemplateParam, ...]:
        return self._parsed[0]

    @property
    def params(self) -> tuple[Param, ...]:
        return self._parsed[1]

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    @property
    def required_params(self) -> int:
        return sum(1 for p in self.params if p.default is None)


@dataclass(frozen=True)
class ApiEntry:
    name: str
    kind: str
    family: str
    description: str
    overloads: tuple[Overload, ...]
    constraints: tuple[str, ...]
    snippet: str
    docs: str | None
    file: str
    class_name: str | None = None
    aliases: tuple[str, ...] = ()
    positions: tuple[str, ...] = ()
    socs: tuple[str, ...] | None = None
    dtypes: Mapping[str, frozenset[str]] = field(default_factory=dict)
    reference: str | None = None

    @property
    def qualified_name(self) -> str:
        return f"{self.class_name}::{self.name}" if self.class_name else self.name

    @property
    def template_params(self) -> tuple[str, ...]:
        """Template parameter names over all overloads, in first-seen order."""
        names: dict[str, None] = {}
        for ov in self.overloads:
            for tp in ov.template_params:
                names.setdefault(tp.name, None)
        return tuple(names)

    def available_on(self, soc: str) -> bool | None:
        """True/False when the docs state product support for `soc` (a profile name), None when unknown."""
        if self.socs is None:
            return None
        return soc in self.socs

    def forms(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(ov.form for ov in self.overloads))


# --------------------------------------------------------------------------------------------- parsing


def _matching(text: str, start: int, open_ch: str, close_ch: str) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i
    return -1


def _split_default(text: str) -> tuple[str, str | None]:
    depth = 0
    for i, ch in enumerate(text):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif ch == "=" and depth == 0 and text[i - 1 : i + 1] not in ("==", "!=", "<=", ">=") and text[i : i + 2] != "==":
            return text[:i].strip(), text[i + 1 :].strip()
    return text.strip(), None


def _parse_template(signature: str) -> tuple[tuple[TemplateParam, ...], str]:
    """Template parameters of a leading `template <...>` and the rest of the signature."""
    sig = signature.strip()
    if not sig.startswith("template"):
        return (), sig
    lt = sig.find("<")
    end = _matching(sig, lt, "<", ">")
    if lt < 0 or end < 0:
        raise ValueError("unbalanced template parameter list")
    out: list[TemplateParam] = []
    for part in split_top_level(sig[lt + 1 : end]):
        decl, default = _split_default(part)
        idents = _IDENT.findall(decl)
        if not idents:
            continue
        name = idents[-1]
        kind = decl[: decl.rfind(name)].strip() or "typename"
        if len(idents) == 1:  # e.g. `typename` alone (unnamed)
            kind, name = idents[0], ""
        out.append(TemplateParam(kind, name, default))
    return tuple(out), sig[end + 1 :].strip()


def parse_signature(signature: str, name: str) -> tuple[tuple[TemplateParam, ...], tuple[Param, ...]]:
    """Template parameters and parameters of `signature` for the function or macro `name`."""
    tparams, rest = _parse_template(signature)
    base = name.split("::")[-1]
    match = None
    if base.startswith("operator"):
        idx = rest.find("operator")
        if idx >= 0:
            match = rest.find("(", idx + len("operator") + 2)  # skip `operator()`'s own parentheses
    else:
        m = re.search(r"\b" + re.escape(base) + r"\s*\(", rest)
        if m:
            match = m.end() - 1
    if match is None or match < 0:
        if rest.startswith(("class", "struct", "using", "#define")) or ":" in rest:
            return tparams, ()
        raise ValueError(f"no `{base}(` in the signature")
    end = _matching(rest, match, "(", ")")
    if end < 0:
        raise ValueError("unbalanced parentheses")
    params: list[Param] = []
    for part in split_top_level(rest[match + 1 : end]):
        if part in ("", "void", "..."):
            continue
        decl, default = _split_default(part)
        # Arrays: `uint64_t mask[]`, `uint64_t list[SIZE]`, `const LocalTensor<T> (&list)[SIZE]` (type keeps `[...]`).
        array = ""
        bracket = re.search(r"\[[^\[\]]*\]\s*$", decl)
        if bracket:
            array = bracket.group(0).replace(" ", "")
            decl = decl[: bracket.start()].strip()
            ref = re.fullmatch(r"(.*?)\(\s*&\s*(\w+)\s*\)", decl)
            if ref:
                params.append(Param(f"{ref.group(1).strip()} (&){array}", ref.group(2), default))
                continue
        idents = _IDENT.findall(decl)
        if len(idents) <= 1 and not re.search(r"[&*]\s*$", decl) and len(decl.split()) == 1:
            params.append(Param(type="", name=decl, default=default))  # macro parameter
            continue
        pname = idents[-1]
        ptype = decl[: decl.rfind(pname)].strip() + array
        params.append(Param(ptype, pname, default))
    return tparams, tuple(params)


def quick_check_signature(signature: str, api_name: str) -> str | None:
    """A cheap load-time check (balanced brackets, the API's name present); full parsing happens on first use."""
    for open_ch, close_ch in ("()", "[]", "{}"):
        if signature.count(open_ch) != signature.count(close_ch):
            return f"unbalanced {open_ch}{close_ch}"
    base = api_name.split("::")[-1]
    if base.startswith("operator"):
        return None if "operator" in signature else "no `operator` in the signature"
    if base not in signature:
        return f"the signature does not name {base}"
    return None


def check_snippet(snippet: str, api_name: str) -> str | None:
    """None when `snippet` is valid LSP snippet syntax for `api_name`, else the problem."""
    numbers: list[int] = []
    for m in _PLACEHOLDER.finditer(snippet):
        numbers.append(int(m.group(1) or m.group(3)))
    stripped = _PLACEHOLDER.sub("", snippet)
    if "${" in stripped:
        return "unbalanced or malformed ${...} placeholder"
    if not numbers:
        if "$" in stripped:
            return "stray `$` (escape it as \\$)"
        return None if _mentions(snippet, api_name) else f"does not mention {api_name}"
    tabstops = sorted(set(n for n in numbers if n != 0))
    if tabstops and tabstops != list(range(1, len(tabstops) + 1)):
        return f"placeholders must be numbered 1..n without gaps, got {tabstops}"
    if not _mentions(stripped, api_name) and not _mentions(snippet, api_name):
        return f"does not mention {api_name}"
    return None


def _mentions(text: str, api_name: str) -> bool:
    if api_name.startswith("operator"):
        return api_name[len("operator"):][:1] in text
    return api_name in text


# --------------------------------------------------------------------------------------------- catalogue


class ApiCatalogue:
    """All entries, indexed for the lookups the language server needs."""

    def __init__(self, entries: Iterable[ApiEntry], soc_resolver: Any = None) -> None:
        self.entries: tuple[ApiEntry, ...] = tuple(entries)
        self._soc_resolver = soc_resolver
        self._by_key: dict[str, list[ApiEntry]] = {}
        for entry in self.entries:
            keys = {entry.name, entry.qualified_name, *entry.aliases}
            if entry.class_name:
                keys.update(f"{cls}::{entry.name}" for cls in _SHARED_MEMBERS.get(entry.class_name, ()))
            for key in keys:
                self._by_key.setdefault(key, []).append(entry)
        # Free functions first when a name is both a free function and a member.
        for hits in self._by_key.values():
            hits.sort(key=lambda e: (e.kind == "member", e.file))

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Any:
        return iter(self.entries)

    @property
    def overload_count(self) -> int:
        return sum(len(e.overloads) for e in self.entries)

    def by_name(self, name: str) -> ApiEntry | None:
        """`Add`, `AscendC::Add`, `TQue::AllocTensor` or an alias; free functions win over members of that name."""
        key = name.strip()
        if key.startswith("AscendC::"):
            key = key[len("AscendC::"):]
        hits = self._by_key.get(key)
        return hits[0] if hits else None

    def all_named(self, name: str) -> list[ApiEntry]:
        key = name[len("AscendC::"):] if name.startswith("AscendC::") else name
        return list(self._by_key.get(key, []))

    def members_of(self, class_name: str) -> list[ApiEntry]:
        classes = {class_name, *_SHARED_MEMBERS.get(class_name, ())}
        return [e for e in self.entries if e.kind == "member" and e.class_name in classes]

    def free_functions(self) -> list[ApiEntry]:
        return [e for e in self.entries if e.kind == "function"]

    def names(self) -> list[str]:
        return sorted({e.name for e in self.entries})

    def dtypes_supported(self, api: str | ApiEntry, soc: str) -> set[str] | None:
        """Data types (for Cast: `src->dst` pairs; for Mmad: `a*b->c`) of `api` on `soc`.

        `soc` may be any spelling or variant of a profile name. Returns an empty set when the docs say the API is not
        available on that SoC, and None when the API is unknown or no data-type facts are recorded for the SoC.
        """
        entry = self.by_name(api) if isinstance(api, str) else api
        if entry is None:
            return None
        profile = self._resolve_soc(soc)
        if entry.available_on(profile) is False:
            return set()
        types_ = entry.dtypes.get(profile)
        return set(types_) if types_ is not None else None

    def _resolve_soc(self, soc: str) -> str:
        if self._soc_resolver is not None:
            try:
                return str(self._soc_resolver(soc))
            except (UnknownSocError, HardwareDataError):
                return soc
        return soc


# --------------------------------------------------------------------------------------------- loading


def _str_tuple(raw: Any, path: str, file: str, problems: list[HardwareProblem], allowed: Iterable[str] | None = None,
               what: str = "value") -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        problems.append(HardwareProblem(file, path, "expected a list of strings"))
        return ()
    if allowed is not None:
        allowed_set = set(allowed)
        for i, item in enumerate(raw):
            if item not in allowed_set:
                problems.append(HardwareProblem(file, f"{path}[{i}]", f"unknown {what} {item!r}"))
    return tuple(raw)


def _entry(raw: Any, where: str, file: str, socs: tuple[str, ...], problems: list[HardwareProblem]) -> ApiEntry | None:
    def problem(sub: str, message: str) -> None:
        problems.append(HardwareProblem(file, f"{where}.{sub}" if sub else where, message))

    if not isinstance(raw, dict):
        problem("", "expected a mapping (one API entry)")
        return None
    for key in sorted(set(raw) - _ENTRY_KEYS):
        problem(key, "unknown field")
    for key in _REQUIRED:
        if key not in raw:
            problem(key, "missing field")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        problem("name", "expected a non-empty string")
        return None
    where = f"{where}({name})"
    kind = raw.get("kind")
    if kind not in KINDS:
        problem("kind", f"unknown kind {kind!r}; one of {', '.join(KINDS)}")
    family = raw.get("family")
    if family not in FAMILIES:
        problem("family", f"unknown family {family!r}; one of {', '.join(FAMILIES)}")
    class_name = raw.get("class")
    if kind == "member":
        if class_name not in CLASSES:
            problem("class", f"a member needs `class:` one of {', '.join(CLASSES)}")
    elif class_name is not None:
        problem("class", "only members have a class")
    for key in ("description", "snippet"):
        if key in raw and (not isinstance(raw[key], str) or not raw[key].strip()):
            problem(key, "expected a non-empty string")
    for key in ("docs", "reference"):
        if raw.get(key) is not None and not isinstance(raw[key], str):
            problem(key, "expected a string or null")
    docs = raw.get("docs")
    if isinstance(docs, str) and not docs.startswith(("https://", "http://")):
        problem("docs", "expected a URL")
    snippet = raw.get("snippet")
    if isinstance(snippet, str):
        err = check_snippet(snippet, name)
        if err:
            problem("snippet", err)
    constraints = _str_tuple(raw.get("constraints"), f"{where}.constraints", file, problems)
    aliases = _str_tuple(raw.get("aliases"), f"{where}.aliases", file, problems)
    positions = _str_tuple(raw.get("positions"), f"{where}.positions", file, problems, POSITIONS, "position")
    soc_list: tuple[str, ...] | None = None
    if raw.get("socs") is not None:
        soc_list = _str_tuple(raw.get("socs"), f"{where}.socs", file, problems, socs, "SoC (not a profile name)")
    dtypes: dict[str, frozenset[str]] = {}
    raw_dtypes = raw.get("dtypes")
    if raw_dtypes is not None:
        if not isinstance(raw_dtypes, dict):
            problem("dtypes", "expected a mapping of SoC profile name -> list of data types")
        else:
            for soc, types_ in raw_dtypes.items():
                if soc not in socs:
                    problem(f"dtypes.{soc}", f"unknown SoC {soc!r}; profiles: {', '.join(socs)}")
                    continue
                dtypes[soc] = frozenset(_str_tuple(types_, f"{where}.dtypes.{soc}", file, problems))
    overloads: list[Overload] = []
    raw_ovs = raw.get("overloads")
    if not isinstance(raw_ovs, list) or not raw_ovs:
        if "overloads" in raw:
            problem("overloads", "expected a non-empty list")
    else:
        for i, ov in enumerate(raw_ovs):
            path = f"overloads[{i}]"
            if not isinstance(ov, dict):
                problem(path, "expected a mapping with form and signature")
                continue
            for key in sorted(set(ov) - _OVERLOAD_KEYS):
                problem(f"{path}.{key}", "unknown field")
            form = ov.get("form")
            if form not in FORMS:
                problem(f"{path}.form", f"unknown form {form!r}; one of {', '.join(FORMS)}")
            sig = ov.get("signature")
            if not isinstance(sig, str) or not sig.strip():
                problem(f"{path}.signature", "expected a non-empty string")
                continue
            err = quick_check_signature(sig, name)
            if err:
                problem(f"{path}.signature", err)
                continue
            ov_socs = None
            if ov.get("socs") is not None:
                ov_socs = _str_tuple(ov["socs"], f"{where}.{path}.socs", file, problems, socs, "SoC")
            note = ov.get("note") if isinstance(ov.get("note"), str) else None
            overloads.append(Overload(str(form), " ".join(sig.split()), name, ov_socs, note))
    return ApiEntry(
        name=name,
        kind=str(kind),
        family=str(family),
        description=str(raw.get("description", "")).strip(),
        overloads=tuple(overloads),
        constraints=constraints,
        snippet=str(snippet or ""),
        docs=docs if isinstance(docs, str) else None,
        file=file,
        class_name=class_name if isinstance(class_name, str) else None,
        aliases=aliases,
        positions=positions,
        socs=soc_list,
        dtypes=types.MappingProxyType(dtypes),
        reference=raw.get("reference") if isinstance(raw.get("reference"), str) else None,
    )


def _load_entries(folder: Path, socs: tuple[str, ...]) -> list[ApiEntry]:
    problems: list[HardwareProblem] = []
    entries: list[ApiEntry] = []
    files = read_folder(folder)
    if not files:
        problems.append(HardwareProblem(str(folder), "(folder)", "no API catalogue files (*.yaml) found"))
    for parsed in files:
        file = str(parsed.path)
        items = listed_items(parsed, "apis", SCHEMA_VERSION, problems)
        for i, raw in enumerate(items or []):
            entry = _entry(raw, f"apis[{i}]", file, socs, problems)
            if entry is not None:
                entries.append(entry)
    seen: dict[str, str] = {}
    for entry in entries:
        if entry.qualified_name in seen:
            problems.append(HardwareProblem(entry.file, entry.qualified_name,
                                            f"duplicate entry (also in {seen[entry.qualified_name]})"))
        seen.setdefault(entry.qualified_name, entry.file)
    if problems:
        raise HardwareDataError(problems)
    return entries


@cache
def _cached(folder: Path, hardware_folder: Path) -> ApiCatalogue:
    socs = tuple(load_soc_profiles(hardware_folder))

    def resolve(name: str) -> str:
        return get_soc(name, hardware_folder).name

    return ApiCatalogue(_load_entries(folder, socs), resolve)


def load_api_catalogue(directory: Path | str | None = None, hardware_directory: Path | str | None = None) -> ApiCatalogue:
    """The catalogue (cached per folder). Raises HardwareDataError listing every problem."""
    folder = Path(directory) if directory is not None else knowledge_dir() / "api"
    hw = Path(hardware_directory) if hardware_directory is not None else knowledge_dir() / "hardware"
    return _cached(folder.resolve(), hw.resolve())


def by_name(name: str) -> ApiEntry | None:
    return load_api_catalogue().by_name(name)


def members_of(class_name: str) -> list[ApiEntry]:
    return load_api_catalogue().members_of(class_name)


def free_functions() -> list[ApiEntry]:
    return load_api_catalogue().free_functions()


def dtypes_supported(api: str | ApiEntry, soc: str) -> set[str] | None:
    return load_api_catalogue().dtypes_supported(api, soc)


def clear_cache() -> None:
    _cached.cache_clear()
