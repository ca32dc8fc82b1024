/* lab12 reference: the transform on the CPU, each FMA rounded once, as the GPU's. */
#include <math.h>
#include "streams.h"

float streams_transform(float x, unsigned fmas)
{
    for (unsigned k = 0; k < fmas; k++)
        x = fmaf(x, STREAMS_A, STREAMS_B);
    return x;
}

/* The bench checks 2^26 elements of 512 FMAs: where the processor has an FMA instruction, a
 * clone that uses it (30 times faster than libm's fmaf called, and the same rounding). Not
 * under the sanitizers: a clone is picked by an ifunc resolver, which runs before their
 * runtimes start (ThreadSanitizer's build crashed at load). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_THREAD__) && \
    !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("fma", "default")))
#endif
void streams_cpu(const float *in, float *out, size_t n, unsigned fmas)
{
    for (size_t i = 0; i < n; i++)
        out[i] = streams_transform(in[i], fmas);
}
