/* splitmix64 (Steele, Lea and Flood, 2014): fast, and good enough for test data. */
#include "rng.h"

struct rng rng_new(uint64_t seed)
{
    struct rng r = {seed};
    return r;
}

uint64_t rng_next(struct rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void rng_floats(struct rng *r, float *x, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        x[i] = lo + (hi - lo) * (float)((rng_next(r) >> 40) / 16777216.0);
}

void rng_ints(struct rng *r, int *x, size_t n, int lo, int hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
    for (size_t i = 0; i < n; i++)
        x[i] = (int)(lo + (int64_t)(rng_next(r) % span));
}

void rng_bytes(struct rng *r, void *x, size_t n)
{
    unsigned char *b = x;
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(rng_next(r) >> 56);
}
