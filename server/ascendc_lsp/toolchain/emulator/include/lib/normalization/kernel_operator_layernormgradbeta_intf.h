// lib/normalization/kernel_operator_layernormgradbeta_intf.h: the devkit path of the high-level API header (layernormgradbeta). In the emulator every high-level API is
// declared by kernel_operator.h (ascendc_emu/adv_api.h); this path exists so kernels that include it compile.
#ifndef ASCENDC_EMU_LIB_NORMALIZATION_KERNEL_OPERATOR_LAYERNORMGRADBETA_INTF_H_
#define ASCENDC_EMU_LIB_NORMALIZATION_KERNEL_OPERATOR_LAYERNORMGRADBETA_INTF_H_
#include "../../kernel_operator.h"
#endif  // ASCENDC_EMU_LIB_NORMALIZATION_KERNEL_OPERATOR_LAYERNORMGRADBETA_INTF_H_
