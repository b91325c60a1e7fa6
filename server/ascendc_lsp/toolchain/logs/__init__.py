"""Log parsers: compiler, linker, CMake, CANN runtime, TBE, msSanitizer, CPU twin, precision and emulator logs.

`parse_log(text)` turns a log (str or bytes) into a list of typed `LogEvent`s. It never raises on bad input,
runs in linear time (every line is capped at `MAX_LINE_CHARS` before any regex sees it, and the number of
events is capped at `MAX_EVENTS`), and strips ANSI colours, NUL bytes and the usual line prefixes that
wrappers add (`[rank0]: `, `(Worker_TP3 pid=1526) ERROR 09-26 15:32:25 [file.py:654] `, `> `).

Event kinds (`LogEvent.kind`):

| kind | source | example |
|---|---|---|
| `compiler-diagnostic` | clang / bisheng / ccec / g++ | `add.cpp:12:5: error: no matching function for call to 'DataCopy'` |
| `build` | linkers, make, `bisheng: error: ...`, TBE build lines, location-less `fatal error:` | `ld.lld: error: undefined symbol: expf` |
| `cmake` | CMake | `CMake Error at ASCConfig.cmake:20 (include):` + indented body |
| `runtime-error` | ACL / runtime / aclnn / torch_npu | `aclrtSynchronizeStream failed: 507035`, `EZ9999 ... errorStr: ...` (one event per fault) |
| `sanitizer` | msSanitizer (`====== ERROR: ...` blocks) | `illegal read of size 224 ... on GM`, `Potential RAW hazard detected at UB` |
| `cpu-twin` | CANN CPU twin-debug (tikicpulib) | `[ERROR][Block_0][AIV_0][file:line][Func][pid] msg`, `Assertion ... failed` |
| `precision` | verify scripts, benchmarks, torch.testing | `data index: 000012, expected: ..., actual: ...`, `[ERROR] result error`, `test pass` |
| `emulator` | our emulator's `report.jsonl` lines (see emulator/PROTOCOL.md) | `{"severity": "error", "check": ..., "code": "507035", ...}` |
| `other` | fallback, only when nothing above matched: lines that say error/failed/报错/超时 | |

Locations: `file`/`line`/`column` are the user-facing location the log names (1-based, as printed).
Locations *inside CANN's own sources* (`[FUNC:x][FILE:y.cc][LINE:n]` trailers, plog `[stars_engine.cc:1548]`)
are never put there: they go to `extra["origin"]`. `map_locations` maps generated/temporary copies back to the
user's file (see its docstring for the `#line` rule).

Codes (`LogEvent.codes`): ACL/runtime numeric codes (`507035`, `561103`, `107000`), CANN error-message codes
(`EZ9999`, `EE9999`, `E40024`), torch_npu `ERR00100`, and the task `retCode` (`0x31`, also in `ret_code`).
Hardware `error code = 0x...` values and `errcode:(...)` tuples go to `extra`.

Layout: one module per line parser (`compiler`, `build`, `cmake`, `sanitizer`, `twin`, `precision`, `runtime`,
`emulator`), each a function registered in `parser.LINE_PARSERS`, the order in which they are tried; `events` holds
the result types, `patterns` the shared regular expressions, `state` what the parsers share while a log is read,
`locations` the mapping back to the user's files.
"""

from __future__ import annotations

from ascendc_lsp.toolchain.log_cues import CUE_PATTERNS as CUE_PATTERNS
from ascendc_lsp.toolchain.log_cues import log_cues as log_cues
from ascendc_lsp.toolchain.logs.events import KINDS as KINDS
from ascendc_lsp.toolchain.logs.events import MAX_EVENTS as MAX_EVENTS
from ascendc_lsp.toolchain.logs.events import MAX_INPUT_CHARS as MAX_INPUT_CHARS
from ascendc_lsp.toolchain.logs.events import MAX_LINE_CHARS as MAX_LINE_CHARS
from ascendc_lsp.toolchain.logs.events import MAX_RAW_CHARS as MAX_RAW_CHARS
from ascendc_lsp.toolchain.logs.events import LogEvent as LogEvent
from ascendc_lsp.toolchain.logs.events import LogNote as LogNote
from ascendc_lsp.toolchain.logs.events import sanitize as sanitize
from ascendc_lsp.toolchain.logs.locations import LineMap as LineMap
from ascendc_lsp.toolchain.logs.locations import LineMapSegment as LineMapSegment
from ascendc_lsp.toolchain.logs.locations import map_locations as map_locations
from ascendc_lsp.toolchain.logs.parser import LINE_PARSERS as LINE_PARSERS
from ascendc_lsp.toolchain.logs.parser import parse_log as parse_log
