// Host shim (clean-room): ge::DataType, ge::Format.
#pragma once
#include "../ascendc_emu_host/graph_types.h"
