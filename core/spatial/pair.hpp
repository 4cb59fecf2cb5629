#pragma once
// Two doubles as one value (the GCC/Clang vector extension: an SSE2 register on x86-64, a NEON
// one on arm64), for the short column updates of the constraint solves. Their matrices keep an
// even leading dimension with zero padding rows, so a column range rounded out to pairs stays in
// bounds and needs no scalar remainder: a loop of 3 to 15 rows costs its set-up and remainder
// code more than its arithmetic when the compiler vectorises it on its own.
#include <cstdint>

namespace articula {

using Pair = double __attribute__((vector_size(16)));

inline Pair load_pair(const double* p) {
  Pair v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline void store_pair(double* p, Pair v) { __builtin_memcpy(p, &v, sizeof v); }

// The smallest even number at least n: the leading dimension of a paired matrix with n rows.
inline int paired(int n) { return (n + 1) & ~1; }

// Bit p set when row 2p or 2p + 1 of z is nonzero, for the first `rows` rows (even, at most 128).
inline std::uint64_t nonzero_pairs(const double* z, int rows) {
  std::uint64_t mask = 0;
  for (int c = 0; c < rows; c += 2)
    mask |= static_cast<std::uint64_t>((z[c] != 0.0) | (z[c + 1] != 0.0)) << (c >> 1);
  return mask;
}

}  // namespace articula
