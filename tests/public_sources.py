"""Public code for tests that run real kernels nobody here wrote.

The code is never committed: `bench/corpus.py` extracts it from snapshots fetched with the `fetch` tool into the
user's cache (`ASCENDC_PUBLIC_TREES`, set by conftest.py to the real cache before HOME is redirected). A test asks
`tree_or_skip("owner+name")` and skips with the way to get the code when it is absent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from corpus import public_tree, trees_dir


def tree_or_skip(name: str) -> Path:
    tree = public_tree(name)
    if tree is None:
        pytest.skip(
            f"the public repository {name.replace('+', '/')} is not extracted under {trees_dir()}: fetch it "
            "(the `fetch` tool) and run `python bench/corpus.py`"
        )
    return tree


__all__ = ["public_tree", "tree_or_skip"]
