// Host shim (clean-room): ge::TypeUtils.
#pragma once
#include "../../ascendc_emu_host/graph_types.h"
