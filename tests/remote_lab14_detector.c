/* lab14's host API across the grader's wall, described once (common/judge/remote_api.h). */
#include "detector.h"
#include "remote_api.h"

#define LAB_API(X)                                                                       \
    X(size_t, detector_scratch_bytes, VAL(enum detector_variant, v), VAL(size_t, width), \
      VAL(size_t, height))                                                               \
    X(int, detector, VAL(enum detector_variant, v), BUF(image), VAL(size_t, width),      \
      VAL(size_t, height), BUF(cascade), VAL(unsigned, nstages), BUF(mask), BUF(ran),    \
      BUF(scratch))

REMOTE_LAB(LAB_API)
