// Host shim (clean-room): IMPL_OP / IMPL_OP_OPTILING registration.
#pragma once
#include "../ascendc_emu_host/op_def.h"
