/* lab11's host API across the grader's wall, described once (common/judge/remote_api.h). */
#include "remote_api.h"
#include "scan.h"

#define N VAL(size_t, n)
#define MODE VAL(enum scan_mode, mode)
#define IMAGE BUF(src), BUF(dst), VAL(size_t, width), VAL(size_t, height), VAL(size_t, pitch)
#define LAB_API(X)                                                                                 \
    X(size_t, scan_scratch_bytes, VAL(enum scan_variant, v), N)                                    \
    X(int, scan, VAL(enum scan_variant, v), MODE, BUF(in), BUF(out), N, BUF(scratch))              \
    X(int, scan_float, VAL(enum scan_variant, v), MODE, BUF(in), BUF(out), N, BUF(scratch))        \
    X(int, threshold, VAL(enum scan_variant, v), IMAGE, VAL(unsigned char, thr),                   \
      VAL(unsigned, block_rows))                                                                   \
    X(int, compact, VAL(enum scan_variant, v), BUF(src), N, VAL(unsigned char, thr), BUF(out),     \
      BUF(count), BUF(scratch))                                                                    \
    REMOTE_GPU(X(int, scan_cub, MODE, BUF(in), BUF(out), N, BUF(temp), SIZE_IO(temp_bytes))        \
                   X(int, compact_cub, BUF(src), N, VAL(unsigned char, thr), BUF(out), BUF(count), \
                     BUF(temp), SIZE_IO(temp_bytes)))

REMOTE_LAB(LAB_API)
