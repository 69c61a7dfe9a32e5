// SPDX-License-Identifier: MIT
#pragma once
// RUBBLE_HD marks pure physics functions compiled for both the CPU and CUDA (STYLE.md), so the
// GPU kernels and the CPU unit tests run the same code.
#include <cmath>

#if defined(__CUDACC__)
#define RUBBLE_HD __host__ __device__
#else
#define RUBBLE_HD
#endif

// Forces inlining of small kernels, so that a caller compiled for a wider instruction set
// (target_clones, see tree_gravity.cpp) gets them compiled for that instruction set too.
#if defined(__CUDACC__)
#define RUBBLE_INLINE __forceinline__
#elif defined(__GNUC__)
#define RUBBLE_INLINE [[gnu::always_inline]] inline
#else
#define RUBBLE_INLINE inline
#endif

// 1/sqrt(x): on the host the correctly rounded 1/std::sqrt (vectorised by the compiler); on the
// device CUDA's double rsqrt (at most 1 ulp, CUDA C++ Programming Guide, Mathematical Functions),
// which avoids a double division in the force kernels.
RUBBLE_HD RUBBLE_INLINE double inverse_sqrt(double x) {
#if defined(__CUDA_ARCH__)
    return rsqrt(x);
#else
    return 1.0 / std::sqrt(x);
#endif
}

/// Single-precision twin (rsqrtf on the device) for the GPU tree's mixed-precision far field.
RUBBLE_HD RUBBLE_INLINE float inverse_sqrt(float x) {
#if defined(__CUDA_ARCH__)
    return rsqrtf(x);
#else
    return 1.0f / std::sqrt(x);
#endif
}
