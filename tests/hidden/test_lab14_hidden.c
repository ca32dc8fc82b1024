/* lab14 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check what the visible tests leave open, a test per variant: rows of
 * windows one below, at and one above a multiple of the 4 windows of a warp, cascades one below,
 * at and one above a multiple of the 8 and 32 stages of a chunk and of compacted's 16 and 48
 * (three launches: its queue counters come round), the image 1 to 3 bytes past an aligned
 * start, and the outputs inside poison that must stay untouched. Points:
 * tests/hidden/lab14.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "detector.h"

enum { SPARE = 16 }; /* bytes (mask) and unsigneds (ran) of poison on either side */

static void check(int v, size_t width, size_t height, unsigned nstages, size_t shift)
{
    size_t windows = detector_windows(width, height), bad, all = windows + 2 * SPARE;
    const size_t x[] = {0, width - DETECTOR_WIN, width / 3}, y[] = {0, height - DETECTOR_WIN, 0};
    unsigned char *image = malloc(width * height), *mask = malloc(all), *want_mask = malloc(all);
    unsigned *ran = malloc(all * sizeof(unsigned)), *want_ran = malloc(all * sizeof(unsigned));
    struct detector_stage *cascade = malloc(nstages * sizeof *cascade);
    struct gpu_buf dimage = gpu_alloc(width * height + shift), dmask = gpu_alloc(all);
    struct gpu_buf dran = gpu_alloc(all * sizeof(unsigned));
    struct gpu_buf dcascade = gpu_alloc(nstages * sizeof *cascade);
    struct gpu_buf dscratch = gpu_alloc(detector_scratch_bytes(v, width, height));
    struct gpu_buf in = {(unsigned char *)dimage.ptr + shift, width * height};
    struct gpu_buf out_mask = {(unsigned char *)dmask.ptr + SPARE, windows};
    struct gpu_buf out_ran = {(unsigned *)dran.ptr + SPARE, windows * sizeof(unsigned)};
    testkit_case("%s, %zu x %zu, %u stages, image at +%zu bytes", detector_variants[v].name, width,
                 height, nstages, shift);
    detector_image(image, width, height, testkit_next(), x, y, 3);
    detector_cascade(cascade, nstages, testkit_next());
    gpu_upload(in, image, width * height);
    gpu_upload(dcascade, cascade, nstages * sizeof *cascade);
    gpu_poison(dmask);
    gpu_poison(dran);
    gpu_download(want_mask, dmask, all); /* the poison, where nothing may be written */
    gpu_download(want_ran, dran, all * sizeof(unsigned));
    detector_cpu(image, width, height, cascade, nstages, want_mask + SPARE, want_ran + SPARE);
    assert_status(detector(v, in, width, height, dcascade, nstages, out_mask, out_ran, dscratch),
                  LAB_OK);
    gpu_sync();
    gpu_download(mask, dmask, all);
    gpu_download(ran, dran, all * sizeof(unsigned));
    bad = lab_first_diff(mask, want_mask, all, 1);
    if (bad == all)
        bad = lab_first_diff(ran, want_ran, all, sizeof(unsigned));
    if (bad < all)
        fail_msg("%s, %zu x %zu, %u stages, image at +%zu: window %td: mask %u after %u stages, "
                 "want %u after %u",
                 detector_variants[v].name, width, height, nstages, shift, (ptrdiff_t)bad - SPARE,
                 mask[bad], ran[bad], want_mask[bad], want_ran[bad]);
    gpu_free(&dimage);
    gpu_free(&dmask);
    gpu_free(&dran);
    gpu_free(&dcascade);
    gpu_free(&dscratch);
    free(image);
    free(mask);
    free(want_mask);
    free(ran);
    free(want_ran);
    free(cascade);
}

static void chunk_edges(int v)
{
    static const unsigned stages[] = {7, 8, 9, 31, 32, 33}, launches[] = {15, 16, 17, 47, 48, 49};
    size_t k = 0;
    /* windows a row: 3, 4, 5 and 7, 8, 9, around a warp's 4 and two warps' 8 */
    for (size_t across = 3; across <= 9; across++, k++)
        if (across % 4 != 2)
            check(v, across + DETECTOR_WIN - 1, 16 + k % 3, stages[k % 6], k % 3 + 1);
    /* around compacted's chunk of 16 stages and its third launch */
    for (k = 0; k < 6; k++)
        check(v, 20 + k, 17 + k % 2, launches[k], k % 3 + 1);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(chunk_edges),
};

TESTKIT_MAIN("lab14_detector_hidden", tests, detector_variants, DETECTOR_VARIANTS)
