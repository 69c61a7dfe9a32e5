// SPDX-License-Identifier: MIT
#pragma once
// RUBBLE_HD marks pure physics functions compiled for both the CPU and CUDA (STYLE.md), so the
// GPU kernels and the CPU unit tests run the same code.
#include <cmath>
#include <cstdint>
#include <cstring>

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

// Host force kernels compiled for AVX-512, AVX2+FMA and baseline x86-64, chosen at run time
// by the CPU (GCC function multi-versioning); the physics they inline (RUBBLE_INLINE) is then
// compiled for each instruction set. On one machine the same version always runs, so results
// stay deterministic there.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) &&     \
    !defined(RUBBLE_NO_CLONES)
#define RUBBLE_TARGET_CLONES __attribute__((target_clones("avx512f", "arch=haswell", "default")))
#else
#define RUBBLE_TARGET_CLONES
#endif

// 1/sqrt(x) for normal x > 0 (callers mask x = 0). Both versions start from a low-precision
// guess y and refine it with third-order steps: with r = 1 - x y^2,
// 1/sqrt(x) = y (1 - r)^(-1/2) = y (1 + r/2 + 3 r^2/8 + O(r^3)) (binomial series; cf.
// Markstein 2000, "IA-64 and Elementary Functions", ch. 9), which cubes the relative error e
// (the neglected 5 r^3/16 ~ 2.5 e^3); a Newton step y (1 + r/2) squares it (1.5 e^2).
//
// Device: the hardware rsqrt.approx.f64 (relative error about 2^-20, measured) and one
// third-order step: at most 1 ulp (0.99 ulp measured on 4M arguments over e^-20..e^20,
// docs/gpu.md), in 5 double operations instead of the ~8 of CUDA's rsqrt; the GPU direct sum
// is bound by the FP64 pipe, and this makes it 12 % faster.
//
// Host: the integer guess of the "fast inverse square root" with the 64-bit constant
// 0x5FE6EB50C7B537A9 (Lomont 2003, "Fast inverse square root"; relative error <= 3.42 %),
// then two third-order steps (3.4e-2 -> 1.0e-4 -> 2.5e-12) and one Newton step (below
// rounding). 0.99 ulp at most on 4M arguments over e^-40..e^40, like the correctly rounded
// 1/std::sqrt, but only shifts, multiplies and adds, which every SIMD width has: the tree and
// direct kernels vectorise it 6x faster than a vector sqrt and divide (measured with AVX-512,
// docs/tree.md). No fused multiply-add, so the baseline x86-64 clone calls no library fma.
// Bit casts between double and its 64-bit pattern. GCC's builtin keeps the values out of
// memory, so loops around them still if-convert and vectorise (std::memcpy does not there, and
// std::bit_cast needs C++20, which nvcc's host pass may not have).
#if defined(__GNUC__) && !defined(__CUDACC__)
RUBBLE_INLINE std::uint64_t bit_cast_u64(double x) {
    return __builtin_bit_cast(std::uint64_t, x);
}
RUBBLE_INLINE double bit_cast_double(std::uint64_t u) {
    return __builtin_bit_cast(double, u);
}
#else
RUBBLE_INLINE std::uint64_t bit_cast_u64(double x) {
    std::uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}
RUBBLE_INLINE double bit_cast_double(std::uint64_t u) {
    double x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}
#endif

RUBBLE_HD RUBBLE_INLINE double inverse_sqrt(double x) {
#if defined(__CUDA_ARCH__)
    double y;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    const double r = fma(-x * y, y, 1.0);
    return fma(y, r * fma(0.375, r, 0.5), y);
#else
    double y = bit_cast_double(0x5FE6EB50C7B537A9ull - (bit_cast_u64(x) >> 1));
    double r = 1.0 - (x * y) * y;
    y = y + y * (r * (0.5 + 0.375 * r));
    r = 1.0 - (x * y) * y;
    y = y + y * (r * (0.5 + 0.375 * r));
    r = 1.0 - (x * y) * y;
    return y + y * (0.5 * r);
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
