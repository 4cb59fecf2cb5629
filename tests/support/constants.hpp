#pragma once
// Constants many tests use, defined once: test executables are unity builds, where a constant
// defined again in each file would be defined twice in one translation unit.
#include <numbers>

inline constexpr double kPi = std::numbers::pi;
inline constexpr double kG = 9.81;  // m/s^2, the gravity of the samples and of hand-built tests
