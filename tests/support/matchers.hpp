#pragma once
#include <catch2/catch.hpp>
#include <sstream>

#include "core/spatial/types.hpp"

namespace articula::test {

// ‖a - b‖ / max(1, ‖b‖) — a relative error that does not blow up near zero.
template <class A, class B>
double rel_err(const A& a, const B& b) {
  return (a - b).norm() / std::max(1.0, static_cast<double>(b.norm()));
}

}  // namespace articula::test

// CHECK_CLOSE(a, b, tol): matrices agree to a relative tolerance; prints both on failure.
#define CHECK_CLOSE(a, b, tol)                                                      \
  do {                                                                              \
    const double err_ = ::articula::test::rel_err((a), (b));                        \
    INFO(#a " =\n" << (a) << "\n" #b " =\n" << (b) << "\nrelative error " << err_); \
    CHECK(err_ <= (tol));                                                           \
  } while (0)
