/* The CPU backend's rewriter (common/cpu/rewrite.cpp) on constructs that a rewrite of characters
 * gets wrong. Valid CUDA: nvcc 13.0 builds it (-arch=sm_90). tests/test_cucc_rewrite.sh checks
 * the rewritten text (a line marked same is left as it is, one marked launch is a launch, the
 * lines stay where they are) and runs this program on the CPU backend, which checks results. */
#include <cmath>
#include <cstdio>
#include <cstring>

static int failures, checks;
static void check(bool ok, int line)
{
    checks++;
    failures += !ok;
    if (!ok)
        printf("test_cucc_rewrite.cu:%d: check failed\n", line);
}
#define CHECK(c) check((c), __LINE__)
/* A launch in a macro is rewritten (the line as a whole: #define bodies are code). */
#define LAUNCH_FILL(o, v) fill<int><<<1, 32>>>(o, v) /*launch*/
#define NOT_A_LAUNCH "k<<<1, 1>>>()"                 /*same*/

struct Pair {
    int a, b;
};
template <class T>
struct Box {
    T v;
};
template <class T, int N>
struct Array {
    T v[N];
};

template <bool B>
__global__ void pick(int *o)
{
    o[threadIdx.x] = B ? 1 : 2;
}
template <class T>
__global__ void fill(T *o, T v)
{
    o[threadIdx.x] = v;
}
namespace ns {
template <class T, int N>
__global__ void scale(T *o)
{
    o[threadIdx.x] *= N;
}
} // namespace ns
template <class T>
__global__ void count(int *o)
{
    o[threadIdx.x] = sizeof(T);
}
__global__ void add(int *o, int x, Pair p)
{
    o[threadIdx.x] = x + p.a * p.b;
}

/* Several names in one __shared__ declaration, 2D arrays: each name registered. */
__global__ void two(int *o)
{
    __shared__ int a[32], b[32];
    int t = threadIdx.x;
    a[t] = t;
    b[t] = 2 * t;
    __syncthreads();
    o[t] = a[31 - t] + b[t];
}
__global__ void tile(float *o)
{
    __shared__ float m[8][8], v[8];
    int x = threadIdx.x, y = threadIdx.y;
    m[y][x] = y * 8 + x;
    if (y == 0)
        v[x] = x;
    __syncthreads();
    o[y * 8 + x] = m[x][y] + v[y];
}
/* Registered static shared memory is poisoned before each block (0xff bytes), here only. */
__global__ void fresh(int *o)
{
    __shared__ int c[4], d[4];
    __shared__ float m[2][2], v[2];
    __shared__ Array<int, 2> w; // one name: the comma is the template's
    if (threadIdx.x == 0) {
        o[4 * blockIdx.x] = c[0] == -1;
        o[4 * blockIdx.x + 1] = d[3] == -1;
        o[4 * blockIdx.x + 2] = std::isnan(m[1][1]);
        o[4 * blockIdx.x + 3] = std::isnan(v[1]) && w.v[1] == -1;
        c[0] = d[3] = w.v[1] = 7;
        m[1][1] = v[1] = 7;
    }
}

extern __shared__ __align__(16) float4 dyn[];
__global__ void dynamic(float *o)
{
    extern __shared__ __align__(16) float4 s[];
    int t = threadIdx.x;
    s[t] = make_float4(t, 2 * t, 0, 0);
    __syncthreads();
    o[t] = dyn[31 - t].x + s[t].y;
}

template <class T>
__global__ void through_volatile(T *o)
{
    __shared__ T s[32];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    // clang-format off
    volatile T* const q = s; // as written, with the * on the type
    // clang-format on
    volatile int *p = (int *)o;
    p[t] = q[31 - t] + 1;
}

/* A launch inside a template function, of the template's own kernel. */
template <class T>
void fill_twice(T *o, T v)
{
    fill<T><<<1, 32>>>(o, v);     /*launch*/
    fill<T><<<1, 16>>>(o, v + v); /*launch*/
}

struct Shift {
    template <class T>
    int operator<<(T x) const
    {
        return (int)x * 2;
    }
};

int main()
{
    int *o, h[64];
    float *f, hf[64];
    cudaMalloc(&o, sizeof h);
    cudaMalloc(&f, sizeof hf);
    auto get = [&] { cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost); };
    auto getf = [&] { cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost); };

    // Each on one line, as written:
    // clang-format off
    // k<<<1, 1>>>(o) in a comment is not a launch                                /*same*/
    /* nor k<<<1, 1>>>(o) in this one */                                          /*same*/
    const char *s = R"(a "quoted" <<<not a launch>>> string)";                    /*same*/
    CHECK(strcmp(s, "a \"quoted\" <<<not a launch>>> string") == 0);
    const char *x = R"x(a )" and <<<k>>>( inside)x";                              /*same*/
    CHECK(strcmp(x, "a )\" and <<<k>>>( inside") == 0);
    const char *u = u8R"(<<<)" "<<<" "\"<<<";                                     /*same*/
    CHECK(strcmp(u, "<<<<<<\"<<<") == 0);
    const char *two_lines = R"(one <<<
two >>> ")";
    CHECK(strcmp(two_lines, "one <<<\ntwo >>> \"") == 0);
    CHECK('"' == 34 && '\'' == 39 && u8'a' == 97 && sizeof(L"<<<") == 4 * sizeof(wchar_t));
    CHECK(1'000'000 == 1000000 && 0x1.8p+1 == 3.0 && 0b1010'1010 == 170 && .5e1f == 5);
    CHECK((Shift().operator<<<int>(4)) == 8);                                     /*same*/
    // clang-format on

    pick<(3 > 2)><<<1, 32>>>(o);      /*launch*/
    pick<(1 > 2)><<<1, 32>>>(o + 32); /*launch*/
    get();
    CHECK(h[0] == 1 && h[31] == 1 && h[32] == 2 && h[63] == 2);

    fill<int><<<1, 64>>>(o, 1'000);    /*launch*/
    ns::scale<int, 4><<<1, 32>>>(o);   /*launch*/
    ::ns::scale<int, 2><<<1, 16>>>(o); /*launch*/
    get();
    CHECK(h[0] == 8000 && h[16] == 4000 && h[32] == 1000);

    count<Box<Box<double>>><<<1, 1>>>(o); /*launch*/
    get();
    CHECK(h[0] == sizeof(double));

    add<<<dim3{1, 1, 1}, dim3{32}>>>(
        o,
        [&] {
            int a = 3, b = 4;
            return a * b;
        }(),
        Pair{5, 6});
    get();
    CHECK(h[0] == 42 && h[31] == 42);

    // clang-format off
    fill<int>
        <<<1,
           64 >> 1>>>(o,
                      5);
    // clang-format on
    get();
    CHECK(h[0] == 5 && h[31] == 5 && h[32] == 1000);

    LAUNCH_FILL(o, 6);
    get();
    CHECK(h[0] == 6 && h[31] == 6);
    CHECK(strcmp(NOT_A_LAUNCH, "k<<<1, 1>>>()") == 0);

    fill_twice(o, 10);
    get();
    CHECK(h[0] == 20 && h[16] == 10);

    void (*fp)(int *, int) = fill<int>;
    (*fp)<<<1, 32>>>(o, 9); /*launch*/
    get();
    CHECK(h[0] == 9 && h[31] == 9);

    two<<<1, 32>>>(o); /*launch*/
    get();
    CHECK(h[0] == 31 && h[1] == 32 && h[31] == 62);

    tile<<<1, dim3(8, 8)>>>(f); /*launch*/
    getf();
    CHECK(hf[0] == 0 && hf[1] == 8 && hf[8] == 2 && hf[63] == 70);

    dynamic<<<1, 32, 32 * sizeof(float4)>>>(f); /*launch*/
    getf();
    CHECK(hf[0] == 31 && hf[1] == 32 && hf[31] == 62);

    through_volatile<int><<<1, 32>>>(o); /*launch*/
    get();
    CHECK(h[0] == 32 && h[31] == 1);

#ifdef CUDA_CPU_BACKEND
    fresh<<<2, 32>>>(o);
    get();
    for (int i = 0; i < 8; i++)
        CHECK(h[i] == 1);
#endif
    CHECK(cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess);
    cudaFree(o);
    cudaFree(f);
#ifdef REWRITE_BREAK
    not_declared_here = 1; /* test_cucc_rewrite.sh: the error must name this line */
#endif
    printf("test_cucc_rewrite: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
