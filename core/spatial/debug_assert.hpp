#pragma once
// Bounds checks for the raw-pointer kernels (paired columns, strided sums): on in Debug builds,
// compiled out under NDEBUG, so Release keeps the kernels' speed and a Debug or sanitizer run
// stops at the first out-of-range access instead of reading a neighbour's memory.
#include <cassert>

#define ARTICULA_DEBUG_ASSERT(condition) assert(condition)
