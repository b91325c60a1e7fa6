// Host shim (clean-room): ge::Operator.
#pragma once
#include "../ascendc_emu_host/graph_types.h"
