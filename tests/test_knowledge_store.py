"""The knowledge store: embedded Chroma index build, incremental re-index, stats that survive, two processes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ascendc_lsp.knowledge.entries import default_entry_dir, load_entries
from ascendc_lsp.knowledge.learning import record_outcome
from ascendc_lsp.knowledge.retrieval import Retriever
from ascendc_lsp.knowledge.store import KnowledgeStore, cache_dir, parse_location

SHIPPED = default_entry_dir()


def _copy_entries(dst: Path, names: list[str]) -> Path:
    dst.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(SHIPPED / f"{name}.yaml", dst / f"{name}.yaml")
    return dst


NAMES = [
    "libm-call-in-kernel",
    "datacopy-unaligned-length",
    "repeat-times-over-255",
    "ascendc-namespace-missing",
]


def test_cache_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "ascendc-lsp"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert cache_dir().name == "ascendc-lsp" and cache_dir().is_absolute()


def test_parse_location() -> None:
    assert parse_location("embedded")[0] == "embedded"
    assert parse_location("http://127.0.0.1:8765") == ("http", "127.0.0.1", 8765)
    with pytest.raises(ValueError):
        parse_location("ftp://x")


def test_build_reindex_only_changed_and_stats_survive(tmp_path: Path) -> None:
    folder = _copy_entries(tmp_path / "entries", NAMES)
    entries, errors = load_entries([folder])
    assert not errors
    store = KnowledgeStore("embedded", tmp_path / "cache")
    first = store.sync(entries, [folder])
    assert sorted(first.added) == sorted(NAMES) and not first.updated
    assert store.counts() == {"syntactic": 4, "semantic": 4}

    record_outcome("libm-call-in-kernel", True, store)
    record_outcome("libm-call-in-kernel", True, store)

    again = store.sync(entries, [folder])
    assert not again.changed and again.unchanged == 4

    # edit one entry, delete another: only those change
    path = folder / "repeat-times-over-255.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("title: ", "title: (edited) ", 1), encoding="utf-8"
    )
    (folder / "datacopy-unaligned-length.yaml").unlink()
    entries, _ = load_entries([folder])
    store2 = KnowledgeStore("embedded", tmp_path / "cache")  # a fresh process's view
    third = store2.sync(entries, [folder])
    assert third.updated == ["repeat-times-over-255"]
    assert third.removed == ["datacopy-unaligned-length"]
    assert not third.added
    assert store2.counts() == {"syntactic": 3, "semantic": 3}

    # statistics are kept apart and survive re-indexing, even deleting the whole index
    store.close()
    store2.close()
    shutil.rmtree(tmp_path / "cache" / "chroma")
    store3 = KnowledgeStore("embedded", tmp_path / "cache")
    assert store3.sync(entries, [folder]).added
    stats = store3.stats.get("libm-call-in-kernel")
    assert stats.uses == 2 and stats.successes == 2 and stats.value > 0.5
    # the reviewed files never see the statistics
    assert "value" not in (folder / "libm-call-in-kernel.yaml").read_text(encoding="utf-8")


def test_retriever_on_embedded_store(tmp_path: Path) -> None:
    r = Retriever.from_paths([SHIPPED], "embedded", tmp_path / "cache")
    matches = r.search("error: no matching function for call to 'expf'", top=3)
    assert matches[0].entry.category == "libm-in-kernel"
    assert matches[0].syntactic > 0 and matches[0].evidence


def test_store_falls_back_to_memory_when_server_is_down(tmp_path: Path) -> None:
    r = Retriever.from_paths([SHIPPED], "http://127.0.0.1:9", tmp_path / "cache")
    matches = r.search("repeatTimes 300 exceeds 255", top=1)
    assert matches and r.store.kind == "memory" and r.warnings


WORKER = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from ascendc_lsp.knowledge.entries import load_entries
    from ascendc_lsp.knowledge.learning import record_outcome
    from ascendc_lsp.knowledge.retrieval import Retriever
    from ascendc_lsp.knowledge.store import KnowledgeStore
    folder, cache, tag, rounds = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    for i in range(rounds):
        entries, _ = load_entries([folder])
        if (i + int(tag)) % 2:  # alternate between two entry sets: both processes keep re-indexing
            entries = entries[:-1]
        store = KnowledgeStore("embedded", cache)
        store.sync(entries, [])
        record_outcome("libm-call-in-kernel", i % 2 == 0, store)
        r = Retriever(entries, store)
        r._indexed = True
        found = r.search("no matching function for call to 'expf'", top=1)
        assert found and found[0].entry.id == "libm-call-in-kernel", found
        store.close()
    print(json.dumps({"ok": True}))
    """
)


def test_two_processes_on_one_store(tmp_path: Path) -> None:
    folder = _copy_entries(tmp_path / "entries", NAMES)
    cache = tmp_path / "cache"
    script = tmp_path / "worker.py"
    script.write_text(WORKER, encoding="utf-8")
    rounds = 6
    procs = [
        subprocess.Popen([sys.executable, str(script), str(folder), str(cache), str(k), str(rounds)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for k in range(2)
    ]  # fmt: skip
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-3000:]
        assert json.loads(out.strip().splitlines()[-1])["ok"]
    store = KnowledgeStore("embedded", cache)
    stats = store.stats.get("libm-call-in-kernel")
    assert stats.uses == 2 * rounds and stats.successes == rounds
    entries, _ = load_entries([folder])
    report = store.sync(entries, [folder])
    assert store.counts() == {"syntactic": 4, "semantic": 4}, report


OPENER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import chromadb  # imported before the start line, so that the opens themselves start together
    from ascendc_lsp.knowledge.store import KnowledgeStore
    root, start = Path(sys.argv[1]), float(sys.argv[2])
    while time.time() < start:
        time.sleep(0.001)
    KnowledgeStore("embedded", root).open()
    print("ok")
    """
)


def test_processes_opening_a_fresh_store_at_once(tmp_path: Path) -> None:
    """Chroma's first open of a fresh database creates its tables; two processes doing it at the same moment
    collided ("table collections already exists", about 1 open in 20 with 4 processes started together) until
    the store serialised its opens (open.lock). Every open must succeed, with no retry."""
    script = tmp_path / "opener.py"
    script.write_text(OPENER, encoding="utf-8")
    for attempt in range(2):
        root = tmp_path / f"store{attempt}"
        start = time.time() + 4.0  # after every process imported chromadb
        procs = [
            subprocess.Popen([sys.executable, str(script), str(root), str(start)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
            for _ in range(6)
        ]  # fmt: skip
        for p in procs:
            out, err = p.communicate(timeout=300)
            assert p.returncode == 0 and out.strip() == "ok", err[-2000:]
