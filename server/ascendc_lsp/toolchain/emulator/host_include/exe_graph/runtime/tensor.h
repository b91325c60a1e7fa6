// Host shim (clean-room): gert::Tensor.
#pragma once
#include "../../ascendc_emu_host/exe_graph.h"
