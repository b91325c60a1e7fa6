// lib/activation/kernel_operator_simple_softmax_intf.h: the devkit path of the high-level API header (simple_softmax). In the emulator every high-level API is
// declared by kernel_operator.h (ascendc_emu/adv_api.h); this path exists so kernels that include it compile.
#ifndef ASCENDC_EMU_LIB_ACTIVATION_KERNEL_OPERATOR_SIMPLE_SOFTMAX_INTF_H_
#define ASCENDC_EMU_LIB_ACTIVATION_KERNEL_OPERATOR_SIMPLE_SOFTMAX_INTF_H_
#include "../../kernel_operator.h"
#endif  // ASCENDC_EMU_LIB_ACTIVATION_KERNEL_OPERATOR_SIMPLE_SOFTMAX_INTF_H_
