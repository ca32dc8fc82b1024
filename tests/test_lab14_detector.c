/* lab14 tests: every variant's mask and stage counts against the CPU reference, exactly
 * (integer arithmetic), on odd image sizes with objects planted at the borders and corners,
 * an image where nothing passes, a cascade that everything passes, and a single surviving
 * window; outputs poisoned before each run, compacted's scratch poisoned once and then
 * reused from run to run as the bench reuses it; bad arguments rejected. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "detector.h"

/* A stage count that is no multiple of a warp's 32, a group's 8 nor compacted's 16: the last
 * chunk is partial, and compacted's 19 launches go round its three queue counters six times. */
enum { STAGES = 300 };

/* Runs variant v on the problem in every thread order and compares with the reference. */
static void check(int v, const unsigned char *image, size_t width, size_t height,
                  const struct detector_stage *cascade, unsigned nstages, const char *what)
{
    size_t windows = detector_windows(width, height), across = width - DETECTOR_WIN + 1, bad;
    unsigned char *mask = malloc(windows + 1), *want_mask = malloc(windows + 1);
    unsigned *ran = malloc(windows * sizeof(unsigned) + 1);
    unsigned *want_ran = malloc(windows * sizeof(unsigned) + 1);
    struct gpu_buf dimage = gpu_alloc(width * height);
    struct gpu_buf dcascade = gpu_alloc(nstages * sizeof *cascade);
    struct gpu_buf dmask = gpu_alloc(windows), dran = gpu_alloc(windows * sizeof(unsigned));
    struct gpu_buf dscratch = gpu_alloc(detector_scratch_bytes(v, width, height));
    detector_cpu(image, width, height, cascade, nstages, want_mask, want_ran);
    gpu_upload(dimage, image, width * height);
    gpu_upload(dcascade, cascade, nstages * sizeof *cascade);
    for (int o = 0; o < testkit_orders(windows); o++) {
        testkit_set_order(o);
        testkit_case("%s, %s, %zu x %zu, %u stages, order %s", detector_variants[v].name, what,
                     width, height, nstages, testkit_order_name(o));
        gpu_poison(dmask);
        gpu_poison(dran);
        assert_status(detector(v, dimage, width, height, dcascade, nstages, dmask, dran, dscratch),
                      LAB_OK);
        gpu_sync();
        gpu_download(mask, dmask, windows);
        gpu_download(ran, dran, windows * sizeof(unsigned));
        bad = lab_first_diff(mask, want_mask, windows, 1);
        if (bad == windows)
            bad = lab_first_diff(ran, want_ran, windows, sizeof(unsigned));
        if (bad < windows)
            fail_msg("%s, %s, %zu x %zu, %u stages, order %s: window (%zu, %zu): mask %u after "
                     "%u stages, want %u after %u",
                     detector_variants[v].name, what, width, height, nstages, testkit_order_name(o),
                     bad % across, bad / across, mask[bad], ran[bad], want_mask[bad],
                     want_ran[bad]);
    }
    gpu_free(&dimage);
    gpu_free(&dcascade);
    gpu_free(&dmask);
    gpu_free(&dran);
    gpu_free(&dscratch);
    free(mask);
    free(want_mask);
    free(ran);
    free(want_ran);
}

/* A noise image with objects at its four corners and its middle, and the cascade that
 * accepts them (count 0: noise alone; 1: the bottom-right corner alone). */
static void problem(unsigned char *image, size_t width, size_t height,
                    struct detector_stage *cascade, unsigned nstages, uint64_t seed, size_t count)
{
    size_t right = width - DETECTOR_WIN, bottom = height - DETECTOR_WIN;
    const size_t x[] = {right, 0, right, 0, right / 2}, y[] = {bottom, 0, 0, bottom, bottom / 2};
    detector_image(image, width, height, seed, x, y, count);
    detector_cascade(cascade, nstages, seed);
}

static void matches_cpu(int v)
{
    static const size_t shapes[][2] = {{16, 16},  {17, 40},  {47, 33},
                                       {100, 61}, {131, 67}, {333, 211}};
    struct detector_stage cascade[STAGES];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t width = shapes[s][0], height = shapes[s][1];
        unsigned char *image = malloc(width * height);
        if (width * height > testkit_max_size()) {
            free(image);
            break;
        }
        problem(image, width, height, cascade, STAGES, testkit_next(), 5);
        check(v, image, width, height, cascade, STAGES, "objects at the corners");
        free(image);
    }
}

/* A flat image: every pixel pair differs by 0, no stage's theta is exceeded, and every
 * window falls within its first stages. */
static void nothing_passes(int v)
{
    enum { W = 61, H = 45 };
    static unsigned char image[W * H];
    struct detector_stage cascade[STAGES];
    memset(image, 0x80, sizeof image);
    detector_cascade(cascade, STAGES, testkit_next());
    check(v, image, W, H, cascade, STAGES, "a flat image");
}

/* Every threshold at the minimum: every window runs every stage and is accepted. 37 stages:
 * a partial chunk for both warp mappings. */
static void everything_passes(int v)
{
    enum { W = 53, H = 29, N = 37 };
    static unsigned char image[W * H];
    struct detector_stage cascade[N];
    problem(image, W, H, cascade, N, testkit_next(), 0);
    for (int t = 0; t < N; t++)
        cascade[t].reject = INT_MIN;
    check(v, image, W, H, cascade, N, "thresholds at INT_MIN");
}

/* Noise and one object, at the last window of the image: the one window accepted, after
 * the full cascade of 2048 stages. */
static void single_window(int v)
{
    enum { W = 71, H = 38, N = 2048 };
    static unsigned char image[W * H];
    static struct detector_stage cascade[N];
    problem(image, W, H, cascade, N, testkit_next(), 1);
    check(v, image, W, H, cascade, N, "one object");
}

/* A hand-made case, then the synthetic problem's promises: the planted objects pass the whole
 * cascade and nothing else does; most windows of noise fall within a few stages, a few percent
 * run a hundred or more (the hard negatives the warp mappings are about). */
static void reference_cpu(void)
{
    enum { W = 17, H = 16, N = 300, ACROSS = 85, DOWN = 46 };
    static unsigned char image[W * H], big[100 * 61], big_mask[ACROSS * DOWN];
    static unsigned big_ran[ACROSS * DOWN];
    static struct detector_stage cascade[N];
    struct detector_stage two[2] = {{0, 1, 5, 0, 0, 0}, {1, 0, 3, 0, 2, 0}};
    unsigned char mask[2];
    unsigned ran[2];
    size_t accepted = 0, early = 0, late = 0;
    image[1] = 10;
    detector_cpu(image, W, H, two, 2, mask, ran);
    assert_int_equal(mask[0], 0); /* p[0] - p[1] = -10: d = -5 < 0 at stage 0 */
    assert_int_equal(ran[0], 1);
    assert_int_equal(mask[1], 1); /* +10: d = 5, then p[1] - p[0] = -10: d = 5 - 3 = 2 */
    assert_int_equal(ran[1], 2);
    problem(big, 100, 61, cascade, N, 42, 5);
    detector_cpu(big, 100, 61, cascade, N, big_mask, big_ran);
    for (size_t w = 0; w < ACROSS * DOWN; w++) {
        accepted += big_mask[w];
        early += big_ran[w] <= 8;
        late += big_ran[w] >= 100 && !big_mask[w];
    }
    assert_true(big_mask[0] && big_mask[ACROSS - 1] && big_mask[ACROSS * (DOWN - 1)]);
    assert_true(big_mask[ACROSS * DOWN - 1] && big_ran[ACROSS * DOWN - 1] == N);
    assert_int_equal(accepted, 5);
    assert_true(early > ACROSS * DOWN * 2 / 3);
    assert_true(late > ACROSS * DOWN / 100);
}

static void args_rejected(void)
{
    struct gpu_buf image = gpu_alloc(40 * 30),
                   cascade = gpu_alloc(8 * sizeof(struct detector_stage));
    struct gpu_buf mask = gpu_alloc(25 * 15), ran = gpu_alloc(25 * 15 * sizeof(unsigned));
    struct gpu_buf scratch = gpu_alloc(detector_scratch_bytes(DETECTOR_COMPACTED, 40, 30));
    struct gpu_buf none = {NULL, 0}, small = {ran.ptr, ran.bytes - 1};
    struct gpu_buf short_scratch = {scratch.ptr, scratch.bytes - 1};
    /* compacted's: its counters and two queues of 8 bytes a window */
    assert_int_equal(detector_scratch_bytes(DETECTOR_COMPACTED, 40, 30), 16 + 2 * 8 * 25 * 15);
    assert_int_equal(detector_scratch_bytes(DETECTOR_COMPACTED, 15, 30), 0); /* no window */
    assert_int_equal(detector_scratch_bytes(DETECTOR_THREAD_PER_WINDOW, 40, 30), 0);
    assert_int_equal(detector_scratch_bytes(DETECTOR_VARIANTS, 40, 30), 0);
    for (int v = 0; v < DETECTOR_VARIANTS; v++) {
        assert_status(detector(v, none, 40, 30, cascade, 8, mask, ran, scratch), LAB_EINVAL);
        assert_status(detector(v, image, 40, 30, none, 8, mask, ran, scratch), LAB_EINVAL);
        assert_status(detector(v, image, 40, 30, cascade, 8, none, ran, scratch), LAB_EINVAL);
        assert_status(detector(v, image, 40, 30, cascade, 8, mask, none, scratch), LAB_EINVAL);
        assert_status(detector(v, image, 40, 31, cascade, 8, mask, ran, scratch), LAB_EINVAL);
        assert_status(detector(v, image, 40, 30, cascade, 9, mask, ran, scratch), LAB_EINVAL);
        assert_status(detector(v, image, 40, 30, cascade, 0, mask, ran, scratch), LAB_EINVAL);
        assert_status(detector(v, image, 40, 30, cascade, 8, mask, small, scratch), LAB_EINVAL);
        assert_status(detector(v, image, DETECTOR_MAX_SIDE + 1, 1, cascade, 8, mask, ran, scratch),
                      LAB_EINVAL);
        assert_status(detector(v, image, 15, 30, cascade, 8, mask, ran, none), LAB_OK); /* none */
        /* scratch: none, or one byte short, where the variant needs some */
        assert_status(detector(v, image, 40, 30, cascade, 8, mask, ran, none),
                      detector_scratch_bytes(v, 40, 30) ? LAB_EINVAL : LAB_OK);
        assert_status(detector(v, image, 40, 30, cascade, 8, mask, ran, short_scratch),
                      detector_scratch_bytes(v, 40, 30) ? LAB_EINVAL : LAB_OK);
    }
    assert_status(detector(DETECTOR_VARIANTS, image, 40, 30, cascade, 8, mask, ran, scratch),
                  LAB_EINVAL);
    gpu_sync();
    gpu_free(&image);
    gpu_free(&cascade);
    gpu_free(&mask);
    gpu_free(&ran);
    gpu_free(&scratch);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),  TESTKIT_GIVEN(args_rejected),    TESTKIT_VARIANTS(matches_cpu),
    TESTKIT_EACH(nothing_passes), TESTKIT_EACH(everything_passes), TESTKIT_EACH(single_window),
};

TESTKIT_MAIN("lab14_detector", tests, detector_variants, DETECTOR_VARIANTS)
