// lib/normalization/kernel_operator_rmsnorm_intf.h: the devkit path of the high-level API header (rmsnorm). In the emulator every high-level API is
// declared by kernel_operator.h (ascendc_emu/adv_api.h); this path exists so kernels that include it compile.
#ifndef ASCENDC_EMU_LIB_NORMALIZATION_KERNEL_OPERATOR_RMSNORM_INTF_H_
#define ASCENDC_EMU_LIB_NORMALIZATION_KERNEL_OPERATOR_RMSNORM_INTF_H_
#include "../../kernel_operator.h"
#endif  // ASCENDC_EMU_LIB_NORMALIZATION_KERNEL_OPERATOR_RMSNORM_INTF_H_
