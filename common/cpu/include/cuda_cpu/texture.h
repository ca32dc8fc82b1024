/* Texture fetches for the CPU backend, with a GPU's addressing, filtering and conversions
   (texture.cpp), and cudaCreateChannelDesc<T>.
   A part of cuda_runtime.h, which includes it: include that. */
#ifndef CUDA_CPU_TEXTURE_H
#define CUDA_CPU_TEXTURE_H
#pragma GCC system_header
#ifndef CUDA_CPU_RUNTIME_H
#error "include <cuda_runtime.h>, not this part of it"
#endif

namespace cucc {
void texture_fetch(cudaTextureObject_t t, int dims, float x, float y, int index, void *out,
                   size_t size);
template <class T>
struct channels { /* what cudaCreateChannelDesc<T> describes */
    enum { n = 0, bits = 0 };
    static const cudaChannelFormatKind kind = cudaChannelFormatKindNone;
};
#define CUDA_CPU_CHANNELS(T, N, K)                   \
    template <>                                      \
    struct channels<T> {                             \
        enum { n = N, bits = 8 * sizeof(T) / N };    \
        static const cudaChannelFormatKind kind = K; \
    };
#define CUDA_CPU_CHANNEL_TYPES(T, V, K) \
    CUDA_CPU_CHANNELS(T, 1, K)          \
    CUDA_CPU_CHANNELS(V##1, 1, K)       \
    CUDA_CPU_CHANNELS(V##2, 2, K)       \
    CUDA_CPU_CHANNELS(V##4, 4, K)
CUDA_CPU_CHANNELS(char, 1,
                  (char)-1 < 0 ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned)
CUDA_CPU_CHANNEL_TYPES(signed char, char, cudaChannelFormatKindSigned)
CUDA_CPU_CHANNEL_TYPES(unsigned char, uchar, cudaChannelFormatKindUnsigned)
CUDA_CPU_CHANNEL_TYPES(short, short, cudaChannelFormatKindSigned)
CUDA_CPU_CHANNEL_TYPES(unsigned short, ushort, cudaChannelFormatKindUnsigned)
CUDA_CPU_CHANNEL_TYPES(int, int, cudaChannelFormatKindSigned)
CUDA_CPU_CHANNEL_TYPES(unsigned int, uint, cudaChannelFormatKindUnsigned)
CUDA_CPU_CHANNEL_TYPES(float, float, cudaChannelFormatKindFloat)
#undef CUDA_CPU_CHANNEL_TYPES
#undef CUDA_CPU_CHANNELS
} // namespace cucc
template <class T>
cudaChannelFormatDesc cudaCreateChannelDesc()
{
    typedef cucc::channels<T> c;
    return cudaCreateChannelDesc(c::bits, c::n > 1 ? c::bits : 0, c::n > 2 ? c::bits : 0,
                                 c::n > 3 ? c::bits : 0, c::kind);
}
template <class T>
T tex1Dfetch(cudaTextureObject_t t, int x)
{
    T v;
    cucc::texture_fetch(t, 0, 0, 0, x, &v, sizeof v);
    return v;
}
template <class T>
T tex1D(cudaTextureObject_t t, float x)
{
    T v;
    cucc::texture_fetch(t, 1, x, 0, 0, &v, sizeof v);
    return v;
}
template <class T>
T tex2D(cudaTextureObject_t t, float x, float y)
{
    T v;
    cucc::texture_fetch(t, 2, x, y, 0, &v, sizeof v);
    return v;
}
template <class T>
void tex1Dfetch(T *v, cudaTextureObject_t t, int x)
{
    *v = tex1Dfetch<T>(t, x);
}
template <class T>
void tex1D(T *v, cudaTextureObject_t t, float x)
{
    *v = tex1D<T>(t, x);
}
template <class T>
void tex2D(T *v, cudaTextureObject_t t, float x, float y)
{
    *v = tex2D<T>(t, x, y);
}
#endif
