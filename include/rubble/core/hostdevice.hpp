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

// 1/sqrt(x) for x > 0 (callers mask x = 0). On the host the correctly rounded 1/std::sqrt
// (vectorised by the compiler). On the device the hardware approximation rsqrt.approx.f64
// (relative error about 2^-20, measured) refined by one third-order step: with
// r = 1 - x y^2, 1/sqrt(x) = y (1 - r)^(-1/2) = y (1 + r/2 + 3 r^2/8 + O(r^3)) (binomial series;
// cf. Markstein 2000, "IA-64 and Elementary Functions", ch. 9), so the error drops to
// O(r^3) ~ 2^-60, below rounding: at most 1 ulp (0.99 ulp measured on 4M arguments over
// e^-20..e^20, docs/gpu.md), in 5 double operations instead of the ~8 of CUDA's rsqrt; the
// GPU direct sum is bound by the FP64 pipe, and this makes it 12 % faster.
RUBBLE_HD RUBBLE_INLINE double inverse_sqrt(double x) {
#if defined(__CUDA_ARCH__)
    double y;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    const double r = fma(-x * y, y, 1.0);
    return fma(y, r * fma(0.375, r, 0.5), y);
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
