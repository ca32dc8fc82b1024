/* lab00's bench rows: the variants of hello.h, each on a launch of about n threads in its own
 * number of dimensions, then the CPU working out place_1d's places, each checked place by
 * place against the CPU's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "host.h"

const struct lab_row extra_rows[ROWS - HELLO_VARIANTS] = {
    {"cpu (one core)", LAB_ROW_CPU, "the places of place_1d worked out on one CPU core"},
};

struct job {
    struct hello_shape grid[HELLO_VARIANTS], block[HELLO_VARIANTS];
    size_t most; /* threads of the largest launch: the buffers hold that many places */
    struct thread_place *got, *want;
    struct gpu_buf out;
};

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

/* About n threads in 1, 2 and 3 dimensions: rows of 256, squares of 16 x 16 blocks, cubes
 * of 8 x 8 x 4 blocks, each side rounded up to whole blocks. */
static void shapes(struct job *j, size_t n)
{
    unsigned side2 = (unsigned)ceil(sqrt((double)div_up(n, 256)));
    unsigned side3 = (unsigned)ceil(cbrt((double)div_up(n, 256)));
    j->block[HELLO_PLACE_1D] = (struct hello_shape){256, 1, 1};
    j->grid[HELLO_PLACE_1D] = (struct hello_shape){(unsigned)div_up(n, 256), 1, 1};
    j->block[HELLO_PLACE_2D] = (struct hello_shape){16, 16, 1};
    j->grid[HELLO_PLACE_2D] = (struct hello_shape){side2, side2, 1};
    j->block[HELLO_PLACE_3D] = (struct hello_shape){8, 8, 4};
    j->grid[HELLO_PLACE_3D] = (struct hello_shape){side3, side3, side3};
    for (int v = 0; v < HELLO_VARIANTS; v++) {
        size_t t = (size_t)hello_threads(j->grid[v], j->block[v]);
        j->most = t > j->most ? t : j->most;
    }
}

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    (void)seed; /* where a thread is depends on nothing random */
    if (!j)
        return NULL;
    shapes(j, s.n);
    j->got = gpu_host_alloc(j->most * sizeof(struct thread_place));
    j->want = gpu_host_alloc(j->most * sizeof(struct thread_place));
    j->out = gpu_alloc(j->most * sizeof(struct thread_place));
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->out);
    gpu_host_free(j->got);
    gpu_host_free(j->want);
    free(j);
}

static int launch(void *p, int row)
{
    struct job *j = p;
    if (row == CPU) {
        hello_places_cpu(j->grid[0], j->block[0], j->got);
        return LAB_OK;
    }
    return hello_places((enum hello_variant)row, j->grid[row], j->block[row], j->out);
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    size_t n = (size_t)hello_threads(j->grid[row], j->block[row]), bad;
    int status;
    gpu_poison(j->out);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    gpu_download(j->got, j->out, n * sizeof(struct thread_place));
    hello_places_cpu(j->grid[row], j->block[row], j->want);
    if ((bad = lab_first_diff(j->got, j->want, n, sizeof(struct thread_place))) == n)
        return LAB_OK;
    snprintf(why, why_size,
             "out[%zu] = {global %u, block %u, thread %u, warp %u, lane %u}, "
             "want {%u, %u, %u, %u, %u}",
             bad, j->got[bad].global, j->got[bad].block, j->got[bad].thread, j->got[bad].warp,
             j->got[bad].lane, j->want[bad].global, j->want[bad].block, j->want[bad].thread,
             j->want[bad].warp, j->want[bad].lane);
    return LAB_WRONG;
}

/* One place written per thread, nothing read. */
static double bytes(void *p, int row)
{
    struct job *j = p;
    int v = row == CPU ? 0 : row;
    return (double)sizeof(struct thread_place) * hello_threads(j->grid[v], j->block[v]);
}

const struct lab_job hello_job = {
    .setup = setup, .teardown = teardown, .launch = launch, .check = check, .bytes = bytes};
