// Streams, events and errors of the CPU backend. Everything runs when called, on the calling
// thread (launch.cpp), so streams are trivially in order, events see real elapsed times and a
// callback runs at once; what is left to order is a kernel's failure, reported by the launch
// and by the next synchronising call.
#include "runtime.h"
#include <chrono>

namespace cucc {
// ---------------------------------------------------------------------------------------------
// Errors. A kernel failure is reported by the launch (cudaGetLastError) and by the next
// synchronising call, whichever asks first. Unlike a GPU's, it is not sticky: the next test runs.
static thread_local cudaError_t last_error, async_error;

cudaError_t fail(cudaError_t e)
{
    if (e)
        last_error = e;
    return e;
}
cudaError_t sync_point()
{
    cudaError_t e = async_error;
    async_error = cudaSuccess;
    if (last_error == e)
        last_error = cudaSuccess;
    return e;
}
// A kernel's failure: for the launch's cudaGetLastError and the next synchronising call.
void launch_failed(cudaError_t e)
{
    async_error = fail(e);
}
} // namespace cucc

using namespace cucc;
static double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
struct CUstream_st {
    int flags;
};
struct CUevent_st {
    unsigned flags;
    double ms; // when recorded; negative before
};

extern "C" {
cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    if (async_error == e)
        async_error = cudaSuccess;
    return e;
}
cudaError_t cudaPeekAtLastError(void)
{
    return last_error;
}

static const struct {
    cudaError_t e;
    const char *name, *text;
} errors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidTexture, "cudaErrorInvalidTexture", "invalid texture reference"},
    {cudaErrorInvalidChannelDescriptor, "cudaErrorInvalidChannelDescriptor",
     "invalid channel descriptor"},
    {cudaErrorInvalidFilterSetting, "cudaErrorInvalidFilterSetting",
     "linear filtering not supported for non-float type"},
    {cudaErrorInvalidNormSetting, "cudaErrorInvalidNormSetting",
     "read as normalized float not supported for 32-bit non float type"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};
const char *cudaGetErrorString(cudaError_t e)
{
    for (auto &x : errors)
        if (x.e == e)
            return x.text;
    return "unrecognized error code";
}
const char *cudaGetErrorName(cudaError_t e)
{
    for (auto &x : errors)
        if (x.e == e)
            return x.name;
    return "cudaErrorUnknown";
}
cudaError_t cudaDeviceSynchronize(void)
{
    return sync_point();
}
cudaError_t cudaDeviceReset(void)
{
    last_error = async_error = cudaSuccess;
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    if (!stream)
        return fail(cudaErrorInvalidValue);
    *stream = new CUstream_st{(int)flags};
    return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    return cudaStreamCreateWithFlags(stream, 0);
}
cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    delete stream;
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t)
{
    return sync_point();
}
cudaError_t cudaStreamQuery(cudaStream_t)
{
    return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int)
{
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (!event)
        return fail(cudaErrorInvalidValue);
    *event = new CUevent_st{flags, -1};
    return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, 0);
}
cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    if (!event)
        return fail(cudaErrorInvalidResourceHandle);
    delete event;
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t)
{
    if (!event)
        return fail(cudaErrorInvalidResourceHandle);
    event->ms = now_ms();
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    if (!event)
        return fail(cudaErrorInvalidResourceHandle);
    return sync_point();
}
cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return event ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms)
        return fail(cudaErrorInvalidValue);
    if (!start || !end || start->ms < 0 || end->ms < 0 ||
        ((start->flags | end->flags) & cudaEventDisableTiming))
        return fail(cudaErrorInvalidResourceHandle);
    *ms = (float)(end->ms - start->ms);
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *user_data, unsigned int flags)
{
    if (!callback || flags)
        return fail(cudaErrorInvalidValue);
    callback(stream, async_error, user_data);
    return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t fn, void *user_data)
{
    if (!fn)
        return fail(cudaErrorInvalidValue);
    fn(user_data);
    return cudaSuccess;
}
}
