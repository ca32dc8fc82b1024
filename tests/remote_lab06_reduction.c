/* lab06's host API across the grader's wall, described once (common/judge/remote_api.h). */
#include "reduction.h"
#include "remote_api.h"

#define LAB_API(X)                                                                 \
    X(int, reduce_threads_ok, VAL(enum reduce_variant, v), VAL(unsigned, threads)) \
    X(size_t, reduce_scratch_bytes, VAL(enum reduce_variant, v), VAL(size_t, n),   \
      VAL(unsigned, threads))                                                      \
    X(int, reduce_sum, VAL(enum reduce_variant, v), BUF(in), VAL(size_t, n),       \
      VAL(unsigned, threads), BUF(scratch), BUF(out))                              \
    X(int, reduce_extrema, VAL(enum reduce_variant, v), BUF(in), VAL(size_t, n),   \
      VAL(unsigned, threads), BUF(scratch), BUF(out))                              \
    REMOTE_GPU(                                                                    \
        X(int, reduce_cub, BUF(in), VAL(size_t, n), BUF(temp), SIZE_IO(temp_bytes), BUF(out)))

REMOTE_LAB(LAB_API)
