// Host-side shim (clean-room) of platform_ascendc::PlatformAscendC, from
// docs/zh/api/Utils-API/平台信息获取/PlatformAscendC/*.md. Every number comes from the fe::PlatFormInfos the
// driver fills from the SoC profile (knowledge/hardware/*.yaml via toolchain/emulator/soc.py): one source of truth.
#ifndef ASCENDC_EMU_HOST_PLATFORM_ASCENDC_H_
#define ASCENDC_EMU_HOST_PLATFORM_ASCENDC_H_
#include <cstdint>
#include <string>

#include "../../ascendc_emu_host/exe_graph.h"

namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND910_93,
    ASCEND910_95,
    ASCEND950,
    ASCEND910E,
    ASCEND310,
    ASCEND310P,
    ASCEND310B,
    ASCEND610,
    ASCEND610L,
    ASCEND031,
    ASCEND035,
    ASCEND350,
    AS31XM1,
    BS9SX1A,
    BS9SX2A,
    MC61AM21A,
    MC62,
    MC32DM11A,
    SD3403,
    HI3796CV300ES,
    HI3796CV300CS,
    KIRINX90,
    KIRIN9030,
    RESERVED_VERSION = 99999,
    UNKNOWN = 100000
};

enum class NpuArch { DAV_1001 = 1001, DAV_2002 = 2002, DAV_2201 = 2201, DAV_3002 = 3002, DAV_3510 = 3510, DAV_RESV };

class PlatformAscendC {
public:
    PlatformAscendC() = default;
    explicit PlatformAscendC(fe::PlatFormInfos* info) : info_(info) {}
    uint32_t GetCoreNum() const { return p().core_num; }
    uint32_t GetCoreNumAic() const { return p().core_num_aic; }
    uint32_t GetCoreNumAiv() const { return p().core_num_aiv; }
    uint32_t GetCoreNumVector() const { return p().core_num_aiv; }
    void GetCoreMemSize(const CoreMemType& t, uint64_t& size) const {
        const fe::PlatFormInfos& i = p();
        switch (t) {
            case CoreMemType::L0_A: size = i.l0a; break;
            case CoreMemType::L0_B: size = i.l0b; break;
            case CoreMemType::L0_C: size = i.l0c; break;
            case CoreMemType::L1: size = i.l1; break;
            case CoreMemType::L2: size = i.l2; break;
            case CoreMemType::UB: size = i.ub; break;
            case CoreMemType::HBM: size = i.hbm; break;
            case CoreMemType::FB: size = i.fb; break;
            case CoreMemType::BT: size = i.bt; break;
            default: size = 0;
        }
    }
    void GetCoreMemBw(const CoreMemType&, uint64_t& bw) const { bw = 0; }
    SocVersion GetSocVersion() const {
        const std::string& s = p().short_soc;
        if (s.rfind("ascend910b", 0) == 0) return SocVersion::ASCEND910B;
        if (s.rfind("ascend910_93", 0) == 0) return SocVersion::ASCEND910B;  // A3 reports the A2 value (GetSocVersion.md)
        if (s.rfind("ascend910_95", 0) == 0) return SocVersion::ASCEND910_95;
        if (s.rfind("ascend950", 0) == 0) return SocVersion::ASCEND950;
        if (s.rfind("ascend310p", 0) == 0) return SocVersion::ASCEND310P;
        if (s.rfind("ascend310b", 0) == 0) return SocVersion::ASCEND310B;
        if (s.rfind("ascend910", 0) == 0) return SocVersion::ASCEND910;
        if (s.rfind("ascend310", 0) == 0) return SocVersion::ASCEND310;
        return SocVersion::UNKNOWN;
    }
    NpuArch GetCurNpuArch() const { return static_cast<NpuArch>(std::stoi(p().npu_arch)); }
    uint32_t GetLibApiWorkSpaceSize() const { return p().sys_workspace; }
    uint32_t GetResCubeGroupWorkSpaceSize() const { return 0; }
    uint32_t GetResGroupBarrierWorkSpaceSize() const { return 0; }
    uint32_t GetVecRegLen() const { return 256; }
    // CalcTschNumBlocks.md: mixed ops launch AIC+2xAIV groups; the block count is bounded by what is used.
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        uint32_t n = sliceNum;
        if (aicCoreNum != 0 && aivCoreNum != 0) {
            uint32_t groups = aicCoreNum < aivCoreNum / 2 ? aicCoreNum : aivCoreNum / 2;
            uint32_t need = (sliceNum + 1) / 2;
            n = need < groups ? need : groups;
        } else if (aicCoreNum != 0) {
            n = sliceNum < aicCoreNum ? sliceNum : aicCoreNum;
        } else if (aivCoreNum != 0) {
            n = sliceNum < aivCoreNum ? sliceNum : aivCoreNum;
        }
        return n == 0 ? 1 : n;
    }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        return CalcTschNumBlocks(sliceNum, aicCoreNum, aivCoreNum);
    }
    int64_t ReserveLocalMemory(int64_t) const { return 0; }
    fe::PlatFormInfos* GetPlatFormInfos() const { return info_; }

private:
    const fe::PlatFormInfos& p() const {
        static fe::PlatFormInfos fallback;
        return info_ ? *info_ : (ascendc_emu_platform() ? *ascendc_emu_platform() : fallback);
    }

public:
    // The node's platform, for PlatformAscendCManager and default-constructed objects.
    static fe::PlatFormInfos*& ascendc_emu_platform() {
        static fe::PlatFormInfos* p = nullptr;
        return p;
    }

private:
    fe::PlatFormInfos* info_ = nullptr;
};

class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() {
        static PlatformAscendC inst;
        return &inst;
    }
    static PlatformAscendC* GetInstance(const char*) { return GetInstance(); }
};
}  // namespace platform_ascendc

#endif  // ASCENDC_EMU_HOST_PLATFORM_ASCENDC_H_
