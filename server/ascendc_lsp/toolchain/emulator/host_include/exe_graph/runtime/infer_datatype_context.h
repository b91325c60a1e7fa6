// Host shim (clean-room): gert::InferDataTypeContext.
#pragma once
#include "../../ascendc_emu_host/exe_graph.h"
