// Host shim (clean-room): ge::graphStatus.
#pragma once
#include "../ascendc_emu_host/graph_types.h"
