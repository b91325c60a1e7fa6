"""2D retrieval on real error messages (memory index: the same embeddings and scoring as the Chroma store)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascendc_lsp.knowledge.embedding import (
    HashingEmbedder,
    ResourceEmbedder,
    load_lexicon,
    strip_paths,
    sub_tokens,
)
from ascendc_lsp.knowledge.retrieval import Retriever, required_literal
from ascendc_lsp.knowledge.store import KnowledgeStore, shipped_entries
from tests.conftest import REAL_ERRORS as REAL


@pytest.fixture(scope="module")
def retriever() -> Retriever:
    entries, _ = shipped_entries()
    return Retriever(entries, KnowledgeStore("memory"))


def test_sub_tokens_and_paths() -> None:
    assert sub_tokens("DataCopyPad") == ["data", "copy", "pad"]
    assert sub_tokens("GET_TILING_DATA") == ["get", "tiling", "data"]
    assert "conv3d" not in strip_paths("op_kernel/conv3d_max_log_sum_exp.cpp:112:58: error: x")


def test_embeddings_are_normalised_and_deterministic() -> None:
    h = HashingEmbedder()
    a, b = (
        h.embed("no matching function for call to 'DataCopy'"),
        h.embed("no matching function for call to 'DataCopy'"),
    )
    assert a == b and abs(sum(x * x for x in a) - 1.0) < 1e-6
    sem = ResourceEmbedder()
    weights = sem.tag_weights("UB overflow: InitBuffer exceeds 192 KB")
    assert {"ub", "capacity"} <= set(weights)


def test_lexicon_maps_gcc_phrasing_to_clang() -> None:
    lex = load_lexicon()
    out = lex.clang_forms(
        "k.cpp:5:5: error: ‘TPipe’ was not declared in this scope; did you mean ‘AscendC::TPipe’?"
    )
    assert "use of undeclared identifier 'TPipe'; did you mean 'AscendC::TPipe'" in out


def test_required_literal_is_conservative() -> None:
    assert required_literal(r"DataCopy moves \d+ B; hardware copies") == " b; hardware copies"
    assert required_literal(r"(a|b)c") is None
    assert required_literal(r"x") is None


@pytest.mark.parametrize(
    ("message", "category"),
    [
        ("add.cpp:12:5: error: no matching function for call to 'expf'", "libm-in-kernel"),
        ("error: double precision operation is not allowed in aicore function", "aicore-scalar-type"),
        ("[ERROR] aclrtSynchronizeStream failed: 507035 ... The vector core execution is abnormal", None),
        ("repeatTimes 300 exceeds 255", "vector-param-invalid"),
        ("DataCopy moves 200 B; hardware copies 192 B", "misaligned-access"),
    ],
)
def test_known_messages(retriever: Retriever, message: str, category: str | None) -> None:
    matches = retriever.search(message, top=3)
    assert matches
    assert matches[0].score >= matches[-1].score
    if category is not None:
        assert matches[0].entry.category == category


def test_code_context_is_used(retriever: Retriever) -> None:
    code = "SetFlag<HardEvent::MTE2_V>(AscendC::EVENT_ID0);\nWaitFlag<HardEvent::MTE2_V>(AscendC::EVENT_ID0);"
    with_code = retriever.search("error: no member named 'EVENT_ID0' in namespace 'AscendC'", code, top=3)
    assert any(m.entry.category in ("api-signature", "undeclared-ascendc-symbol") for m in with_code)


def test_value_prior_and_retirement(tmp_path: Path) -> None:
    entries, _ = shipped_entries()
    store = KnowledgeStore("memory", tmp_path)
    r = Retriever(entries, store)
    base = r.search("no matching function for call to 'expf'", top=1)[0]
    store.stats.update(base.entry.id, lambda s: setattr(s, "retired", True))
    r.refresh_stats()
    after = r.search("no matching function for call to 'expf'", top=1)[0]
    assert after.entry.id != base.entry.id


@pytest.mark.skipif(not REAL.is_file(), reason="real-errors.dev.jsonl not present")
def test_real_errors_accuracy(retriever: Retriever) -> None:
    rows = [json.loads(line) for line in REAL.read_text(encoding="utf-8").splitlines() if line.strip()]
    top1 = top3 = 0
    for row in rows:
        accept = set(row.get("accept") or [row["category"]])
        cats = [m.entry.category for m in retriever.search(row["message"], top=3)]
        top1 += bool(cats) and cats[0] in accept
        top3 += bool(accept & set(cats))
    assert top1 / len(rows) >= 0.9
    assert top3 / len(rows) >= 0.97
