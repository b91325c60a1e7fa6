// Host shim (clean-room) of the bounds-checked C string functions (securec) op_host code calls.
#pragma once
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#ifndef EOK
#define EOK 0
#endif
typedef int errno_t;
inline errno_t memcpy_s(void* dst, size_t dmax, const void* src, size_t n) {
    if (!dst || !src || n > dmax) return EINVAL;
    std::memmove(dst, src, n);
    return EOK;
}
inline errno_t memmove_s(void* dst, size_t dmax, const void* src, size_t n) { return memcpy_s(dst, dmax, src, n); }
inline errno_t memset_s(void* dst, size_t dmax, int c, size_t n) {
    if (!dst || n > dmax) return EINVAL;
    std::memset(dst, c, n);
    return EOK;
}
inline errno_t strcpy_s(char* dst, size_t dmax, const char* src) {
    if (!dst || !src || std::strlen(src) >= dmax) return EINVAL;
    std::strcpy(dst, src);
    return EOK;
}
inline errno_t strncpy_s(char* dst, size_t dmax, const char* src, size_t n) {
    if (!dst || !src || dmax == 0) return EINVAL;
    size_t len = std::strlen(src);
    if (len > n) len = n;
    if (len >= dmax) return EINVAL;
    std::memcpy(dst, src, len);
    dst[len] = '\0';
    return EOK;
}
inline errno_t strcat_s(char* dst, size_t dmax, const char* src) {
    if (!dst || !src || std::strlen(dst) + std::strlen(src) >= dmax) return EINVAL;
    std::strcat(dst, src);
    return EOK;
}
inline int vsnprintf_s(char* dst, size_t dmax, size_t count, const char* fmt, va_list ap) {
    if (!dst || dmax == 0) return -1;
    size_t lim = count + 1 < dmax ? count + 1 : dmax;
    int r = std::vsnprintf(dst, lim, fmt, ap);
    return (r < 0 || static_cast<size_t>(r) >= lim) ? -1 : r;
}
inline int snprintf_s(char* dst, size_t dmax, size_t count, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf_s(dst, dmax, count, fmt, ap);
    va_end(ap);
    return r;
}
inline int sprintf_s(char* dst, size_t dmax, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = dst && dmax ? std::vsnprintf(dst, dmax, fmt, ap) : -1;
    va_end(ap);
    return r;
}
