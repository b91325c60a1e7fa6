// SIMD C API header (devkit api SIMD-API/C-API/): the emulator has the C API subset in ascendc_emu/c_api.h.
#ifndef ASCENDC_EMU_C_API_ASC_SIMD_H_
#define ASCENDC_EMU_C_API_ASC_SIMD_H_
#include "../kernel_operator.h"
#include "../ascendc_emu/c_api.h"
#include "../ascendc_emu/c_api_reg.h"
#endif
