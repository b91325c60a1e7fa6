// Host-side shim (clean-room) of the runtime contexts op_host code receives: gert::TilingContext,
// InferShapeContext, InferDataTypeContext, TilingParseContext and the values they hand out (Shape, StorageShape,
// Tensor, CompileTimeTensorDesc, RuntimeAttrs, TilingData), plus fe::PlatFormInfos. Written from the devkit
// docs (docs/zh/guide/编程指南/高级编程/Aclnn算子工程化开发/Host侧Tiling实现/基本流程.md and the
// Tiling调测/ContextBuilder pages) and from how public op_host files call them. The contexts are views over one
// `ascendc_emu_host::Node`, which the driver (driver.cpp) fills from the test case.
#ifndef ASCENDC_EMU_HOST_EXE_GRAPH_H_
#define ASCENDC_EMU_HOST_EXE_GRAPH_H_
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "graph_types.h"  // the CANN host headers bring the standard library with them; so do these

namespace fe {
enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
// The platform description PlatformAscendC reads (platform_ascendc.h); filled from the SoC profile.
class PlatFormInfos {
public:
    std::string soc_version = "Ascend910B";  // as npu-smi names it, e.g. Ascend910B2
    std::string short_soc = "ascend910b";    // the AddConfig spelling
    uint32_t core_num_aiv = 48, core_num_aic = 24, core_num = 48;
    uint64_t ub = 196608, l1 = 524288, l0a = 65536, l0b = 65536, l0c = 131072, l2 = 201326592;
    uint64_t hbm = 68719476736ULL, fb = 2048, bt = 1024;
    uint32_t sys_workspace = 16u << 20;
    std::string npu_arch = "2201";
    std::map<std::string, std::map<std::string, std::string>> res;  // GetPlatformRes(label, key)

    bool GetPlatformRes(const std::string& label, const std::string& key, std::string& val) const {
        auto l = res.find(label);
        if (l == res.end()) return false;
        auto k = l->second.find(key);
        if (k == l->second.end()) return false;
        val = k->second;
        return true;
    }
    bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& val) const {
        return GetPlatformRes(label, key, val);
    }
    bool GetPlatformRes(const std::string& label, std::map<std::string, std::string>& out) const {
        auto l = res.find(label);
        if (l == res.end()) return false;
        out = l->second;
        return true;
    }
    uint32_t GetCoreNum() const { return core_num; }
    void GetLocalMemSize(uint64_t& size) const { size = ub; }
    void GetLocalMemSize(const LocalMemType& t, uint64_t& size) const {
        switch (t) {
            case LocalMemType::L0_A: size = l0a; break;
            case LocalMemType::L0_B: size = l0b; break;
            case LocalMemType::L0_C: size = l0c; break;
            case LocalMemType::L1: size = l1; break;
            case LocalMemType::L2: size = l2; break;
            case LocalMemType::UB: size = ub; break;
            case LocalMemType::HBM: size = hbm; break;
            default: size = 0;
        }
    }
    void GetLocalMemBw(uint64_t& bw) const { bw = 0; }
    void SetCoreNumByCoreType(const std::string&) {}
    uint32_t GetCoreNumByType(const std::string& type) const { return type == "AiCore" ? core_num_aic : core_num_aiv; }
};
using PlatformInfos = PlatFormInfos;
}  // namespace fe

namespace gert {
using ge::DataType;
using ge::Format;

class Shape {
public:
    static constexpr size_t kMaxDimNum = 25;
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) {
        for (int64_t d : dims) AppendDim(d);
    }
    size_t GetDimNum() const { return dim_num_; }
    int64_t GetDim(size_t i) const { return i < dim_num_ ? dims_[i] : 0; }
    int64_t operator[](size_t i) const { return GetDim(i); }
    int64_t& operator[](size_t i) { return dims_[i < kMaxDimNum ? i : kMaxDimNum - 1]; }
    Shape& SetDimNum(size_t n) {
        dim_num_ = n < kMaxDimNum ? n : kMaxDimNum;
        return *this;
    }
    Shape& SetDim(size_t i, int64_t v) {
        if (i < kMaxDimNum) dims_[i] = v;
        return *this;
    }
    Shape& AppendDim(int64_t v) {
        if (dim_num_ < kMaxDimNum) dims_[dim_num_++] = v;
        return *this;
    }
    bool IsScalar() const { return dim_num_ == 0; }
    void SetScalar() { dim_num_ = 0; }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (size_t i = 0; i < dim_num_; ++i) n *= dims_[i];
        return n;
    }
    std::vector<int64_t> GetDims() const { return std::vector<int64_t>(dims_, dims_ + dim_num_); }
    const int64_t* GetDimsPtr() const { return dims_; }
    bool operator==(const Shape& o) const {
        if (dim_num_ != o.dim_num_) return false;
        for (size_t i = 0; i < dim_num_; ++i)
            if (dims_[i] != o.dims_[i]) return false;
        return true;
    }
    bool operator!=(const Shape& o) const { return !(*this == o); }

private:
    size_t dim_num_ = 0;
    int64_t dims_[kMaxDimNum] = {};
};

class StorageShape {
public:
    StorageShape() = default;
    StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
        : origin_(origin), storage_(storage) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }
    bool operator==(const StorageShape& o) const { return origin_ == o.origin_ && storage_ == o.storage_; }

private:
    Shape origin_, storage_;
};

class StorageFormat {
public:
    StorageFormat() = default;
    StorageFormat(Format origin, Format storage) : origin_(origin), storage_(storage) {}
    Format GetOriginFormat() const { return origin_; }
    Format GetStorageFormat() const { return storage_; }
    void SetOriginFormat(Format f) { origin_ = f; }
    void SetStorageFormat(Format f) { storage_ = f; }

private:
    Format origin_ = ge::FORMAT_ND, storage_ = ge::FORMAT_ND;
};

class CompileTimeTensorDesc {
public:
    DataType GetDataType() const { return dtype_; }
    Format GetOriginFormat() const { return format_.GetOriginFormat(); }
    Format GetStorageFormat() const { return format_.GetStorageFormat(); }
    const StorageFormat& GetFormat() const { return format_; }
    void SetDataType(DataType d) { dtype_ = d; }
    void SetOriginFormat(Format f) { format_.SetOriginFormat(f); }
    void SetStorageFormat(Format f) { format_.SetStorageFormat(f); }

private:
    DataType dtype_ = ge::DT_UNDEFINED;
    StorageFormat format_;
};

class Tensor {
public:
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    const StorageShape& GetShape() const { return shape_; }
    StorageShape& MutableShape() { return shape_; }
    Shape& MutableOriginShape() { return shape_.MutableOriginShape(); }
    Shape& MutableStorageShape() { return shape_.MutableStorageShape(); }
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    DataType GetDataType() const { return dtype_; }
    void SetDataType(DataType d) { dtype_ = d; }
    const StorageFormat& GetFormat() const { return format_; }
    Format GetOriginFormat() const { return format_.GetOriginFormat(); }
    Format GetStorageFormat() const { return format_.GetStorageFormat(); }
    void SetFormat(const StorageFormat& f) { format_ = f; }
    template <class T>
    const T* GetData() const { return reinterpret_cast<const T*>(data_.empty() ? nullptr : data_.data()); }
    const void* GetAddr() const { return data_.empty() ? nullptr : data_.data(); }
    size_t GetSize() const { return data_.size(); }
    std::vector<uint8_t>& ascendc_emu_bytes() { return data_; }

private:
    StorageShape shape_;
    StorageFormat format_;
    DataType dtype_ = ge::DT_UNDEFINED;
    std::vector<uint8_t> data_;  // only for inputs the host may read (ValueDepend)
};

class ContinuousVector {
public:
    size_t GetSize() const { return size_; }
    size_t GetCapacity() const { return size_; }
    const void* GetData() const { return bytes_.empty() ? nullptr : bytes_.data(); }
    void* MutableData() { return bytes_.empty() ? nullptr : bytes_.data(); }
    void ascendc_emu_assign(const void* p, size_t n, size_t elem) {
        size_ = n;
        bytes_.assign(static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n * elem);
    }

protected:
    size_t size_ = 0;
    std::vector<uint8_t> bytes_;
};

template <class T>
class TypedContinuousVector : public ContinuousVector {
public:
    const T* GetData() const { return reinterpret_cast<const T*>(ContinuousVector::GetData()); }
    T* MutableData() { return reinterpret_cast<T*>(ContinuousVector::MutableData()); }
};

// One attribute value; GetAttrPointer<T> reinterprets its storage as the op_host code asks (ints are int64).
struct AttrValue {
    enum Kind { NONE, INT, FLOAT, BOOL, STR, LIST_INT, LIST_FLOAT, LIST_BOOL } kind = NONE;
    int64_t i = 0;
    float f = 0;
    bool b = false;
    std::string s;
    std::shared_ptr<ContinuousVector> list;
    const void* ptr() const {
        switch (kind) {
            case INT: return &i;
            case FLOAT: return &f;
            case BOOL: return &b;
            case STR: return s.c_str();
            case LIST_INT:
            case LIST_FLOAT:
            case LIST_BOOL: return list.get();
            default: return nullptr;
        }
    }
};

class RuntimeAttrs {
public:
    template <class T>
    const T* GetAttrPointer(size_t idx) const {
        return idx < attrs_.size() ? reinterpret_cast<const T*>(attrs_[idx].ptr()) : nullptr;
    }
    const int64_t* GetInt(size_t idx) const { return GetAttrPointer<int64_t>(idx); }
    const float* GetFloat(size_t idx) const { return GetAttrPointer<float>(idx); }
    const bool* GetBool(size_t idx) const { return GetAttrPointer<bool>(idx); }
    const char* GetStr(size_t idx) const { return GetAttrPointer<char>(idx); }
    const TypedContinuousVector<int64_t>* GetListInt(size_t idx) const {
        return GetAttrPointer<TypedContinuousVector<int64_t>>(idx);
    }
    const TypedContinuousVector<float>* GetListFloat(size_t idx) const {
        return GetAttrPointer<TypedContinuousVector<float>>(idx);
    }
    const TypedContinuousVector<bool>* GetListBool(size_t idx) const {
        return GetAttrPointer<TypedContinuousVector<bool>>(idx);
    }
    size_t GetAttrNum() const { return attrs_.size(); }
    std::vector<AttrValue>& ascendc_emu_values() { return attrs_; }

private:
    std::vector<AttrValue> attrs_;
};

// The raw tiling buffer the framework hands to TilingFunc (capacity fixed, data size set by the op).
class TilingData {
public:
    void* GetData() { return buf_.data(); }
    const void* GetData() const { return buf_.data(); }
    size_t GetCapacity() const { return buf_.size(); }
    size_t GetDataSize() const { return size_; }
    void SetDataSize(size_t n) {
        size_ = n;
        size_set_ = true;
    }
    template <class T>
    ge::graphStatus Append(const T& v) {
        if (size_ + sizeof(T) > buf_.size()) return ge::GRAPH_FAILED;
        std::memcpy(buf_.data() + size_, &v, sizeof(T));
        size_ += sizeof(T);
        size_set_ = true;
        return ge::GRAPH_SUCCESS;
    }
    void ascendc_emu_reset(size_t capacity) {
        buf_.assign(capacity, 0);
        size_ = 0;
        size_set_ = false;
    }
    bool ascendc_emu_size_set() const { return size_set_; }

private:
    std::vector<uint8_t> buf_ = std::vector<uint8_t>(64 * 1024, 0);
    size_t size_ = 0;
    bool size_set_ = false;
};
}  // namespace gert

namespace ascendc_emu_host {
// IR input i occupies instances [first, first + count) (count 0: an optional input left out; >1: dynamic).
struct IrSlot {
    size_t first = 0, count = 0;
};

// Everything the contexts show about the node being tiled, filled by the driver from the test case.
struct Node {
    std::string name, type;
    std::vector<IrSlot> in_ir;
    std::vector<gert::StorageShape> in_shapes, out_shapes;
    std::vector<gert::Tensor> in_tensors, out_tensors;
    std::vector<gert::CompileTimeTensorDesc> in_desc, out_desc;
    std::vector<gert::Shape> in_plain, out_plain;  // InferShapeContext hands out plain shapes
    std::vector<bool> out_shape_known;
    gert::RuntimeAttrs attrs;
    gert::TilingData tiling;
    fe::PlatFormInfos platform;
    std::vector<size_t> workspaces;
    size_t workspace_num = 0;
    uint32_t block_dim = 0;
    bool block_dim_set = false;
    uint64_t tiling_key = 0;
    bool tiling_key_set = false;
    uint32_t schedule_mode = 0;
    bool need_atomic = false;
    int32_t deterministic = 0;
    void* compile_info = nullptr;
    size_t typed_tiling_size = 0;  // GetTilingData<T>(): sizeof(T), the data size unless SetDataSize says otherwise
    std::string compile_json = "{}";
};
}  // namespace ascendc_emu_host

namespace gert {
class ComputeNodeInfo;
class AnchorInstanceInfo {
public:
    explicit AnchorInstanceInfo(size_t start = 0, size_t num = 0) : start_(start), num_(num) {}
    size_t GetInstanceNum() const { return num_; }
    size_t GetInstanceStart() const { return start_; }

private:
    size_t start_, num_;
};

// The part every context shares: the node, its inputs by instance and by IR index, outputs, attributes.
class ExtendedKernelContext {
public:
    explicit ExtendedKernelContext(ascendc_emu_host::Node* n) : n_(n) {}
    const char* GetNodeName() const { return n_->name.c_str(); }
    const char* GetNodeType() const { return n_->type.c_str(); }
    const RuntimeAttrs* GetAttrs() const { return &n_->attrs; }
    size_t GetComputeNodeInputNum() const { return n_->in_shapes.size(); }
    size_t GetComputeNodeOutputNum() const { return n_->out_shapes.size(); }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return at(n_->in_desc, i); }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return at(n_->out_desc, i); }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { return at(n_->in_desc, instance(ir, 0)); }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t rel) const {
        return at(n_->in_desc, instance(ir, rel));
    }
    const CompileTimeTensorDesc* GetRequiredInputDesc(size_t ir) const { return GetOptionalInputDesc(ir); }
    const AnchorInstanceInfo* GetIrInputInstanceInfo(size_t ir) const {
        if (ir >= n_->in_ir.size()) return nullptr;
        anchor_ = AnchorInstanceInfo(n_->in_ir[ir].first, n_->in_ir[ir].count);
        return &anchor_;
    }
    const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir) const { return GetIrInputInstanceInfo(ir); }
    const ExtendedKernelContext* GetComputeNodeInfo() const { return this; }
    size_t GetInputsNum() const { return n_->in_shapes.size(); }
    size_t GetOutputsNum() const { return n_->out_shapes.size(); }
    size_t GetIrInputsNum() const { return n_->in_ir.size(); }
    ascendc_emu_host::Node* ascendc_emu_node() const { return n_; }

protected:
    template <class T>
    static T* at(std::vector<T>& v, size_t i) {
        return i < v.size() ? &v[i] : nullptr;
    }
    // Instance index of the rel-th tensor of IR input ir; past the end when that input is absent.
    size_t instance(size_t ir, size_t rel) const {
        if (ir >= n_->in_ir.size() || rel >= n_->in_ir[ir].count) return static_cast<size_t>(-1);
        return n_->in_ir[ir].first + rel;
    }
    ascendc_emu_host::Node* n_;
    mutable AnchorInstanceInfo anchor_;
};
using KernelContext = ExtendedKernelContext;

class TilingContext : public ExtendedKernelContext {
public:
    using ExtendedKernelContext::ExtendedKernelContext;
    const StorageShape* GetInputShape(size_t i) const { return at(n_->in_shapes, i); }
    const StorageShape* GetOptionalInputShape(size_t ir) const { return at(n_->in_shapes, instance(ir, 0)); }
    const StorageShape* GetRequiredInputShape(size_t ir) const { return GetOptionalInputShape(ir); }
    const StorageShape* GetDynamicInputShape(size_t ir, size_t rel) const {
        return at(n_->in_shapes, instance(ir, rel));
    }
    const StorageShape* GetOutputShape(size_t i) const { return at(n_->out_shapes, i); }
    const Tensor* GetInputTensor(size_t i) const { return at(n_->in_tensors, i); }
    const Tensor* GetOptionalInputTensor(size_t ir) const { return at(n_->in_tensors, instance(ir, 0)); }
    const Tensor* GetRequiredInputTensor(size_t ir) const { return GetOptionalInputTensor(ir); }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t rel) const {
        return at(n_->in_tensors, instance(ir, rel));
    }
    const Tensor* GetOutputTensor(size_t i) const { return at(n_->out_tensors, i); }
    ge::graphStatus SetBlockDim(uint32_t n) {
        n_->block_dim = n;
        n_->block_dim_set = true;
        return ge::GRAPH_SUCCESS;
    }
    uint32_t GetBlockDim() const { return n_->block_dim; }
    ge::graphStatus SetTilingKey(uint64_t k) {
        n_->tiling_key = k;
        n_->tiling_key_set = true;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return n_->tiling_key; }
    ge::graphStatus SetScheduleMode(uint32_t m) {
        n_->schedule_mode = m;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus SetNeedAtomic(bool b) {
        n_->need_atomic = b;
        return ge::GRAPH_SUCCESS;
    }
    int32_t GetDeterministic() const { return n_->deterministic; }
    size_t* GetWorkspaceSizes(size_t num) {
        if (n_->workspaces.size() < num) n_->workspaces.resize(num, 0);
        if (num > n_->workspace_num) n_->workspace_num = num;
        return n_->workspaces.data();
    }
    size_t GetWorkspaceNum() const { return n_->workspace_num; }
    TilingData* GetRawTilingData() const { return &n_->tiling; }
    fe::PlatFormInfos* GetPlatformInfo() const { return &n_->platform; }
    template <class T>
    const T* GetCompileInfo() const { return static_cast<const T*>(n_->compile_info); }
    const void* GetCompileInfo() const { return n_->compile_info; }
    // The standard-C++ tiling struct style: T lives in the raw tiling buffer (docs .../使用标准CPP语法定义Tiling结构体.md).
    template <class T>
    T* GetTilingData() const {
        static_assert(sizeof(T) <= 64 * 1024, "tiling struct larger than the tiling buffer");
        n_->typed_tiling_size = sizeof(T);
        return reinterpret_cast<T*>(n_->tiling.GetData());
    }
};

class InferShapeContext : public ExtendedKernelContext {
public:
    using ExtendedKernelContext::ExtendedKernelContext;
    const Shape* GetInputShape(size_t i) const { return at(n_->in_plain, i); }
    const Shape* GetOptionalInputShape(size_t ir) const { return at(n_->in_plain, instance(ir, 0)); }
    const Shape* GetRequiredInputShape(size_t ir) const { return GetOptionalInputShape(ir); }
    const Shape* GetDynamicInputShape(size_t ir, size_t rel) const { return at(n_->in_plain, instance(ir, rel)); }
    Shape* GetOutputShape(size_t i) const { return at(n_->out_plain, i); }
    const Tensor* GetInputTensor(size_t i) const { return at(n_->in_tensors, i); }
    const Tensor* GetOptionalInputTensor(size_t ir) const { return at(n_->in_tensors, instance(ir, 0)); }
};

template <class T>
class Range {
public:
    Range() = default;
    Range(T* min, T* max) : min_(min), max_(max) {}
    const T* GetMin() const { return min_; }
    const T* GetMax() const { return max_; }
    T* GetMin() { return min_; }
    T* GetMax() { return max_; }
    void SetMin(T* v) { min_ = v; }
    void SetMax(T* v) { max_ = v; }

private:
    T* min_ = nullptr;
    T* max_ = nullptr;
};

// Shape ranges: each tensor's range is [its shape, its shape] (the test case's shapes are static).
class InferShapeRangeContext : public ExtendedKernelContext {
public:
    using ExtendedKernelContext::ExtendedKernelContext;
    const Range<Shape>* GetInputShapeRange(size_t i) const { return range(n_->in_plain, in_ranges_, i); }
    const Range<Shape>* GetOptionalInputShapeRange(size_t ir) const {
        return range(n_->in_plain, in_ranges_, instance(ir, 0));
    }
    Range<Shape>* GetOutputShapeRange(size_t i) { return range(n_->out_plain, out_ranges_, i); }

private:
    static Range<Shape>* range(std::vector<Shape>& shapes, std::vector<Range<Shape>>& ranges, size_t i) {
        if (i >= shapes.size()) return nullptr;
        if (ranges.size() != shapes.size()) {
            ranges.clear();
            for (auto& s : shapes) ranges.emplace_back(&s, &s);
        }
        return &ranges[i];
    }
    mutable std::vector<Range<Shape>> in_ranges_, out_ranges_;
};

class InferDataTypeContext : public ExtendedKernelContext {
public:
    using ExtendedKernelContext::ExtendedKernelContext;
    DataType GetInputDataType(size_t i) const {
        return i < n_->in_desc.size() ? n_->in_desc[i].GetDataType() : ge::DT_UNDEFINED;
    }
    DataType GetOptionalInputDataType(size_t ir) const { return GetInputDataType(instance(ir, 0)); }
    DataType GetRequiredInputDataType(size_t ir) const { return GetOptionalInputDataType(ir); }
    DataType GetDynamicInputDataType(size_t ir, size_t rel) const { return GetInputDataType(instance(ir, rel)); }
    DataType GetOutputDataType(size_t i) const {
        return i < n_->out_desc.size() ? n_->out_desc[i].GetDataType() : ge::DT_UNDEFINED;
    }
    ge::graphStatus SetOutputDataType(size_t i, DataType d) {
        if (i >= n_->out_desc.size()) return ge::GRAPH_FAILED;
        n_->out_desc[i].SetDataType(d);
        return ge::GRAPH_SUCCESS;
    }
};

class TilingParseContext : public ExtendedKernelContext {
public:
    using ExtendedKernelContext::ExtendedKernelContext;
    template <class T>
    T* GetCompiledInfo() const { return static_cast<T*>(n_->compile_info); }
    const char* GetCompiledJson() const { return n_->compile_json.c_str(); }
    fe::PlatFormInfos* GetPlatformInfo() const { return &n_->platform; }
};
}  // namespace gert

#endif  // ASCENDC_EMU_HOST_EXE_GRAPH_H_
