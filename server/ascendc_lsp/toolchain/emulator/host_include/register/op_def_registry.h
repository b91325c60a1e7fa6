// Host shim (clean-room): op prototype registration (ops::OpDef, OP_ADD) and the contexts op_host code receives.
#pragma once
#include "../ascendc_emu_host/exe_graph.h"
#include "../ascendc_emu_host/op_def.h"
#include "tilingdata_base.h"
