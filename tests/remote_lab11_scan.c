/* lab11's host API across the grader's wall, described once (common/judge/remote_api.h). */
#include "remote_api.h"
#include "scan.h"

#ifdef BACKEND_CUDA
#define LAB_API_GPU(X)                                                                           \
    X(int, scan_cub, VAL(enum scan_mode, mode), BUF(in), BUF(out), VAL(size_t, n), BUF(temp),    \
      SIZE_IO(temp_bytes))                                                                       \
    X(int, compact_cub, BUF(src), VAL(size_t, n), VAL(unsigned char, thr), BUF(out), BUF(count), \
      BUF(temp), SIZE_IO(temp_bytes))
#else
#define LAB_API_GPU(X)
#endif
#define LAB_API(X)                                                                                 \
    X(size_t, scan_scratch_bytes, VAL(enum scan_variant, v), VAL(size_t, n))                       \
    X(int, scan, VAL(enum scan_variant, v), VAL(enum scan_mode, mode), BUF(in), BUF(out),          \
      VAL(size_t, n), BUF(scratch))                                                                \
    X(int, threshold, VAL(enum scan_variant, v), BUF(src), BUF(dst), VAL(size_t, width),           \
      VAL(size_t, height), VAL(size_t, pitch), VAL(unsigned char, thr), VAL(unsigned, block_rows)) \
    X(int, compact, VAL(enum scan_variant, v), BUF(src), VAL(size_t, n), VAL(unsigned char, thr),  \
      BUF(out), BUF(count), BUF(scratch))                                                          \
    LAB_API_GPU(X)

REMOTE_LAB(LAB_API)
