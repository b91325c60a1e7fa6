"""Learning: EMA values, candidates from failure-and-fix records, export to reviewable YAML, distill, kb CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ascendc_lsp.knowledge.distill import distill
from ascendc_lsp.knowledge.learning import (
    ALPHA,
    RecordError,
    add_candidate,
    build_candidate,
    export_candidates,
    list_candidates,
    record_outcome,
)
from ascendc_lsp.knowledge.retrieval import Retriever
from ascendc_lsp.knowledge.store import KnowledgeStore, shipped_entries

RECORD = {
    "log": "k.cpp:3:5: error: no matching function for call to 'tanhf'",
    "before": '#include "kernel_operator.h"\nfloat y = tanhf(x);\n',
    "after": '#include "kernel_operator.h"\nTanh(yLocal, xLocal, n);\n',
    "rationale": "The AI Core has no libm; use the vector Tanh on a LocalTensor.",
    "source": "test",
}


@pytest.fixture
def store(tmp_path: Path) -> KnowledgeStore:
    return KnowledgeStore("memory", tmp_path / "cache")


@pytest.fixture(scope="module")
def retriever() -> Retriever:
    entries, _ = shipped_entries()
    return Retriever(entries, KnowledgeStore("memory"))


def test_record_outcome_is_an_ema(store: KnowledgeStore) -> None:
    v1 = record_outcome("libm-call-in-kernel", True, store)
    assert v1 == pytest.approx(0.5 + ALPHA * 0.5)
    v2 = record_outcome("libm-call-in-kernel", False, store)
    assert v2 == pytest.approx(v1 - ALPHA * v1)
    stats = store.stats.get("libm-call-in-kernel")
    assert stats.uses == 2 and stats.successes == 1


def test_add_candidate_and_export(store: KnowledgeStore, retriever: Retriever, tmp_path: Path) -> None:
    cid = add_candidate(RECORD, store, retriever)
    assert cid.startswith("cand-")
    cands = list_candidates(store)
    assert [c["id"] for c in cands] == [cid]
    assert cands[0]["category"] == "libm-in-kernel"  # guessed from the nearest entry
    import re

    assert re.search(
        cands[0]["context"]["messages"][0], "error: no matching function for call to ‘tanhf’", re.I
    )
    written = export_candidates(tmp_path / "out", store)
    data = yaml.safe_load(written[0].read_text(encoding="utf-8"))
    assert data["id"] == written[0].stem and not data["id"].startswith("cand-")
    assert {"id", "title", "category", "stage", "socs", "context", "fix", "rationale"} == set(data)
    assert "Tanh" in data["fix"]["after"]
    assert (store.root / "changes.jsonl").is_file()


@pytest.mark.parametrize("bad", [{}, {"log": "x"}, {"log": "x", "before": "a", "after": "a"}, []])
def test_bad_records(bad: object, retriever: Retriever) -> None:
    with pytest.raises(RecordError):
        build_candidate(bad, retriever)  # type: ignore[arg-type]


def test_distill_merges_candidates_and_retires(store: KnowledgeStore, retriever: Retriever) -> None:
    entries, _ = shipped_entries()
    a = add_candidate(RECORD, store, retriever)
    b = add_candidate({**RECORD, "after": RECORD["after"] + "// same fix\n"}, store, retriever)
    for _ in range(6):
        record_outcome("std-library-in-kernel", False, store)
    dry = distill(store, entries, dry_run=True)
    actions = {(c.action, c.id) for c in dry.changes}
    assert ("retire", "std-library-in-kernel") in actions
    assert any(c.action == "merge" and {c.id, c.into} == {a, b} for c in dry.changes)
    assert len(list_candidates(store)) == 2  # dry run changed nothing
    real = distill(store, entries)
    assert len(list_candidates(store)) == 1
    assert store.stats.get("std-library-in-kernel").retired
    log = [json.loads(line) for line in (store.root / "changes.jsonl").read_text().splitlines()]
    assert {"distill-merge", "distill-retire"} <= {r["action"] for r in log}
    assert real.changes


def test_kb_cli(tmp_path: Path) -> None:
    env_run = [sys.executable, "-m", "ascendc_lsp", "kb"]
    record = tmp_path / "record.json"
    record.write_text(json.dumps(RECORD), encoding="utf-8")
    r = subprocess.run(
        [*env_run, "import", str(record), "--format", "json"], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    cid = json.loads(r.stdout)["candidate"]
    r = subprocess.run([*env_run, "stats", "--format", "json"] if False else [*env_run, "stats"],
                       capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 0 and cid in r.stdout
    r = subprocess.run([*env_run, "search", "repeatTimes", "exceeds", "255", "--format", "json"],
                       capture_output=True, text=True, timeout=120)  # fmt: skip
    assert json.loads(r.stdout)["matches"][0]["category"] == "vector-param-invalid"
    r = subprocess.run(
        [*env_run, "export", "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0 and list((tmp_path / "out").glob("*.yaml"))
    r = subprocess.run(
        [*env_run, "distill", "--dry-run", "--format", "json"], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0 and json.loads(r.stdout)["dry_run"] is True
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert subprocess.run([*env_run, "import", str(bad)], capture_output=True, timeout=120).returncode == 2
