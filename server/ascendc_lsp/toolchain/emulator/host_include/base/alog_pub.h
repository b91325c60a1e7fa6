// Host shim (clean-room) of the device log API used by op_host log macros: warnings and errors go to stderr
// (ascendc-lsp shows them when a TilingFunc fails), debug and info are dropped.
#pragma once
#include <cstdarg>
#include <cstdio>
enum { DLOG_DEBUG = 0, DLOG_INFO = 1, DLOG_WARN = 2, DLOG_ERROR = 3, DLOG_NULL = 4, DLOG_EVENT = 0x10 };
enum { DLOG_TYPE_DEBUG = 0, DLOG_TYPE_RUN = 1 };
#ifndef OP
#define OP 5
#endif
// normally compile definitions of the op library's build
#ifndef OPS_UTILS_LOG_SUB_MOD_NAME
#define OPS_UTILS_LOG_SUB_MOD_NAME "OP_TILING"
#endif
#ifndef OPS_UTILS_LOG_PACKAGE_TYPE
#define OPS_UTILS_LOG_PACKAGE_TYPE "[Custom]"
#endif
#ifndef MSG_LENGTH
#define MSG_LENGTH 1024
#endif
inline int AlogCheckDebugLevel(int, int level) { return level >= DLOG_WARN && level != DLOG_EVENT ? 1 : 0; }
inline void AlogRecord(int, int, int level, const char* fmt, ...) {
    if (level < DLOG_WARN || level == DLOG_EVENT) return;
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fputc('\n', stderr);
}
// The log library's export: declared here, defined weakly in ascendc_emu_host/driver.cpp, so an op_host that
// defines its own CheckLogLevel (max_pool3_d_with_argmax_v2 does) compiles and links with its definition.
int CheckLogLevel(int moduleId, int logLevel);
#define dlog_error(mod, fmt, ...) AlogRecord(mod, DLOG_TYPE_DEBUG, DLOG_ERROR, fmt, ##__VA_ARGS__)
#define dlog_warn(mod, fmt, ...) AlogRecord(mod, DLOG_TYPE_DEBUG, DLOG_WARN, fmt, ##__VA_ARGS__)
#define dlog_info(mod, fmt, ...) ((void)0)
#define dlog_debug(mod, fmt, ...) ((void)0)
