/* lab05's host API across the grader's wall, described once (common/judge/remote_api.h). */
#include "histogram.h"
#include "remote_api.h"

#define LAB_API(X)                                                                  \
    X(int, histogram, VAL(enum hist_variant, v), BUF(in), VAL(size_t, n), BUF(out)) \
    X(int, histogram_race, BUF(in), VAL(size_t, n), BUF(out))                       \
    REMOTE_GPU(                                                                     \
        X(int, histogram_cub, BUF(in), VAL(size_t, n), BUF(temp), SIZE_IO(temp_bytes), BUF(out)))

REMOTE_LAB(LAB_API)
