#pragma once
// sin and cos of one angle together, for the joint transforms of every algorithm (RBDA App. A:
// rz(q) needs both). glibc's sincos takes 50-160 instructions once |q| leaves [-0.86, 0.86]
// (table lookups and a general argument reduction); joint angles are moderate, so a
// Cody-Waite reduction by π/2 and the fdlibm minimax kernels (k_sin.c, k_cos.c; Sun
// Microsystems, freely redistributable) give both in about 40, accurate to ~1e-16 absolute.
#include <cmath>

namespace articula {

inline void sin_cos(double x, double& s, double& c) {
  if (!(std::abs(x) < 1e5)) {  // large or not finite: the library's full reduction
    s = std::sin(x);
    c = std::cos(x);
    return;
  }
  // y = x - k π/2 with π/2 = pio2_1 + pio2_1t: pio2_1 has 33 significant bits, so k pio2_1 is
  // exact for |k| < 2^20, and y is good to ~1e-16 absolute (fdlibm e_rem_pio2.c, medium case).
  constexpr double kTwoOverPi = 6.36619772367581382433e-01;
  constexpr double kPio2_1 = 1.57079632673412561417e+00, kPio2_1t = 6.07710050650619224932e-11;
  constexpr double kRound = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
  const double k = (x * kTwoOverPi + kRound) - kRound;  // nearest integer (no SSE4.1 roundsd)
  const double y = (x - k * kPio2_1) - k * kPio2_1t;
  const double z = y * y;
  // sin y = y + y^3 (S1 + z (S2 + ...)), cos y = 1 - z/2 + z^2 (C1 + ...), |y| <= π/4.
  constexpr double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
                   S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
                   S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
  constexpr double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
                   C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
                   C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
  const double sy = y + y * z * (S1 + z * (S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)))));
  const double cy =
      1.0 - (0.5 * z - z * z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6))))));
  switch (static_cast<long>(k) & 3) {  // the quadrant
    case 0:
      s = sy;
      c = cy;
      break;
    case 1:
      s = cy;
      c = -sy;
      break;
    case 2:
      s = -sy;
      c = -cy;
      break;
    default:
      s = -cy;
      c = sy;
      break;
  }
}

}  // namespace articula
