"""Rule implementations; importing this package registers every rule (see checks/base.py)."""

from ascendc_lsp.checks.base import RuleFunction, rules_registered_so_far
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


def registered_rules() -> dict[str, RuleFunction]:
    """Every rule implementation by id (importing this package has imported every rule module, registering them)."""
    return rules_registered_so_far()
