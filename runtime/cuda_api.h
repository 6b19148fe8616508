// The CUDA driver API declarations Kerb's runtime uses (never cudart, never linked:
// runtime/cuda_driver.cpp loads libcuda.so.1 with dlopen). With KERB_HAVE_CUDA_H this
// is just <cuda.h>; without it, a build without the CUDA toolkit still compiles: only
// the opaque handle types below are declared (spelled as in cuda.h), and the CUDA
// device is a stub that reports "no CUDA support".
#pragma once

#if defined(KERB_HAVE_CUDA_H)
#include <cuda.h>
#else
typedef unsigned long long CUdeviceptr;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmemPoolHandle_st *CUmemoryPool;
#endif
