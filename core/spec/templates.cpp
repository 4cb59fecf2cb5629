// Parallel platforms: Stewart-Gough 6-UPS and the translational Delta (3-RUU).
#include "core/spec/templates.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>

#include "core/spec/template_builder.hpp"

namespace articula {

using namespace detail;

namespace {

void validate(const StewartParams& p) {
  check_positive(p.base_radius, "base_radius");
  check_positive(p.top_radius, "top_radius");
  if (p.legs < 3 || p.legs > 12) throw TemplateError("legs", "must be between 3 and 12");
  check_positive(p.height, "height");
  if (p.legs % 2 == 0) {
    const double period = 2 * std::numbers::pi / (p.legs / 2);
    if (!(p.base_spacing > 0.0 && p.base_spacing < period))
      throw TemplateError("base_spacing", "must be between 0 and " +
                                              std::to_string(period * 180 / std::numbers::pi) +
                                              " deg for " + std::to_string(p.legs) + " legs");
    if (!(p.top_spacing > 0.0 && p.top_spacing < period))
      throw TemplateError("top_spacing", "must be between 0 and " +
                                             std::to_string(period * 180 / std::numbers::pi) +
                                             " deg for " + std::to_string(p.legs) + " legs");
  }
  if (!p.offset.allFinite()) throw TemplateError("offset", "must be finite");
  if (!p.rotation.allFinite() || p.rotation.cwiseAbs().maxCoeff() > std::numbers::pi / 2)
    throw TemplateError("rotation", "roll, pitch and yaw must be within +-90 deg");
  check_positive(p.base_thickness, "base_thickness");
  check_positive(p.top_thickness, "top_thickness");
  check_positive(p.cylinder_diameter, "cylinder_diameter");
  check_positive(p.rod_diameter, "rod_diameter");
  if (!(p.rod_diameter < 0.8 * p.cylinder_diameter))
    throw TemplateError("rod_diameter",
                        "must be less than the cylinder bore (0.8 x cylinder_diameter)");
  check_material(p.base_material, "base_material");
  check_material(p.top_material, "top_material");
  check_material(p.leg_material, "leg_material");
  if (p.drive_legs) {
    if (p.legs > 6)
      throw TemplateError("drive_legs",
                          "more than 6 motion-driven legs over-constrain the platform");
    if (!(p.drive_amplitude >= 0.0) || !std::isfinite(p.drive_amplitude))
      throw TemplateError("drive_amplitude", "must be zero or positive");
    check_positive(p.drive_frequency, "drive_frequency");
  }
}

// Joint angles on the base and top circles, leg i from base_angle[i] to top_angle[i].
void stewart_angles(const StewartParams& p, std::vector<double>& base, std::vector<double>& top) {
  const int n = p.legs;
  if (n % 2 == 1) {  // evenly spread, top rotated by half a step
    for (int i = 0; i < n; ++i) {
      base.push_back(2 * std::numbers::pi * i / n);
      top.push_back(2 * std::numbers::pi * i / n + std::numbers::pi / n);
    }
    return;
  }
  const int m = n / 2;  // pairs
  for (int k = 0; k < m; ++k) {
    const double c = 2 * std::numbers::pi * k / m;
    // Each base joint goes to the nearest top joint of the neighbouring top pair.
    base.push_back(c - p.base_spacing / 2);
    top.push_back(c - std::numbers::pi / m + p.top_spacing / 2);
    base.push_back(c + p.base_spacing / 2);
    top.push_back(c + std::numbers::pi / m - p.top_spacing / 2);
  }
}

Vec3 on_circle(double r, double angle) {
  return {r * std::cos(angle), r * std::sin(angle), 0.0};
}

}  // namespace

MechanismSpec make_stewart(const StewartParams& p) {
  validate(p);
  std::vector<double> base_angle, top_angle;
  stewart_angles(p, base_angle, top_angle);
  SpecBuilder b("Stewart-Gough platform (" + std::to_string(p.legs) + "-UPS)", Vec3(0, 0, -9.81));

  const double base_disc = p.base_radius * 4.0 / 3.0, top_disc = p.top_radius * 1.25;
  b.body("base", Iso::Identity(),
         cylinder(Vec3(0, 0, -p.base_thickness), Vec3::Zero(), base_disc, p.base_material));
  b.joint("base_fixed", Joint::fixed(), "ground", "base", Iso::Identity(), Iso::Identity());
  const Mat3 R_top = rot(Vec3::UnitZ(), p.rotation.z()) * rot(Vec3::UnitY(), p.rotation.y()) *
                     rot(Vec3::UnitX(), p.rotation.x());
  const Iso top = make_iso(Vec3(0, 0, p.height) + p.offset, R_top);
  b.body("top_plate", top,
         cylinder(Vec3::Zero(), Vec3(0, 0, p.top_thickness), top_disc, p.top_material));

  // Cylinder and rod lengths from the shortest leg at home, so the rod stays in the tube.
  double home_min = 1e300;
  for (int i = 0; i < p.legs; ++i)
    home_min = std::min(home_min, (on_circle(p.top_radius, top_angle[i]) + Vec3(0, 0, p.height) -
                                   on_circle(p.base_radius, base_angle[i]))
                                      .norm());
  const double tube = 0.6 * home_min;
  const double D = p.cylinder_diameter;
  for (int i = 0; i < p.legs; ++i) {
    const std::string n = std::to_string(i + 1);
    const Vec3 B = on_circle(p.base_radius, base_angle[i]);
    const Vec3 S = top * on_circle(p.top_radius, top_angle[i]);
    const Vec3 d = S - B;
    const double L = d.norm();
    if (!(L > 0.05 * home_min) || d.z() <= 0.0)
      throw TemplateError("offset", "leg " + n + " collapses or points below the base");
    const Mat3 R_leg = frame_xz(d, Vec3::UnitZ().cross(d)) *
                       rot(Vec3::UnitY(), std::numbers::pi / 2);  // z along d
    b.body("cylinder" + n, make_iso(B, R_leg),
           cylinder(Vec3::Zero(), Vec3(0, 0, tube), D / 2, p.leg_material, 0.4 * D));
    b.body("rod" + n, make_iso(S, R_leg),
           cylinder(Vec3(0, 0, -tube), Vec3::Zero(), p.rod_diameter / 2, p.leg_material));
    // Universal axes (frame z, then y) both perpendicular to the leg: no leg spin.
    b.joint_at("U" + n, Joint::universal(), "base", "cylinder" + n,
               make_iso(B, frame_xz(d, Vec3::UnitZ().cross(d))));
    JointSpec& P = b.joint("P" + n, Joint::prismatic(), "cylinder" + n, "rod" + n, Iso::Identity(),
                           Iso::Identity());  // q = pin-to-pin length
    if (p.drive_legs) P.drive = sine_drive(L, p.drive_amplitude, p.drive_frequency);
    b.joint_at("S" + n, Joint::spherical(), "rod" + n, "top_plate", make_iso(S, R_leg));
  }
  char text[400];
  std::snprintf(text, sizeof text,
                "Stewart-Gough %d-UPS platform from the template: U joints on a %.3g m radius, S "
                "joints on a %.3g m radius, %.3g m high at home%s.",
                p.legs, p.base_radius, p.top_radius, p.height,
                p.drive_legs ? ", legs motion-driven" : "");
  return b.finish(5.0, text);
}

namespace {

void validate(const DeltaParams& p) {
  check_positive(p.base_radius, "base_radius");
  check_positive(p.platform_radius, "platform_radius");
  check_positive(p.upper_arm, "upper_arm");
  check_positive(p.forearm, "forearm");
  check_positive(p.height, "height");
  check_section(p.arm_section, "arm_section");
  check_section(p.forearm_section, "forearm_section");
  check_material(p.material, "material");
  check_positive(p.platform_thickness, "platform_thickness");
  if (p.drive_arms) {
    if (!(p.drive_amplitude >= 0.0) || !(p.drive_amplitude < std::numbers::pi / 2))
      throw TemplateError("drive_amplitude", "must be in [0, 90) deg");
    check_positive(p.drive_frequency, "drive_frequency");
  }
}

// Upper-arm angle below the horizontal that puts the elbow at forearm length from the platform
// joint Q, elbow outward (the larger radial elbow position). u is the arm's radial direction.
double delta_arm_angle(const DeltaParams& p, const Vec3& B, const Vec3& Q, const Vec3& u) {
  // |B + La (cos θ u - sin θ z) - Q| = Lf  ⇔  A cos θ + C sin θ = K
  const Vec3 D = Q - B;
  const double La = p.upper_arm, Lf = p.forearm;
  const double A = D.dot(u), C = -D.z(), K = (La * La + D.squaredNorm() - Lf * Lf) / (2 * La);
  const double rho = std::hypot(A, C);
  if (!(std::abs(K) < rho * (1 - 1e-9)))
    throw TemplateError("height",
                        "the platform cannot be reached at this height with these "
                        "arm lengths (or the arms are stretched straight)");
  const double psi = std::atan2(C, A), delta = std::acos(K / rho);
  const double t1 = psi + delta, t2 = psi - delta;
  return std::cos(t1) >= std::cos(t2) ? t1 : t2;
}

}  // namespace

MechanismSpec make_delta(const DeltaParams& p) {
  validate(p);
  SpecBuilder b("Delta robot (3-RUU)", Vec3(0, 0, -9.81));
  const Vec3 P(0, 0, -p.height);
  b.body("platform", make_iso(P),
         cylinder(Vec3(0, 0, -p.platform_thickness / 2), Vec3(0, 0, p.platform_thickness / 2),
                  1.3 * p.platform_radius, p.material));
  for (int k = 0; k < 3; ++k) {
    const std::string n = std::to_string(k + 1);
    const double phi = 2 * std::numbers::pi * k / 3;
    const Vec3 u(std::cos(phi), std::sin(phi), 0), t(-std::sin(phi), std::cos(phi), 0);
    const Vec3 B = p.base_radius * u, Q = P + p.platform_radius * u;
    const double theta = delta_arm_angle(p, B, Q, u);
    const Vec3 E = B + p.upper_arm * (std::cos(theta) * u - std::sin(theta) * Vec3::UnitZ());
    const Vec3 f = (Q - E).normalized(), nrm = t.cross(f).normalized();
    b.body("upper_arm" + n, make_iso(B, frame_xz(E - B, t)),
           bar(Vec3::Zero(), Vec3(p.upper_arm, 0, 0), p.arm_section, p.material));
    b.body("forearm" + n, make_iso(E, frame_xz(f, t)),
           bar(Vec3::Zero(), Vec3(p.forearm, 0, 0), p.forearm_section, p.material));
    // The arm turns about t; the elbow's axes are t then n, the platform's n then t, so the two
    // inner axes stay parallel and the outer ones parallel to t: the platform only translates.
    JointSpec& R = b.joint("R" + n, Joint::revolute(), "ground", "upper_arm" + n,
                           make_iso(B, frame_xz(u, t)), Iso::Identity());  // q = θ
    if (p.drive_arms)
      R.drive = sine_drive(R.q0->at(0), p.drive_amplitude, p.drive_frequency,
                           2 * std::numbers::pi * k / 3);
    Mat3 elbow, wrist;
    elbow << f, nrm, t;
    wrist << -f, t, nrm;
    b.joint_at("elbow" + n, Joint::universal(), "upper_arm" + n, "forearm" + n, make_iso(E, elbow));
    b.joint_at("wrist" + n, Joint::universal(), "forearm" + n, "platform", make_iso(Q, wrist));
  }
  char text[300];
  std::snprintf(text, sizeof text,
                "Delta robot (3-RUU, translational) from the template: base radius %.3g m, "
                "upper arms %.3g m, forearms %.3g m, platform %.3g m below the base%s.",
                p.base_radius, p.upper_arm, p.forearm, p.height,
                p.drive_arms ? ", arms motion-driven" : "");
  return b.finish(3.0, text);
}

}  // namespace articula
