"""Learning from outcomes: entry values (EMA of rewards) and candidate entries from failure-and-fix records.

* `record_outcome(entry_id, success)`: an entry was used (its fix applied) and the next compile/run passed
  (reward 1) or failed (reward 0). Its value moves towards the reward: `value += ALPHA * (reward - value)`,
  starting from 0.5, as in value-driven memory (each memory's utility is an exponential moving average of the
  rewards observed after retrieving it). Uses and successes are counted too. Stored in the cache's
  `stats.sqlite3`, never in the reviewed entry files.
* `add_candidate(record)`: a failure (log), the edit that fixed it (before/after or a diff) and an optional
  rationale become a candidate entry in `candidates/<id>.json` of the cache. Candidates are not retrieved;
  `kb export --out DIR` writes them as reviewable YAML in the entries schema.

Record fields (JSON): `log` (or `message`, required), `before` + `after` (or `diff`), optional `rationale`,
`title`, `category`, `stage`, `apis`, `resources`, `sources`, `fix` (one-line summary), `source` (where the
record came from, e.g. "llm-loop").
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from pathlib import Path
from typing import Any

from ascendc_lsp import safeio
from ascendc_lsp.knowledge.store import DEFAULT_VALUE, EntryStats, KnowledgeStore, atomic_write, file_lock

ALPHA = 0.3


def _store(store: KnowledgeStore | None) -> KnowledgeStore:
    if store is not None:
        return store
    from ascendc_lsp.settings import settings_for_path

    settings, _ = settings_for_path(Path.cwd())
    location = settings.knowledge.store
    # Stats and candidates always live in the local cache; only the vectors may be on a team server.
    return KnowledgeStore(location if location.startswith("http") else "embedded")


def ema(value: float, reward: float, alpha: float = ALPHA) -> float:
    return value + alpha * (reward - value)


def record_outcome(entry_id: str, success: bool, store: KnowledgeStore | None = None) -> float:
    """Update the entry's value with the outcome of using it; returns the new value."""
    if not entry_id:
        raise ValueError("entry_id is required")
    reward = 1.0 if success else 0.0

    def change(stats: EntryStats) -> None:
        stats.uses += 1
        stats.successes += 1 if success else 0
        stats.value = ema(stats.value, reward)

    result = _store(store).stats.update(entry_id, change)
    _invalidate_default_stats()
    return result.value


def _invalidate_default_stats() -> None:
    from ascendc_lsp.knowledge import retrieval

    for r in list(retrieval._DEFAULTS.values()):
        r.refresh_stats()


# ---------------------------------------------------------------------------------------- candidates


class RecordError(ValueError):
    """A failure-and-fix record is missing what a candidate needs; the message names the field."""


_FIRST_ERROR = re.compile(r"(?:error|Error|ERROR|errorStr)[:\]]\s*(.+)")


def _first_error_line(log: str) -> str:
    for line in log.splitlines():
        m = _FIRST_ERROR.search(line)
        if m and m.group(1).strip():
            return m.group(1).strip()
    return next((line.strip() for line in log.splitlines() if line.strip()), "")


def message_regex(line: str) -> str:
    """A regex describing an error line without the report-specific parts (paths, numbers, names in quotes)."""
    from ascendc_lsp.knowledge.embedding import strip_paths

    text = strip_paths(line)[:160].strip(" :")
    out: list[str] = []
    for part in re.split(r"(['‘’`\"][^'‘’`\"]{1,60}['‘’`\"]|\d+)", text):
        if not part:
            continue
        if part[0] in "'‘’`\"":
            inner = part[1:-1]
            out.append(
                "['‘’`\"]"
                + (_escape(inner) if re.fullmatch(r"[A-Za-z_]\w*", inner) else r"[^'‘’`\"]+")
                + "['‘’`\"]"
            )
        elif part.isdigit():
            out.append(r"\d+")
        else:
            out.append(_escape(part.strip()) if part.strip() else r"\s*")
    pattern = r"\s*".join(p for p in out if p)
    return pattern or _escape(text)


def _escape(text: str) -> str:
    """re.escape that leaves spaces and common punctuation readable."""
    return re.sub(r"([.^$*+?{}\[\]\\|()])", r"\\\1", text)


def _slug(text: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())[:6]
    return "-".join(words) or "record"


def _diff(before: str, after: str) -> str:
    import difflib

    return "\n".join(
        difflib.unified_diff(before.splitlines(), after.splitlines(), "before", "after", lineterm="")
    )


def build_candidate(record: dict[str, Any], retriever: Any = None) -> dict[str, Any]:
    """A candidate entry (entries schema + `candidate` metadata) from a record; raises RecordError."""
    if not isinstance(record, dict):
        raise RecordError("the record must be a JSON object")
    log = record.get("log") or record.get("message") or ""
    if not isinstance(log, str) or not log.strip():
        raise RecordError("record.log: the failure log (or message) is required")
    before = record.get("before") or ""
    after = record.get("after") or ""
    diff = record.get("diff") or ""
    if not (isinstance(before, str) and isinstance(after, str) and isinstance(diff, str)):
        raise RecordError("record.before/after/diff must be strings")
    if not diff and not (before.strip() and after.strip()):
        raise RecordError(
            "record.before and record.after (or record.diff): the edit that fixed the failure is required"
        )
    if before.strip() and before.strip() == after.strip():
        raise RecordError("record.after is identical to record.before")
    if not diff:
        diff = _diff(before, after)
    headline = _first_error_line(log)
    guess = None
    if retriever is not None or not record.get("category"):
        try:
            from ascendc_lsp.knowledge.retrieval import Retriever

            r = retriever or Retriever.default()
            found = r.search(log, after or before, top=1)
            guess = found[0] if found else None
        except Exception:
            guess = None
    category = str(record.get("category") or (guess.entry.category if guess else "aicore-exception-triage"))
    stage = str(record.get("stage") or (guess.entry.stage if guess else "compile"))
    resources = [str(r) for r in record.get("resources") or []]
    if not resources:
        from ascendc_lsp.knowledge.embedding import ResourceEmbedder

        weights = ResourceEmbedder().tag_weights(f"{log}\n{diff}")
        resources = [t for t, _ in sorted(weights.items(), key=lambda kv: -kv[1])[:4]] or ["compiler"]
    apis = [str(a) for a in record.get("apis") or []]
    if not apis:
        changed = "\n".join(
            line[1:] for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")
        )
        apis = sorted(set(re.findall(r"\b([A-Z][A-Za-z0-9]+)\s*(?:<[^>]*>)?\s*\(", changed)))[:6]
    title = str(record.get("title") or headline[:100] or "Learned fix")
    digest = hashlib.sha256(f"{headline}\n{diff}".encode()).hexdigest()[:8]
    cid = f"cand-{_slug(title)}-{digest}"
    rationale = str(record.get("rationale") or "").strip()
    return {
        "id": cid,
        "title": title,
        "category": category,
        "stage": stage,
        "socs": [str(s) for s in record.get("socs") or ["all"]],
        "context": {
            "messages": [message_regex(headline)] if headline else [],
            "apis": apis,
            "resources": resources,
        },
        "fix": {
            "summary": str(
                record.get("fix") or (f"See the edit: {title}" if not rationale else rationale.split(". ")[0])
            ),
            "language": str(record.get("language") or "kernel"),
            "before": before or diff,
            "after": after or diff,
        },
        "rationale": {
            "text": rationale or "TODO(reviewer): explain the hardware reason, with the numbers.",
            "sources": [str(s) for s in record.get("sources") or []],
        },
        "candidate": {
            "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "origin": str(record.get("source") or "kb import"),
            "log": log[:4000],
            "diff": diff[:8000],
            "similar": guess.entry.id if guess else None,
            "similar_score": round(guess.score, 4) if guess else None,
        },
    }


def add_candidate(record: dict[str, Any], store: KnowledgeStore | None = None, retriever: Any = None) -> str:
    """Store a candidate entry synthesised from a failure-and-fix record; returns its id."""
    st = _store(store)
    candidate = build_candidate(record, retriever)
    path = st.candidates_dir / f"{candidate['id']}.json"
    with file_lock(st.lock_path):
        atomic_write(path, json.dumps(candidate, indent=2, ensure_ascii=False) + "\n")
    st.log_change("candidate-added", id=candidate["id"], category=candidate["category"],
                  origin=candidate["candidate"]["origin"])  # fmt: skip
    return str(candidate["id"])


def list_candidates(store: KnowledgeStore | None = None) -> list[dict[str, Any]]:
    st = _store(store)
    out: list[dict[str, Any]] = []
    if not st.candidates_dir.is_dir():
        return out
    for path in sorted(st.candidates_dir.glob("*.json")):
        try:
            data = safeio.load_json(safeio.read_bytes(path, safeio.MAX_RECORD_BYTES, "candidate"), str(path))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("id"):
            out.append(data)
    return out


def candidate_yaml(candidate: dict[str, Any]) -> str:
    """A candidate as a reviewable entry file (entries schema; review notes as comments at the top)."""
    import yaml

    meta = candidate.get("candidate", {})
    body = {
        k: candidate[k] for k in ("id", "title", "category", "stage", "socs", "context", "fix", "rationale")
    }
    entry_id = str(body["id"]).removeprefix("cand-")
    body["id"] = entry_id
    header = [
        "# Candidate entry synthesised from a failure-and-fix record: REVIEW before committing.",
        f"# origin: {meta.get('origin', '?')}, created {meta.get('created', '?')}",
        "# Check: title and category, the message regex (no report-specific names), a complete before/after",
        "# kernel pair, the hardware rationale with numbers, and at least one public source URL.",
    ]
    if meta.get("similar"):
        header.append(f"# Most similar existing entry: {meta['similar']} (score {meta.get('similar_score')})")

    class _Literal(str):
        pass

    def literal(dumper: yaml.SafeDumper, data: _Literal) -> yaml.Node:
        return dumper.represent_scalar("tag:yaml.org,2002:str", str(data), style="|")

    yaml.SafeDumper.add_representer(_Literal, literal)
    for key in ("before", "after"):
        text = str(body["fix"].get(key, ""))
        body["fix"][key] = _Literal(text if text.endswith("\n") else text + "\n")
    text = yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=110)
    return "\n".join(header) + "\n" + text


def export_candidates(out_dir: Path, store: KnowledgeStore | None = None) -> list[Path]:
    """Write every candidate as `<id>.yaml` (without the `cand-` prefix) into `out_dir`."""
    st = _store(store)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for candidate in list_candidates(st):
        text = candidate_yaml(candidate)
        path = out_dir / f"{str(candidate['id']).removeprefix('cand-')}.yaml"
        atomic_write(path, text)
        written.append(path)
        st.log_change("candidate-exported", id=candidate["id"], path=str(path))
    return written


__all__ = [
    "ALPHA",
    "DEFAULT_VALUE",
    "RecordError",
    "add_candidate",
    "build_candidate",
    "candidate_yaml",
    "ema",
    "export_candidates",
    "list_candidates",
    "record_outcome",
]
