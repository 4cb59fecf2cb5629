#pragma once
// Two doubles as one value (the GCC/Clang vector extension: an SSE2 register on x86-64, a NEON
// one on arm64), for the short column updates of the constraint solves. Their matrices keep an
// even leading dimension with zero padding rows, so a column range rounded out to pairs stays in
// bounds and needs no scalar remainder: a loop of 3 to 15 rows costs its set-up and remainder
// code more than its arithmetic when the compiler vectorises it on its own.
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace articula {

using Pair = double __attribute__((vector_size(16)));

inline Pair load_pair(const double* p) {
  Pair v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline void store_pair(double* p, Pair v) {
  __builtin_memcpy(p, &v, sizeof v);
}

// The smallest even number at least n: the leading dimension of a paired matrix with n rows.
inline int paired(int n) {
  return (n + 1) & ~1;
}

// Bit 0 set when x[0] is nonzero, bit 1 when x[1] is (one compare and one movemask with SSE2).
inline unsigned nonzero_bits(Pair x) {
#if defined(__SSE2__)
  return static_cast<unsigned>(_mm_movemask_pd(_mm_cmpneq_pd(x, _mm_setzero_pd())));
#else
  return static_cast<unsigned>(x[0] != 0.0) | static_cast<unsigned>(x[1] != 0.0) << 1;
#endif
}

}  // namespace articula
