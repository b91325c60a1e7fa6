// Host-side shim (clean-room) of the graph-engine types op_host code uses: ge::DataType / ge::Format with the
// ge enumeration numbers, ge::graphStatus, ge::AscendString, ge::Shape, GetSizeByDataType, TypeUtils.
// Only ever on the host compile's include path (ascendc-lsp runs op_host/*.cpp on the CPU); never in a kernel.
// The numbers are the public ge enumeration values (the kernel build's ORIG_DTYPE_<X>/FORMAT_<X> macros compare
// against them: docs/zh/guide/编程指南/高级编程/Aclnn算子工程化开发/Kernel侧算子实现.md).
#ifndef ASCENDC_EMU_HOST_GRAPH_TYPES_H_
#define ASCENDC_EMU_HOST_GRAPH_TYPES_H_
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

// X(name, number, bytes): bytes is the element size GetSizeByDataType reports (0 where it is not a whole byte).
#define ASCENDC_EMU_GE_DATATYPES(X) \
    X(DT_FLOAT, 0, 4)               \
    X(DT_FLOAT16, 1, 2)             \
    X(DT_INT8, 2, 1)                \
    X(DT_INT32, 3, 4)               \
    X(DT_UINT8, 4, 1)               \
    X(DT_INT16, 6, 2)               \
    X(DT_UINT16, 7, 2)              \
    X(DT_UINT32, 8, 4)              \
    X(DT_INT64, 9, 8)               \
    X(DT_UINT64, 10, 8)             \
    X(DT_DOUBLE, 11, 8)             \
    X(DT_BOOL, 12, 1)               \
    X(DT_STRING, 13, 0)             \
    X(DT_DUAL_SUB_INT8, 14, 1)      \
    X(DT_DUAL_SUB_UINT8, 15, 1)     \
    X(DT_COMPLEX64, 16, 8)          \
    X(DT_COMPLEX128, 17, 16)        \
    X(DT_QINT8, 18, 1)              \
    X(DT_QINT16, 19, 2)             \
    X(DT_QINT32, 20, 4)             \
    X(DT_QUINT8, 21, 1)             \
    X(DT_QUINT16, 22, 2)            \
    X(DT_RESOURCE, 23, 8)           \
    X(DT_STRING_REF, 24, 0)         \
    X(DT_DUAL, 25, 5)               \
    X(DT_VARIANT, 26, 8)            \
    X(DT_BF16, 27, 2)               \
    X(DT_UNDEFINED, 28, 0)          \
    X(DT_INT4, 29, 0)               \
    X(DT_UINT1, 30, 0)              \
    X(DT_INT2, 31, 0)               \
    X(DT_UINT2, 32, 0)              \
    X(DT_COMPLEX32, 33, 4)          \
    X(DT_HIFLOAT8, 34, 1)           \
    X(DT_FLOAT8_E5M2, 35, 1)        \
    X(DT_FLOAT8_E4M3FN, 36, 1)      \
    X(DT_FLOAT8_E8M0, 37, 1)        \
    X(DT_FLOAT6_E3M2, 38, 0)        \
    X(DT_FLOAT6_E2M3, 39, 0)        \
    X(DT_FLOAT4_E2M1, 40, 0)        \
    X(DT_FLOAT4_E1M2, 41, 0)

#define ASCENDC_EMU_GE_FORMATS(X)                  \
    X(FORMAT_NCHW, 0)                              \
    X(FORMAT_NHWC, 1)                              \
    X(FORMAT_ND, 2)                                \
    X(FORMAT_NC1HWC0, 3)                           \
    X(FORMAT_FRACTAL_Z, 4)                         \
    X(FORMAT_NC1C0HWPAD, 5)                        \
    X(FORMAT_NHWC1C0, 6)                           \
    X(FORMAT_FSR_NCHW, 7)                          \
    X(FORMAT_FRACTAL_DECONV, 8)                    \
    X(FORMAT_C1HWNC0, 9)                           \
    X(FORMAT_FRACTAL_DECONV_TRANSPOSE, 10)         \
    X(FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS, 11)   \
    X(FORMAT_NC1HWC0_C04, 12)                      \
    X(FORMAT_FRACTAL_Z_C04, 13)                    \
    X(FORMAT_CHWN, 14)                             \
    X(FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS, 15)  \
    X(FORMAT_HWCN, 16)                             \
    X(FORMAT_NC1KHKWHWC0, 17)                      \
    X(FORMAT_BN_WEIGHT, 18)                        \
    X(FORMAT_FILTER_HWCK, 19)                      \
    X(FORMAT_HASHTABLE_LOOKUP_LOOKUPS, 20)         \
    X(FORMAT_HASHTABLE_LOOKUP_KEYS, 21)            \
    X(FORMAT_HASHTABLE_LOOKUP_VALUE, 22)           \
    X(FORMAT_HASHTABLE_LOOKUP_OUTPUT, 23)          \
    X(FORMAT_HASHTABLE_LOOKUP_HITS, 24)            \
    X(FORMAT_C1HWNCoC0, 25)                        \
    X(FORMAT_MD, 26)                               \
    X(FORMAT_NDHWC, 27)                            \
    X(FORMAT_FRACTAL_ZZ, 28)                       \
    X(FORMAT_FRACTAL_NZ, 29)                       \
    X(FORMAT_NCDHW, 30)                            \
    X(FORMAT_DHWCN, 31)                            \
    X(FORMAT_NDC1HWC0, 32)                         \
    X(FORMAT_FRACTAL_Z_3D, 33)                     \
    X(FORMAT_CN, 34)                               \
    X(FORMAT_NC, 35)                               \
    X(FORMAT_DHWNC, 36)                            \
    X(FORMAT_FRACTAL_Z_3D_TRANSPOSE, 37)           \
    X(FORMAT_FRACTAL_ZN_LSTM, 38)                  \
    X(FORMAT_FRACTAL_Z_G, 39)                      \
    X(FORMAT_RESERVED, 40)                         \
    X(FORMAT_ALL, 41)                              \
    X(FORMAT_NULL, 42)                             \
    X(FORMAT_ND_RNN_BIAS, 43)                      \
    X(FORMAT_FRACTAL_ZN_RNN, 44)                   \
    X(FORMAT_NYUV, 45)                             \
    X(FORMAT_NYUV_A, 46)                           \
    X(FORMAT_NCL, 47)

namespace ge {
#define ASCENDC_EMU_ENUM_DT(name, num, bytes) name = num,
enum DataType : int32_t { ASCENDC_EMU_GE_DATATYPES(ASCENDC_EMU_ENUM_DT) DT_MAX };
#undef ASCENDC_EMU_ENUM_DT
#define ASCENDC_EMU_ENUM_FMT(name, num) name = num,
enum Format : int32_t { ASCENDC_EMU_GE_FORMATS(ASCENDC_EMU_ENUM_FMT) FORMAT_END, FORMAT_MAX = 0xff };
#undef ASCENDC_EMU_ENUM_FMT

using graphStatus = uint32_t;
using char_t = char;
using Status = uint32_t;
constexpr Status SUCCESS = 0;
constexpr Status FAILED = 0xFFFFFFFF;
constexpr int64_t UNKNOWN_DIM = -1;      // a dimension unknown until run time
constexpr int64_t UNKNOWN_DIM_NUM = -2;  // a rank unknown until run time
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304;

inline int GetSizeByDataType(DataType dt) {
    switch (dt) {
#define ASCENDC_EMU_DT_SIZE(name, num, bytes) \
    case name:                                \
        return (bytes) > 0 ? (bytes) : -1;
        ASCENDC_EMU_GE_DATATYPES(ASCENDC_EMU_DT_SIZE)
#undef ASCENDC_EMU_DT_SIZE
        default:
            return -1;
    }
}

inline const char* ascendc_emu_dtype_name(DataType dt) {
    switch (dt) {
#define ASCENDC_EMU_DT_NAME(name, num, bytes) \
    case name:                                \
        return #name;
        ASCENDC_EMU_GE_DATATYPES(ASCENDC_EMU_DT_NAME)
#undef ASCENDC_EMU_DT_NAME
        default:
            return "DT_UNDEFINED";
    }
}

inline const char* ascendc_emu_format_name(Format f) {
    switch (f) {
#define ASCENDC_EMU_FMT_NAME(name, num) \
    case name:                          \
        return #name;
        ASCENDC_EMU_GE_FORMATS(ASCENDC_EMU_FMT_NAME)
#undef ASCENDC_EMU_FMT_NAME
        default:
            return "FORMAT_RESERVED";
    }
}

inline Format GetPrimaryFormat(int32_t format) { return static_cast<Format>(format & 0xff); }
inline Format GetPrimaryFormat(Format format) { return static_cast<Format>(static_cast<int32_t>(format) & 0xff); }

class AscendString {
public:
    AscendString() = default;
    AscendString(const char* s) : s_(s ? s : "") {}  // NOLINT: implicit, as op_host code passes literals
    AscendString(const std::string& s) : s_(s) {}    // NOLINT
    const char* GetString() const { return s_.c_str(); }
    size_t GetLength() const { return s_.size(); }
    bool operator<(const AscendString& o) const { return s_ < o.s_; }
    bool operator==(const AscendString& o) const { return s_ == o.s_; }
    bool operator!=(const AscendString& o) const { return s_ != o.s_; }

private:
    std::string s_;
};

// ge::Shape (graph/tensor.h): a dims vector; the advanced APIs' host tiling functions take one.
class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    graphStatus SetDim(size_t i, int64_t v) {
        if (i >= dims_.size()) return GRAPH_FAILED;
        dims_[i] = v;
        return GRAPH_SUCCESS;
    }
    std::vector<int64_t> GetDims() const { return dims_; }
    int64_t GetShapeSize() const {
        if (dims_.empty()) return 0;
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }

private:
    std::vector<int64_t> dims_;
};

// The graph operator of the older proto API; op_host code only names it.
class Operator {
public:
    Operator() = default;
    explicit Operator(const char* type) : type_(type ? type : "") {}
    graphStatus GetName(AscendString& name) const {
        name = AscendString(type_.c_str());
        return GRAPH_SUCCESS;
    }
    graphStatus GetOpType(AscendString& type) const { return GetName(type); }

private:
    std::string type_;
};

class TypeUtils {
public:
    static std::string DataTypeToSerialString(DataType dt) { return ascendc_emu_dtype_name(dt); }
    static std::string FormatToSerialString(Format f) { return ascendc_emu_format_name(f); }
    static AscendString DataTypeToAscendString(DataType dt) { return AscendString(ascendc_emu_dtype_name(dt)); }
    static AscendString FormatToAscendString(Format f) { return AscendString(ascendc_emu_format_name(f)); }
    static bool GetDataTypeLength(DataType dt, uint32_t& len) {
        int s = GetSizeByDataType(dt);
        if (s <= 0) return false;
        len = static_cast<uint32_t>(s);
        return true;
    }
};
}  // namespace ge

#endif  // ASCENDC_EMU_HOST_GRAPH_TYPES_H_
