// Host shim (clean-room): ge::Shape.
#pragma once
#include "../ascendc_emu_host/graph_types.h"
