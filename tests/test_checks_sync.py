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


def _asc014_lines(text: str) -> list[tuple[int, int]]:
    document = SourceDocument(text, path="k.cpp")
    return [(f.span.start.line, f.span.end.line) for f in check_document(document, CheckOptions()) if f.code == "ASC014"]


FAR_WAIT = """#include "kernel_operator.h"
using namespace AscendC;
class K {
public:
    __aicore__ inline void Process()
    {
        event_t sToMte2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
        SetFlag<HardEvent::S_MTE2>(sToMte2);
        Muls(y, x, 2.0f, 64);
        PipeBarrier<PIPE_V>();
        Adds(y, y, 1.0f, 64);
        PipeBarrier<PIPE_V>();
        Exp(y, y, 64);
        PipeBarrier<PIPE_V>();
        WaitFlag<HardEvent::S_MTE2>(sToMte2);
        DataCopy(x, xGm, 64);
    }
    LocalTensor<float> x, y;
    GlobalTensor<float> xGm;
};
"""


def test_a_lone_setflag_on_a_local_id_spans_to_the_end_of_the_ids_block() -> None:
    """The wait was far from the SetFlag: the finding covers the code where it could still go, up to where the id
    goes out of scope (line 16, the function's closing brace), so it reaches the place the wait was taken from."""
    assert _asc014(FAR_WAIT) == []
    mutated = FAR_WAIT.replace("WaitFlag<HardEvent::S_MTE2>(sToMte2);", "")
    assert _asc014_lines(mutated) == [(7, 16)]
    assert "sToMte2 goes out of scope at line 17" in _asc014(mutated)[0][2]


def test_a_lone_setflag_on_an_allocated_id_spans_to_its_releaseeventid() -> None:
    text = FAR_WAIT.replace("static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2))",
                            "pipe.AllocEventID<HardEvent::S_MTE2>()").replace(
        "DataCopy(x, xGm, 64);", "DataCopy(x, xGm, 64);\n        pipe.ReleaseEventID<HardEvent::S_MTE2>(sToMte2);")
    text = text.replace("GlobalTensor<float> xGm;", "GlobalTensor<float> xGm;\n    TPipe pipe;")
    assert _asc014(text) == []
    mutated = text.replace("WaitFlag<HardEvent::S_MTE2>(sToMte2);", "")
    assert _asc014_lines(mutated) == [(7, 16)]
    assert "given back (ReleaseEventID) at line 17" in _asc014(mutated)[0][2]


def test_a_lone_setflag_in_a_loop_the_id_outlives_spans_from_the_loop_top() -> None:
    """Set at the end of an iteration and waited at the top of the next one: the wait belongs before the SetFlag
    in the text, so the finding starts at the loop."""
    text = """#include "kernel_operator.h"
using namespace AscendC;
__aicore__ inline void Compute(LocalTensor<half> a, LocalTensor<half> b, int n)
{
    uint8_t pingPong = 0;
    for (int i = 0; i < n; i++) {
        WaitFlag<HardEvent::M_MTE1>(pingPong);
        LoadData(a, b, LoadData2DParams());
        Mmad(a, a, b, MmadParams());
        SetFlag<HardEvent::M_MTE1>(pingPong);
    }
}
"""
    assert _asc014(text) == []
    mutated = text.replace("WaitFlag<HardEvent::M_MTE1>(pingPong);", "")
    assert _asc014_lines(mutated) == [(5, 11)]
