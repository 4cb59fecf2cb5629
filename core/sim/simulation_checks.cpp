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

void list_motion_drives(const Mechanism& mech, const std::vector<DriveBinding>& drives,
                        std::ostream& os) {
  for (const DriveBinding& d : drives)
    if (d.kind == DriveSpec::Kind::Motion) os << " '" << mech.spec.joints[d.user_joint].name << "'";
}
}  // namespace

void Simulation::check_fully_driven() const {
  const std::size_t driven = constraints_.prescribed_coordinates().size();
  if (!opt_.require_fully_driven || static_cast<int>(driven) >= mech_.mobility.mobility) return;
  std::ostringstream os;
  os << "inverse dynamics needs every degree of freedom driven: mobility "
     << mech_.mobility.mobility << " but " << driven << " motion drive(s); undriven joints:";
  for (std::size_t j = 0; j < mech_.spec.joints.size(); ++j) {
    const JointSpec& js = mech_.spec.joints[j];
    const bool driven_joint = js.drive && js.drive->kind == DriveSpec::Kind::Motion;
    if (!driven_joint && js.joint.nv() > 0 && !mech_.compiled.joint_map[j].loop)
      os << " '" << js.name << "'";
  }
  throw SetupError(os.str());
}

void Simulation::check_drives_independent(int rank, const char* when) const {
  if (rank >= expected_rank_) return;
  std::ostringstream os;
  if (mech_.mobility.mobility == 0) {  // a structure: nothing can be driven
    os << "the mechanism is locked (mobility 0, " << mech_.mobility.redundant
       << " redundant constraint(s)): it cannot move, so the motion drive(s) on joint(s)";
    list_motion_drives(mech_, drives_, os);
    os << " cannot be imposed; remove a joint or a body to give it a degree of freedom, or remove "
          "the drive";
    throw SetupError(os.str());
  }
  os << "the motion drives on joint(s)";
  list_motion_drives(mech_, drives_, os);
  os << " over-determine the mechanism " << when << " (mobility " << mech_.mobility.mobility << ", "
     << constraints_.prescribed_coordinates().size() << " motion drive(s), rank " << rank << " of "
     << expected_rank_
     << "): too many drives, or a driven joint at a dead point where it cannot move the mechanism";
  throw SetupError(os.str());
}

void Simulation::save_state(double h, Integrator integrator) {
  saved_.q = q_;  // same sizes every step: no allocation after the first
  saved_.qd = qd_;
  saved_.t = t_;
  saved_.work = account_.work();
  saved_.dissipated = account_.dissipated();
  saved_.impact_loss = account_.impact_loss();
  saved_.h = h;
  saved_.integrator = integrator;
}

void Simulation::restore_state() {
  account_.end_step();
  if (saved_.q.size() != q_.size()) return;  // nothing saved yet: the state was not touched
  q_ = saved_.q;
  qd_ = saved_.qd;
  t_ = saved_.t;
  account_.reset(saved_.work, saved_.dissipated, saved_.impact_loss);
}

void Simulation::bad_acceleration(double t, const VecX& q, const VecX& v, const VecX& qdd) {
  const int k = first_bad(qdd);
  std::ostringstream os;
  os << "at t = " << t << " the acceleration of joint '" << joint_of_velocity(mech_, k)
     << "' is not finite (" << qdd[k] << ")";
  Data scratch(model_);
  std::vector<bool> held(model_.nv, false);
  if (!constrained_)
    for (int d : constraints_.prescribed_coordinates()) held[d] = true;
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
