// Host shim (clean-room): gert::TilingParseContext.
#pragma once
#include "../../ascendc_emu_host/exe_graph.h"
