/* lab07's host API across the grader's wall, described once (common/judge/remote_api.h). */
#include "remote_api.h"
#include "transpose.h"

#define LAB_API(X)                                                                             \
    X(int, transpose, VAL(enum transpose_variant, v), BUF(in), BUF(out), VAL(size_t, width),   \
      VAL(size_t, height))                                                                     \
    X(int, transpose_occupancy, VAL(enum transpose_variant, v), VAL(unsigned, threads),        \
      VAL(size_t, extra), OUT(struct transpose_occupancy, occ, 1))                             \
    X(int, transpose_extra_most, VAL(enum transpose_variant, v), OUT(size_t, bytes, 1))        \
    X(int, transpose_padded_extra, BUF(in), BUF(out), VAL(size_t, width), VAL(size_t, height), \
      VAL(size_t, extra))                                                                      \
    REMOTE_GPU(X(int, transpose_cublas, BUF(in), BUF(out), VAL(size_t, width), VAL(size_t, height)))

REMOTE_LAB(LAB_API)
