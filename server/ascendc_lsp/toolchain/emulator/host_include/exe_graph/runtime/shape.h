// Host shim (clean-room): gert::Shape.
#pragma once
#include "../../ascendc_emu_host/exe_graph.h"
