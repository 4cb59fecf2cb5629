#pragma once
// The estimator's view of a mechanism (issue 20): a state x = (θ, θ̇) in independent coordinates
// (m tree coordinates, chosen by pivoted QR of the loop Jacobian's free columns at the assembled
// start, so the loops stay closed exactly: the dependent coordinates always come from a
// position solve to 1e-12 and K q̇ = 0), and the unknown drive forces u (joints with
// "drive": {"type": "unknown"}, held constant between knots). It maps (t, x, u) to the full
// state, propagates it by Articula's own simulation (RK4 at the file's step) and reads the
// sensors there (core/estimation/sensor_model.hpp).
#include <Eigen/QR>
#include <memory>
#include <string>
#include <vector>

#include "core/estimation/sensor_model.hpp"
#include "core/sim/simulation.hpp"

namespace articula {

class StateSpace {
 public:
  // Throws SetupError naming what the estimator cannot handle yet (couplings, limits,
  // contacts; a quaternion joint's rotation that the loops leave free, as the independent
  // coordinates θ are scalar: a spherical joint inside a loop, as a Stewart platform's, is
  // fine) or when the mechanism has no free coordinate. Joint friction
  // (Coulomb and viscous) is in the process model exactly as the simulator steps it: a joint at
  // rest sticks while its force stays within the Coulomb level, a stick within a step is an
  // event located in it, so the step is continuous but only piecewise smooth in θ̇ near 0.
  explicit StateSpace(const Mechanism& mech);  // the mechanism must outlive this

  int m() const { return static_cast<int>(independent_.size()); }  // independent coordinates
  int nu() const { return static_cast<int>(unknown_joints_.size()); }
  int nx() const { return 2 * m(); }                                          // θ, θ̇
  int nb() const { return nx() + nu(); }                                      // per knot: x then u
  const std::vector<int>& independent() const { return independent_; }        // model v indices
  const std::vector<int>& unknown_joints() const { return unknown_joints_; }  // user joints
  const Mechanism& mechanism() const { return mech_; }
  SensorModel& sensors() { return sensors_; }

  // x at a full state (θ = q[independent], θ̇ = qd[independent]).
  VecX state_of(const VecX& q, const VecX& qd) const;
  // Full (q, qd) at time t from x; q holds the previous guess on entry (the branch to stay on).
  // Throws SetupError when the loops cannot be closed there.
  void full_state(double t, const VecX& x, VecX& q, VecX& qd);
  // Per independent coordinate: the sensor column of an encoder reading it directly, or -1.
  std::vector<int> encoder_columns() const;
  // The simulation at (t, x, u), evaluated there as far as the sensors need (SensorModel::stage;
  // joint_states() q and q̇ always) (q holds the guess, as for full_state).
  const Simulation& place(double t, const VecX& xu, VecX& q);
  // From the last place() on to t_end with u held, in RK4 steps no longer than the file's: x there.
  VecX advance(double t_end);
  // The simulation after place() or propagate().
  Simulation& simulation() { return *sim_; }

 private:
  void choose_independent();
  bool close_loops(const VecX& theta, VecX& q);
  bool newton_close(const VecX& start, VecX& q);
  void move_dependent(const VecX& rhs, VecX& q);
  void factor_dependent(const VecX& q);
  void dependent_velocities(const VecX& q, VecX& qd);
  void set_forces(const VecX& xu);
  int q_of_v(int v) const;

  const Mechanism& mech_;
  Data data_;
  SensorModel sensors_;
  std::vector<int> independent_, unknown_joints_;
  std::vector<int> independent_q_;  // their position coordinates (scalar joints only)
  std::vector<bool> locked_;        // motion-driven or independent: held by the position solve
  std::vector<int> dependent_;      // the other coordinates (model v indices): the loops fix them
  // Workspace of the loop solves (sized on first use): δ, K, K's dependent columns and their
  // QR (K_d has full column rank by the choice of coordinates: no pivoting), kept with the q it
  // was made at (placements at one θ share it).
  VecX delta_, dq_, dv_;
  MatX K_, Kd_;
  Eigen::HouseholderQR<MatX> qr_;
  VecX qr_at_;
  // The last position solve: θ and the guess it started from, and the q it found (data_ is
  // still at it). The same θ from that guess or from that q is that q again: a Jacobian's θ̇ and u
  // columns place one θ from one guess, 2 nb - 2 m placements that solve no loops.
  VecX closed_theta_, closed_from_, closed_q_;
  std::unique_ptr<Simulation> sim_;
  VecX qd_;
  double step_ = 1e-3;
  bool quaternions_ = false;  // some joint has quaternion coordinates (nq != nv)
};

}  // namespace articula
