// fa_launch: a minimal CUDA driver API launcher for the cubins that
// fa-gpu-pipeline emits (format=bin). It is a shared library so that the
// benchmark script can hand it PyTorch's device pointers through ctypes and
// time it with CUDA events on PyTorch's stream: nothing else is needed on the
// GPU machine besides PyTorch and the driver.
//
// Kernel ABI (docs/GPU.md): one bare device pointer per buffer, in the order
// Q, K, V, [mask], O, [logsumexp]; grid (ceil(Nq / block_q), Hq, B); block
// (32 * warps); dynamic shared memory as the tile report states. The TMA
// producer kernel takes the addresses of Q's, K's and V's tensor maps
// (fa_tensor_map) in place of Q, K and V, and 128 more threads.
//
// Build: cc -O2 -shared -fPIC -I$CUDA/include fa_launch.c -o libfa_launch.so
//        -L$CUDA/lib64/stubs -lcuda

#include <cuda.h>
#include <stdio.h>

// Shared memory a block may use without opting in.
#define FA_STATIC_SHARED_LIMIT (48 * 1024)

static int check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return 0;
  const char *name = "unknown";
  cuGetErrorName(result, &name);
  fprintf(stderr, "fa_launch: %s failed: %s\n", what, name);
  return (int)result;
}

// Loads `kernel` from the cubin at `path` into the current (PyTorch's)
// context and allows it `shared_bytes` of dynamic shared memory. Returns the
// function handle through `function`; 0 on success.
int fa_load(const char *path, const char *kernel, unsigned shared_bytes,
            CUfunction *function) {
  CUmodule module;
  int error = check(cuModuleLoad(&module, path), "cuModuleLoad");
  if (error)
    return error;
  error = check(cuModuleGetFunction(function, module, kernel),
                "cuModuleGetFunction");
  if (error)
    return error;
  if (shared_bytes > FA_STATIC_SHARED_LIMIT)
    error =
        check(cuFuncSetAttribute(
                  *function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                  (int)shared_bytes),
              "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  return error;
}

// The TMA producer kernel (sm_90a, gpu_kernel "wgmma-tma-ws") reads Q, K
// and V through tensor maps (docs/GPU.md, kernel ABI): encodes one for the
// row-major f16/bf16 tensor [b, h, n, d] at `tensor` with boxes of
// [1, 1, box_rows, 64] elements, the 128-byte swizzle and zero fill past the
// tensor (what fa-gpu-pipeline's host code asks mgpuTensorMapEncodeTiledMemref
// for), copies it to device memory and returns that address through
// `device_map`, as the kernel takes it; 0 on success. `bf16` picks the
// element type.
int fa_tensor_map(CUdeviceptr tensor, unsigned long long b,
                  unsigned long long h, unsigned long long n,
                  unsigned long long d, unsigned box_rows, int bf16,
                  CUdeviceptr *device_map) {
  CUtensorMap map;
  // Innermost dimension first; strides in bytes for all but the first.
  cuuint64_t dims[4] = {d, n, h, b};
  cuuint64_t strides[3] = {d * 2, n * d * 2, h * n * d * 2};
  cuuint32_t box[4] = {64, box_rows, 1, 1};
  cuuint32_t element_strides[4] = {1, 1, 1, 1};
  int error = check(
      cuTensorMapEncodeTiled(
          &map,
          bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
               : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
          4, (void *)tensor, dims, strides, box, element_strides,
          CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
          CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
      "cuTensorMapEncodeTiled");
  if (error)
    return error;
  error = check(cuMemAlloc(device_map, sizeof(map)), "cuMemAlloc");
  if (error)
    return error;
  return check(cuMemcpyHtoD(*device_map, &map, sizeof(map)), "cuMemcpyHtoD");
}

// Launches `function` on `stream` with `count` device pointers as its
// parameters; 0 on success.
int fa_launch(CUfunction function, unsigned grid_x, unsigned grid_y,
              unsigned grid_z, unsigned block_x, unsigned shared_bytes,
              CUstream stream, CUdeviceptr *pointers, int count) {
  void *params[16];
  if (count > 16)
    return -1;
  for (int i = 0; i < count; ++i)
    params[i] = &pointers[i];
  return check(cuLaunchKernel(function, grid_x, grid_y, grid_z, block_x, 1, 1,
                              shared_bytes, stream, params, NULL),
               "cuLaunchKernel");
}
