// The Matmul configuration surface (docs: Matmul-Kernel侧接口/MatmulConfig.md, GetMMConfig.md, Matmul模板参数.md,
// GetMatmulApiTiling.md, MatmulPolicy.md, SetQuantScalar.md, SetQuantVector.md) on one core, A [64, 32] x
// B [32, 48]:
//   c0: a fully constant tiling (GetMMConfig + GetMatmulApiTiling), REGIST_MATMUL_OBJ with a null tiling;
//   c1: TrianUpperMatmulPolicy, base 16 x 16: blocks below the diagonal are neither computed nor written;
//   c2: int8 x int8 -> half dequantised by SetQuantScalar (0.25);
//   c3: int8 x int8 -> int8 by SetQuantVector (per-column scale and offset) with enableRelu;
//   c4: the first base block through Iterate(false, co1Tensor) and the kernel's own Fixpipe;
//   w:  the second base block returned by the asynchronous GetTensorC() in the SetWorkspace space (one
//       Iterate<false>(), then one GetTensorC<false>() per block: GetTensorC.md's asynchronous mode).
// -DBUG_STATIC_MISMATCH: a constant base block that differs from the runtime tiling's.
// -DBUG_NO_QUANT: int8 -> half without SetQuantScalar/SetQuantVector.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

// the global names kernels use without a namespace
constexpr MatmulConfig DOC_CFG{false, true, false, 128, 128, 64};
static_assert(DOC_CFG.doBasicBlock && DOC_CFG.basicK == 64 && DOC_CFG.enUnitFlag, "MatmulConfig field order");
constexpr static MatmulConfigMode MODE = MatmulConfigMode::CONFIG_MDL;
constexpr static MatmulShapeParams SHAPE = {64, 48, 32, 32, 16, 32};
constexpr static MatmulQuantParams QUANT = {false, false};
constexpr static MatmulBatchParams BATCH{false};
constexpr static MatmulFuncParams FUNC{false, true};
constexpr static MatmulConfig MM_CFG_DOC = GetMMConfig<MODE>(SHAPE, QUANT, BATCH, FUNC);
static_assert(!MM_CFG_DOC.doNorm && MM_CFG_DOC.doMultiDataLoad && MM_CFG_DOC.enVecND2NZ &&
                  MM_CFG_DOC.singleCoreN == 48 && MM_CFG_DOC.basicN == 16, "GetMMConfig: MDL template + params");
static_assert(CubeFormat::ROW_MAJOR == CubeFormat::ND && AscendC::CubeFormat::NZ == CubeFormat::NZ, "CubeFormat");

using namespace AscendC;
constexpr int32_t M = 64, N = 48, K = 32;
using aT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using bT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using cT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using qaT = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using qcT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using q8T = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using biasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using qbiasT = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;

constexpr static MatmulConfig CFG_FULL =
    GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulShapeParams{(uint32_t)M, (uint32_t)N, (uint32_t)K, 32, 16, 32});
constexpr static MatmulApiStaticTiling ST_FULL = GetMatmulApiTiling<aT, bT, cT, biasT>(CFG_FULL);
static_assert(ST_FULL.singleCoreM == M && ST_FULL.baseN == 16 && ST_FULL.cfg.doNorm, "GetMatmulApiTiling");
constexpr static MatmulConfig CFG_BASE =
    GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulShapeParams{0, 0, 0, 32, 16, 32});
constexpr static MatmulApiStaticTiling ST_BASE = GetMatmulApiTiling<aT, bT, cT, biasT>(CFG_BASE);
constexpr MatmulFuncParams relu_params() {
    MatmulFuncParams f{};
    f.enableRelu = true;
    return f;
}
constexpr static MatmulConfig CFG_RELU = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(relu_params());

static TCubeTiling tiling_of(int32_t bm, int32_t bn, int32_t bk) {
    TCubeTiling t{};
    t.usedCoreNum = 1; t.M = M; t.N = N; t.Ka = K; t.Kb = K;
    t.singleCoreM = M; t.singleCoreN = N; t.singleCoreK = K;
    t.baseM = bm; t.baseN = bn; t.baseK = bk;
    t.stepM = t.stepN = t.stepKa = t.stepKb = 1; t.depthA1 = t.depthB1 = 2; t.dbL0A = t.dbL0B = 2; t.dbL0C = 1;
    return t;
}

extern "C" __global__ __aicore__ void adv_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR qa, GM_ADDR qb, GM_ADDR qv,
                                                 GM_ADDR c0, GM_ADDR c1, GM_ADDR c2, GM_ADDR c3, GM_ADDR c4,
                                                 GM_ADDR w)
{
    TPipe pipe;
    GlobalTensor<half> aG, bG;
    GlobalTensor<int8_t> qaG, qbG, c3G;
    GlobalTensor<uint64_t> qvG;
    GlobalTensor<float> c0G, c1G;
    GlobalTensor<half> c2G;
    aG.SetGlobalBuffer((__gm__ half*)a, M * K);
    bG.SetGlobalBuffer((__gm__ half*)b, K * N);
    qaG.SetGlobalBuffer((__gm__ int8_t*)qa, M * K);
    qbG.SetGlobalBuffer((__gm__ int8_t*)qb, K * N);
    qvG.SetGlobalBuffer((__gm__ uint64_t*)qv, N);
    c0G.SetGlobalBuffer((__gm__ float*)c0, M * N);
    c1G.SetGlobalBuffer((__gm__ float*)c1, M * N);
    c2G.SetGlobalBuffer((__gm__ half*)c2, M * N);
    c3G.SetGlobalBuffer((__gm__ int8_t*)c3, M * N);
    TCubeTiling t16 = tiling_of(16, 16, 32);

#if defined(BUG_STATIC_MISMATCH)
    matmul::MatmulImpl<aT, bT, cT, biasT, ST_BASE> mmBad;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mmBad, &t16);  // runtime base 16 x 16, constant 32 x 16
#else
    (void)ST_BASE;
#endif
    Matmul<aT, bT, cT, biasT, ST_FULL> mm0;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm0, nullptr);
    mm0.SetTensorA(aG);
    mm0.SetTensorB(bG);
    mm0.IterateAll(c0G);
    mm0.End();

    Matmul<aT, bT, cT, biasT, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>,
           AscendC::Impl::Detail::TrianUpperMatmulPolicy> mm1;
    REGIST_MATMUL_OBJ_STATIC(&pipe, GetSysWorkSpacePtr(), mm1, &t16);
    mm1.SetTensorA(aG);
    mm1.SetTensorB(bG);
    mm1.IterateAll(c1G);
    mm1.End();

    Matmul<qaT, qaT, qcT, qbiasT> mm2;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm2, &t16);
    mm2.SetTensorA(qaG);
    mm2.SetTensorB(qbG);
#if !defined(BUG_NO_QUANT)
    mm2.SetQuantScalar(0x3E800000);  // 0.25f
#endif
    mm2.IterateAll(c2G);
    mm2.End();

    Matmul<qaT, qaT, q8T, qbiasT, CFG_RELU> mm3;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm3, &t16);
    mm3.SetTensorA(qaG);
    mm3.SetTensorB(qbG);
    mm3.SetQuantVector(qvG);
    mm3.IterateAll(c3G);
    mm3.End();

    GlobalTensor<float> c4G, wG;
    c4G.SetGlobalBuffer((__gm__ float*)c4, 16 * 16);
    wG.SetGlobalBuffer((__gm__ float*)w, 16 * 16);
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(co1, 16 * 16 * sizeof(float));
    LocalTensor<float> l0c = co1.Get<float>();
    Matmul<aT, bT, cT, biasT> mm4;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm4, &t16);
    mm4.SetTensorA(aG);
    mm4.SetTensorB(bG);
    mm4.Iterate(false, l0c);
    FixpipeParamsV220 fp;
    fp.nSize = 16; fp.mSize = 16; fp.srcStride = 16; fp.dstStride = 16;
    Fixpipe<float, float, CFG_ROW_MAJOR>(c4G, l0c, fp);
    mm4.End();
    Matmul<aT, bT, cT, biasT> mm5;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm5, &t16);
    mm5.SetWorkspace(wG);
    mm5.SetTensorA(aG);
    mm5.SetTensorB(bG);
    mm5.template Iterate<false>();
    GlobalTensor<float> blk0 = mm5.template GetTensorC<false>();  // the block Iterate<false>() computed
    GlobalTensor<float> blk1 = mm5.template GetTensorC<false>();  // the next one, rows 16..31 (M first)
    (void)blk0; (void)blk1;
    mm5.End();
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness hh(argc, argv);
    GM_ADDR a = hh.Input("a");
    GM_ADDR b = hh.Input("b");
    GM_ADDR qa = hh.Input("qa");
    GM_ADDR qb = hh.Input("qb");
    GM_ADDR qv = hh.Input("qv");
    GM_ADDR c0 = hh.Output("c0", M * N * 4);
    GM_ADDR c1 = hh.Output("c1", M * N * 4);
    GM_ADDR c2 = hh.Output("c2", M * N * 2);
    GM_ADDR c3 = hh.Output("c3", M * N);
    GM_ADDR c4 = hh.Output("c4", 16 * 16 * 4);
    GM_ADDR w = hh.Output("w", 16 * 16 * 4);
    hh.Launch(1, [&] { adv_matmul(a, b, qa, qb, qv, c0, c1, c2, c3, c4, w); });
    return hh.Finish();
}
