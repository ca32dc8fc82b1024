/* lab01's host side, as main.c uses it: what `run` prints first (experiments.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"

/* One launch of the float4 kernel timed by the host's clock and by the student's events. */
void intro(struct lab_size size, uint64_t seed);

#endif
