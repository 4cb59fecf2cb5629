#pragma once
// Time simulation of a prepared mechanism. Trees: articulated-body hybrid dynamics (RBDA Table
// 9.3) with motion-driven joints as inverse-dynamics joints; closed loops arrive with issue 4.
#include <string>
#include <vector>

#include "core/model/data.hpp"
#include "core/sim/integrators.hpp"
#include "core/sim/mechanism.hpp"

namespace articula {

enum class Integrator { RK4, Euler };
// "rk4" or "euler"; throws std::invalid_argument listing the known names otherwise.
Integrator integrator_from_name(const std::string& name);

class Simulation {
 public:
  // Throws SetupError when the mechanism cannot be simulated.
  explicit Simulation(const Mechanism& mechanism);

  double time() const { return t_; }
  const VecX& q() const { return q_; }
  const VecX& qd() const { return qd_; }
  void step(double h, Integrator integrator);

  // Accelerations, generalized forces and joint wrenches at the current state. The wrench of
  // user joint j is the total force the parent exerts on the child through the joint, in child
  // joint-frame coordinates, [moment about the joint origin; force].
  void evaluate();
  const VecX& qdd() const { return qdd_; }
  const VecX& tau() const { return tau_; }
  const std::vector<Force>& wrench() const { return wrench_; }
  const Mechanism& mechanism() const { return mech_; }

 private:
  void accelerations(double t, const VecX& q, const VecX& v, VecX& qdd);
  void impose_motion_drives(double t, VecX& q, VecX& qd) const;

  const Mechanism& mech_;
  const Model& model_;
  Data data_;
  IntegratorWorkspace ws_;
  AccelerationFn f_;
  std::vector<bool> fd_;
  VecX q_, qd_, qdd_, tau_, tau_in_, qdd_in_;
  std::vector<Force> wrench_;
  double t_ = 0.0;
};

}  // namespace articula
