/* What the CPU backend's test files (tests/test_cpu_backend*.c) share: the launchers of
 * test_cpu_backend_kernels*.cu, test_cpu_backend.c's helpers, and the tests for main's table. */
#ifndef TEST_CPU_BACKEND_H
#define TEST_CPU_BACKEND_H
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

int tk_is_cpu(void);
int tk_sanitized(void);
int tk_racecheck(void);
int tk_indices(const unsigned grid[3], const unsigned block[3], int *out);
int tk_reverse(int dynamic, int *data, int n);
long long tk_last_launch_smem(void);
int tk_early_return(int *data, int n, int threads);
int tk_read_dynamic(int *out, int n);
int tk_transpose(int *m, int rows, int cols);
int tk_pipeline(const int *in, int n, int *out, int wrong);
int tk_reduce(int variant, const int *in, int n, long long *sum);
int tk_warp_ops(int *out, int threads);
int tk_atomics(int shared, int blocks, int threads, long long *out);
int tk_histogram(const unsigned char *in, int n, unsigned *bins);
int tk_constants(int *data, int n, const int *c16, int *total);
int tk_stream(int *host, int n, float *ms);
int tk_bad_launch(int which, int *cleared);
int tk_device(long long *out);
int tk_sms(void);
int tk_occupancy(int *out);
int tk_missing_barrier(int *data, int n);
int tk_wrong(int which, int lines[2]);
int tk_oob_line(void);
int tk_misaligned(int offset, float *sum);
int tk_shift(int in_place, int *data, int n);
int tk_total(int atomic, const int *in, int n, int *total);
int tk_last_block(int fence, const int *in, int blocks, int *sum);
int tk_block_race(int kernel, int mode, const int *in, int *out, int lines[2]);
int tk_copy_kind(int which, int *line);
int tk_cg(int *out, int blocks);
int tk_pitched(int *host, int w, int h, size_t *pitch);
int tk_host_side(int *out);
int tk_texture(const int cfg[9], float border, const void *texels, int w, int h, const float *x,
               const float *y, int n, float *out);
void tk_channel_descs(int out[20]);
int tk_texture_refused(int which);
int tk_work(int iterations, unsigned long long counts[3]);
int tk_window(unsigned blocks, size_t n, const size_t *at, int k, unsigned *got);

enum { cudaErrorInvalidValue = 1, cudaErrorAssert = 710, cudaErrorLaunchFailure = 719 };

/* Every portable test runs under these orders (test_cpu_backend.c; the GPU ignores them). */
extern const char *const orders[3];
#define EACH_ORDER(o) for (int o = 0; o < 3 && setenv("CUDA_CPU_SCHEDULE", orders[o], 1) == 0; o++)

/* One sequence for all the files, drawn in main's order: each test gets the numbers it got when
 * the tests were one file. */
int next_int(int bound);
void cpu_only(void);

/* What the backend prints while a test provokes it on purpose: captured, for the test to
 * check, rather than shown as if something had gone wrong. */
struct capture {
    int saved;
    FILE *file;
};

struct capture capture_stderr(void);
void captured(struct capture c, char *text, size_t size);

/* test_cpu_backend_threads.c's atomics, which test_workers runs on two workers. */
void check_atomics(int shared, int blocks, int threads);

/* The tests, by file: test_cpu_backend.c */
void test_bad_schedule(void **state);
/* test_cpu_backend_threads.c */
void test_indices(void **state);
void test_reduce(void **state);
void test_warp_ops(void **state);
void test_atomics(void **state);
void test_histogram(void **state);
void test_cooperative_groups(void **state);
/* test_cpu_backend_memory.c */
void test_reverse(void **state);
void test_early_return(void **state);
void test_transpose(void **state);
void test_pipeline(void **state);
void test_constants(void **state);
void test_stream_events(void **state);
void test_bad_launch(void **state);
void test_device(void **state);
void test_occupancy(void **state);
void test_pitched(void **state);
void test_host_side(void **state);
/* test_cpu_backend_textures.c */
void test_texture_float(void **state);
void test_texture_normalized(void **state);
void test_texture_elements(void **state);
/* test_cpu_backend_wrong.c */
void test_poison(void **state);
void test_missing_barrier(void **state);
void test_divergent_barrier(void **state);
void test_deadlock(void **state);
void test_strict(void **state);
void test_barrier_in_branch(void **state);
void test_mask_past_block(void **state);
void test_block_order(void **state);
void test_race_on_total(void **state);
void test_missing_fence(void **state);
void test_block_races(void **state);
void test_copy_kind(void **state);
void test_misaligned(void **state);
void test_assert(void **state);
void test_out_of_bounds(void **state);
void test_use_after_free(void **state);
/* test_cpu_backend_features.c */
void test_workers(void **state);
void test_work(void **state);
void test_window(void **state);

#endif
