/* The CPU backend's math and intrinsics: min/max, rsqrtf, the _rn arithmetic, bit casts and
   conversions, __popc, __clz, __ffs, __brev, __mul24..., __ldg, clock64, __nanosleep.
   A part of cuda_runtime.h, which includes it: include that. */
#ifndef CUDA_CPU_INTRINSICS_H
#define CUDA_CPU_INTRINSICS_H
#pragma GCC system_header
#ifndef CUDA_CPU_RUNTIME_H
#error "include <cuda_runtime.h>, not this part of it"
#endif

/* Math and intrinsics: the fast approximations are the exact functions here (glibc already
   has __expf, __logf, __sinf, __cosf, __powf, ...). */
#define CUDA_CPU_MINMAX(T)        \
    static inline T min(T a, T b) \
    {                             \
        return a < b ? a : b;     \
    }                             \
    static inline T max(T a, T b) \
    {                             \
        return a > b ? a : b;     \
    }
CUDA_CPU_MINMAX(int);
CUDA_CPU_MINMAX(unsigned int);
CUDA_CPU_MINMAX(long);
CUDA_CPU_MINMAX(unsigned long);
CUDA_CPU_MINMAX(long long);
CUDA_CPU_MINMAX(unsigned long long);
CUDA_CPU_MINMAX(float);
CUDA_CPU_MINMAX(double);
#undef CUDA_CPU_MINMAX
static inline unsigned min(int a, unsigned b)
{
    return min((unsigned)a, b);
}
static inline unsigned min(unsigned a, int b)
{
    return min(a, (unsigned)b);
}
static inline unsigned max(int a, unsigned b)
{
    return max((unsigned)a, b);
}
static inline unsigned max(unsigned a, int b)
{
    return max(a, (unsigned)b);
}
static inline double min(float a, double b)
{
    return min((double)a, b);
}
static inline double min(double a, float b)
{
    return min(a, (double)b);
}
static inline double max(float a, double b)
{
    return max((double)a, b);
}
static inline double max(double a, float b)
{
    return max(a, (double)b);
}
#define CUDA_CPU_MINMAX(name, T, op) \
    static inline T name(T a, T b)   \
    {                                \
        return a op b ? a : b;       \
    }
CUDA_CPU_MINMAX(umin, unsigned int, <)
CUDA_CPU_MINMAX(umax, unsigned int, >)
CUDA_CPU_MINMAX(llmin, long long, <)
CUDA_CPU_MINMAX(llmax, long long, >)
CUDA_CPU_MINMAX(ullmin, unsigned long long, <)
CUDA_CPU_MINMAX(ullmax, unsigned long long, >)
#undef CUDA_CPU_MINMAX
static inline float rsqrtf(float x)
{
    return 1.0f / sqrtf(x);
}
static inline double rsqrt(double x)
{
    return 1.0 / sqrt(x);
}
static inline float __fdividef(float a, float b)
{
    return a / b;
}
static inline float fdividef(float a, float b)
{
    return a / b;
}
static inline float __saturatef(float x)
{
    return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}
static inline float __fadd_rn(float a, float b)
{
    return a + b;
}
static inline float __fsub_rn(float a, float b)
{
    return a - b;
}
static inline float __fmul_rn(float a, float b)
{
    return a * b;
}
static inline float __fdiv_rn(float a, float b)
{
    return a / b;
}
static inline float __frcp_rn(float a)
{
    return 1.0f / a;
}
static inline float __fsqrt_rn(float a)
{
    return sqrtf(a);
}
static inline float __fmaf_rn(float a, float b, float c)
{
    return fmaf(a, b, c);
}
static inline double __dadd_rn(double a, double b)
{
    return a + b;
}
static inline double __dmul_rn(double a, double b)
{
    return a * b;
}
static inline double __fma_rn(double a, double b, double c)
{
    return fma(a, b, c);
}
static inline int __float_as_int(float x)
{
    return cucc::unbits<int>(cucc::bits(x));
}
static inline unsigned __float_as_uint(float x)
{
    return cucc::unbits<unsigned>(cucc::bits(x));
}
static inline float __int_as_float(int x)
{
    return cucc::unbits<float>(cucc::bits(x));
}
static inline float __uint_as_float(unsigned x)
{
    return cucc::unbits<float>(cucc::bits(x));
}
static inline long long __double_as_longlong(double x)
{
    return cucc::unbits<long long>(cucc::bits(x));
}
static inline double __longlong_as_double(long long x)
{
    return cucc::unbits<double>(cucc::bits(x));
}
static inline int __float2int_rn(float x)
{
    return (int)nearbyintf(x);
}
static inline int __float2int_rz(float x)
{
    return (int)x;
}
static inline int __float2int_rd(float x)
{
    return (int)floorf(x);
}
static inline int __float2int_ru(float x)
{
    return (int)ceilf(x);
}
static inline unsigned __float2uint_rn(float x)
{
    return (unsigned)nearbyintf(x);
}
static inline float __int2float_rn(int x)
{
    return (float)x;
}
static inline float __uint2float_rn(unsigned x)
{
    return (float)x;
}
static inline int __double2int_rn(double x)
{
    return (int)nearbyint(x);
}
static inline int __popc(unsigned x)
{
    return __builtin_popcount(x);
}
static inline int __popcll(unsigned long long x)
{
    return __builtin_popcountll(x);
}
static inline int __clz(int x)
{
    return x ? __builtin_clz((unsigned)x) : 32;
}
static inline int __clzll(long long x)
{
    return x ? __builtin_clzll((unsigned long long)x) : 64;
}
static inline int __ffs(int x)
{
    return __builtin_ffs(x);
}
static inline int __ffsll(long long x)
{
    return __builtin_ffsll(x);
}
static inline unsigned __brev(unsigned x)
{
    x = (x >> 16) | (x << 16);
    x = ((x & 0xff00ff00u) >> 8) | ((x & 0x00ff00ffu) << 8);
    x = ((x & 0xf0f0f0f0u) >> 4) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x & 0xccccccccu) >> 2) | ((x & 0x33333333u) << 2);
    return ((x & 0xaaaaaaaau) >> 1) | ((x & 0x55555555u) << 1);
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
static inline int __mul24(int a, int b)
{
    return (int)((long long)(a << 8 >> 8) * (b << 8 >> 8));
}
static inline unsigned __umul24(unsigned a, unsigned b)
{
    return (a & 0xffffffu) * (b & 0xffffffu);
}
static inline int __mulhi(int a, int b)
{
    return (int)(((long long)a * b) >> 32);
}
static inline unsigned __umulhi(unsigned a, unsigned b)
{
    return (unsigned)(((unsigned long long)a * b) >> 32);
}
static inline long long __mul64hi(long long a, long long b)
{
    return (long long)(((__int128)a * b) >> 64);
}
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
template <class T>
static inline T __ldg(const T *p)
{
    return *p;
}
static inline long long clock64()
{
    return (long long)__builtin_ia32_rdtsc();
}
static inline void __nanosleep(unsigned ns)
{
    (void)ns;
    cucc::yield();
}
static inline void __trap()
{
    __builtin_trap();
}
#endif
