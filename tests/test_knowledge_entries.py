"""Knowledge entries: the shipped files validate, cover every rule and category, and broken files give clear errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from ascendc_lsp.cli import main
from ascendc_lsp.knowledge.entries import (
    check_coverage,
    default_entry_dir,
    load_entries,
    rules_table,
    taxonomy,
)
from tests.conftest import REAL_ERRORS

ENTRY_DIR = default_entry_dir()


@pytest.fixture(scope="module")
def shipped():
    return load_entries()


def test_shipped_entries_validate(shipped) -> None:
    entries, errors = shipped
    assert errors == [], "\n".join(str(e) for e in errors)
    assert len(entries) >= 80


def test_every_rule_has_its_entry(shipped) -> None:
    entries, _ = shipped
    ids = {e.id for e in entries}
    rules = rules_table()
    assert len(rules) >= 40
    missing = {rid: r["entry"] for rid, r in rules.items() if r["entry"] not in ids}
    assert missing == {}
    # the entry named by a rule lists that rule and has the rule's category
    by_id = {e.id: e for e in entries}
    for rid, rule in rules.items():
        entry = by_id[rule["entry"]]
        assert rid in entry.context.rules, f"{entry.id} does not list {rid}"
        assert entry.category == rule["category"], f"{entry.id}: {entry.category} != {rule['category']}"


def test_every_category_has_entries(shipped) -> None:
    entries, _ = shipped
    slugs = taxonomy()
    assert len(slugs) == 23
    counts = {slug: sum(e.category == slug for e in entries) for slug in slugs}
    assert all(n >= 2 for n in counts.values()), counts
    assert check_coverage(entries) == []


def test_kernel_examples_are_complete_kernels(shipped) -> None:
    entries, _ = shipped
    for entry in entries:
        if entry.fix.is_kernel:
            assert '#include "kernel_operator.h"' in entry.fix.after, entry.id
            assert "__global__" in entry.fix.after and "__aicore__" in entry.fix.after, entry.id
            assert len(entry.fix.after.splitlines()) <= 70, entry.id


def test_real_error_messages_are_matched(shipped) -> None:
    entries, _ = shipped
    path = REAL_ERRORS
    if not path.exists():
        pytest.skip("shared real-error sample not present")
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    matched = 0
    for record in records:
        cats = {e.category for e in entries if e.context.matches(record["message"])}
        matched += bool(cats & set(record["accept"]))
    assert matched >= 0.9 * len(records)


# ----------------------------------------------------------------------------- broken files


def _good_entry() -> dict:
    text = (ENTRY_DIR / "repeat-times-over-255.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def _write(folder: Path, name: str, data: dict | str | bytes) -> Path:
    path = folder / f"{name}.yaml"
    if isinstance(data, bytes):
        path.write_bytes(data)
    elif isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _errors_for(path: Path) -> list[str]:
    _, errors = load_entries([path])
    return [str(e) for e in errors]


def test_good_copy_validates(tmp_path: Path) -> None:
    data = _good_entry()
    data["id"] = "copy-ok"
    assert _errors_for(_write(tmp_path, "copy-ok", data)) == []


@pytest.mark.parametrize(
    ("name", "mutate", "field", "words"),
    [
        ("missing-fix", lambda d: d.pop("fix"), "fix", "missing"),
        ("missing-after", lambda d: d["fix"].pop("after"), "fix.after", "missing"),
        ("missing-sources", lambda d: d["rationale"].pop("sources"), "rationale.sources", "missing"),
        ("bad-category", lambda d: d.update(category="ub-overflowed"), "category", "unknown category"),
        ("bad-stage", lambda d: d.update(stage="later"), "stage", "unknown stage"),
        ("bad-regex", lambda d: d["context"]["messages"].append("unbalanced (paren"), "context.messages[", "regex"),
        ("bad-query", lambda d: d["context"].update(query="(call_expresion) @c"), "context.query", "tree-sitter"),
        ("bad-rule", lambda d: d["context"].update(rules=["ASC999"]), "context.rules[0]", "rules.yaml"),
        ("bad-tag", lambda d: d["context"].update(resources=["vector", "warp"]), "context.resources[1]", "resource tag"),
        ("bad-soc", lambda d: d.update(socs=["Ascend999"]), "socs[0]", "unknown SoC"),
        ("bad-url", lambda d: d["rationale"].update(sources=["see the docs"]), "rationale.sources[0]", "URL"),
        ("typo-field", lambda d: d["fix"].update(summery="x"), "fix.summery", "unknown field"),
        ("no-include", lambda d: d["fix"].update(after="int main() {}\n"), "fix.after", "kernel_operator.h"),
    ],
)
def test_broken_entry_names_file_and_field(tmp_path: Path, name: str, mutate, field: str, words: str) -> None:
    data = _good_entry()
    data["id"] = name
    mutate(data)
    path = _write(tmp_path, name, data)
    errors = _errors_for(path)
    assert errors, f"{name} should not validate"
    hit = [e for e in errors if e.startswith(f"{path}: {field}")]
    assert hit, errors
    assert any(words.lower() in e.lower() for e in hit), errors


def test_id_must_equal_file_name(tmp_path: Path) -> None:
    data = _good_entry()
    data["id"] = "another-name"
    errors = _errors_for(_write(tmp_path, "file-name", data))
    assert any(": id: " in e and "file name" in e for e in errors), errors


def test_duplicate_ids(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    data = _good_entry()
    data["id"] = "twice"
    _write(a, "twice", data)
    second = _write(b, "twice", data)
    _, errors = load_entries([a, b])
    assert [str(e) for e in errors] == [f"{second}: id: duplicate id 'twice' (also in {a / 'twice.yaml'})"]


def test_not_yaml_and_binary(tmp_path: Path) -> None:
    bad_yaml = _write(tmp_path, "bad-yaml", "id: x\ncontext: [unclosed\n  messages: {\n")
    binary = _write(tmp_path, "blob", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    latin = _write(tmp_path, "latin", b"id: caf\xe9\n")
    scalar = _write(tmp_path, "scalar", "just a sentence\n")
    errors = _errors_for(bad_yaml) + _errors_for(binary) + _errors_for(latin) + _errors_for(scalar)
    assert any(e.startswith(f"{bad_yaml}: (yaml): not valid YAML at line") for e in errors), errors
    assert any(e.startswith(f"{binary}: (file): binary file") for e in errors), errors
    assert any(e.startswith(f"{latin}: (file): not UTF-8") for e in errors), errors
    assert any(e.startswith(f"{scalar}: (document): must be a YAML mapping") for e in errors), errors


def test_missing_path(tmp_path: Path) -> None:
    errors = _errors_for(tmp_path / "nope.yaml")
    assert errors == [f"{tmp_path / 'nope.yaml'}: (file): no such file or folder"]


# ------------------------------------------------------------------------------------------ CLI


def test_cli_validate_shipped(capsys) -> None:
    assert main(["kb", "validate"]) == 0
    assert "; ok" in capsys.readouterr().out


def test_cli_validate_broken_folder(tmp_path: Path, capsys) -> None:
    shutil.copy(ENTRY_DIR / "repeat-times-over-255.yaml", tmp_path / "repeat-times-over-255.yaml")
    data = _good_entry()
    data["id"] = "broken"
    data["category"] = "nope"
    _write(tmp_path, "broken", data)
    assert main(["kb", "validate", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"{tmp_path / 'broken.yaml'}: category: unknown category 'nope'" in out
    assert main(["kb", "validate", str(tmp_path), "--format", "json"]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["valid"] is False and payload["entries"] == 1
    assert payload["errors"][0]["field"] == "category"


def test_cli_kb_stats_counts_the_entries(capsys, shipped) -> None:
    entries, _ = shipped
    assert main(["kb", "stats"]) == 0
    assert f"entries: {len(entries)} in 23 categories" in capsys.readouterr().out
