// Host shim (clean-room): ops::OpDef and friends.
#pragma once
#include "../ascendc_emu_host/op_def.h"
