// fa_launch: a minimal CUDA driver API launcher for the cubins that
// fa-gpu-pipeline emits (format=bin). It is a shared library so that the
// benchmark script can hand it PyTorch's device pointers through ctypes and
// time it with CUDA events on PyTorch's stream: nothing else is needed on the
// GPU machine besides PyTorch and the driver.
//
// Kernel ABI (docs/GPU.md): one bare device pointer per buffer, in the order
// Q, K, V, [mask], O, [logsumexp]; grid (ceil(Nq / block_q), Hq, B); block
// (32 * warps); dynamic shared memory as the tile report states.
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
