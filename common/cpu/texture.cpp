// Textures and CUDA arrays of the CPU backend (the runtime's other parts: runtime.h says which).
#include "runtime.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>

using namespace cucc;

// ---------------------------------------------------------------------------------------------
// Textures: CUDA arrays are host memory, row after row; a texture object is a pointer to what the
// fetches need. Fetches follow the CUDA programming guide's texture fetching appendix, and what
// an H100 (CUDA 13.0) was seen to do: normalised coordinates cut to 21 fractional bits; texel
// centres at +0.5; wrap and mirror on the texel index (normalised coordinates only, else clamp);
// linear filtering weights in 256ths (the 2D corner's rounded, the others what is left); 8- and
// 16-bit unsigned normalised texels filtered in 16-bit fixed point, rounded once; float texels
// summed with more precision than fp32 (the H100 differs in the last bit of 1 fetch in 200).
// Linear filtering of signed normalised texels is close to the H100's, not bit for bit.
struct cudaArray {
    cudaChannelFormatDesc desc;
    size_t width, height, elem; // texels, rows, bytes per texel
    unsigned char *data;
};

namespace cucc {
struct Texture {
    cudaResourceDesc res;
    cudaTextureDesc desc;
    const unsigned char *data;
    size_t width, height, pitch; // texels, rows, bytes per row
    int channels, bytes;         // bytes per channel
    cudaChannelFormatKind kind;
    bool floats; // returns floats: a float format, or cudaReadModeNormalizedFloat
};
static std::mutex texture_mutex;
static std::map<cudaTextureObject_t, Texture *> textures;

// Channels and bytes per channel of a format, or 0 if the backend cannot sample it.
static int format(const cudaChannelFormatDesc &d, int *bytes)
{
    int bits[4] = {d.x, d.y, d.z, d.w}, n = 0;
    while (n < 4 && bits[n])
        n++;
    for (int c = 1; c < 4; c++)
        if (c < n ? bits[c] != bits[0] : bits[c] != 0)
            return 0;
    *bytes = bits[0] / 8;
    bool ok = d.f == cudaChannelFormatKindFloat
                  ? bits[0] == 32
                  : (d.f == cudaChannelFormatKindSigned || d.f == cudaChannelFormatKindUnsigned) &&
                        (bits[0] == 8 || bits[0] == 16 || bits[0] == 32);
    return ok && n != 3 ? n : 0;
}

// The texel index that address mode `mode` makes of i, or -1 for the border.
static long long address(long long i, long long n, cudaTextureAddressMode mode, bool normalized)
{
    if (!normalized && mode != cudaAddressModeBorder)
        mode = cudaAddressModeClamp;
    switch (mode) {
    case cudaAddressModeWrap:
        return (i % n + n) % n;
    case cudaAddressModeMirror: {
        long long m = (i % (2 * n) + 2 * n) % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
    case cudaAddressModeBorder:
        return i < 0 || i >= n ? -1 : i;
    default:
        return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

// Channel c of texel (i, j), as stored.
static long long raw(const Texture &t, long long i, long long j, int c)
{
    const unsigned char *p = t.data + j * t.pitch + i * t.channels * t.bytes + c * t.bytes;
    bool s = t.kind == cudaChannelFormatKindSigned;
    switch (t.bytes) {
    case 1:
        return s ? (long long)*(const signed char *)p : (long long)*p;
    case 2:
        return s ? (long long)*(const short *)p : (long long)*(const unsigned short *)p;
    default:
        return s ? (long long)*(const int *)p : (long long)*(const unsigned *)p;
    }
}
// The largest value of an integer channel: 1.0 once normalised.
static long long top(const Texture &t)
{
    return t.kind == cudaChannelFormatKindSigned ? (1ll << (8 * t.bytes - 1)) - 1
                                                 : (1ll << 8 * t.bytes) - 1;
}
// A channel of an integer texel, or of the border colour converted to the format (truncated).
static long long integer(const Texture &t, long long i, long long j, int c)
{
    if (i >= 0 && j >= 0)
        return raw(t, i, j, c);
    float lo = t.kind == cudaChannelFormatKindSigned ? -1.0f : 0.0f;
    return (long long)(std::min(std::max(t.desc.borderColor[c], lo), 1.0f) * (float)top(t));
}
static float value(const Texture &t, long long i, long long j, int c)
{
    if (t.kind != cudaChannelFormatKindFloat)
        return std::max((float)integer(t, i, j, c) / (float)top(t), -1.0f);
    if (i < 0 || j < 0)
        return t.desc.borderColor[c];
    float f;
    memcpy(&f, t.data + j * t.pitch + i * t.channels * 4 + c * 4, 4);
    return f;
}

void texture_fetch(cudaTextureObject_t obj, int dims, float x, float y, int index, void *out,
                   size_t size)
{
    const Texture &t = *(const Texture *)obj;
    unsigned char texel[16] = {};
    float f[4] = {};
    long long ix[2][2] = {{index, index}, {0, 0}};
    int w[2] = {0, 0}; // weights of the second texel, in 256ths
    bool linear = dims && t.desc.filterMode == cudaFilterModeLinear; // tex1Dfetch: no filtering
    for (int d = 0; d < dims; d++) { // normalised: 21 fractional bits (floor), scaled exactly
        long long n = d ? (long long)t.height : (long long)t.width;
        double u = d ? y : x;
        u = t.desc.normalizedCoords ? floor(u * (1 << 21)) / (1 << 21) * (double)n : u;
        u = linear ? u - 0.5 : u;
        u = std::isnan(u) ? 0.0 : std::min(std::max(u, -1e15), 1e15);
        double fl = floor(u);
        w[d] = linear ? (int)floor((u - fl) * 256.0 + 0.5) : 0;
        for (int k = 0; k < 2; k++)
            ix[d][k] =
                address((long long)fl + k, n, t.desc.addressMode[d], t.desc.normalizedCoords != 0);
    }
    if (dims == 0 && (index < 0 || (size_t)index >= t.width)) { // zero, whatever the border
        memset(out, 0, size);
        return;
    }
    if (!t.floats) { // point sampling of the element type: the texel's bytes, or the border
        for (int c = 0; c < t.channels; c++) { // colour's (the float's low bytes, as on an H100)
            long long v = 0;
            if (ix[0][0] < 0 || ix[1][0] < 0)
                memcpy(&v, &t.desc.borderColor[c], 4);
            else
                v = raw(t, ix[0][0], ix[1][0], c);
            memcpy(texel + c * t.bytes, &v, t.bytes);
        }
        memcpy(out, texel, std::min(size, sizeof texel));
        return;
    }
    // The texels' weights, in 256ths: in 2D the corner's is rounded and the others make up the rest.
    int corner = (w[0] * w[1] + 128) >> 8;
    int weight[4] = {256 - w[0], w[0], 0, 0};
    if (dims > 1)
        weight[0] = 256 - w[0] - w[1] + corner, weight[1] = w[0] - corner,
        weight[2] = w[1] - corner, weight[3] = corner;
    for (int c = 0; c < t.channels; c++) {
        if (!linear) {
            f[c] = value(t, ix[0][0], ix[1][0], c);
            continue;
        }
        long long fixed = 0; // unsigned: 16-bit texels (8-bit ones times 257), rounded once
        double sum = 0;      // floats and signed texels: the H100 sums with more than fp32's bits
        for (int k = 0; k < 4; k++) {
            if (!weight[k])
                continue;
            long long i = ix[0][k & 1], j = ix[1][k >> 1];
            if (t.kind == cudaChannelFormatKindUnsigned)
                fixed += integer(t, i, j, c) * (t.bytes == 1 ? 257 : 1) * weight[k];
            else
                sum += (t.kind == cudaChannelFormatKindFloat ? value(t, i, j, c)
                                                             : (double)integer(t, i, j, c)) *
                       weight[k];
        }
        if (t.kind == cudaChannelFormatKindUnsigned)
            f[c] = (float)((fixed + 128) >> 8) / 65535.0f;
        else if (t.kind == cudaChannelFormatKindSigned) // filtered before normalised: close to it
            f[c] = std::max((float)(sum / 256) / (float)top(t), -1.0f);
        else
            f[c] = (float)(sum / 256);
    }
    memcpy(out, f, std::min(size, sizeof f));
}
} // namespace cucc

extern "C" {
cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f)
{
    return {x, y, z, w, f};
}
cudaError_t cudaMallocArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, size_t width,
                            size_t height, unsigned int)
{
    int bytes, n;
    if (!array || !desc || !width)
        return fail(cudaErrorInvalidValue);
    if (!(n = format(*desc, &bytes)))
        return fail(cudaErrorInvalidChannelDescriptor);
    cudaArray *a = new cudaArray{*desc, width, height ? height : 1, (size_t)n * bytes, nullptr};
    if (cudaMalloc((void **)&a->data, a->width * a->height * a->elem))
        return delete a, fail(cudaErrorMemoryAllocation);
    *array = a;
    return cudaSuccess;
}
cudaError_t cudaFreeArray(cudaArray_t array)
{
    settle_all();
    if (!array)
        return cudaSuccess;
    cudaFree(array->data);
    delete array;
    return cudaSuccess;
}
cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    if (!desc || !array)
        return fail(cudaErrorInvalidValue);
    *desc = array->desc;
    return cudaSuccess;
}
// w_offset and width in bytes, h_offset and height in rows, as CUDA counts them.
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src,
                                size_t spitch, size_t width, size_t height, cudaMemcpyKind kind)
{
    Site site = take_site();
    size_t row = dst ? dst->width * dst->elem : 0;
    if (!dst || w_offset + width > row || h_offset + height > dst->height)
        return fail(cudaErrorInvalidValue);
    return copy(site, "cudaMemcpy2DToArray", dst->data + h_offset * row + w_offset, row, src,
                spitch, width, height, kind, 0, true);
}
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t w_offset,
                                  size_t h_offset, size_t width, size_t height, cudaMemcpyKind kind)
{
    Site site = take_site();
    size_t row = src ? src->width * src->elem : 0;
    if (!src || w_offset + width > row || h_offset + height > src->height)
        return fail(cudaErrorInvalidValue);
    return copy(site, "cudaMemcpy2DFromArray", dst, dpitch, src->data + h_offset * row + w_offset,
                row, width, height, kind, 0, true);
}
// The array as one run of bytes, row after row: where count bytes from (w_offset, h_offset)
// start in it, or SIZE_MAX where they do not fit.
static size_t array_run(cudaArray_const_t a, size_t w_offset, size_t h_offset, size_t count)
{
    size_t row = a ? a->width * a->elem : 0, at = h_offset * row + w_offset;
    return !a || w_offset >= row || at + count > row * a->height ? SIZE_MAX : at;
}
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src,
                              size_t count, cudaMemcpyKind kind)
{
    Site site = take_site();
    size_t at = array_run(dst, w_offset, h_offset, count);
    if (at == SIZE_MAX)
        return fail(cudaErrorInvalidValue);
    return copy(site, "cudaMemcpyToArray", dst->data + at, count, src, count, count, 1, kind, 0,
                true);
}
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                                size_t count, cudaMemcpyKind kind)
{
    Site site = take_site();
    size_t at = array_run(src, w_offset, h_offset, count);
    if (at == SIZE_MAX)
        return fail(cudaErrorInvalidValue);
    return copy(site, "cudaMemcpyFromArray", dst, count, src->data + at, count, count, 1, kind, 0,
                true);
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *texture, const cudaResourceDesc *resource,
                                    const cudaTextureDesc *desc, const cudaResourceViewDesc *)
{
    if (!texture || !resource || !desc)
        return fail(cudaErrorInvalidValue);
    Texture t;
    t.res = *resource, t.desc = *desc;
    cudaChannelFormatDesc f;
    switch (resource->resType) {
    case cudaResourceTypeArray: {
        const cudaArray *a = resource->res.array.array;
        if (!a)
            return fail(cudaErrorInvalidValue);
        f = a->desc, t.data = a->data, t.width = a->width, t.height = a->height;
        t.pitch = a->width * a->elem;
        break;
    }
    case cudaResourceTypeLinear:
        f = resource->res.linear.desc, t.data = (const unsigned char *)resource->res.linear.devPtr;
        t.height = 1, t.pitch = resource->res.linear.sizeInBytes;
        break;
    case cudaResourceTypePitch2D:
        f = resource->res.pitch2D.desc,
        t.data = (const unsigned char *)resource->res.pitch2D.devPtr;
        t.width = resource->res.pitch2D.width, t.height = resource->res.pitch2D.height;
        t.pitch = resource->res.pitch2D.pitchInBytes;
        break;
    default:
        return fail(cudaErrorInvalidValue);
    }
    if (!(t.channels = format(f, &t.bytes)))
        return fail(cudaErrorInvalidChannelDescriptor);
    if (resource->resType == cudaResourceTypeLinear)
        t.width = t.pitch / (t.channels * t.bytes);
    if (!t.data || !t.width || !t.height || t.pitch < t.width * t.channels * t.bytes)
        return fail(cudaErrorInvalidValue);
    t.kind = f.f;
    bool normalize = desc->readMode == cudaReadModeNormalizedFloat;
    if (normalize && t.kind != cudaChannelFormatKindFloat && t.bytes == 4)
        return fail(cudaErrorInvalidNormSetting);
    t.floats = t.kind == cudaChannelFormatKindFloat || normalize;
    if (desc->filterMode == cudaFilterModeLinear && !t.floats)
        return fail(cudaErrorInvalidFilterSetting);
    Texture *p = new Texture(t);
    *texture = (cudaTextureObject_t)p;
    std::lock_guard<std::mutex> lock(texture_mutex);
    textures[*texture] = p;
    return cudaSuccess;
}
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texture)
{
    std::lock_guard<std::mutex> lock(texture_mutex);
    auto it = textures.find(texture);
    if (it == textures.end())
        return fail(cudaErrorInvalidValue);
    delete it->second;
    textures.erase(it);
    return cudaSuccess;
}
cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc *resource,
                                             cudaTextureObject_t texture)
{
    std::lock_guard<std::mutex> lock(texture_mutex);
    auto it = textures.find(texture);
    if (!resource || it == textures.end())
        return fail(cudaErrorInvalidValue);
    *resource = it->second->res;
    return cudaSuccess;
}
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc *desc, cudaTextureObject_t texture)
{
    std::lock_guard<std::mutex> lock(texture_mutex);
    auto it = textures.find(texture);
    if (!desc || it == textures.end())
        return fail(cudaErrorInvalidValue);
    *desc = it->second->desc;
    return cudaSuccess;
}
}
