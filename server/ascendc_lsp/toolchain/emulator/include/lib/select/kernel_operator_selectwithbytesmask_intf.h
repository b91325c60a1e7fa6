// lib/select/kernel_operator_selectwithbytesmask_intf.h: the devkit path of the high-level API header (selectwithbytesmask). In the emulator every high-level API is
// declared by kernel_operator.h (ascendc_emu/adv_api.h); this path exists so kernels that include it compile.
#ifndef ASCENDC_EMU_LIB_SELECT_KERNEL_OPERATOR_SELECTWITHBYTESMASK_INTF_H_
#define ASCENDC_EMU_LIB_SELECT_KERNEL_OPERATOR_SELECTWITHBYTESMASK_INTF_H_
#include "../../kernel_operator.h"
#endif  // ASCENDC_EMU_LIB_SELECT_KERNEL_OPERATOR_SELECTWITHBYTESMASK_INTF_H_
