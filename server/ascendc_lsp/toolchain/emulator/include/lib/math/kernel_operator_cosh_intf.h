// lib/math/kernel_operator_cosh_intf.h: the devkit path of the high-level API header (cosh). In the emulator every high-level API is
// declared by kernel_operator.h (ascendc_emu/adv_api.h); this path exists so kernels that include it compile.
#ifndef ASCENDC_EMU_LIB_MATH_KERNEL_OPERATOR_COSH_INTF_H_
#define ASCENDC_EMU_LIB_MATH_KERNEL_OPERATOR_COSH_INTF_H_
#include "../../kernel_operator.h"
#endif  // ASCENDC_EMU_LIB_MATH_KERNEL_OPERATOR_COSH_INTF_H_
