/* lab08's host API across the grader's wall, described once (common/judge/remote_api.h). */
#include "remote_api.h"
#include "repeater.h"

#define TARGET BUF(target), VAL(size_t, width), VAL(size_t, height)
#define REPEATER BUF(repeater), VAL(size_t, rw), VAL(size_t, rh)
#define LAB_API(X)                                                                        \
    X(int, repeat_tile, VAL(enum repeater_variant, v), TARGET, REPEATER)                  \
    X(size_t, repeat_scratch_bytes, VAL(enum repeater_variant, v), VAL(size_t, width),    \
      VAL(size_t, height))                                                                \
    X(int, repeat_lattice, VAL(enum repeater_variant, v), TARGET, REPEATER, VAL(int, ux), \
      VAL(int, uy), VAL(int, vx), VAL(int, vy), BUF(scratch))                             \
    X(int, repeat_tile_memcpy2d, TARGET, REPEATER)                                        \
    X(int, repeat_memset, TARGET)

REMOTE_LAB(LAB_API)
