"""Pipe synchronisation rules (checks/rules/sync.py) on small kernels written here."""

from __future__ import annotations

from ascendc_lsp.checks.engine import CheckOptions, check_document
from ascendc_lsp.syntax.document import SourceDocument


def _asc014(text: str) -> list[tuple[str | None, int, str]]:
    document = SourceDocument(text, path="k.cpp")
    return [(f.severity, f.span.start.line, f.message) for f in check_document(document, CheckOptions())
            if f.code == "ASC014"]


MEMBER_ID = """#include "kernel_operator.h"
using namespace AscendC;
class K {
public:
    __aicore__ inline void Init()
    {
        eventMte2ToV = static_cast<event_t>(pipe.AllocEventID<HardEvent::MTE2_V>());
    }
    __aicore__ inline void Process()
    {
        SetFlag<HardEvent::MTE2_V>(eventMte2ToV);
        WaitFlag<HardEvent::MTE2_V>(eventMte2ToV);
        pipe.ReleaseEventID<HardEvent::MTE2_V>(eventMte2ToV);
    }
    TPipe pipe;
    event_t eventMte2ToV;
};
"""


def test_a_member_id_taken_with_alloceventid_is_paired_by_its_event() -> None:
    """The event is named by AllocEventID and ReleaseEventID too; those neither set nor wait, so a SetFlag
    whose WaitFlag is gone is still the only flag call of its event."""
    assert _asc014(MEMBER_ID) == []
    mutated = MEMBER_ID.replace("WaitFlag<HardEvent::MTE2_V>(eventMte2ToV);", "")
    found = _asc014(mutated)
    assert [(severity, line) for severity, line, _ in found] == [("warning", 10)]
    assert "SetFlag<MTE2_V>" in found[0][2]


def test_a_fetched_member_id_is_paired_by_its_event() -> None:
    text = MEMBER_ID.replace("pipe.AllocEventID<HardEvent::MTE2_V>()", "pipe.FetchEventID(HardEvent::MTE2_V)")
    assert _asc014(text) == []
    assert [line for _, line, _ in _asc014(text.replace("WaitFlag<HardEvent::MTE2_V>(eventMte2ToV);", ""))] == [10]


def test_a_local_id_given_back_with_releaseeventid_is_decided_here() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
class K {
public:
    __aicore__ inline void Process()
    {
        auto id = pipe.template AllocEventID<HardEvent::MTE2_V>();
        SetFlag<HardEvent::MTE2_V>(id);
        Helper();
        WaitFlag<HardEvent::MTE2_V>(id);
        pipe.template ReleaseEventID<HardEvent::MTE2_V>(id);
    }
    __aicore__ inline void Helper() { WaitFlag<HardEvent::MTE2_V>(EVENT_ID0); }
    TPipe pipe;
};
"""
    assert _asc014(text) == []
    # The id is this function's own (given back, not handed to other code): the missing wait is an error.
    found = _asc014(text.replace("WaitFlag<HardEvent::MTE2_V>(id);", ""))
    assert [(severity, line) for severity, line, _ in found] == [("error", 7)]
