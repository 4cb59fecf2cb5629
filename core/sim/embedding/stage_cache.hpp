#pragma once
// The last embedded evaluation, remembered (issue 18). In minimal coordinates the closed state,
// the accelerations and the power at a stage are functions of t and the independent coordinates
// and velocities alone (the dependent ones are solved from them, the prescribed ones from the
// laws), and the integrators ask for the same point more than once: RK4's and Euler's first stage
// is the state the last step was closed at, Dormand-Prince's first stage is its last (FSAL), and
// when drives prescribe every degree of freedom (the Stewart platform) there are no independent
// coordinates, so RK4's two midpoint stages coincide and so do a step's last stage and its end.
// A hit returns what the evaluation gave, bit for bit; the key is compared bit for bit too.
#include <vector>

#include "core/model/model.hpp"
#include "core/spatial/types.hpp"

namespace articula {

class EmbeddedStageCache {
 public:
  // The key's coordinates: the independent velocity coordinates `independent` (increasing) and
  // their position coordinates in q. Forgets what was remembered.
  void reset(const Model& model, const std::vector<int>& independent);
  void clear() { closed_ = accelerations_ = false; }

  // Closed state: true when (t, q, qd) has the remembered key; q, qd then receive the closed
  // state. remember_closed(t, q, qd) stores a closed state (its key read from it: closing does
  // not change the independent coordinates) and forgets the accelerations.
  bool find_closed(double t, VecX& q, VecX& qd) const;
  void remember_closed(double t, const VecX& q, const VecX& qd);

  // Accelerations of the remembered closed state, with the power and dissipation recorded for
  // the energy account (has_power false when they were not computed).
  struct Result {
    VecX qdd;
    bool has_power = false;
    double power = 0.0, dissipation = 0.0;
  };
  const Result* find_accelerations(double t, const VecX& q, const VecX& qd) const;
  Result& remember_accelerations();  // for the closed state remembered last

 private:
  bool same_key(double t, const VecX& q, const VecX& qd) const;

  std::vector<int> iq_, iv_;  // the key's coordinates in q and in q̇
  bool closed_ = false, accelerations_ = false;
  double t_ = 0.0;
  VecX q_, qd_;  // the closed state
  Result result_;
};

}  // namespace articula
