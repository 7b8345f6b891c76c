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
// (fa_tensor_map) in place of Q, K and V, and 128 more threads; the
// backward's dK/dV kernel with a producer those of Q, dO and its L/D
// workspace (fa_tensor_map_box, as the manifest's launches describe them).
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

// Encodes a tensor map (CUtensorMap) of the row-major 4-D tensor at
// `tensor`, `dims` outermost first, with boxes of `box` elements (outermost
// first), zero fill past the tensor and the 128-byte swizzle when
// `swizzle128` (else none); `dtype` 0 is f16, 1 bf16, 2 f32. Copies it to
// device memory and returns that address through `device_map`, as the
// kernels take it (what fa-gpu-pipeline's host code asks
// mgpuTensorMapEncodeTiledMemref for); 0 on success.
int fa_tensor_map_box(CUdeviceptr tensor, const unsigned long long *dims,
                      const unsigned *box, int dtype, int swizzle128,
                      CUdeviceptr *device_map) {
  static const CUtensorMapDataType types[3] = {CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                                               CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
                                               CU_TENSOR_MAP_DATA_TYPE_FLOAT32};
  if (dtype < 0 || dtype > 2)
    return -1;
  cuuint64_t bytes = dtype == 2 ? 4 : 2;
  CUtensorMap map;
  // Innermost dimension first; strides in bytes for all but the first.
  cuuint64_t sizes[4] = {dims[3], dims[2], dims[1], dims[0]};
  cuuint64_t strides[3] = {dims[3] * bytes, dims[2] * dims[3] * bytes,
                           dims[1] * dims[2] * dims[3] * bytes};
  cuuint32_t boxes[4] = {box[3], box[2], box[1], box[0]};
  cuuint32_t element_strides[4] = {1, 1, 1, 1};
  int error = check(
      cuTensorMapEncodeTiled(
          &map, types[dtype], 4, (void *)tensor, sizes, strides, boxes,
          element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
          swizzle128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
          CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
      "cuTensorMapEncodeTiled");
  if (error)
    return error;
  error = check(cuMemAlloc(device_map, sizeof(map)), "cuMemAlloc");
  if (error)
    return error;
  return check(cuMemcpyHtoD(*device_map, &map, sizeof(map)), "cuMemcpyHtoD");
}

// The forward TMA producer kernel's maps: the row-major f16/bf16 tensor
// [b, h, n, d] at `tensor` with boxes of [1, 1, box_rows, 64] elements and
// the 128-byte swizzle (fa_tensor_map_box). `bf16` picks the element type.
int fa_tensor_map(CUdeviceptr tensor, unsigned long long b,
                  unsigned long long h, unsigned long long n,
                  unsigned long long d, unsigned box_rows, int bf16,
                  CUdeviceptr *device_map) {
  unsigned long long dims[4] = {b, h, n, d};
  unsigned box[4] = {1, 1, box_rows, 64};
  return fa_tensor_map_box(tensor, dims, box, bf16 ? 1 : 0, 1, device_map);
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
