// Simulation: the checks that stop a run with a diagnosis instead of letting NaN through. Each
// names the quantity that went bad (drive, acceleration, position or velocity of a joint), the
// time, and the likely cause; the state before the failing step is kept.
#include <cmath>
#include <sstream>

#include "core/sim/diagnostics.hpp"
#include "core/sim/simulation.hpp"

namespace articula {

namespace {
// The first non-finite entry of x, or -1.
int first_bad(const VecX& x) {
  for (int i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) return i;
  return -1;
}
}  // namespace

void Simulation::save_state(double h, Integrator integrator) {
  saved_.q = q_;  // same sizes every step: no allocation after the first
  saved_.qd = qd_;
  saved_.t = t_;
  saved_.work = work_;
  saved_.dissipated = dissipated_;
  saved_.h = h;
  saved_.integrator = integrator;
}

void Simulation::restore_state() {
  stage_ = -1;
  if (saved_.q.size() != q_.size()) return;  // nothing saved yet: the state was not touched
  q_ = saved_.q;
  qd_ = saved_.qd;
  t_ = saved_.t;
  work_ = saved_.work;
  dissipated_ = saved_.dissipated;
}

void Simulation::check_mass_matrix(const VecX& q, const std::string& when) {
  // Hybrid dynamics needs H positive definite over the joints not motion-driven. With loops a
  // singular H may still be fine (constraints can move massless bodies): accelerations() falls
  // back to the augmented system and comes here only when that is singular too.
  if (constrained_ && when.empty()) return;
  std::vector<bool> held(model_.nv, false);
  if (!constrained_)
    for (int v : driven_v_) held[v] = true;
  Data scratch(model_);
  const std::string why = singular_mass_diagnosis(mech_, scratch, q, held);
  if (!why.empty()) throw SetupError(why + when);
  if (!when.empty())  // called because the factorisation failed: say so even without a name
    throw SetupError("the mass matrix is not positive definite" + when +
                     " (check masses and inertias)");
}

void Simulation::bad_drive(const DriveBinding& d, double t, const char* quantity) const {
  std::ostringstream os;
  const JointSpec& js = mech_.spec.joints[d.user_joint];
  os << "at t = " << t << " the " << (d.kind == DriveSpec::Kind::Motion ? "motion" : "force")
     << " drive on joint '" << js.name << "' gives a non-finite " << quantity << " ("
     << (d.law ? js.drive->law.dump() : "'" + d.expression.text() + "'")
     << " is not defined there); the simulation stops at the last good state";
  throw SetupError(os.str());
}

void Simulation::bad_acceleration(double t, const VecX& q, const VecX& v, const VecX& qdd) {
  const int k = first_bad(qdd);
  std::ostringstream os;
  os << "at t = " << t << " the acceleration of joint '" << joint_of_velocity(mech_, k)
     << "' is not finite (" << qdd[k] << ")";
  Data scratch(model_);
  std::vector<bool> held(model_.nv, false);
  if (!constrained_)
    for (int d : driven_v_) held[d] = true;
  const bool diverging = !q.allFinite() || !v.allFinite();  // an intermediate stage overflowed
  const std::string singular = diverging ? "" : singular_mass_diagnosis(mech_, scratch, q, held);
  if (!singular.empty())
    os << ": " << singular;
  else
    os << "; the state at t = " << saved_.t << " is kept. " << divergence_advice();
  throw SetupError(os.str());
}

std::string Simulation::divergence_advice() {
  Data scratch(model_);
  const std::vector<std::string> stiff =
      saved_.q.size() == q_.size() && saved_.q.allFinite()
          ? stiffness_limits(mech_, scratch, saved_.q, saved_.h, saved_.integrator)
          : std::vector<std::string>{};
  if (!stiff.empty()) return "The integration diverged: " + stiff.front();
  return "The integration diverged: use a smaller step or the adaptive integrator (rk45)";
}

void Simulation::bad_state() {
  const int iq = first_bad(q_), iv = first_bad(qd_);
  std::ostringstream os;
  os << "at t = " << t_ << " the ";
  if (iq >= 0)
    os << "position of joint '" << joint_of_position(mech_, iq) << "' became non-finite (" << q_[iq]
       << ")";
  else
    os << "velocity of joint '" << joint_of_velocity(mech_, iv) << "' became non-finite ("
       << qd_[iv] << ")";
  os << " in the step from t = " << saved_.t << "; the state at t = " << saved_.t << " is kept. ";
  os << divergence_advice();
  throw SetupError(os.str());
}

}  // namespace articula
