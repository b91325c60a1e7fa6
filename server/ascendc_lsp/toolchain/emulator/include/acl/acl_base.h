// ACL base types for the clean-room emulator: error codes, data types, formats, fp16 helpers, aclInit.
// Written from the public CANN "AscendCL API reference" (aclError return-code table, aclDataType, aclFormat,
// aclFloat16 conversion functions) and from how the devkit direct-launch samples call them; values are the
// documented numbers. Host programs include this through "acl/acl.h"; the bodies live in
// ascendc_emu/acl_impl.h (the emulator runtime object, or inline in header-only builds).
#ifndef ASCENDC_EMU_ACL_ACL_BASE_H_
#define ASCENDC_EMU_ACL_ACL_BASE_H_
#include <cstddef>
#include <cstdint>
#include "../ascendc_emu/runtime.h"  // EMU_RT_FN, Loc

typedef int aclError;
typedef uint16_t aclFloat16;

// Return codes (CANN aclError table: 1xxxxx parameter/state, 2xxxxx resources, 5xxxxx internal).
static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_NONE = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_INTERNAL_ERROR = 500000;
// Runtime codes (rt_error_codes.h numbers in the same reference).
static const int ACL_ERROR_RT_PARAM_INVALID = 107000;
static const int ACL_ERROR_RT_INVALID_DEVICEID = 107001;
static const int ACL_ERROR_RT_CONTEXT_NULL = 107002;
static const int ACL_ERROR_RT_STREAM_CONTEXT = 107003;
static const int ACL_ERROR_RT_MEMORY_ALLOCATION = 207001;
static const int ACL_ERROR_RT_AICORE_TIMEOUT = 507014;
static const int ACL_ERROR_RT_AICORE_EXCEPTION = 507015;
static const int ACL_ERROR_RT_VECTOR_CORE_EXCEPTION = 507035;

typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
} aclDataType;

typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47,
} aclFormat;

EMU_RT_FN aclError aclInit(const char* configPath, ascendc_emu::Loc loc = ascendc_emu::Loc());
EMU_RT_FN aclError aclFinalize(ascendc_emu::Loc loc = ascendc_emu::Loc());
EMU_RT_FN const char* aclGetRecentErrMsg();
EMU_RT_FN aclFloat16 aclFloatToFloat16(float value);
EMU_RT_FN float aclFloat16ToFloat(aclFloat16 value);
EMU_RT_FN size_t aclDataTypeSize(aclDataType dataType);
#endif  // ASCENDC_EMU_ACL_ACL_BASE_H_
