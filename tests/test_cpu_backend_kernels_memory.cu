/* Kernels of the portable tests of memory and the runtime API (tests/test_cpu_backend_memory.c;
 * read_dynamic serves test_poison too). */
#include <cuda_pipeline_primitives.h>
#include "test_cpu_backend_kernels_util.cuh"
#ifdef CUDA_CPU_BACKEND
#include <cuda_cpu.h>
#endif

/* ------------------------------------------------------------------ shared memory */
__global__ void reverse_static(int *data, int n)
{
    __shared__ int s[1024];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    data[t] = s[n - 1 - t];
}

__global__ void reverse_dynamic(int *data, int n)
{
    extern __shared__ int dyn[];
    int t = threadIdx.x;
    dyn[t] = data[t];
    __syncthreads();
    data[t] = dyn[n - 1 - t];
}

extern "C" int tk_reverse(int dynamic, int *data, int n)
{
    return on_device(data, n, [&](int *d) {
        if (dynamic)
            reverse_dynamic<<<1, n, n * sizeof(int)>>>(d, n);
        else
            reverse_static<<<1, n>>>(d, n);
    });
}

/* The dynamic shared memory the last launch asked for (cuda_cpu.h); -1 on a GPU. */
extern "C" long long tk_last_launch_smem(void)
{
#ifdef CUDA_CPU_BACKEND
    return cuda_cpu_last_launch_smem();
#else
    return -1;
#endif
}

/* Threads past n leave before the barrier: the others still meet at it. */
__global__ void early_return(int *data, int n)
{
    __shared__ int s[1024];
    int t = threadIdx.x;
    if (t >= n)
        return;
    s[t] = data[t] * 2;
    __syncthreads();
    data[t] = s[(t + 1) % n];
}

extern "C" int tk_early_return(int *data, int n, int threads)
{
    return on_device(data, n, [&](int *d) { early_return<<<1, threads>>>(d, n); });
}

/* Dynamic shared memory as the kernel finds it: the poison pattern on the CPU backend. */
__global__ void read_dynamic(int *out)
{
    extern __shared__ int dyn[];
    out[threadIdx.x] = dyn[threadIdx.x];
}

extern "C" int tk_read_dynamic(int *out, int n)
{
    return on_device(out, n, [&](int *d) { read_dynamic<<<1, n, n * sizeof(int)>>>(d); });
}

/* A 33 x 70 matrix through 32 x 33 tiles (padded: no bank conflicts on a GPU). */
__global__ void transpose(const int *in, int *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += blockDim.y)
        if (x < cols && y + k < rows)
            tile[threadIdx.y + k][threadIdx.x] = (float)in[(y + k) * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x, y = blockIdx.x * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += blockDim.y)
        if (x < rows && y + k < cols)
            out[(y + k) * rows + x] = (int)tile[threadIdx.x][threadIdx.y + k];
}

extern "C" int tk_transpose(int *m, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    int *t = NULL;
    TRY(cudaMalloc(&t, n * sizeof(int)));
    int e = on_device(m, n, [&](int *d) {
        transpose<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(d, t, rows, cols);
        cudaMemcpy(d, t, n * sizeof(int), cudaMemcpyDeviceToDevice);
    });
    cudaFree(t);
    return e;
}

/* ------------------------------------------------------------------ asynchronous copies */
/* cp.async (cuda_pipeline_primitives.h): 32 threads walk n ints 128 a step, each copying 16
 * bytes of them into one of 3 stages (zeros past n: zfill), the next two steps' groups in flight
 * while each thread adds the 4 ints that thread 31 - t copied: out[t]. wrong: 1 waits for one
 * group too few, 2 leaves out the barrier after the wait, 3 copies to a misaligned address. */
enum { PIPE_STAGES = 3 };

__device__ void pipe_copy(int (*stage)[128], const int *in, int n, int step, int wrong)
{
    int t = threadIdx.x, at = step * 128 + 4 * t, left = n - at;
    int bytes = left >= 4 ? 16 : left > 0 ? 4 * left : 0;
    __pipeline_memcpy_async(&stage[step % PIPE_STAGES][4 * t + (wrong == 3)], in + (bytes ? at : 0),
                            16, 16 - bytes);
}

__global__ void pipeline_sum(const int *in, int n, int *out, int wrong)
{
    __shared__ __align__(16) int stage[PIPE_STAGES][128];
    int t = threadIdx.x, steps = (n + 127) / 128, sum = 0;
    for (int s = 0; s < PIPE_STAGES - 1; s++) {
        if (s < steps)
            pipe_copy(stage, in, n, s, wrong);
        __pipeline_commit();
    }
    for (int s = 0; s < steps; s++) {
        __pipeline_wait_prior(wrong == 1 ? PIPE_STAGES - 1 : PIPE_STAGES - 2);
        if (wrong != 2)
            __syncthreads();
        if (s + PIPE_STAGES - 1 < steps)
            pipe_copy(stage, in, n, s + PIPE_STAGES - 1, wrong);
        __pipeline_commit();
        const int *c = stage[s % PIPE_STAGES] + 4 * (31 - t);
        sum += c[0] + c[1] + c[2] + c[3];
    }
    out[t] = sum;
}

extern "C" int tk_pipeline(const int *in, int n, int *out, int wrong)
{
    int *d = NULL;
    TRY(cudaMalloc(&d, n * sizeof(int)));
    TRY(cudaMemcpy(d, in, n * sizeof(int), cudaMemcpyHostToDevice));
    int e = on_device(out, 32, [&](int *o) { pipeline_sum<<<1, 32>>>(d, n, o, wrong); });
    cudaFree(d);
    return e;
}

/* ------------------------------------------------------------------ constant memory, runtime API */
__constant__ int coeffs[16];
__device__ int device_total;

__global__ void use_constants(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = data[i] * coeffs[i % 16] + __popc(i) + __clz(i + 1) + min(i, 7) + max(i, 3);
        atomicAdd(&device_total, 1);
    }
}

extern "C" int tk_constants(int *data, int n, const int *c16, int *total)
{
    int zero = 0;
    TRY(cudaMemcpyToSymbol(coeffs, c16, 16 * sizeof(int)));
    TRY(cudaMemcpyToSymbol(device_total, &zero, sizeof zero));
    int e = on_device(data, n, [&](int *d) { use_constants<<<(n + 63) / 64, 64>>>(d, n); });
    if (e)
        return e;
    int back[16];
    TRY(cudaMemcpyFromSymbol(back, coeffs, sizeof back));
    TRY(cudaMemcpyFromSymbol(total, device_total, sizeof *total));
    return memcmp(back, c16, sizeof back) ? -1 : 0;
}

__global__ void add_one(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += 1;
}

/* A stream runs its work in order: memset, kernel, kernel, copy back; timed by events. */
extern "C" int tk_stream(int *host, int n, float *ms)
{
    cudaStream_t s;
    cudaEvent_t a, b;
    int *d = NULL;
    TRY(cudaStreamCreate(&s));
    TRY(cudaEventCreate(&a));
    TRY(cudaEventCreate(&b));
    TRY(cudaMalloc(&d, n * sizeof(int)));
    TRY(cudaEventRecord(a, s));
    TRY(cudaMemsetAsync(d, 0, n * sizeof(int), s));
    add_one<<<(n + 127) / 128, 128, 0, s>>>(d, n);
    add_one<<<(n + 127) / 128, 128, 0, s>>>(d, n);
    TRY(cudaMemcpyAsync(host, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    TRY(cudaEventRecord(b, s));
    TRY(cudaStreamSynchronize(s));
    TRY(cudaEventSynchronize(b));
    TRY(cudaEventElapsedTime(ms, a, b));
    cudaFree(d);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaStreamDestroy(s);
    return 0;
}

/* What a GPU rejects at launch: returns cudaGetLastError's code, then whether it was cleared. */
extern "C" int tk_bad_launch(int which, int *cleared)
{
    int *d = NULL;
    TRY(cudaMalloc(&d, 64 * sizeof(int)));
    if (which == 0)
        add_one<<<1, 1025>>>(d, 64);
    if (which == 1)
        add_one<<<1, dim3(1, 1, 65)>>>(d, 64);
    if (which == 2)
        add_one<<<dim3(1, 65536), 32>>>(d, 64);
    if (which == 3)
        add_one<<<0, 32>>>(d, 64);
    if (which == 4)
        read_dynamic<<<1, 32, 200 * 1024>>>(d);
    int e = (int)cudaGetLastError();
    *cleared = cudaGetLastError() == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess;
    cudaFree(d);
    return e;
}

/* Device facts, as integers: see the test for the order. */
extern "C" int tk_sms(void)
{
    int sms = 0;
    return cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) ? -1 : sms;
}

extern "C" int tk_device(long long *out)
{
    cudaDeviceProp p;
    int count, v[9];
    TRY(cudaGetDeviceCount(&count));
    TRY(cudaGetDeviceProperties(&p, 0));
    cudaDeviceAttr attrs[9] = {cudaDevAttrMultiProcessorCount,
                               cudaDevAttrL2CacheSize,
                               cudaDevAttrMaxGridDimX,
                               cudaDevAttrMaxGridDimY,
                               cudaDevAttrMaxGridDimZ,
                               cudaDevAttrMaxThreadsPerBlock,
                               cudaDevAttrMaxSharedMemoryPerBlock,
                               cudaDevAttrMemoryClockRate,
                               cudaDevAttrGlobalMemoryBusWidth};
    for (int i = 0; i < 9; i++)
        TRY(cudaDeviceGetAttribute(&v[i], attrs[i], 0));
    int occupancy;
    TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, add_one, 256, 0));
    TRY(cudaFuncSetAttribute(read_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    long long r[] = {count,
                     p.warpSize,
                     p.maxThreadsPerBlock,
                     p.maxThreadsDim[0],
                     p.maxThreadsDim[2],
                     p.maxGridSize[0],
                     p.maxGridSize[1],
                     p.maxGridSize[2],
                     (long long)p.sharedMemPerBlock,
                     p.multiProcessorCount == v[0],
                     p.l2CacheSize == v[1],
                     p.maxGridSize[0] == v[2],
                     p.maxGridSize[1] == v[3],
                     p.maxGridSize[2] == v[4],
                     p.maxThreadsPerBlock == v[5],
                     (long long)p.sharedMemPerBlock == v[6],
                     v[7] > 0,
                     v[8] > 0,
                     occupancy > 0,
                     p.totalGlobalMem > 0,
                     p.major};
    memcpy(out, r, sizeof r);
    return 0;
}

/* The occupancy API and dynamic shared memory, for a kernel of its own (no other test raises
 * its limit): out[0] blocks of 256 threads without shared memory, out[1] with 80 KiB before
 * cudaFuncSetAttribute allows it, out[2] after. */
__global__ void occupy(int *data)
{
    if (data)
        data[threadIdx.x] = 0;
}

extern "C" int tk_occupancy(int *out)
{
    TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out[0], occupy, 256, 0));
    TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out[1], occupy, 256, 80 << 10));
    TRY(cudaFuncSetAttribute(occupy, cudaFuncAttributeMaxDynamicSharedMemorySize, 80 << 10));
    TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out[2], occupy, 256, 80 << 10));
    return 0;
}

/* ------------------------------------------------------------------ more of the runtime API */
/* Pitched rows, with a few intrinsics whose results are exact on a GPU too. */
__global__ void pitched(int *p, size_t pitch, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w)
        ((int *)((char *)p + y * pitch))[x] += (int)umin(x, 5u) + (int)umax(y, 2u) * 100 +
                                               (int)__expf(0.0f) * 10000 + (int)__logf(1.0f);
}

/* host[h][w] through cudaMallocPitch, cudaMemset2D and cudaMemcpy2D both ways. */
extern "C" int tk_pitched(int *host, int w, int h, size_t *pitch)
{
    int *d = NULL;
    TRY(cudaMallocPitch(&d, pitch, w * sizeof(int), h));
    TRY(cudaMemset2D(d, *pitch, 0xff, w * sizeof(int), h));
    TRY(cudaMemcpy2D(d, *pitch, host, w * sizeof(int), (w - 1) * sizeof(int), h,
                     cudaMemcpyHostToDevice));
    pitched<<<dim3((w + 31) / 32, h), 32>>>(d, *pitch, w);
    TRY(cudaGetLastError());
    TRY(cudaMemcpy2D(host, w * sizeof(int), d, *pitch, w * sizeof(int), h, cudaMemcpyDeviceToHost));
    return (int)cudaFree(d);
}

struct seen {
    int *managed;
    int callback, status, host_fn;
};
static void CUDART_CB on_callback(cudaStream_t, cudaError_t status, void *data)
{
    seen *s = (seen *)data;
    s->callback = s->managed[10], s->status = (int)status;
}
static void CUDART_CB on_host_fn(void *data)
{
    seen *s = (seen *)data;
    s->host_fn = s->managed[20];
}

/* Managed memory written by the host, a kernel, then a stream callback and a host function that
 * read it after the kernel; mapped host memory; the occupancy API. out: 8 ints. */
extern "C" int tk_host_side(int *out)
{
    enum { N = 1024 };
    seen s = {NULL, -1, -1, -1};
    cudaStream_t stream;
    TRY(cudaStreamCreate(&stream));
    TRY(cudaMallocManaged(&s.managed, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        s.managed[i] = i;
    add_one<<<N / 128, 128, 0, stream>>>(s.managed, N);
    TRY(cudaStreamAddCallback(stream, on_callback, &s, 0));
    TRY(cudaLaunchHostFunc(stream, on_host_fn, &s));
    TRY(cudaStreamSynchronize(stream));
    int *host = NULL, *mapped = NULL;
    if (posix_memalign((void **)&host, 4096, N * sizeof(int)))
        return -1;
    for (int i = 0; i < N; i++)
        host[i] = 2 * i;
    TRY(cudaHostRegister(host, N * sizeof(int), cudaHostRegisterMapped));
    TRY(cudaHostGetDevicePointer(&mapped, host, 0));
    add_one<<<N / 128, 128>>>(mapped, N);
    TRY(cudaDeviceSynchronize());
    int min_grid = 0, block = 0;
    TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, add_one, 0, 0));
    int r[8] = {s.callback, s.status,    s.host_fn, s.managed[N - 1],
                host[0],    host[N - 1], block,     min_grid};
    memcpy(out, r, sizeof r);
    TRY(cudaHostUnregister(host));
    free(host);
    TRY(cudaFree(s.managed));
    return (int)cudaStreamDestroy(stream);
}
