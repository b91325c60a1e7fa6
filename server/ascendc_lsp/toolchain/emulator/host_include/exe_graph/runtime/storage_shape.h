// Host shim (clean-room): gert::StorageShape.
#pragma once
#include "../../ascendc_emu_host/exe_graph.h"
