/* A lab's host API across the grader's wall, described once (tests/remote_labNN_*.c):
 *
 *   #define LAB_API(X) \
 *       X(int, reduce_sum, VAL(enum reduce_variant, v), BUF(in), VAL(size_t, n), BUF(out))
 *   REMOTE_LAB(LAB_API)
 *
 * X(RETURN, NAME, ARG...) is one function of the lab's header; each ARG is one of
 *   VAL(T, name)           an integer or enum T, passed by value
 *   BUF(name)              a struct gpu_buf
 *   BY_VALUE(T, name)      any other T passed by value (a small struct), sent as its bytes
 *   IN(T, name, count)     const T *name: count elements the call reads (NULL stays NULL)
 *   OUT(T, name, count)    T *name: count elements the call writes
 *   INOUT(T, name, count)  T *name: count elements the call reads and writes
 *   SIZE_IO(name)          size_t *name, read and written (may be NULL)
 * (count may name the other arguments; 1 to 12 arguments). In the judge, REMOTE_LAB defines
 * each function as a request to the worker (common/judge/judge.c); in the worker, a decoder
 * that calls the lab's own function, and the table of them (remote_lab_ops). The judge's
 * definitions must match the header's declarations, so a description that differs from the
 * header does not compile, and both sides take their wire format from the same description.
 * Functions that only a GPU build has go in a list defined empty on the CPU backend. */
#ifndef REMOTE_API_H
#define REMOTE_API_H

#include "remote.h"

#if defined(VAL) || defined(BUF) || defined(BY_VALUE) || defined(IN) || defined(OUT) || \
    defined(INOUT) || defined(SIZE_IO)
#error "remote_api.h: an argument kind's name is a macro here"
#endif

/* Each kind as (kind, type, name, count), whatever its own arguments. */
#define REMOTE_T_VAL(T, n) VAL, T, n, 1
#define REMOTE_T_BUF(n) BUF, struct gpu_buf, n, 1
#define REMOTE_T_BY_VALUE(T, n) BY_VALUE, T, n, 1
#define REMOTE_T_IN(T, n, c) IN, T, n, c
#define REMOTE_T_OUT(T, n, c) OUT, T, n, c
#define REMOTE_T_INOUT(T, n, c) INOUT, T, n, c
#define REMOTE_T_SIZE_IO(n) SIZE_IO, size_t, n, 1

/* ARG(JOB, k, x): JOB_kind(k, type, name, count) for argument x, the k-th. */
#define REMOTE_ARG(job, k, x) REMOTE_ARG2(job, k, REMOTE_T_##x)
#define REMOTE_ARG2(job, k, ...) REMOTE_ARG3(job, k, __VA_ARGS__)
#define REMOTE_ARG3(job, k, kind, T, n, c) job##_##kind(k, T, n, c)

/* The parameter as the header declares it. */
#define REMOTE_PARAM_VAL(k, T, n, c) T n
#define REMOTE_PARAM_BUF(k, T, n, c) T n
#define REMOTE_PARAM_BY_VALUE(k, T, n, c) T n
#define REMOTE_PARAM_IN(k, T, n, c) const T *n
#define REMOTE_PARAM_OUT(k, T, n, c) T *n
#define REMOTE_PARAM_INOUT(k, T, n, c) T *n
#define REMOTE_PARAM_SIZE_IO(k, T, n, c) size_t *n

/* Its letter on the wire (remote.h). */
#define REMOTE_FMT_VAL(k, T, n, c) "v"
#define REMOTE_FMT_BUF(k, T, n, c) "b"
#define REMOTE_FMT_BY_VALUE(k, T, n, c) "r"
#define REMOTE_FMT_IN(k, T, n, c) "r"
#define REMOTE_FMT_OUT(k, T, n, c) "o"
#define REMOTE_FMT_INOUT(k, T, n, c) "a"
#define REMOTE_FMT_SIZE_IO(k, T, n, c) "Z"

/* What the judge passes to remote_call for it, in the types its letter reads. */
#define REMOTE_ARRAY(n, T, c) (const void *)(n), (n) ? (size_t)(c) * sizeof(T) : (size_t)0
#define REMOTE_ENC_VAL(k, T, n, c) (long long)(n)
#define REMOTE_ENC_BUF(k, T, n, c) n
#define REMOTE_ENC_BY_VALUE(k, T, n, c) (const void *)&(n), sizeof(T)
#define REMOTE_ENC_IN(k, T, n, c) REMOTE_ARRAY(n, T, c)
#define REMOTE_ENC_OUT(k, T, n, c) REMOTE_ARRAY(n, T, c)
#define REMOTE_ENC_INOUT(k, T, n, c) REMOTE_ARRAY(n, T, c)
#define REMOTE_ENC_SIZE_IO(k, T, n, c) (size_t *)(n)

/* What the worker passes to the lab's function, from the decoded argument a[k]. */
#define REMOTE_DEC_VAL(k, T, n, c) (T) a[k].i
#define REMOTE_DEC_BUF(k, T, n, c) a[k].buf
#define REMOTE_DEC_BY_VALUE(k, T, n, c) (*(const T *)a[k].p)
#define REMOTE_DEC_IN(k, T, n, c) (const T *)a[k].p
#define REMOTE_DEC_OUT(k, T, n, c) (T *)a[k].p
#define REMOTE_DEC_INOUT(k, T, n, c) (T *)a[k].p
#define REMOTE_DEC_SIZE_IO(k, T, n, c) (size_t *)a[k].p

/* MAP(JOB, SEP, args...): JOB of each argument with its index, SEP() between them. */
#define REMOTE_COMMA() ,
#define REMOTE_NONE()
#define REMOTE_CAT(a, b) REMOTE_CAT2(a, b)
#define REMOTE_CAT2(a, b) a##b
#define REMOTE_COUNT(...) REMOTE_COUNT2(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define REMOTE_COUNT2(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, N, ...) N
#define REMOTE_MAP(j, s, ...) \
    REMOTE_CAT(REMOTE_MAP_, REMOTE_COUNT(__VA_ARGS__))(j, s, REMOTE_COUNT(__VA_ARGS__), __VA_ARGS__)
#define REMOTE_MAP_1(j, s, N, x) REMOTE_ARG(j, N - 1, x)
#define REMOTE_MAP_2(j, s, N, x, ...) REMOTE_ARG(j, N - 2, x) s() REMOTE_MAP_1(j, s, N, __VA_ARGS__)
#define REMOTE_MAP_3(j, s, N, x, ...) REMOTE_ARG(j, N - 3, x) s() REMOTE_MAP_2(j, s, N, __VA_ARGS__)
#define REMOTE_MAP_4(j, s, N, x, ...) REMOTE_ARG(j, N - 4, x) s() REMOTE_MAP_3(j, s, N, __VA_ARGS__)
#define REMOTE_MAP_5(j, s, N, x, ...) REMOTE_ARG(j, N - 5, x) s() REMOTE_MAP_4(j, s, N, __VA_ARGS__)
#define REMOTE_MAP_6(j, s, N, x, ...) REMOTE_ARG(j, N - 6, x) s() REMOTE_MAP_5(j, s, N, __VA_ARGS__)
#define REMOTE_MAP_7(j, s, N, x, ...) REMOTE_ARG(j, N - 7, x) s() REMOTE_MAP_6(j, s, N, __VA_ARGS__)
#define REMOTE_MAP_8(j, s, N, x, ...) REMOTE_ARG(j, N - 8, x) s() REMOTE_MAP_7(j, s, N, __VA_ARGS__)
#define REMOTE_MAP_9(j, s, N, x, ...) REMOTE_ARG(j, N - 9, x) s() REMOTE_MAP_8(j, s, N, __VA_ARGS__)
#define REMOTE_MAP_10(j, s, N, x, ...) \
    REMOTE_ARG(j, N - 10, x) s() REMOTE_MAP_9(j, s, N, __VA_ARGS__)
#define REMOTE_MAP_11(j, s, N, x, ...) \
    REMOTE_ARG(j, N - 11, x) s() REMOTE_MAP_10(j, s, N, __VA_ARGS__)
#define REMOTE_MAP_12(j, s, N, x, ...) \
    REMOTE_ARG(j, N - 12, x) s() REMOTE_MAP_11(j, s, N, __VA_ARGS__)

/* The judge's definition of one function: a request to the worker. */
#define REMOTE_STUB(RET, NAME, ...)                                                      \
    RET NAME(REMOTE_MAP(REMOTE_PARAM, REMOTE_COMMA, __VA_ARGS__))                        \
    {                                                                                    \
        return (RET)remote_call(#NAME, REMOTE_MAP(REMOTE_FMT, REMOTE_NONE, __VA_ARGS__), \
                                REMOTE_MAP(REMOTE_ENC, REMOTE_COMMA, __VA_ARGS__));      \
    }
/* The worker's decoder of one function, and its entry in the table. */
#define REMOTE_DECODER(RET, NAME, ...)                                             \
    static long long remote_call_##NAME(struct remote_arg *a)                      \
    {                                                                              \
        return (long long)NAME(REMOTE_MAP(REMOTE_DEC, REMOTE_COMMA, __VA_ARGS__)); \
    }
#define REMOTE_OP(RET, NAME, ...) \
    {#NAME, REMOTE_MAP(REMOTE_FMT, REMOTE_NONE, __VA_ARGS__), remote_call_##NAME},

/* A lab's library rows exist on a GPU only (library.cu): their lines go in REMOTE_GPU(...). */
#ifdef BACKEND_CUDA
#define REMOTE_GPU(...) __VA_ARGS__
#else
#define REMOTE_GPU(...)
#endif

#ifdef REMOTE_JUDGE
#define REMOTE_LAB(API) API(REMOTE_STUB)
#else
#define REMOTE_LAB(API)                                         \
    API(REMOTE_DECODER)                                         \
    const struct remote_op remote_lab_ops[] = {API(REMOTE_OP)}; \
    const size_t remote_lab_nops = sizeof remote_lab_ops / sizeof remote_lab_ops[0];
#endif

#endif
