/* Random data for tests and the lab driver: splitmix64, one stream per seed, so a seed
 * printed by a failing test or given to `labNN run --seed` draws the same data again. */
#ifndef RNG_H
#define RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rng {
    uint64_t state;
};

struct rng rng_new(uint64_t seed);
uint64_t rng_next(struct rng *r);
void rng_floats(struct rng *r, float *x, size_t n, float lo, float hi); /* uniform [lo, hi) */
void rng_ints(struct rng *r, int *x, size_t n, int lo, int hi);         /* uniform [lo, hi] */
void rng_bytes(struct rng *r, void *x, size_t n);

#ifdef __cplusplus
}
#endif
#endif
