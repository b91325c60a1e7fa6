"""One module for the cache directory, atomic writes and file locks (ascendc_lsp.paths)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendc_lsp.hardware import yaml_cache
from ascendc_lsp.knowledge import compiled
from ascendc_lsp.paths import atomic_write, atomic_write_bytes, cache_dir, file_lock
from ascendc_lsp.toolchain.emulator import build


def test_every_cache_is_under_the_one_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    root = tmp_path / "ascendc-lsp"
    assert cache_dir() == root
    assert build.cache_root() == root / "emulator"
    assert yaml_cache.snapshot_dir() == root / "yaml"
    assert compiled.cache_root() == root / "compiled"


def test_a_relative_xdg_cache_home_is_ignored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # XDG Base Directory spec: a relative path in these variables is invalid and must be ignored.
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert cache_dir("yaml") == tmp_path / ".cache" / "ascendc-lsp" / "yaml"
    assert yaml_cache.snapshot_dir() == cache_dir("yaml")


def test_atomic_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "out.txt"
    atomic_write(target, "first\n")
    atomic_write_bytes(target, b"second\n", durable=False)
    assert target.read_text() == "second\n"
    assert [p.name for p in target.parent.iterdir()] == ["out.txt"]


def test_file_lock_excludes_a_second_holder(tmp_path: Path) -> None:
    import subprocess
    import sys

    lock = tmp_path / "store.lock"
    probe = (
        "import sys; from pathlib import Path; from ascendc_lsp.paths import LockTimeout, file_lock\n"
        "try:\n    with file_lock(Path(sys.argv[1]), timeout=0.2): print('taken')\n"
        "except LockTimeout as exc: print('refused:', exc)\n"
    )
    with file_lock(lock):
        held = subprocess.run([sys.executable, "-c", probe, str(lock)], capture_output=True, text=True, check=True)
    free = subprocess.run([sys.executable, "-c", probe, str(lock)], capture_output=True, text=True, check=True)
    assert held.stdout.startswith("refused:") and "locked by another process" in held.stdout
    assert free.stdout.strip() == "taken"
