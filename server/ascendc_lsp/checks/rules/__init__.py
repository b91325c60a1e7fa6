"""Rule implementations; importing this package registers every rule (see checks/base.py)."""

from ascendc_lsp.checks.rules import (  # noqa: F401
    datacopy,
    entry,
    memory,
    multicore,
    namespace,
    queues,
    scalar,
    sync,
    tiling,
    vector,
)
