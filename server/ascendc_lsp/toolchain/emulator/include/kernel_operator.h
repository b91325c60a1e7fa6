// AscendC kernel API for the clean-room CPU emulator (g++ -std=c++17). Real kernels compile against this
// header unchanged; see ascendc_emu/ for the implementation and PROTOCOL.md for the harness contract.
#ifndef ASCENDC_EMU_KERNEL_OPERATOR_H_
#define ASCENDC_EMU_KERNEL_OPERATOR_H_
#include "ascendc_emu/kernel_api.h"
#include "ascendc_emu/vector_ext.h"
#include "ascendc_emu/vector_gather.h"
#include "ascendc_emu/vector_transpose.h"
#include "ascendc_emu/vector_reduce.h"
#include "ascendc_emu/vector_cmpsel.h"
#include "ascendc_emu/vector_compound.h"
#include "ascendc_emu/vector_sort.h"
#include "ascendc_emu/scalar.h"
#include "ascendc_emu/vector_fnptr.h"
#include "ascendc_emu/vector_operators.h"
#include "ascendc_emu/cube.h"
#include "ascendc_emu/cube_load3d.h"
#include "ascendc_emu/utils.h"
#include "ascendc_emu/std.h"
#include "ascendc_emu/cce.h"
#include "ascendc_emu/reg_api.h"
#include "ascendc_emu/reg_cast.h"
#include "ascendc_emu/reg_compound.h"
#include "ascendc_emu/scalar_calc.h"
#include "ascendc_emu/cube_transpose.h"
#include "ascendc_emu/cube_fixpipe_config.h"
#include "ascendc_emu/adv_api.h"
#include "ascendc_emu/op_kernel_compat.h"
#endif  // ASCENDC_EMU_KERNEL_OPERATOR_H_
