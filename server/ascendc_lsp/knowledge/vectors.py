"""The retrieval spaces' vector indexes: `VectorIndex` (the protocol), `MemoryIndex` (in process) and
`ChromaIndex` (a Chroma collection, embedded or on a team's server), plus the chromadb embedding functions that
wrap our offline embedders. chromadb is imported only by `chroma_embedding_functions()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol

from ascendc_lsp.knowledge.documents import shipped_idf
from ascendc_lsp.knowledge.embedding import (
    DEFAULT_DIM,
    EMBEDDING_VERSION,
    HashingEmbedder,
    ResourceEmbedder,
)

BATCH = 500  # vectors per upsert


@cache
def chroma_embedding_functions() -> tuple[type, type]:
    """The chromadb embedding-function classes (registered once; imports chromadb)."""
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
    from chromadb.utils.embedding_functions import register_embedding_function

    @register_embedding_function
    class AscendcHashingEF(EmbeddingFunction[Documents]):
        def __init__(self, dim: int = DEFAULT_DIM) -> None:
            self.dim = dim
            self._embedder = HashingEmbedder(dim, shipped_idf())

        def __call__(self, input: Documents) -> Embeddings:
            import numpy as np

            return [np.asarray(v, dtype=np.float32) for v in self._embedder.embed_many(input)]

        @staticmethod
        def name() -> str:
            return "ascendc_hashing"

        def get_config(self) -> dict[str, Any]:
            return {"dim": self.dim, "version": EMBEDDING_VERSION}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> AscendcHashingEF:
            return AscendcHashingEF(int(config.get("dim", DEFAULT_DIM)))

        def default_space(self) -> str:  # type: ignore[override]
            return "cosine"

        def is_legacy(self) -> bool:
            return False

    @register_embedding_function
    class AscendcResourceEF(EmbeddingFunction[Documents]):
        def __init__(self) -> None:
            self._embedder = ResourceEmbedder()

        def __call__(self, input: Documents) -> Embeddings:
            import numpy as np

            return [np.asarray(v, dtype=np.float32) for v in self._embedder.embed_many(input)]

        @staticmethod
        def name() -> str:
            return "ascendc_resources"

        def get_config(self) -> dict[str, Any]:
            return {"version": EMBEDDING_VERSION, "tags": len(self._embedder.lexicon.tags)}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> AscendcResourceEF:
            return AscendcResourceEF()

        def default_space(self) -> str:  # type: ignore[override]
            return "cosine"

        def is_legacy(self) -> bool:
            return False

    return AscendcHashingEF, AscendcResourceEF


class VectorIndex(Protocol):
    """One retrieval space: ids with vectors and metadata."""

    def metadatas(self) -> dict[str, dict[str, Any]]: ...

    def upsert(
        self, ids: Sequence[str], vectors: Sequence[Sequence[float]], documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
    ) -> None: ...  # fmt: skip

    def delete(self, ids: Sequence[str]) -> None: ...

    def query(self, vector: Sequence[float], n: int) -> list[tuple[str, float]]: ...

    def count(self) -> int: ...


class MemoryIndex:
    """A brute-force in-memory index (numpy); used when no Chroma is wanted (tests, benchmarks, fallback)."""

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._pos: dict[str, int] = {}
        self._vecs: list[Sequence[float]] = []
        self._meta: list[dict[str, Any]] = []
        self._matrix: Any = None

    def metadatas(self) -> dict[str, dict[str, Any]]:
        return dict(zip(self._ids, self._meta, strict=True))

    def upsert(
        self, ids: Sequence[str], vectors: Sequence[Sequence[float]], documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
    ) -> None:  # fmt: skip
        for i, v, m in zip(ids, vectors, metadatas, strict=True):
            if i in self._pos:
                self._vecs[self._pos[i]] = v
                self._meta[self._pos[i]] = m
            else:
                self._pos[i] = len(self._ids)
                self._ids.append(i)
                self._vecs.append(v)
                self._meta.append(m)
        self._matrix = None

    def delete(self, ids: Sequence[str]) -> None:
        drop = set(ids)
        keep = [k for k, i in enumerate(self._ids) if i not in drop]
        self._ids = [self._ids[k] for k in keep]
        self._vecs = [self._vecs[k] for k in keep]
        self._meta = [self._meta[k] for k in keep]
        self._pos = {i: k for k, i in enumerate(self._ids)}
        self._matrix = None

    def query(self, vector: Sequence[float], n: int) -> list[tuple[str, float]]:
        import numpy as np

        if not self._ids:
            return []
        if self._matrix is None:
            self._matrix = np.asarray(self._vecs, dtype=np.float32)
        sims = self._matrix @ np.asarray(vector, dtype=np.float32)
        n = min(n, len(self._ids))
        top = np.argpartition(-sims, n - 1)[:n]
        top = top[np.argsort(-sims[top])]
        return [(self._ids[k], float(sims[k])) for k in top]

    def count(self) -> int:
        return len(self._ids)


class ChromaIndex:
    """One Chroma collection (cosine space); similarities are 1 - cosine distance."""

    def __init__(self, collection: Any) -> None:
        self.collection = collection

    def metadatas(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        total = self.collection.count()
        offset = 0
        while offset < total:
            got = self.collection.get(include=["metadatas"], limit=5000, offset=offset)
            for i, m in zip(got["ids"], got["metadatas"] or [], strict=False):
                out[i] = dict(m or {})
            if not got["ids"]:
                break
            offset += len(got["ids"])
        return out

    def upsert(
        self, ids: Sequence[str], vectors: Sequence[Sequence[float]], documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
    ) -> None:  # fmt: skip
        for start in range(0, len(ids), BATCH):
            end = start + BATCH
            self.collection.upsert(
                ids=list(ids[start:end]),
                embeddings=[list(v) for v in vectors[start:end]],
                documents=list(documents[start:end]),
                metadatas=list(metadatas[start:end]),
            )

    def delete(self, ids: Sequence[str]) -> None:
        for start in range(0, len(ids), BATCH):
            self.collection.delete(ids=list(ids[start : start + BATCH]))

    def query(self, vector: Sequence[float], n: int) -> list[tuple[str, float]]:
        total = self.collection.count()
        if total == 0:
            return []
        got = self.collection.query(
            query_embeddings=[list(vector)], n_results=min(n, total), include=["distances"]
        )
        ids = got["ids"][0] if got["ids"] else []
        dists = got["distances"][0] if got.get("distances") else [1.0] * len(ids)
        return [(i, 1.0 - float(d)) for i, d in zip(ids, dists, strict=False)]

    def count(self) -> int:
        return int(self.collection.count())
