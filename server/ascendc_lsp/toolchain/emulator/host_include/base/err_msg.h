// Host shim (clean-room) of the error-message reporting macros op_host code uses: printed to stderr.
#pragma once
#include <cstdio>
#define REPORT_INNER_ERR_MSG(code, fmt, ...) (std::fprintf(stderr, "[%s] " fmt "\n", code, ##__VA_ARGS__))
#define REPORT_PREDEFINED_ERR_MSG(code, ...) (std::fprintf(stderr, "[%s]\n", code))
