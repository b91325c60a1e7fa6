"""Rule implementations; importing this package registers every rule (see checks/base.py)."""

from ascendc_lsp.checks.rules import memory  # noqa: F401
