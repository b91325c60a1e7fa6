// Shared machinery of the high-level (lib/) APIs in the emulator (clean-room): where their temporary space comes
// from and how big it must be, operand checks (bounds and UB position via the tensor helpers, count, overlap,
// dtype per SoC), and the trace of the vector steps each API performs, so the cost model charges a high-level
// call as the primitive instructions it stands for (each event carries "adv": the API the user called).
//
// Temporary space (docs/zh/api/SIMD-API/高阶API/数学计算/Sin接口/Sin.md, "接口框架申请临时空间" and
// "通过sharedTmpBuffer入参传入"): either the kernel passes a LocalTensor<uint8_t> sharedTmpBuffer, or the framework
// takes it from the Unified Buffer that InitBuffer left free ("开发者需要预留临时空间"). A buffer below the
// documented minimum (Get<Api>MaxMinTmpSize minValue) makes the API run past it on the NPU: reported here.
#ifndef ASCENDC_EMU_ASCENDC_EMU_ADV_COMMON_H_
#define ASCENDC_EMU_ASCENDC_EMU_ADV_COMMON_H_
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>
#include "vector_ext.h"
#include "adv_shared.h"

namespace ascendc_emu {
namespace adv {
using AscendC::LocalTensor;
using ascendc_emu_adv::TmpKind;

template <class T, class... A>
struct one_of : std::integral_constant<bool, (std::is_same<T, A>::value || ...)> {};
template <class T> using is_f16_or_f32 = one_of<T, half, float>;
template <class T> using is_float_like = one_of<T, half, float, bfloat16_t>;

// fp32 view of one element (16-bit floats widen exactly) and the rounding back (RNE, as Cast CAST_RINT).
template <class T> inline float ldf(const T* p, uint64_t i) { return (float)p[i]; }
template <class T> inline void stf(T* p, uint64_t i, float v) { p[i] = (T)v; }

inline bool soc_is(const char* prefix) { return strncmp(rt().soc.name, prefix, strlen(prefix)) == 0; }
// SoCs whose vector unit has no bfloat16 arithmetic (Atlas inference / training series).
inline bool soc_without_bf16() { return soc_is("Ascend310P") || soc_is("Ascend910A") || strcmp(rt().soc.name, "Ascend910") == 0; }

// A data type the API's page lists only for some SoCs (e.g. Broadcast: b8/b16/b32/b64 on Ascend 950, int8_t/uint8_t/
// half/float elsewhere): reported when the configured SoC is not among them.
EMU_RT_FN bool check_dtype_soc(const char* api, const char* dtype, const char* socs, bool on_this_soc, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    if (on_this_soc) return true;
    report_error("adv-dtype", "api-signature", P_V, api, loc,
                 "%s does not support %s on %s (the API's page lists it for %s only)", api, dtype, rt().soc.name, socs);
    return false;
}
#else
;
#endif

// One primitive vector instruction of a high-level API: a PIPE_V trace event named after the instruction.
EMU_RT_FN void trace_step(const char* api, const char* prim, const char* dtype, uint64_t elems, uint32_t esize,
                          const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Ev ev;
    trace_begin(ev, P_V, prim, loc);
    if (ev.on)
        ev.j.s("dtype", dtype).i("elements", (long long)elems).i("repeats", (long long)((elems * esize + 255) / 256))
            .s("adv", api);
    trace_end(ev);
}
#else
;
#endif
inline void trace_steps(const char* api, std::initializer_list<const char*> prims, const char* dtype, uint64_t elems,
                        uint32_t esize, const Loc& loc) {
    for (const char* p : prims) trace_step(api, p, dtype, elems, esize, loc);
}

// Vector operands of the high-level APIs live in VECIN/VECCALC/VECOUT (every Unified Buffer position).
EMU_RT_FN bool check_ub_position(const char* api, const char* what, TPosition pos, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    if (pos_space(pos) == SP_UB) return true;
    report_error("tensor-position", "api-signature", P_V, api, loc,
                 "%s %s is in %s (%s); the API takes VECIN/VECCALC/VECOUT tensors in the Unified Buffer", api, what,
                 pos_name(pos), space_name(pos_space(pos)));
    return false;
}
#else
;
#endif

// calCount must not exceed the tensor's element count (docs: calCount in [0, min(src.GetSize(), dst.GetSize())]).
// Past the logical size but inside the buffer the NPU computes anyway: warn; past the buffer the bounds check errs.
template <class T>
inline void check_count(const char* api, const char* what, const LocalTensor<T>& t, uint64_t count, const Loc& loc) {
    if (t.ptr_ && count > t.size_)
        report_warning("adv-count", "ub-out-of-bounds", P_V, api, loc,
                       "%s calCount %s exceeds %s's %s elements (GetSize()); the documented range is "
                       "[0, min(src.GetSize(), dst.GetSize())]", api, EMU_N(count), what, EMU_N(t.size_));
}

// Byte ranges of two operands in the same memory intersect. `partial_only`: exact aliasing (same start) is not
// counted: an elementwise sequence reads each element before writing it, so dst == src works on the NPU.
template <class A, class B>
inline bool overlap(const LocalTensor<A>& a, uint64_t abytes, const LocalTensor<B>& b, uint64_t bbytes,
                    bool partial_only = false) {
    if (!a.ptr_ || !b.ptr_ || !abytes || !bbytes || pos_space(a.pos_) != pos_space(b.pos_)) return false;
    if (partial_only && a.addr_ == b.addr_) return false;
    return a.addr_ < b.addr_ + bbytes && b.addr_ < a.addr_ + abytes;
}
EMU_RT_FN void report_overlap(const char* api, const char* a, uint32_t a_lo, uint64_t a_bytes, const char* b,
                              uint32_t b_lo, uint64_t b_bytes, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    report_warning("adv-overlap", "precision-mismatch", P_V, api, loc,
                   "%s %s (UB 0x%x..0x%llx) and %s (UB 0x%x..0x%llx) overlap; the API documents that it does not "
                   "support this (its intermediate results may overwrite inputs still to be read)", api, a, a_lo,
                   (unsigned long long)(a_lo + a_bytes), b, b_lo, (unsigned long long)(b_lo + b_bytes));
}
#else
;
#endif
template <class A, class B>
inline void warn_overlap(const char* api, const char* an, const LocalTensor<A>& a, uint64_t abytes, const char* bn,
                         const LocalTensor<B>& b, uint64_t bbytes, const Loc& loc, bool partial_only = false) {
    if (overlap(a, abytes, b, bbytes, partial_only)) report_overlap(api, an, a.addr_, abytes, bn, b.addr_, bbytes, loc);
}

// The temporary space one call uses: `shared` (the kernel's sharedTmpBuffer) or, when null, the free UB.
// `need` is the documented minimum, `use` what the call would fill at most. Returns false when too small.
EMU_RT_FN bool take_tmp(const char* api, const LocalTensor<uint8_t>* shared, uint64_t need, uint64_t use,
                        const char* what, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    if (shared) {
        if (!shared->ptr_ && need == 0) return true;  // an empty tensor is fine when no space is needed
        if (!check_ub_position(api, "sharedTmpBuffer", shared->pos_, loc)) return false;
        uint64_t have = shared->size_;
        if (have < need) {
            report_error("tmp-buffer-size", "ub-out-of-bounds", P_V, api, loc,
                         "%s needs at least %s B of temporary space for %s (the minValue of its Get*MaxMinTmpSize "
                         "tiling query), but sharedTmpBuffer holds %s B: the API would write %s B past it", api,
                         EMU_N(need), what, EMU_N(have), EMU_N(need - have));
            return false;
        }
        uint64_t n = use < have ? use : have;
        return n == 0 || shared->emu_check_bytes(0, n, true, P_V, api, loc);
    }
    if (need == 0) return true;
    Block& b = blk();
    if (!b.pipe) return true;  // no TPipe: the kernel manages UB itself; nothing to measure against
    uint64_t cap = space_capacity(SP_UB), used = b.pipe->used[SP_UB];
    uint64_t left = cap > used ? cap - used : 0;
    if (left < need) {
        report_error("tmp-buffer-size", "ub-overflow", P_V, api, loc,
                     "%s takes its temporary space (at least %s B for %s) from the Unified Buffer that InitBuffer left "
                     "free, but only %s B of %s B are left: reserve it (query Get*MaxMinTmpSize on the host) or pass "
                     "a sharedTmpBuffer", api, EMU_N(need), what, EMU_N(left), EMU_N(cap));
        return false;
    }
    return true;
}
#else
;
#endif
inline bool take_tmp(const char* api, TmpKind kind, uint32_t typeSize, const LocalTensor<uint8_t>* shared,
                     uint64_t count, const char* dtype, const Loc& loc) {
    uint64_t need = ascendc_emu_adv::tmp_min_bytes(kind, typeSize);
    uint64_t use = ascendc_emu_adv::tmp_max_bytes(kind, typeSize, count);
    if (need == 0 && (!shared || !shared->ptr_)) return true;
    char what[48];
    snprintf(what, sizeof what, "%s data", dtype);
    return take_tmp(api, shared, need, use, what, loc);
}

// Elementwise driver of the high-level math/activation APIs. f(i) computes element i; `srcs` are the tensors read.
template <class D, class F, class... S>
inline bool elementwise(const char* api, TmpKind kind, const LocalTensor<D>& dst, const LocalTensor<uint8_t>* tmp,
                        uint64_t count, uint32_t typeSize, std::initializer_list<const char*> steps, const Loc& loc,
                        F f, const LocalTensor<S>&... srcs) {
    begin_epoch(P_V);
    bool ok = check_ub_position(api, "dstTensor", dst.pos_, loc);
    (void)std::initializer_list<int>{(ok = check_ub_position(api, "srcTensor", srcs.pos_, loc) && ok, 0)...};
    check_count(api, "dstTensor", dst, count, loc);
    (void)std::initializer_list<int>{(check_count(api, "srcTensor", srcs, count, loc), 0)...};
    (void)std::initializer_list<int>{(ok = srcs.emu_check(0, count, false, P_V, api, loc) && ok, 0)...};
    ok = dst.emu_check(0, count, true, P_V, api, loc) && ok;
    if (tmp && tmp->ptr_) {
        (void)std::initializer_list<int>{(warn_overlap(api, "sharedTmpBuffer", *tmp, tmp->size_, "a source tensor",
                                                       srcs, count * sizeof(S), loc), 0)...};
        warn_overlap(api, "sharedTmpBuffer", *tmp, tmp->size_, "dstTensor", dst, count * sizeof(D), loc);
    }
    (void)std::initializer_list<int>{(warn_overlap(api, "dstTensor", dst, count * sizeof(D), "a source tensor", srcs,
                                                   count * sizeof(S), loc, true), 0)...};
    ok = take_tmp(api, kind, typeSize, tmp, count, dtype_name<D>(), loc) && ok;
    if (ok)
        for (uint64_t i = 0; i < count; i++) f(i);
    restore_norm();
    const bool widen = typeSize < 4 && !std::is_integral<D>::value;
    if (widen) trace_step(api, "Cast", dtype_name<D>(), count, 4, loc);
    trace_steps(api, steps, widen ? "float" : dtype_name<D>(), count, widen ? 4 : typeSize, loc);
    if (widen) trace_step(api, "Cast", dtype_name<D>(), count, 4, loc);
    return ok;
}

// Where a call through a function pointer reports: the core's previous API call (the exact-signature overloads
// below have no defaulted Loc argument).
inline Loc fnptr_loc() { return rt().cur && blk().last_loc.file ? blk().last_loc : Loc(); }
}  // namespace adv
}  // namespace ascendc_emu
// Exact-signature overloads: kernels pass high-level APIs as function pointers or template arguments
// (`void (*op)(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t)` with `Acos<half, false>`). The
// emulator's own overloads carry a defaulted Loc argument, which changes their type; these take a trailing function
// parameter pack that must be empty, so a pointer to them has the documented type while a direct call still picks
// the Loc overload (a template without a trailing pack is more specialised).
#define ASCENDC_EMU_ADV_FNPTR_ENABLE typename... E, typename std::enable_if<sizeof...(E) == 0, int>::type = 0
// The element-type condition most high-level APIs document (half, float), and a list of traced vector steps.
#define ASCENDC_EMU_HF (::ascendc_emu::adv::is_f16_or_f32<T>::value)
#define ASCENDC_EMU_STEPS(...) (std::initializer_list<const char*>{__VA_ARGS__})
#endif  // ASCENDC_EMU_ASCENDC_EMU_ADV_COMMON_H_
