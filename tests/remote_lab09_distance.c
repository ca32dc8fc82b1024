/* lab09's host API across the grader's wall, described once (common/judge/remote_api.h). */
#include "distance.h"
#include "remote_api.h"

#define PLANE VAL(unsigned, width), VAL(unsigned, height)
#define LAB_API(X)                                                                               \
    X(size_t, distance_scratch_bytes, VAL(enum distance_variant, v), PLANE, VAL(unsigned, dmax)) \
    X(unsigned, distance_band, VAL(unsigned, dmax))                                              \
    X(int, distance, VAL(enum distance_variant, v), BUF(mask), PLANE, VAL(unsigned, dmax),       \
      BUF(scratch), BUF(out))                                                                    \
    X(int, distance_set_profile, IN(float, table, DISTANCE_LUT))                                 \
    REMOTE_GPU(X(size_t, distance_npp_scratch_bytes, PLANE)                                      \
                   X(int, distance_npp, BUF(mask), PLANE, BUF(scratch), BUF(out16)))

REMOTE_LAB(LAB_API)
