// Host shim (clean-room): gert::TilingContext.
#pragma once
#include "../../ascendc_emu_host/exe_graph.h"
