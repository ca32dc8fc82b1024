/* lab14 reference: the soft cascade on the CPU, window after window with the early exit, and
 * the synthetic problem (a cascade trained on an object, and images with the object planted
 * in noise). */
#include "detector.h"
#include "rng.h"

/* MARGIN: the grey levels by which the object tells a stage's pair apart; NOISE: the levels of
 * noise on a planted object; a stage's theta and weight at most MAX_THETA and MAX_WEIGHT; a
 * window must beat chance by 1/EDGE of each stage's weight to stay; the last stage asks for
 * half the object's confidence, less SLACK. */
enum { MARGIN = 48, NOISE = 8, MAX_THETA = 16, MAX_WEIGHT = 64, EDGE = 32, SLACK = 24 };

void detector_cpu_rows(const unsigned char *image, size_t width, size_t height,
                       const struct detector_stage *cascade, unsigned nstages, unsigned char *mask,
                       unsigned *ran, size_t row0, size_t rows)
{
    size_t across = width - DETECTOR_WIN + 1, down = height - DETECTOR_WIN + 1;
    if (!detector_windows(width, height))
        return;
    for (size_t wy = row0; wy < row0 + rows && wy < down; wy++)
        for (size_t wx = 0; wx < across; wx++) {
            const unsigned char *p = image + wy * width + wx;
            size_t w = wy * across + wx;
            int d = 0;
            unsigned t = 0;
            while (t < nstages) {
                const struct detector_stage *s = &cascade[t++];
                int f = p[s->a / DETECTOR_WIN * width + s->a % DETECTOR_WIN] -
                        p[s->b / DETECTOR_WIN * width + s->b % DETECTOR_WIN];
                d += f > s->theta ? s->weight : -s->weight;
                if (d < s->reject)
                    break;
            }
            mask[w] = d >= cascade[t - 1].reject;
            ran[w] = t;
        }
}

void detector_cpu(const unsigned char *image, size_t width, size_t height,
                  const struct detector_stage *cascade, unsigned nstages, unsigned char *mask,
                  unsigned *ran)
{
    detector_cpu_rows(image, width, height, cascade, nstages, mask, ran, 0, height);
}

/* The object: a 16 x 16 pattern of grey levels NOISE .. 255 - NOISE, so that its noise
 * never clips. */
static void object(unsigned char *pattern, uint64_t seed)
{
    struct rng r = rng_new(seed ^ 0x0b1ec7u);
    for (unsigned i = 0; i < DETECTOR_WIN * DETECTOR_WIN; i++)
        pattern[i] = (unsigned char)(NOISE + rng_next(&r) % (256 - 2 * NOISE));
}

/* Of the 65536 pairs of bytes (x, y), how many have x - y > theta: a stage's chance, in
 * 65536ths, to answer +weight on two pixels of noise. */
static int64_t pairs_above(int theta)
{
    int64_t n = 0;
    for (int d = theta < -255 ? -255 : theta + 1; d <= 255; d++)
        n += 256 - (d < 0 ? -d : d); /* x - y = d: 256 - |d| pairs */
    return n;
}

static int floor_div(int64_t x, int64_t y) /* y > 0 */
{
    return (int)(x >= 0 ? x / y : -((-x + y - 1) / y));
}

void detector_cascade(struct detector_stage *cascade, unsigned nstages, uint64_t seed)
{
    unsigned char pattern[DETECTOR_WIN * DETECTOR_WIN];
    struct rng r = rng_new(seed);
    int total = 0;
    int64_t bar = 0; /* the threshold so far, in 65536ths */
    object(pattern, seed);
    for (unsigned t = 0; t < nstages; t++) {
        struct detector_stage *s = &cascade[t];
        unsigned a, b;
        do { /* a pair the object tells apart by MARGIN: pattern[a] the brighter */
            a = (unsigned)(rng_next(&r) % (DETECTOR_WIN * DETECTOR_WIN));
            b = (unsigned)(rng_next(&r) % (DETECTOR_WIN * DETECTOR_WIN));
        } while (pattern[a] < pattern[b] + MARGIN);
        s->a = (unsigned char)a;
        s->b = (unsigned char)b;
        s->theta = (int)(rng_next(&r) % (MAX_THETA + 1));
        s->weight = (short)(1 + rng_next(&r) % MAX_WEIGHT);
        s->unused = 0;
        total += s->weight; /* the object's confidence: +weight at every stage */
        /* What noise expects from this stage, weight x (2 x chance - 1), and 1/EDGE more. */
        bar += (int64_t)s->weight * (2 * pairs_above(s->theta) - 65536 + 65536 / EDGE);
        s->reject = floor_div(bar, 65536);
    }
    if (nstages) /* the last stage: half the object's confidence, which noise never has */
        cascade[nstages - 1].reject = total / 2 - SLACK;
}

void detector_image(unsigned char *image, size_t width, size_t height, uint64_t seed,
                    const size_t *x, const size_t *y, size_t count)
{
    unsigned char pattern[DETECTOR_WIN * DETECTOR_WIN];
    struct rng r = rng_new(seed ^ 0x1a9eu);
    object(pattern, seed);
    rng_bytes(&r, image, width * height);
    for (size_t k = 0; k < count; k++)
        for (unsigned i = 0; i < DETECTOR_WIN * DETECTOR_WIN; i++) {
            int noise = (int)(rng_next(&r) % (2 * NOISE + 1)) - NOISE;
            image[(y[k] + i / DETECTOR_WIN) * width + x[k] + i % DETECTOR_WIN] =
                (unsigned char)(pattern[i] + noise);
        }
}
