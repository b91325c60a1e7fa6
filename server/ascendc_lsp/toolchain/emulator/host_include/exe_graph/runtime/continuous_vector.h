// Host shim (clean-room): gert::ContinuousVector.
#pragma once
#include "../../ascendc_emu_host/exe_graph.h"
