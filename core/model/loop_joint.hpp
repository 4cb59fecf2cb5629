#pragma once
// Loop-closing joints of a closed-loop mechanism (RBDA 4.2 and 8.1): the joints left over once a
// spanning tree is chosen. Each constrains the relative motion of its predecessor and successor.
#include <string>
#include <vector>

#include "core/model/joint.hpp"

namespace articula {

struct LoopJoint {
  std::string name;
  Joint joint;
  int predecessor = 0;  // p(k): model body index (0 = base)
  int successor = 0;    // s(k)
  Transform X_P;        // ^{p(k),k} X_{p(k)}: predecessor body frame to joint predecessor frame
  Transform X_S;        // ^{s(k),k} X_{s(k)}: successor body frame to joint successor frame
  int row = 0;          // first of its nc() rows in K and k
  // Rows that are zero in every configuration (bit c: row `row + c`), e.g. the out-of-plane
  // rows of a loop in a planar mechanism: K and k are left zero there instead of computed.
  unsigned zero_rows = 0;
};

// Total number of constraint rows.
inline int constraint_rows(const std::vector<LoopJoint>& loops) {
  int n = 0;
  for (const LoopJoint& l : loops) n += l.joint.nc();
  return n;
}

}  // namespace articula
