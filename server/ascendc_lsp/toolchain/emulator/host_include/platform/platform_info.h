// Host shim (clean-room): fe::PlatFormInfos.
#pragma once
#include "../ascendc_emu_host/exe_graph.h"
