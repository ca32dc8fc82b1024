/* lab{{NN}} reference: the plain CPU loop. */
#include "{{id}}.h"

void {{id}}_cpu(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = 2.0f * in[i];
}
