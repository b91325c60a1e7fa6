// Host shim (clean-room): the tiling API umbrella op_host code includes. The Matmul host tiling
// (matmul_tiling::*) and the platform; the advanced APIs' tmp-size / tiling helpers come from
// adv_api_tiling.h next to this file when it exists (written with the kernel-side advanced APIs).
#pragma once
#include "../ascendc_emu_host/exe_graph.h"
#include "../ascendc_emu_host/matmul_tiling.h"
#include "../register/tilingdata_base.h"
#include "platform/platform_ascendc.h"
// The devkit's own direct-launch samples (04_advanced_api: softmaxflashv2, deepnorm, welford, layernorm_v2,
// matmul_fused) call memcpy_s with no include but this header, acl/acl.h and kernel_operator.h: it brings securec.
#include "../securec.h"
#if __has_include("adv_api_tiling.h")
#include "adv_api_tiling.h"
#endif
// Public op_host code that includes this header names map/vector/string unqualified (ge_glu_grad_v2,
// dynamic_rnn, scatter_list in cann-ops): the SDK's tiling headers evidently bring namespace std along.
using namespace std;
