// "acl/acl.h" for direct-launch programs on the clean-room emulator: the ACL base types and the aclrt* runtime
// subset (acl_base.h, acl_rt.h), the model-runtime-instance capture (acl_mdl.h).
#ifndef ASCENDC_EMU_ACL_ACL_H_
#define ASCENDC_EMU_ACL_ACL_H_
#include "acl_base.h"
#include "acl_rt.h"
#include "acl_mdl.h"
#endif  // ASCENDC_EMU_ACL_ACL_H_
