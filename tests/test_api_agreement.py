"""The API catalogue (knowledge/api/*.yaml: completion, hover and the static checks read it) and the emulator
headers agree on one list.

- Every catalogue function and member overload is compiled as a call (tests/api_probe.py) against the emulator
  headers, every class is instantiated and every macro must be defined: an API the catalogue offers but the
  emulator lacks fails here, unless it is on MISSING_ALLOWED with the branch that owns it. The allow-list only
  shrinks: an entry whose API now compiles fails too, so whoever lands it removes it.
- Where the headers check element types per SoC (ASCENDC_EMU_DTYPES_<Api> tables), the lists equal the
  catalogue's.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from ascendc_lsp.hardware import api_catalogue as ac
from ascendc_lsp.hardware.api_catalogue import ApiEntry
from tests.api_probe import INCLUDE, Probe, class_probe, make_probe, run_probes

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")

# Catalogue APIs the emulator does not implement yet, with the branch (area) that owns them. `Name` covers
# every overload of the API, `Name#k` its k-th overload (0-based, catalogue order). Remove an entry when its API
# lands: the test fails while a listed API compiles.
MISSING_ALLOWED: dict[str, str] = {}  # empty: every catalogue API compiles against the emulator

# Catalogue signatures the generic probe cannot instantiate (non-type or pattern template parameters, a second
# element type it cannot guess): each API is exercised by its own test in tests/test_emulator_adv_*.py. The test
# fails when one of these starts compiling, so the list cannot hide a regression for long.
PROBE_UNFIT: dict[str, str] = {}  # empty: tests/api_probe.py API_TYPES gives every listed API its template arguments

HEADERS = INCLUDE / "ascendc_emu"


def _type_maps(entry: ApiEntry) -> list[dict[str, str]]:
    """Element types to probe an overload with: up to three of the catalogue's (A2 first), `half` otherwise.
    Catalogue spellings: `T`, `src->dst` (Cast-like: T = dst, U = src), `a*b->c` (Mmad: T = c, U = a, S = b)."""
    dts = entry.dtypes.get("Ascend910B") or next(iter(entry.dtypes.values()), None) or frozenset({"half"})
    maps: list[dict[str, str]] = []
    for d in sorted(dts)[:3]:
        if "->" in d:
            src, dst = (x.strip() for x in d.split("->"))
            if "*" in src:
                a, b = (x.strip() for x in src.split("*"))
                maps.append({"T": dst, "U": a, "S": b, "V": dst})
            else:
                maps.append({"T": dst, "U": src})
        else:
            maps.append({"T": d, "U": d})
    return maps


# The SoCs of arch 3510, whose headers alone declare some APIs (IsFinite, IsInf, IsNan: Ascend 950 only).
ARCH_3510_SOCS = {"Ascend950"}


def _probes(cat: ac.ApiCatalogue, only_arch_3510: bool = False) -> Iterator[tuple[str, Probe]]:
    """(allow-list key, probe) for every catalogue API and overload (`only_arch_3510`: those of the APIs that
    only arch-3510 SoCs have)."""
    for e in cat:
        if only_arch_3510 and not (e.socs and set(e.socs) <= ARCH_3510_SOCS):
            continue
        if e.kind in ("function", "member"):
            for k, ov in enumerate(e.overloads):
                for i, types in enumerate(_type_maps(e)):
                    yield f"{e.qualified_name}#{k}", make_probe(f"{e.qualified_name}#{k}@{i}", e.name, ov.signature, types,
                                                                 e.class_name)
        elif e.kind == "class":
            yield e.name, class_probe(e.name, e.name)
        elif e.kind == "macro":
            yield e.name, Probe(e.name, [f"#ifndef {e.name}", f'#error "no macro {e.name}"', "#endif"])


@cache
def _results() -> tuple[dict[str, str], dict[str, list[str]]]:
    """(failing keys -> first compiler error, API name -> its keys). Keys: `Name#k` per overload, `Name` for
    classes and macros."""
    cat = ac.load_api_catalogue()
    pairs = list(_probes(cat))
    run_probes([p for _, p in pairs])
    # an API of Ascend 950 alone is compiled as its headers are: for arch 3510 (the default is arch 2201)
    arch_3510 = list(_probes(cat, only_arch_3510=True))
    run_probes([p for _, p in arch_3510], defines=("__NPU_ARCH__=3510",))
    ok: dict[str, bool] = {}
    err: dict[str, str] = {}
    for key, p in pairs + arch_3510:
        ok[key] = ok.get(key, False) or bool(p.ok)  # an overload exists when one of its type probes compiles
        if not p.ok and key not in err:
            err[key] = (p.errors or ["?"])[0]
    keys: dict[str, list[str]] = {}
    for key in ok:
        keys.setdefault(key.split("#")[0], []).append(key)
    return {k: err[k] for k, good in ok.items() if not good}, keys


def _allowed(key: str) -> bool:
    listed = {**MISSING_ALLOWED, **PROBE_UNFIT}
    return key in listed or key.split("#")[0] in listed


@pytest.mark.slow
def test_every_catalogue_api_compiles_against_the_emulator() -> None:
    missing, _ = _results()
    unexpected = {k: v for k, v in missing.items() if not _allowed(k)}
    assert not unexpected, "catalogue APIs the emulator lacks (implement them or list them with their owner):\n" + "\n".join(
        f"  {k}: {v}" for k, v in sorted(unexpected.items()))


@pytest.mark.slow
def test_missing_allow_list_only_shrinks() -> None:
    missing, keys = _results()
    landed = []
    for entry, owner in {**MISSING_ALLOWED, **PROBE_UNFIT}.items():
        name = entry.split("#")[0]
        assert name in keys, f"MISSING_ALLOWED names {entry}, which the catalogue does not have"
        still = entry in missing if "#" in entry else all(k in missing for k in keys[name])
        if not still:
            landed.append(f"{entry} ({owner})")
    assert not landed, ("these now compile against the emulator (wholly or in part): remove or narrow their "
                        "MISSING_ALLOWED entries: " + ", ".join(landed))


# ------------------------------------------------------------------------------------------ dtype tables
_DEFINE = re.compile(r"#define\s+ASCENDC_EMU_DTYPES_(\w+)\s+((?:[^\n]*\\\n)*[^\n]*)")


def header_dtype_tables() -> dict[str, dict[str, set[str]]]:
    """ASCENDC_EMU_DTYPES_<name> tables of the emulator headers: name -> SoC -> element types."""
    raw: dict[str, str] = {}
    for h in sorted(HEADERS.glob("*.h")):
        for m in _DEFINE.finditer(h.read_text(encoding="utf-8")):
            raw[m.group(1)] = m.group(2).replace("\\\n", " ")
    out: dict[str, dict[str, set[str]]] = {}
    for name, body in raw.items():
        seen = set()
        while (alias := re.fullmatch(r"\s*ASCENDC_EMU_DTYPES_(\w+)\s*", body)) and alias.group(1) not in seen:
            seen.add(alias.group(1))
            body = raw[alias.group(1)]
        text = "".join(re.findall(r'"([^"]*)"', body))
        table: dict[str, set[str]] = {}
        for part in filter(None, (p.strip() for p in text.split(";"))):
            soc, _, types = part.partition(":")
            table[soc.strip()] = set(types.split())
        out[name] = table
    return out


def test_header_dtype_tables_are_well_formed() -> None:
    tables = header_dtype_tables()
    assert len(tables) >= 25
    profiles = {"Ascend910B", "Ascend910_93", "Ascend310P", "Ascend310B", "Ascend910A", "Ascend950"}
    for name, table in tables.items():
        assert table and set(table) <= profiles, (name, table)
        assert all(types for types in table.values()), name


def test_header_dtype_tables_equal_the_catalogue() -> None:
    cat = ac.load_api_catalogue()
    compared = 0
    for name, table in header_dtype_tables().items():
        entry = cat.by_name(name)
        if entry is None or (entry.name != name and name not in entry.aliases):
            continue  # overload-specific tables (Copy_count, Transpose_16x16, ...) have no catalogue entry
        if not entry.dtypes:
            continue
        compared += 1
        want = {soc: set(ts) for soc, ts in entry.dtypes.items() if entry.socs is None or soc in entry.socs}
        concrete = {soc: ts for soc, ts in table.items() if ts != {"*"}}
        assert concrete == want, f"{name}: header {concrete} != catalogue {want}"
        for soc in set(table) - set(concrete):  # `*`: the SoC has the API, its types are not recorded
            assert soc not in entry.dtypes and (entry.socs is None or soc in entry.socs), (name, soc)
    assert compared >= 20


def test_catalogue_apis_added_for_the_emulator_are_there() -> None:
    """The basic APIs implemented in the emulator headers by the apivec work are offered by the catalogue."""
    cat = ac.load_api_catalogue()
    for name in ("Gatherb", "Scatter", "Arange", "ArithProgression", "ReduceRepeat", "ReduceDataBlock", "ReducePairElem",
                 "GetReduceRepeatMaxMinSpr", "GetReduceMaxMinCount", "GetAccVal", "GetCmpMask", "SetCmpMask",
                 "SetDeqScale", "CastDeq", "AddReluCast", "MulAddRelu", "Sort32", "MrgSort4", "RpSort16",
                 "ProposalConcat", "GetMrgSortResult", "ToFloat", "ToBfloat16", "ScalarCast", "GetBitCount"):
        assert cat.by_name(name) is not None, name
    assert Path(INCLUDE / "kernel_operator.h").is_file()
