"""Locate the data folders (grammars, knowledge) in a source checkout or an installed wheel."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def data_root() -> Path:
    """The folder holding `grammars/` and `knowledge/`.

    `ASCENDC_LSP_DATA` wins; an installed wheel carries them in `_data/`; an editable
    install or a checkout finds them at the repository root.
    """
    override = os.environ.get("ASCENDC_LSP_DATA")
    if override:
        return Path(override)
    bundled = _PACKAGE_DIR / "_data"
    if (bundled / "knowledge").is_dir():
        return bundled
    return _PACKAGE_DIR.parent.parent


def grammar_dir() -> Path:
    return data_root() / "grammars" / "ascendc"


def knowledge_dir() -> Path:
    return data_root() / "knowledge"


def emulator_include_dir() -> Path:
    return _PACKAGE_DIR / "toolchain" / "emulator" / "include"
