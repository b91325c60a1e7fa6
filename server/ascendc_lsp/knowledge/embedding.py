"""Offline embeddings for the two retrieval spaces: no model download, no network, no extra package.

* **syntactic** (`HashingEmbedder`): feature hashing of the tokens a log or kernel carries — whole identifiers,
  their camelCase/snake_case sub-tokens, error codes, message words and word bigrams — into `dim` signed buckets,
  sublinear term weights, L2-normalised (the "hashing trick"). File paths are dropped first: a generated file
  name such as `conv3d_max_log_sum_exp_relu_custom.cpp` would otherwise look like a call to `exp` and `log`.
* **hardware-semantic** (`ResourceEmbedder`): a projection onto the resource tags of `knowledge/README.md` through
  the lexicon `knowledge/lexicon.yaml` (tag -> words, phrases, API names). A text becomes one weight per tag;
  `@tag:NAME` markers (written into entry documents from `context.resources`) count as strong evidence.

Both are plain Python (blake2b + a few regexes) so the language server can embed a query in well under a
millisecond. `knowledge.store.chroma_embedding_functions()` wraps them as chromadb embedding functions (the
Chroma side lives with the store; nothing here imports chromadb or the store).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ascendc_lsp import safeio
from ascendc_lsp.resources import knowledge_dir

EMBEDDING_VERSION = 3
DEFAULT_DIM = 512
TAG_MARKER = "@tag:"

# Words that carry no retrieval signal in compiler/runtime logs.
_STOPWORDS_TEXT = """a an the of to in on at by for from with and or not no is are was were be been it its this that these
    those as if then else but so than into via per use used using can cannot could should would will may might
    must do does did done has have had here there which who what when where why how all any each other some such
    only own same too very just also error errors warning warnings note notes line file column info debug
    function call called calls value values type types
    """
STOPWORDS: frozenset[str] = frozenset(_STOPWORDS_TEXT.split())
# Kept even though short or numeric: runtime and message codes.
_CODE_RE = re.compile(r"^(?:\d{5,6}|e[a-z]\d{4}|0x[0-9a-f]+|err\d{5}|asc\d{3})$")
# Each alternative may only start where a run of its characters starts (the lookbehinds): without them a long
# token without a separator is rescanned from every position, quadratic (a 40 KB token took 31 s).
# The directories are one character class ending at a separator, not a repeated group `(?:[\w.\-~]*[/\\])+`:
# the same language, but the engine kept a backtracking frame per repetition (`a/` x 400,000 peaked at 48 MiB).
_PATH_RE = re.compile(
    r"(?<![\w.\-~/\\])(?:[A-Za-z]:)?[\w.\-~/\\]*[/\\][\w.\-]+"
    r"|(?<![\w\-])[\w\-]+\.(?:cpp|cc|cxx|c|h|hpp|hh|py|txt|cmake|so|o|a|json|log|sh)\b"
)
_TOKEN_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|0x[0-9A-Fa-f]+")
_CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


_FILE_KIND_RE = re.compile(r"(?:^|[/\\_.\-])([A-Za-z]+)\d*\.([A-Za-z]+)$")


# Last words of file names that say what a file is (generated tiling headers, op prototypes, CANN interfaces).
_FILE_ROLES = frozenset(
    ["tiling", "proto", "custom", "impl", "intf", "kernel", "kernels", "config", "operator", "opapi", "api", "info", "tpipe", "tensor", "pub", "log", "base", "def", "register", "ops", "interface", "tiling_api", "platform", "binary"]
)


def _file_kind(match: re.Match[str]) -> str:
    """A path becomes its kind: the extension, and the last word of the file name when it names a role
    (`add_custom_tiling.h` -> `tiling hfile`, `op_proto.h` -> `proto hfile`); the rest describes one report."""
    m = _FILE_KIND_RE.search(match.group(0))
    if not m:
        return " "
    role = m.group(1).lower()
    return f" {role if role in _FILE_ROLES else ''} {m.group(2).lower()}file "


def strip_paths(text: str) -> str:
    """Replace file paths and file names by their kind (they describe one report, not the phenomenon; a
    generated name such as `conv3d_max_log_sum_exp_relu_custom.cpp` would otherwise look like exp and log)."""
    return _PATH_RE.sub(_file_kind, text)


def sub_tokens(identifier: str) -> list[str]:
    """`DataCopyPad` -> [data, copy, pad]; `GET_TILING_DATA` -> [get, tiling, data]."""
    parts: list[str] = []
    for chunk in identifier.split("_"):
        if chunk:
            parts.extend(m.group(0).lower() for m in _CAMEL_RE.finditer(chunk))
    return parts


def tokens(text: str) -> list[tuple[str, float]]:
    """Weighted features of a text: identifiers (1.0), their sub-tokens (0.5) and word bigrams (0.7)."""
    text = strip_paths(text)
    out: list[tuple[str, float]] = []
    words: list[str] = []
    for m in _TOKEN_RE.finditer(text):
        raw = m.group(0)
        low = raw.lower()
        quoted = m.start() > 0 and text[m.start() - 1] in "'‘\"`"  # 'Or', 'And': API names, not stopwords
        if low.isdigit() or low.startswith("0x"):
            if _CODE_RE.match(low):
                out.append((low, 1.5))
                words.append(low)
            continue
        if _CODE_RE.match(low):
            out.append((low, 1.5))
            words.append(low)
            continue
        if len(low) < 2 or (low in STOPWORDS and not quoted):
            continue
        out.append((low, 1.0))
        words.append(low)
        subs = sub_tokens(raw)
        if len(subs) > 1:
            for s in subs:
                if len(s) > 1 and s not in STOPWORDS and not s.isdigit():
                    out.append((s, 0.5))
    for a, b in itertools.pairwise(words):
        out.append((f"{a} {b}", 0.7))
    return out


def _bucket(feature: str, dim: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dim, (1.0 if (value >> 63) & 1 else -1.0)


def _normalise(vec: list[float]) -> list[float]:
    norm = math.sqrt(sum(v * v for v in vec))
    if norm == 0.0:
        return vec
    return [v / norm for v in vec]


class HashingEmbedder:
    """The syntactic space: signed feature hashing of identifiers, sub-tokens, codes and bigrams."""

    def __init__(self, dim: int = DEFAULT_DIM, idf: dict[str, float] | None = None, idf_digest: str = "") -> None:
        self.dim = dim
        self.idf = idf or {}
        self._default_idf: float = max(self.idf.values(), default=1.0)
        self._cache: dict[str, tuple[int, float]] = {}
        self._idf_digest = idf_digest or idf_digest_of(self.idf)

    def bucket(self, feature: str) -> tuple[int, float]:
        hit = self._cache.get(feature)
        if hit is None:
            hit = _bucket(feature, self.dim)
            if len(self._cache) < 200_000:
                self._cache[feature] = hit
        return hit

    def embed(self, text: str) -> list[float]:
        weights: dict[str, float] = {}
        for feature, weight in tokens(text):
            weights[feature] = weights.get(feature, 0.0) + weight
        vec = [0.0] * self.dim
        for feature, weight in weights.items():
            index, sign = self.bucket(feature)
            tf = (1.0 + math.log(weight)) if weight >= 1.0 else weight
            vec[index] += sign * tf * self.idf.get(feature, self._default_idf)
        return _normalise(vec)

    def embed_many(self, texts: Iterable[str]) -> list[list[float]]:
        return [self.embed(t) for t in texts]

    def signature(self) -> str:
        return f"hashing-v{EMBEDDING_VERSION}-{self.dim}-{self._idf_digest}"


def idf_digest_of(idf: dict[str, float]) -> str:
    """A short digest of an idf table (part of the embedding signature)."""
    return hashlib.sha256(json.dumps(sorted((k, round(v, 4)) for k, v in idf.items())).encode()).hexdigest()[:12]


def build_idf(documents: Iterable[str]) -> dict[str, float]:
    """Smoothed inverse document frequencies of the features of `documents`: log((N + 1) / (df + 1)) + 1."""
    df: Counter[str] = Counter()
    n = 0
    for doc in documents:
        n += 1
        df.update({feature for feature, _ in tokens(doc)})
    return {feature: math.log((n + 1) / (count + 1)) + 1.0 for feature, count in df.items()}


# ------------------------------------------------------------------------------------------------ lexicon


@dataclass(frozen=True)
class Lexicon:
    """Resource tags and the terms pointing at each."""

    tags: tuple[str, ...]
    terms: dict[str, tuple[str, ...]]  # lower-cased term -> tags
    patterns: tuple[tuple[re.Pattern[str], str], ...]
    digest: str
    term_matcher: TermMatcher | None
    aliases: tuple[tuple[re.Pattern[str], str], ...] = ()

    def clang_forms(self, text: str) -> str:
        """The clang/bisheng phrasing of the g++ diagnostics in `text` (one line each; empty when none)."""
        out: list[str] = []
        for line in text.splitlines()[:2000]:
            for pattern, replacement in self.aliases:
                m = pattern.search(line)
                if m:
                    out.append(m.expand(replacement))
                    break
        return "\n".join(out)

    def weights(self, text: str) -> Counter[str]:
        """Raw tag counts of a text: lexicon terms, regex patterns and `@tag:NAME` markers (x3)."""
        counts: Counter[str] = Counter()
        low = text.lower()
        for marker in re.finditer(re.escape(TAG_MARKER) + r"([a-z0-9-]+)", low):
            if marker.group(1) in self.tags:
                counts[marker.group(1)] += 3
        # patterns see the original case (they are case-insensitive unless they say `(?-i:...)`)
        text = strip_paths(re.sub(re.escape(TAG_MARKER) + r"[a-z0-9-]+", " ", text, flags=re.IGNORECASE))
        low = text.lower()
        if self.term_matcher is not None:
            for term in self.term_matcher.finditer(low):
                for tag in self.terms.get(term, ()):
                    counts[tag] += 1
        for pattern, tag in self.patterns:
            n = sum(1 for _ in pattern.finditer(text))
            if n:
                counts[tag] += n
        return counts


def _is_term_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


class TermMatcher:
    """Leftmost-longest, non-overlapping occurrences of terms in lower-case text, with word-ish boundaries that
    also work for terms starting or ending with punctuation (`__gm__`, `<<<`). A dictionary scan instead of one
    regex alternation of every term: nothing to compile at start-up."""

    def __init__(self, terms: Sequence[str]) -> None:
        self.by_first: dict[str, list[str]] = {}
        for t in sorted(set(terms), key=len, reverse=True):
            if t:
                self.by_first.setdefault(t[0], []).append(t)

    def finditer(self, low: str) -> Iterator[str]:
        i, n = 0, len(low)
        by_first = self.by_first
        while i < n:
            cands = by_first.get(low[i])
            if cands is not None and (i == 0 or not _is_term_char(low[i - 1])):
                for t in cands:
                    end = i + len(t)
                    if low.startswith(t, i) and (end >= n or not _is_term_char(low[end])):
                        yield t
                        i = end
                        break
                else:
                    i += 1
            else:
                i += 1


def parse_lexicon(data: Any, tags: Sequence[str], digest: str = "") -> Lexicon:
    """Build a Lexicon from the YAML mapping; unknown tags are ignored, every tag also matches its own name."""
    terms: dict[str, list[str]] = {}
    patterns: list[tuple[re.Pattern[str], str]] = []
    raw_tags = data.get("tags", {}) if isinstance(data, dict) else {}
    for tag in tags:
        spec = raw_tags.get(tag) if isinstance(raw_tags, dict) else None
        words = [tag, tag.replace("-", " ")]
        if isinstance(spec, dict):
            words += [str(t) for t in spec.get("terms", []) or [] if str(t).strip()]
            for p in spec.get("patterns", []) or []:
                try:
                    patterns.append((re.compile(str(p), re.IGNORECASE), tag))
                except re.error:
                    continue
        for word in words:
            key = word.lower().strip()
            if key and tag not in terms.setdefault(key, []):
                terms[key].append(tag)
    aliases: list[tuple[re.Pattern[str], str]] = []
    for item in (data.get("gcc_aliases", []) if isinstance(data, dict) else []) or []:
        if isinstance(item, dict) and isinstance(item.get("gcc"), str) and isinstance(item.get("clang"), str):
            try:
                aliases.append((re.compile(item["gcc"], re.IGNORECASE), item["clang"]))
            except re.error:
                continue
    return Lexicon(
        tags=tuple(tags),
        terms={k: tuple(v) for k, v in terms.items()},
        patterns=tuple(patterns),
        digest=digest,
        term_matcher=TermMatcher(list(terms)) if terms else None,
        aliases=tuple(aliases),
    )


def lexicon_path(root: Path | None = None) -> Path:
    return (root or knowledge_dir()) / "lexicon.yaml"


@cache
def load_lexicon(root: Path | None = None) -> Lexicon:
    """The lexicon of `knowledge/lexicon.yaml` over the README's resource tags (tags alone if the file is missing).

    The parsed YAML is kept in the compiled-knowledge cache, so a one-shot query does not import yaml."""
    from ascendc_lsp.knowledge.compiled import cached, files_key
    from ascendc_lsp.knowledge.entries import resource_tags

    path = lexicon_path(root)

    def read() -> tuple[str, Any]:
        import yaml

        try:
            text = safeio.read_text(path, safeio.MAX_ENTRY_BYTES, "lexicon")
            return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16], safeio.load_yaml(text)
        except (OSError, ValueError, yaml.YAMLError):
            return hashlib.sha256(b"").hexdigest()[:16], {}

    digest, data = cached("lexicon", files_key([path], [str(path)]), read)
    return parse_lexicon(data, resource_tags(root), digest)


class ResourceEmbedder:
    """The hardware-semantic space: one dimension per resource tag, sublinear tag counts, L2-normalised."""

    def __init__(self, lexicon: Lexicon | None = None) -> None:
        self.lexicon = lexicon or load_lexicon()
        self._index = {t: i for i, t in enumerate(self.lexicon.tags)}

    @property
    def dim(self) -> int:
        return max(1, len(self.lexicon.tags))

    def tag_weights(self, text: str) -> dict[str, float]:
        return {tag: 1.0 + math.log(n) for tag, n in self.lexicon.weights(text).items() if n > 0}

    def embed(self, text: str) -> list[float]:
        vec = [0.0] * self.dim
        for tag, weight in self.tag_weights(text).items():
            vec[self._index[tag]] = weight
        return _normalise(vec)

    def embed_many(self, texts: Iterable[str]) -> list[list[float]]:
        return [self.embed(t) for t in texts]

    def signature(self) -> str:
        return f"resources-v{EMBEDDING_VERSION}-{self.lexicon.digest}-{len(self.lexicon.tags)}"


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine of two L2-normalised vectors (their dot product)."""
    return float(sum(x * y for x, y in zip(a, b, strict=False)))
