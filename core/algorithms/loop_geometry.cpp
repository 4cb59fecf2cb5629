#include "core/algorithms/loop_geometry.hpp"

#include "core/spatial/cross.hpp"

namespace articula {

namespace {
// ^iX_0' for a base frame 0' at `origin` (same axes as 0), or 0 itself.
Transform X0(const Data& data, int body, const Vec3* origin) {
  return origin ? Transform{data.X0[body].E, data.X0[body].r - *origin} : data.X0[body];
}
Motion base_velocity(const Data& data, int body, const Vec3* origin) {
  return body == 0 ? Motion::Zero() : X0(data, body, origin).inverse_apply(data.v[body]);
}
Motion base_acceleration(const Data& data, int body, const Vec3* origin) {
  return body == 0 ? Motion::Zero() : X0(data, body, origin).inverse_apply(data.a[body]);
}
}  // namespace

void loop_frames(const Data& data, const LoopJoint& l, LoopMotion& out) {
  out.Xs = frame_from_base(data, l.successor, l.X_S);
  out.X_sp = out.Xs * frame_from_base(data, l.predecessor, l.X_P).inverse();
}

void loop_rates(const Data& data, const LoopJoint& l, LoopLevel level, LoopMotion& out,
                LoopMotionCache* cache, const Vec3* origin) {
  // Base coordinates first: the difference of the two bodies' motions is formed where both are
  // expressed alike, then turned once into the successor frame.
  LoopMotionCache local;
  LoopMotionCache& s = cache ? *cache : local;
  const bool acc = level >= LoopLevel::Bias;
  if (s.body != l.successor || (acc && !s.has_a)) {
    s.body = l.successor;
    s.v = base_velocity(data, l.successor, origin);
    s.has_a = acc;
    if (acc) s.a = base_acceleration(data, l.successor, origin);
  }
  const Transform Xs = origin ? Transform{out.Xs.E, out.Xs.r - *origin} : out.Xs;
  const Motion vp = base_velocity(data, l.predecessor, origin);
  out.vJ = Xs.apply(Motion(s.v - vp));
  if (level != LoopLevel::Bias) out.vs = Xs.apply(s.v);
  if (!acc) return;
  const Motion ap = base_acceleration(data, l.predecessor, origin);
  const Motion vxv = cross_motion(s.v, vp);
  Motion d, b;  // element by element: Eigen's 2-wide loads of just stored terms would stall
  for (int e = 0; e < 6; ++e) d[e] = s.a[e] - ap[e], b[e] = d[e] + vxv[e];
  out.a_bias = Xs.apply(b);
  if (level == LoopLevel::Acceleration) out.a_rel = Xs.apply(d);
}

void loop_motion(const Data& data, const LoopJoint& l, LoopLevel level, LoopMotion& out,
                 LoopMotionCache* cache, const Vec3* origin) {
  loop_frames(data, l, out);
  if (level != LoopLevel::Position) loop_rates(data, l, level, out, cache, origin);
}

void loop_coordinate(const LoopJoint& l, const LoopMotion& m, LoopLevel level,
                     LoopCoordinate& out) {
  joint_coordinates(l.joint, m.X_sp, &out.q);
  JointCalc jc;
  const double zero = 0.0;
  jcalc(l.joint, &out.q, &zero, jc);
  const Motion S = jc.S.col(0);
  out.P = S / S.squaredNorm();  // q̇_l = S^+ v_J
  if (level == LoopLevel::Position) return;
  out.qd = out.P.dot(m.vJ);
  if (level == LoopLevel::Velocity) return;  // Bias and Acceleration have a_bias
  jcalc(l.joint, &out.q, &out.qd, jc);
  out.bias = out.P.dot(Motion(m.a_bias - jc.cJ));  // a_s = X a_p + S q̈ + c_J + v_s × v_J
}

}  // namespace articula
