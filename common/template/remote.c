/* lab{{NN}}'s host API across the grader's wall, described once (common/judge/remote_api.h):
 * each function of the lab's header that the tests call gets an X(...) line. */
#include "remote_api.h"
#include "{{id}}.h"

#define LAB_API(X) \
    X(int, {{id}}, VAL(enum {{id}}_variant, v), BUF(in), BUF(out), VAL(size_t, n))

REMOTE_LAB(LAB_API)
