// Memory of the CPU backend: device memory is host memory, aligned as cudaMalloc aligns it and
// held to the machine's RAM; the runtime knows which memory is the device's and which either
// side may be, so that a copy whose kind contradicts its pointers is caught (README: Copies).
// Also memset, pinned and registered host memory, and the copies of __device__ variables.
#include "runtime.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <map>
#include <mutex>
#include <set>
#include <string>

namespace cucc {
// ---------------------------------------------------------------------------------------------
// Which memory is the device's.
static std::mutex mem_mutex;
static std::map<const void *, size_t> device_allocs;
// Memory that a copy may take as either side, as with unified addressing: managed, and pinned
// (page-locked) host memory; and the __device__ variables whose address the program asked for.
static std::map<const void *, size_t> managed_allocs, pinned_allocs, symbols;

enum Side { HOST, DEVICE, EITHER };
static bool within(const std::map<const void *, size_t> &m, const void *p)
{
    auto it = m.upper_bound(p);
    return it != m.begin() &&
           (const char *)p < (const char *)std::prev(it)->first + std::prev(it)->second;
}
static Side side_of(const void *p)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    if (within(managed_allocs, p) || within(pinned_allocs, p))
        return EITHER;
    return within(device_allocs, p) || within(symbols, p) || sparse_within(p) ? DEVICE : HOST;
}

void device_symbol(const void *p, size_t size)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    symbols[p] = size;
}

static __thread Site call_site;
Site take_site()
{
    Site s = call_site;
    call_site = {nullptr, 0};
    return s;
}

// A copy whose kind contradicts its pointers is undefined in CUDA (GPUs with unified addressing
// usually follow the pointers): a warning once per call site, or under CUDA_CPU_STRICT=1 an
// error each time, cudaErrorInvalidValue, the copy not done.
static cudaError_t check_kind(Site at, const char *api, Side dst, Side src, size_t count,
                              cudaMemcpyKind kind)
{
    if (!count || (unsigned)kind >= cudaMemcpyDefault)
        return cudaSuccess;
    bool bad_dst = dst != EITHER && (dst == DEVICE) != (kind == cudaMemcpyHostToDevice ||
                                                        kind == cudaMemcpyDeviceToDevice);
    bool bad_src = src != EITHER && (src == DEVICE) != (kind == cudaMemcpyDeviceToHost ||
                                                        kind == cudaMemcpyDeviceToDevice);
    if (!bad_dst && !bad_src)
        return cudaSuccess;
    static const char *kinds[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
                                  "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice"};
    auto memory = [](Side s) { return s == DEVICE ? "device memory" : "host memory"; };
    std::string why =
        std::string(api) +
        (at.file ? " at " + std::string(at.file) + ":" + std::to_string(at.line) : "") + ": " +
        kinds[kind] + ", but " + (bad_src ? std::string("the source is ") + memory(src) : "") +
        (bad_src && bad_dst ? " and " : "") +
        (bad_dst ? std::string("the destination is ") + memory(dst) : "") +
        "; CUDA leaves such a copy undefined (cudaMemcpyDefault follows the pointers)";
    if (strict_mode()) {
        fprintf(stderr, "cuda-cpu: %s (an error under CUDA_CPU_STRICT=1)\n", why.c_str());
        return fail(cudaErrorInvalidValue);
    }
    static std::mutex m;
    static std::set<std::pair<const void *, int>> warned;
    std::lock_guard<std::mutex> lock(m);
    if (warned.insert({at.file ? (const void *)at.file : api, at.line}).second)
        fprintf(stderr, "cuda-cpu: warning: %s\n", why.c_str());
    return cudaSuccess;
}

static const Work nothing = [] {};

// height rows of width bytes, each pitch bytes after the one before (1D: one row).
// Checked now; done when the stream runs it (sync: before it returns).
cudaError_t copy(Site at, const char *api, void *dst, size_t dpitch, const void *src, size_t spitch,
                 size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream, bool sync)
{
    if (dst && src) {
        cudaError_t e = check_kind(at, api, side_of(dst), side_of(src), width * height, kind);
        if (e)
            return e;
    }
    if ((unsigned)kind > cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection);
    if (width > dpitch || width > spitch)
        return fail(cudaErrorInvalidPitchValue);
    if (!width || !height)
        return sync ? submit(stream, nothing, true) : cudaSuccess;
    if (!dst || !src)
        return fail(cudaErrorInvalidValue);
    Work rows = [=] {
        for (size_t r = 0; r < height; r++) {
            race_bytes((const char *)src + r * spitch, width, false);
            race_bytes((char *)dst + r * dpitch, width, true);
            memcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
        }
    };
    return submit(stream, rows, sync);
}

cudaError_t symbol_copy(void *dst, const void *src, size_t count, size_t offset, size_t size,
                        cudaMemcpyKind kind, cudaMemcpyKind want)
{
    Site at = take_site();
    if (kind != want && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection);
    if (offset > size || count > size - offset)
        return fail(cudaErrorInvalidValue);
    bool to = want == cudaMemcpyHostToDevice;
    cudaError_t e = check_kind(at, to ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol",
                               to ? DEVICE : side_of(dst), to ? side_of(src) : DEVICE, count, kind);
    if (e)
        return e;
    Work bytes = [=] {
        memcpy(to ? (char *)dst + offset : dst, to ? src : (const char *)src + offset, count);
    };
    return submit(0, bytes, true);
}
} // namespace cucc

extern "C" void cuda_cpu_call_site(const char *file, int line)
{
    cucc::call_site = {file, line};
}

using namespace cucc;
extern "C" {
// The bytes of cudaMalloc and cudaMallocHost live, under mem_mutex: past this machine's
// memory an allocation is out of memory, as a GPU's is past its own (and before malloc,
// whose failure a sanitizer reports as an error of its own, or the kernel's OOM killer).
static size_t allocated;

static bool reserve(size_t size)
{
    size_t memory = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    std::lock_guard<std::mutex> lock(mem_mutex);
    if (size > memory || allocated > memory - size)
        return false;
    allocated += size;
    return true;
}
static void release(size_t size)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    allocated -= size;
}

cudaError_t cudaMalloc(void **ptr, size_t size)
{
    if (!ptr)
        return fail(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (!size)
        return cudaSuccess;
    if (!reserve(size))
        return fail(cudaErrorMemoryAllocation);
    if (posix_memalign(ptr, 256, size))
        return release(size), *ptr = nullptr, fail(cudaErrorMemoryAllocation);
    memset(*ptr, kPoison, size);
    std::lock_guard<std::mutex> lock(mem_mutex);
    device_allocs[*ptr] = size;
    return cudaSuccess;
}
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int)
{
    cudaError_t e = cudaMalloc(ptr, size);
    std::lock_guard<std::mutex> lock(mem_mutex);
    if (!e && *ptr)
        managed_allocs[*ptr] = size;
    return e;
}
// As on a GPU, a free waits for the device's work first.
cudaError_t cudaFree(void *ptr)
{
    settle_all();
    if (!ptr || sparse_free(ptr))
        return cudaSuccess;
    size_t size;
    {
        std::lock_guard<std::mutex> lock(mem_mutex);
        auto it = device_allocs.find(ptr);
        if (it == device_allocs.end())
            return fail(cudaErrorInvalidValue);
        size = it->second;
        device_allocs.erase(it);
        managed_allocs.erase(ptr);
    }
    memset(ptr, kPoison, size); // a use after free reads poison (ASan reports it outright)
    free(ptr);
    release(size);
    return cudaSuccess;
}
cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    if (!ptr)
        return fail(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (size && !reserve(size))
        return fail(cudaErrorMemoryAllocation);
    *ptr = size ? malloc(size) : nullptr;
    if (size && !*ptr)
        return release(size), fail(cudaErrorMemoryAllocation);
    std::lock_guard<std::mutex> lock(mem_mutex);
    if (*ptr)
        pinned_allocs[*ptr] = size;
    return cudaSuccess;
}
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int)
{
    return cudaMallocHost(ptr, size);
}
cudaError_t cudaFreeHost(void *ptr)
{
    settle_all();
    size_t size = 0;
    {
        std::lock_guard<std::mutex> lock(mem_mutex);
        auto it = pinned_allocs.find(ptr);
        if (it != pinned_allocs.end())
            size = it->second, pinned_allocs.erase(it);
    }
    free(ptr);
    release(size);
    return cudaSuccess;
}
// From pageable memory too the copy waits for its stream: CUDA says it "might be synchronous",
// so a program that reuses the memory before waiting may see it copied late.
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    called_from(__builtin_return_address(0));
    return copy(take_site(), "cudaMemcpyAsync", dst, count, src, count, count, 1, kind, stream,
                false);
}
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind)
{
    called_from(__builtin_return_address(0));
    return copy(take_site(), "cudaMemcpy", dst, count, src, count, count, 1, kind, 0, true);
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind)
{
    called_from(__builtin_return_address(0));
    return copy(take_site(), "cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind, 0,
                true);
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream)
{
    called_from(__builtin_return_address(0));
    return copy(take_site(), "cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind,
                stream, false);
}
// Asynchronous, as on a GPU (cudaMemset's too, for device memory).
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t stream)
{
    if (!count)
        return cudaSuccess;
    if (!ptr)
        return fail(cudaErrorInvalidValue);
    Work set = [=] {
        race_bytes(ptr, count, true);
        memset(ptr, value, count);
    };
    called_from(__builtin_return_address(0));
    return submit(stream, set, false);
}
cudaError_t cudaMemset(void *ptr, int value, size_t count)
{
    return cudaMemsetAsync(ptr, value, count, 0);
}
// Rows start at multiples of 512 bytes, as on current GPUs (an H100's texture alignment).
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    if (!ptr || !pitch)
        return fail(cudaErrorInvalidValue);
    *pitch = (width + 511) / 512 * 512;
    return cudaMalloc(ptr, *pitch * height);
}
cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height)
{
    if (width > pitch)
        return fail(cudaErrorInvalidPitchValue);
    Work rows = [=] {
        for (size_t r = 0; r < height; r++) {
            race_bytes((char *)ptr + r * pitch, width, true);
            memset((char *)ptr + r * pitch, value, width);
        }
    };
    return submit(0, rows, false);
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int)
{
    if (!ptr || !size)
        return fail(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(mem_mutex);
    auto next = pinned_allocs.lower_bound(ptr); // pinned memory in the range: as CUDA, refused
    if (within(pinned_allocs, ptr) ||
        (next != pinned_allocs.end() && (const char *)next->first < (const char *)ptr + size))
        return fail(cudaErrorHostMemoryAlreadyRegistered);
    pinned_allocs[ptr] = size;
    return cudaSuccess;
}
cudaError_t cudaHostUnregister(void *ptr)
{
    if (!ptr)
        return fail(cudaErrorInvalidValue);
    settle_all();
    std::lock_guard<std::mutex> lock(mem_mutex);
    pinned_allocs.erase(ptr);
    return cudaSuccess;
}
cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned int)
{
    if (!device || !host)
        return fail(cudaErrorInvalidValue);
    *device = host;
    return cudaSuccess;
}
// Managed memory is host memory here: the prefetch is ordered in its stream, and moves nothing.
cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream)
{
    bool to_device = location.type == cudaMemLocationTypeDevice && location.id == 0;
    if (!ptr || !count || flags || side_of(ptr) == HOST ||
        side_of((const char *)ptr + count - 1) == HOST ||
        !(to_device || location.type == cudaMemLocationTypeHost))
        return fail(cudaErrorInvalidValue);
    return submit(stream, nothing, false);
}
cudaError_t cudaMemAdvise(const void *ptr, size_t count, cudaMemoryAdvise advice,
                          cudaMemLocation location)
{
    if (!ptr || !count || advice < cudaMemAdviseSetReadMostly ||
        advice > cudaMemAdviseUnsetAccessedBy ||
        !(location.type == cudaMemLocationTypeHost || location.type == cudaMemLocationTypeDevice))
        return fail(cudaErrorInvalidValue);
    return cudaSuccess;
}
}
