/* The texture fetches of tests/test_cpu_backend_textures.c. */
#include "test_cpu_backend_kernels_util.cuh"

/* ------------------------------------------------------------------ textures */
/* One fetch a thread, as `mode` says: 0 tex1Dfetch<float>, 1 tex1D<float>, 2 tex2D<float>,
 * 3 tex2D<float4>, 4 tex2D<int> (its bits), 5 tex2D<uchar4>. */
__global__ void fetch(cudaTextureObject_t t, int mode, const float *x, const float *y, float4 *out,
                      int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 r = make_float4(0, 0, 0, 0);
    if (mode == 0)
        r.x = tex1Dfetch<float>(t, (int)x[i]);
    if (mode == 1)
        r.x = tex1D<float>(t, x[i]);
    if (mode == 2)
        r.x = tex2D<float>(t, x[i], y[i]);
    if (mode == 3)
        r = tex2D<float4>(t, x[i], y[i]);
    if (mode == 4)
        r.x = __int_as_float(tex2D<int>(t, x[i], y[i]));
    if (mode == 5) {
        uchar4 v = tex2D<uchar4>(t, x[i], y[i]);
        r = make_float4(v.x, v.y, v.z, v.w);
    }
    out[i] = r;
}

/* A texture over w x h texels (h = 1 for 1D), fetched at n points into out (4 floats each).
 * cfg: resource (0 2D array, 1 1D array, 2 pitched memory, 3 linear memory), bits and channels
 * of a texel, cudaChannelFormatKind, address mode, filter mode, normalised coordinates, read
 * mode, fetch mode. Arrays are also read back: -2 if they do not hold the texels. */
extern "C" int tk_texture(const int cfg[9], float border, const void *texels, int w, int h,
                          const float *x, const float *y, int n, float *out)
{
    int bits = cfg[1], ch = cfg[2];
    size_t row = (size_t)w * bits / 8 * ch, pitch = row;
    cudaChannelFormatDesc f =
        cudaCreateChannelDesc(bits, ch > 1 ? bits : 0, ch > 2 ? bits : 0, ch > 3 ? bits : 0,
                              (cudaChannelFormatKind)cfg[3]);
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    cudaArray_t array = NULL;
    void *mem = NULL;
    if (cfg[0] <= 1) {
        TRY(cudaMallocArray(&array, &f, w, cfg[0] == 0 ? h : 0));
        TRY(cudaMemcpy2DToArray(array, 0, 0, texels, row, row, h, cudaMemcpyHostToDevice));
        res.resType = cudaResourceTypeArray;
        res.res.array.array = array;
    } else if (cfg[0] == 2) {
        TRY(cudaMallocPitch(&mem, &pitch, row, h));
        TRY(cudaMemcpy2D(mem, pitch, texels, row, row, h, cudaMemcpyHostToDevice));
        res.resType = cudaResourceTypePitch2D;
        res.res.pitch2D.devPtr = mem;
        res.res.pitch2D.desc = f;
        res.res.pitch2D.width = w, res.res.pitch2D.height = h;
        res.res.pitch2D.pitchInBytes = pitch;
    } else {
        TRY(cudaMalloc(&mem, row));
        TRY(cudaMemcpy(mem, texels, row, cudaMemcpyHostToDevice));
        res.resType = cudaResourceTypeLinear;
        res.res.linear.devPtr = mem;
        res.res.linear.desc = f;
        res.res.linear.sizeInBytes = row;
    }
    cudaTextureDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.addressMode[0] = desc.addressMode[1] = (cudaTextureAddressMode)cfg[4];
    desc.filterMode = (cudaTextureFilterMode)cfg[5];
    desc.normalizedCoords = cfg[6];
    desc.readMode = (cudaTextureReadMode)cfg[7];
    for (int c = 0; c < 4; c++)
        desc.borderColor[c] = border;
    cudaTextureObject_t t = 0;
    TRY(cudaCreateTextureObject(&t, &res, &desc, NULL));
    float *d_x = NULL, *d_y = NULL;
    float4 *d_out = NULL;
    TRY(cudaMalloc(&d_x, n * sizeof(float)));
    TRY(cudaMalloc(&d_y, n * sizeof(float)));
    TRY(cudaMalloc(&d_out, n * sizeof(float4)));
    TRY(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));
    TRY(cudaMemcpy(d_y, y, n * sizeof(float), cudaMemcpyHostToDevice));
    fetch<<<(n + 127) / 128, 128>>>(t, cfg[8], d_x, d_y, d_out, n);
    TRY(cudaGetLastError());
    TRY(cudaMemcpy(out, d_out, n * sizeof(float4), cudaMemcpyDeviceToHost));
    int e = 0;
    if (array) {
        cudaChannelFormatDesc g;
        char *back = (char *)malloc(row * h);
        TRY(cudaGetChannelDesc(&g, array));
        TRY(cudaMemcpy2DFromArray(back, row, array, 0, 0, row, h, cudaMemcpyDeviceToHost));
        if (memcmp(&g, &f, sizeof f) || memcmp(back, texels, row * h))
            e = -2;
        free(back);
    }
    TRY(cudaDestroyTextureObject(t));
    if (array)
        TRY(cudaFreeArray(array));
    if (mem)
        TRY(cudaFree(mem));
    TRY(cudaFree(d_x));
    TRY(cudaFree(d_y));
    TRY(cudaFree(d_out));
    return e;
}

/* What cudaCreateChannelDesc<T>() gives: x, y, z, w and kind of uchar4, short2, float, int1. */
extern "C" void tk_channel_descs(int out[20])
{
    cudaChannelFormatDesc d[4] = {cudaCreateChannelDesc<uchar4>(), cudaCreateChannelDesc<short2>(),
                                  cudaCreateChannelDesc<float>(), cudaCreateChannelDesc<int1>()};
    for (int k = 0; k < 4; k++) {
        int v[5] = {d[k].x, d[k].y, d[k].z, d[k].w, (int)d[k].f};
        memcpy(out + 5 * k, v, sizeof v);
    }
}

/* What cudaCreateTextureObject refuses: linear filtering of integers read as such, and 32-bit
 * integers read as normalised floats. */
extern "C" int tk_texture_refused(int which)
{
    cudaArray_t a = NULL;
    cudaChannelFormatDesc f = cudaCreateChannelDesc<int>();
    TRY(cudaMallocArray(&a, &f, 4));
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaTextureDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.filterMode = which == 0 ? cudaFilterModeLinear : cudaFilterModePoint;
    desc.readMode = which == 0 ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
    cudaTextureObject_t t = 0;
    int e = (int)cudaCreateTextureObject(&t, &res, &desc, NULL);
    cudaGetLastError();
    cudaFreeArray(a);
    return e;
}
