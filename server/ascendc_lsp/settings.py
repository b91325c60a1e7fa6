"""Typed settings: LSP `ascendc.*` configuration, `ascendc-lsp.toml`, and CLI flags share one structure.

Unknown keys are reported (not fatal) and values of the wrong type fall back to the default with a
warning naming the key, so a typo in the editor settings never takes the server down.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from ascendc_lsp import safeio
from ascendc_lsp.hardware.limits import DEFAULT_SOC

CONFIG_FILE_NAME = "ascendc-lsp.toml"


@dataclass(frozen=True)
class ToolchainSettings:
    backend: str = "emulator"  # emulator | cann
    cannHome: str = ""


@dataclass(frozen=True)
class KnowledgeSettings:
    paths: tuple[str, ...] = ()
    store: str = "embedded"  # embedded | http://host:port


@dataclass(frozen=True)
class LlmSettings:
    baseUrl: str = ""
    model: str = ""
    apiKeyEnv: str = "OPENAI_API_KEY"


@dataclass(frozen=True)
class DiagnosticsSettings:
    onType: bool = True
    onSave: bool = True
    debounceMs: int = 10
    disabledRules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Settings:
    soc: str = DEFAULT_SOC
    # True when a user setting named the SoC; otherwise a file's project decides (checks/project.py).
    # `soc = "auto"` (or empty) asks for the project's SoC explicitly.
    soc_from_user: bool = False
    toolchain: ToolchainSettings = field(default_factory=ToolchainSettings)
    knowledge: KnowledgeSettings = field(default_factory=KnowledgeSettings)
    llm: LlmSettings = field(default_factory=LlmSettings)
    diagnostics: DiagnosticsSettings = field(default_factory=DiagnosticsSettings)


_SECTIONS: dict[str, type] = {
    "toolchain": ToolchainSettings,
    "knowledge": KnowledgeSettings,
    "llm": LlmSettings,
    "diagnostics": DiagnosticsSettings,
}


def _coerce(value: Any, default: Any, key: str, problems: list[str]) -> Any:
    if isinstance(default, bool):
        valid = isinstance(value, bool)
    elif isinstance(default, int):
        valid = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    elif isinstance(default, str):
        valid = isinstance(value, str)
    elif isinstance(default, tuple):
        valid = isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)
        value = tuple(value) if valid else value
    else:
        valid = False
    if valid:
        return value
    problems.append(f"setting '{key}' has an invalid value {value!r}; using the default {default!r}")
    return default


def _apply_section(current: Any, raw: dict[str, Any], prefix: str, problems: list[str]) -> Any:
    updates: dict[str, Any] = {}
    known = {f.name: f for f in fields(current)}
    for key, value in raw.items():
        if key not in known:
            problems.append(f"unknown setting '{prefix}{key}' ignored")
            continue
        default = getattr(current, key)
        updates[key] = _coerce(value, default, prefix + key, problems)
    return replace(current, **updates)


def merge_settings(base: Settings, raw: dict[str, Any] | None) -> tuple[Settings, list[str]]:
    """`base` updated from a nested mapping (`{"soc": ..., "toolchain": {...}}`), with problems listed."""
    problems: list[str] = []
    if not raw:
        return base, problems
    if not isinstance(raw, dict):
        return base, [f"settings must be a mapping, got {type(raw).__name__}"]
    result = base
    for key, value in raw.items():
        if key == "soc":
            if isinstance(value, str) and value.strip().lower() in ("", "auto"):
                result = replace(result, soc=DEFAULT_SOC, soc_from_user=False)
            elif isinstance(value, str) and value.strip():
                result = replace(result, soc=value.strip(), soc_from_user=True)
            else:
                problems.append(f"setting 'soc' has an invalid value {value!r}; keeping {result.soc!r}")
        elif key in _SECTIONS:
            if not isinstance(value, dict):
                problems.append(f"setting '{key}' must be a table/object")
                continue
            section = _apply_section(getattr(result, key), value, f"{key}.", problems)
            result = replace(result, **{key: section})
        elif key == "server":
            continue  # client-side settings (interpreter path) that the server does not use
        else:
            problems.append(f"unknown setting '{key}' ignored")
    return result, problems


def find_config_file(start: Path) -> Path | None:
    """The nearest `ascendc-lsp.toml` in `start` or its parents."""
    start = start if start.is_dir() else start.parent
    for folder in (start, *start.parents):
        candidate = folder / CONFIG_FILE_NAME
        if candidate.is_file():
            return candidate
    return None


def load_config_file(path: Path) -> tuple[dict[str, Any], list[str]]:
    try:
        text = safeio.read_text(path, safeio.MAX_CONFIG_BYTES, "configuration file")
        safeio.check_nesting(text, str(path))
        raw = tomllib.loads(text)
    except safeio.InputError as exc:
        return {}, [str(exc)]
    except OSError as exc:
        return {}, [f"{path}: cannot read ({exc.strerror})"]
    except UnicodeDecodeError as exc:
        return {}, [f"{path}: not UTF-8 text (byte {exc.start})"]
    except RecursionError:
        return {}, [f"{path}: nested too deeply"]
    except tomllib.TOMLDecodeError as exc:
        return {}, [f"{path}: not valid TOML ({exc})"]
    # Accept both a top-level table and an [ascendc] table.
    section = raw.get("ascendc", raw)
    return (section if isinstance(section, dict) else {}), []


def settings_for_path(path: Path, base: Settings | None = None) -> tuple[Settings, list[str]]:
    """Settings for a file or folder: defaults, then the nearest ascendc-lsp.toml."""
    base = base or Settings()
    config = find_config_file(path)
    if config is None:
        return base, []
    raw, problems = load_config_file(config)
    merged, more = merge_settings(base, raw)
    return merged, [f"{config}: {p}" for p in more] + problems
