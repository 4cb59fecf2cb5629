// Serial arms from a standard Denavit-Hartenberg table.
#include <cmath>
#include <cstdio>
#include <numbers>

#include "core/spec/template_builder.hpp"
#include "core/spec/templates.hpp"

namespace articula {

using namespace detail;

namespace {

std::string row_field(std::size_t i, const char* field) {
  return "rows[" + std::to_string(i) + "]." + field;
}

void validate(const DhArmParams& p) {
  if (p.rows.empty() || p.rows.size() > 12) throw TemplateError("rows", "give 1 to 12 rows");
  for (std::size_t i = 0; i < p.rows.size(); ++i) {
    const DhRow& r = p.rows[i];
    for (auto [v, f] :
         {std::pair{r.a, "a"}, {r.alpha, "alpha"}, {r.d, "d"}, {r.theta, "theta"}, {r.q0, "q0"}})
      if (!std::isfinite(v)) throw TemplateError(row_field(i, f), "must be finite");
    if (!(r.mass > 0.0) || !std::isfinite(r.mass))
      throw TemplateError(row_field(i, "mass"), "must be a positive finite number");
  }
  if (!p.base_position.allFinite()) throw TemplateError("base_position", "must be finite");
  check_positive(p.link_radius, "link_radius");
  if (p.drive_joints) {
    if (!(p.drive_amplitude >= 0.0) || !std::isfinite(p.drive_amplitude))
      throw TemplateError("drive_amplitude", "must be zero or positive");
    check_positive(p.drive_frequency, "drive_frequency");
  }
}

Iso dh_rz(double angle) {
  return make_iso(Vec3::Zero(), rot(Vec3::UnitZ(), angle));
}
Iso tz(double d) {
  return make_iso(Vec3(0, 0, d));
}
Iso tx_rx(double a, double alpha) {
  return make_iso(Vec3(a, 0, 0), rot(Vec3::UnitX(), alpha));
}

// A rod of the link's mass from `start` to the frame origin (a ball when they nearly coincide).
MassProperties link_mass(const Vec3& start, double mass, double radius) {
  const Material unit = Material::custom(1.0);
  MassProperties mp = start.norm() > radius ? cylinder(start, Vec3::Zero(), radius, unit)
                                            : sphere(0.5 * start, radius, unit);
  const double scale = mass / mp.mass;
  mp.mass = mass;
  mp.inertia *= scale;
  return mp;
}

}  // namespace

MechanismSpec make_dh_arm(const DhArmParams& p) {
  validate(p);
  const int n = static_cast<int>(p.rows.size());
  SpecBuilder b("Serial arm (" + std::to_string(n) + " joints, DH)", Vec3(0, 0, -9.81));
  Iso W = make_iso(p.base_position);  // frame {i-1}
  std::string parent = "ground";
  for (int i = 0; i < n; ++i) {
    const DhRow& r = p.rows[i];
    const std::string k = std::to_string(i + 1);
    // {i} = {i-1} Rz(θ) Tz(d) Tx(a) Rx(α); the joint frame sits on z_{i-1}: for a revolute at
    // Rz(theta) (q turns it further), for a prismatic at Rz(θ) Tz(d) (q slides it further).
    const Iso joint_in_parent = r.prismatic ? dh_rz(r.theta) * tz(r.d) : dh_rz(r.theta);
    const Iso rest = r.prismatic ? tx_rx(r.a, r.alpha) : tz(r.d) * tx_rx(r.a, r.alpha);
    const Iso XJ = r.prismatic ? tz(r.q0) : dh_rz(r.q0);
    const Iso parent_frame =
        (parent == "ground" ? make_iso(p.base_position) : Iso::Identity()) * joint_in_parent;
    W = W * joint_in_parent * XJ * rest;
    const Iso child_frame = rest.inverse();
    b.body("link" + k, W, link_mass(child_frame.translation(), r.mass, p.link_radius));
    JointSpec& j = b.joint("J" + k, r.prismatic ? Joint::prismatic() : Joint::revolute(), parent,
                           "link" + k, parent_frame, child_frame);
    j.q0 = std::vector<double>{r.q0};  // exact, not re-derived through atan2 (q0 = -pi stays -pi)
    if (p.drive_joints) {
      const double amplitude = r.prismatic ? 0.25 * p.drive_amplitude : p.drive_amplitude;
      j.drive = sine_drive(j.q0->at(0), amplitude, p.drive_frequency);
    }
    parent = "link" + k;
  }
  if (const double err = b.closure_error(); err > 1e-9)
    throw std::logic_error("DH template: frames inconsistent (" + std::to_string(err) + ")");
  return b.finish(3.0, "Serial arm from a standard Denavit-Hartenberg table (" + std::to_string(n) +
                           " joints), link frames {i} as in the table.");
}

DhArmParams DhArmParams::puma560() {
  DhArmParams p;
  const double h = std::numbers::pi / 2;
  // a, alpha, d, theta, prismatic, mass, q0 (Corke mdl_puma560; qn with q3 = -pi)
  p.rows = {{0.0, h, 0.0, 0.0, false, 20.0, 0.0},
            {0.4318, 0.0, 0.0, 0.0, false, 17.4, std::numbers::pi / 4},
            {0.0203, -h, 0.15005, 0.0, false, 4.8, -std::numbers::pi},
            {0.0, h, 0.4318, 0.0, false, 0.82, 0.0},
            {0.0, -h, 0.0, 0.0, false, 0.34, std::numbers::pi / 4},
            {0.0, 0.0, 0.0, 0.0, false, 0.09, 0.0}};
  p.base_position = Vec3(0, 0, 0.66);
  return p;
}

}  // namespace articula
