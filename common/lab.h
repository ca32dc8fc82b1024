/* Status codes shared by every lab's host API: launchers validate their arguments and
 * return one of these instead of crashing, so tests and graders can check bad input. */
#ifndef LAB_H
#define LAB_H

#ifdef __cplusplus
extern "C" {
#endif

enum lab_status {
    LAB_OK = 0,
    LAB_EINVAL = -1, /* an argument is NULL, too large or otherwise invalid */
    LAB_ECUDA = -2   /* a CUDA call or kernel launch failed (message already printed) */
};

const char *lab_strerror(int status);

#ifdef __cplusplus
}
#endif
#endif
