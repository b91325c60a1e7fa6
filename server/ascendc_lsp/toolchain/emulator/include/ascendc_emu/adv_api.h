// The high-level (lib/) APIs of the emulator, reachable from kernel_operator.h as in the devkit. One header per
// family; lib/<family>/kernel_operator_<api>_intf.h paths include kernel_operator.h and so reach them all.
#ifndef ASCENDC_EMU_ASCENDC_EMU_ADV_API_H_
#define ASCENDC_EMU_ASCENDC_EMU_ADV_API_H_
#include "adv_math.h"
#include "adv_reduce.h"
#include "adv_softmax.h"
#include "adv_transform.h"
#include "adv_quant.h"
#include "adv_norm.h"
#include "adv_sort.h"
#endif  // ASCENDC_EMU_ASCENDC_EMU_ADV_API_H_
