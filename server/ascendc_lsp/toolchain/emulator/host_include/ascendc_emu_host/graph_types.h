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
#include <type_traits>
#include <utility>
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

// ge::TensorDesc (graph/tensor.h): the shape, dtype and format of one operator input or output, as the older
// proto-API checks (CheckSupported, op_select_format callbacks) read them from a ge::Operator.
class TensorDesc {
public:
    TensorDesc() = default;
    TensorDesc(const Shape& shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT)
        : shape_(shape), origin_shape_(shape), format_(format), origin_format_(format), dtype_(dt) {}
    Shape GetShape() const { return shape_; }
    void SetShape(const Shape& s) { shape_ = s; }
    Shape GetOriginShape() const { return origin_shape_; }
    void SetOriginShape(const Shape& s) { origin_shape_ = s; }
    DataType GetDataType() const { return dtype_; }
    void SetDataType(DataType dt) { dtype_ = dt; }
    Format GetFormat() const { return format_; }
    void SetFormat(Format f) { format_ = f; }
    Format GetOriginFormat() const { return origin_format_; }
    void SetOriginFormat(Format f) { origin_format_ = f; }

private:
    Shape shape_;
    Shape origin_shape_;
    Format format_ = FORMAT_ND;
    Format origin_format_ = FORMAT_ND;
    DataType dtype_ = DT_FLOAT;
};

// The graph operator of the older proto API: named input/output descs and attributes. A name the operator does
// not have reads as an empty TensorDesc (GetAttr: GRAPH_FAILED), as the proto-API checks expect.
class Operator {
public:
    Operator() = default;
    explicit Operator(const char* type) : type_(type ? type : "") {}
    graphStatus GetName(AscendString& name) const {
        name = AscendString(type_.c_str());
        return GRAPH_SUCCESS;
    }
    graphStatus GetOpType(AscendString& type) const { return GetName(type); }

    TensorDesc GetInputDescByName(const char* name) const { return find_desc(inputs_, name); }
    TensorDesc GetOutputDescByName(const char* name) const { return find_desc(outputs_, name); }
    graphStatus UpdateInputDesc(const char* name, const TensorDesc& d) { return put_desc(inputs_, name, d); }
    graphStatus UpdateOutputDesc(const char* name, const TensorDesc& d) { return put_desc(outputs_, name, d); }

    template <typename T>
    graphStatus SetAttr(const char* name, const T& value) {
        attrs_.push_back({name ? name : "", AttrValue::of(value)});
        return GRAPH_SUCCESS;
    }
    template <typename T>
    graphStatus GetAttr(const char* name, T& value) const {
        const std::string key = name ? name : "";
        for (auto it = attrs_.rbegin(); it != attrs_.rend(); ++it) {
            if (it->first == key) return it->second.get(value);
        }
        return GRAPH_FAILED;
    }

private:
    // One attribute value of the kinds op_host code reads: integer, float, bool, string, integer list.
    struct AttrValue {
        enum Kind { INT, FLOAT, BOOL, STR, INTS } kind = INT;
        int64_t i = 0;
        double f = 0.0;
        std::string s;
        std::vector<int64_t> ints;
        template <typename T>
        static AttrValue of(const T& v) {
            AttrValue a;
            if constexpr (std::is_same_v<T, bool>) {
                a.kind = BOOL;
                a.i = v ? 1 : 0;
            } else if constexpr (std::is_integral_v<T>) {
                a.kind = INT;
                a.i = static_cast<int64_t>(v);
            } else if constexpr (std::is_floating_point_v<T>) {
                a.kind = FLOAT;
                a.f = static_cast<double>(v);
            } else if constexpr (std::is_convertible_v<T, std::string>) {
                a.kind = STR;
                a.s = std::string(v);
            } else {
                a.kind = INTS;
                a.ints.assign(v.begin(), v.end());
            }
            return a;
        }
        template <typename T>
        graphStatus get(T& out) const {
            if constexpr (std::is_same_v<T, bool>) {
                if (kind != BOOL) return GRAPH_FAILED;
                out = i != 0;
            } else if constexpr (std::is_integral_v<T>) {
                if (kind != INT) return GRAPH_FAILED;
                out = static_cast<T>(i);
            } else if constexpr (std::is_floating_point_v<T>) {
                if (kind != FLOAT) return GRAPH_FAILED;
                out = static_cast<T>(f);
            } else if constexpr (std::is_same_v<T, std::string>) {
                if (kind != STR) return GRAPH_FAILED;
                out = s;
            } else if constexpr (std::is_same_v<T, AscendString>) {
                if (kind != STR) return GRAPH_FAILED;
                out = AscendString(s);
            } else {
                if (kind != INTS) return GRAPH_FAILED;
                out.assign(ints.begin(), ints.end());
            }
            return GRAPH_SUCCESS;
        }
    };
    using NamedDescs = std::vector<std::pair<std::string, TensorDesc>>;
    static TensorDesc find_desc(const NamedDescs& descs, const char* name) {
        const std::string key = name ? name : "";
        for (const auto& nd : descs) {
            if (nd.first == key) return nd.second;
        }
        return TensorDesc();
    }
    static graphStatus put_desc(NamedDescs& descs, const char* name, const TensorDesc& d) {
        const std::string key = name ? name : "";
        for (auto& nd : descs) {
            if (nd.first == key) {
                nd.second = d;
                return GRAPH_SUCCESS;
            }
        }
        descs.emplace_back(key, d);
        return GRAPH_SUCCESS;
    }

    std::string type_;
    NamedDescs inputs_;
    NamedDescs outputs_;
    std::vector<std::pair<std::string, AttrValue>> attrs_;
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
