#pragma once
// The one place that says how a loop joint's two frames move relative to each other (RBDA 8.3,
// Eqs. 8.13-8.15): its transform X_sp, the successor frame's velocity v_s, the joint velocity
// v_J = v_s - X_sp v_p and the relative acceleration a_rel = a_s - X_sp a_p, all in the loop
// joint's successor-frame coordinates, and the Baumgarte term of a constraint row (Eq. 8.22).
// Every consumer (loop constraints, the sparse method, drives on loop joints, loop-joint outputs
// and couplings) takes them from here.
#include "core/model/data.hpp"
#include "core/model/loop_joint.hpp"

namespace articula {

// How much of the relative motion to compute: Position (frames), Velocity (+ v_s, v_J), Bias
// (v_J and a_bias only: what constraint rows need) or Acceleration (everything).
enum class LoopLevel { Position, Velocity, Bias, Acceleration };

struct LoopMotion {
  Transform Xs;    // ^{s,k}X_0: base to successor frame              (Position)
  Transform X_sp;  // ^{s,k}X_{p,k}: predecessor to successor frame    (Position)
  Motion vs;       // successor frame's velocity, successor coords     (Velocity, Acceleration)
  Motion vJ;       // v_s - X_sp v_p, successor coords                 (Velocity and up)
  Motion a_rel;    // a_s - X_sp a_p, successor coords                 (Acceleration)
  // a_rel - v_s × v_J = X_s (a_s - a_p + v_s × v_p) in base terms: what the constraint force
  // directions T^T and a joint's S^+ see of the bodies' accelerations (RBDA Eq. 8.15). With the
  // velocity-product accelerations of the tree (q̈ = 0) this is the bias of the loop rows.
  Motion a_bias;  // (Bias, Acceleration)
};

// A successor body's base-coordinate velocity and acceleration kept between calls: loops that
// close on the same body (a Stewart platform's top plate) transform them once.
struct LoopMotionCache {
  int body = -1;
  bool has_a = false;
  Motion v, a;
};

// Needs data.X0 (Position), data.v (Velocity) and data.a (Acceleration) from the kinematics.
// The bodies' motions are differenced in base coordinates, or, with `origin`, in a base frame
// moved there (same axes): a mechanism far from the world origin then keeps its digits (RBDA
// 10.1). The results do not depend on it otherwise; a cache must be used with one origin.
void loop_motion(const Data& data, const LoopJoint& l, LoopLevel level, LoopMotion& out,
                 LoopMotionCache* cache = nullptr, const Vec3* origin = nullptr);
// Its two halves: the frames (Position), then the rates at `level` from the frames in out.
void loop_frames(const Data& data, const LoopJoint& l, LoopMotion& out);
void loop_rates(const Data& data, const LoopJoint& l, LoopLevel level, LoopMotion& out,
                LoopMotionCache* cache = nullptr, const Vec3* origin = nullptr);

// The coordinate of a 1-DoF loop joint (drives and couplings on loop joints): q from X_sp, the
// row P with q̇ = P^T v_J (P = S / |S|², successor coordinates), q̇, and the bias of its
// acceleration, q̈ = P^T a_rel - P^T (c_J + v_s × v_J) = (tree part) + bias (Position: q and P).
struct LoopCoordinate {
  double q = 0.0, qd = 0.0, bias = 0.0;
  Force P = Force::Zero();
};
void loop_coordinate(const LoopJoint& l, const LoopMotion& m, LoopLevel level, LoopCoordinate& out);

// ^{frame}X_0 of a frame fixed on a body (X_frame: ^{frame}X_body); body 0 is the base.
inline Transform frame_from_base(const Data& data, int body, const Transform& X_frame) {
  return body == 0 ? X_frame : X_frame * data.X0[body];
}

// Baumgarte stabilisation of one constraint row (RBDA Eq. 8.22): the acceleration-level right
// hand side loses 2α ė + β² e, with e the row's position error and ė its rate.
inline double baumgarte_term(double alpha, double beta, double rate, double error) {
  return 2 * alpha * rate + beta * beta * error;
}

}  // namespace articula
