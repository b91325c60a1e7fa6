// Host shim (clean-room): gert::InferShapeContext.
#pragma once
#include "../../ascendc_emu_host/exe_graph.h"
