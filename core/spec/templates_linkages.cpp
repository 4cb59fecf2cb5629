// Spatial single-loop linkages: RSSR (or RSUR) four-bar and the Bennett 4R linkage.
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/spec/template_builder.hpp"
#include "core/spec/templates.hpp"

namespace articula {

using namespace detail;

namespace {

struct RockerSolve {
  bool ok = false;
  double phi = 0.0;  // rocker angle: pin at O2 + r2 (0, cos φ, sin φ)
};

// |A - B(φ)| = coupler with A the crank pin at crank angle θ:  Dy cos φ + Dz sin φ = K.
RockerSolve solve_rocker(const RssrParams& p, double theta) {
  const Vec3 A(p.crank * std::cos(theta), p.crank * std::sin(theta), 0.0);
  const Vec3 D = A - p.output_axis;
  const double K = (p.rocker * p.rocker + D.squaredNorm() - p.coupler * p.coupler) / (2 * p.rocker);
  const double rho = std::hypot(D.y(), D.z());
  RockerSolve s;
  if (!(std::abs(K) < rho * (1 - 1e-9))) return s;
  s.ok = true;
  s.phi = std::atan2(D.z(), D.y()) + p.branch * std::acos(K / rho);
  return s;
}

void validate(const RssrParams& p) {
  check_positive(p.crank, "crank");
  check_positive(p.rocker, "rocker");
  check_positive(p.coupler, "coupler");
  if (!p.output_axis.allFinite()) throw TemplateError("output_axis", "must be finite");
  if (!std::isfinite(p.crank_angle)) throw TemplateError("crank_angle", "must be finite");
  if (p.branch != 1 && p.branch != -1) throw TemplateError("branch", "must be +1 or -1");
  check_section(p.section, "section");
  check_material(p.material, "material");
  if (!solve_rocker(p, p.crank_angle).ok)
    throw TemplateError("coupler",
                        "the coupler cannot join crank and rocker at the initial crank "
                        "angle (too short or too long)");
  if (p.drive_crank) {
    if (!std::isfinite(p.crank_speed) || p.crank_speed == 0.0)
      throw TemplateError("crank_speed", "must be a non-zero finite number");
    for (int i = 0; i < 720; ++i) {
      const double th = 2 * std::numbers::pi * i / 720;
      if (!solve_rocker(p, th).ok) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "the crank cannot turn fully with these lengths (no assembly at %.1f deg); "
                      "change the lengths or leave the crank undriven",
                      th * 180 / std::numbers::pi);
        throw TemplateError("drive_crank", text);
      }
    }
  }
}

}  // namespace

MechanismSpec make_rssr(const RssrParams& p) {
  validate(p);
  const double th = p.crank_angle, phi = solve_rocker(p, th).phi;
  SpecBuilder b(p.universal_at_rocker ? "Spatial RSUR four-bar" : "Spatial RSSR four-bar",
                Vec3(0, -9.81, 0));
  const Vec3 A(p.crank * std::cos(th), p.crank * std::sin(th), 0.0);
  const Vec3 e(0, std::cos(phi), std::sin(phi));
  const Vec3 B = p.output_axis + p.rocker * e;
  const Vec3 c = B - A;
  if (c.cross(Vec3::UnitX()).norm() < 1e-6 * c.norm())
    throw TemplateError("output_axis", "the coupler must not be parallel to the rocker axis");
  // Body frames: x along the link; crank z = its axis (world z), rocker z = its axis (world x).
  b.body("crank", make_iso(Vec3::Zero(), rot(Vec3::UnitZ(), th)),
         bar(Vec3::Zero(), Vec3(p.crank, 0, 0), p.section, p.material));
  b.body("coupler",
         make_iso(
             A, frame_xz(c, Vec3::UnitZ().cross(c).norm() > 1e-9 ? Vec3::UnitZ() : Vec3::UnitX())),
         bar(Vec3::Zero(), Vec3(c.norm(), 0, 0), p.section, p.material));
  b.body("rocker", make_iso(p.output_axis, frame_xz(e, Vec3::UnitX())),
         bar(Vec3::Zero(), Vec3(p.rocker, 0, 0), p.section, p.material));
  JointSpec& input = b.joint("crank_pivot", Joint::revolute(), "ground", "crank", Iso::Identity(),
                             Iso::Identity());  // q = crank angle
  if (p.drive_crank) input.drive = ramp_drive(th, p.crank_speed);
  b.joint("rocker_pivot", Joint::revolute(), "ground", "rocker",
          make_iso(p.output_axis, frame_xz(Vec3::UnitZ(), Vec3::UnitX())), Iso::Identity());
  b.joint_at("crank_ball", Joint::spherical(), "crank", "coupler",
             make_iso(A, b.world("coupler").linear()));
  if (p.universal_at_rocker)  // both axes perpendicular to the coupler: its spin is blocked
    b.joint_at("rocker_cross", Joint::universal(), "rocker", "coupler",
               make_iso(B, frame_xz(c, Vec3::UnitX())));
  else
    b.joint_at("rocker_ball", Joint::spherical(), "rocker", "coupler",
               make_iso(B, b.world("coupler").linear()));
  char text[300];
  std::snprintf(text, sizeof text,
                "Spatial %s four-bar from the template: crank %.3g m about world z, rocker %.3g m "
                "about an axis parallel to x through (%.3g, %.3g, %.3g) m, coupler %.3g m%s.",
                p.universal_at_rocker ? "RSUR" : "RSSR", p.crank, p.rocker, p.output_axis.x(),
                p.output_axis.y(), p.output_axis.z(), p.coupler,
                p.drive_crank ? ", crank motion-driven" : "");
  return b.finish(4.0, text);
}

namespace {

void validate(const BennettParams& p) {
  check_positive(p.a, "a");
  check_positive(p.b, "b");
  if (!(p.alpha > 0.0 && p.alpha < std::numbers::pi))
    throw TemplateError("alpha", "must be between 0 and 180 deg");
  if (!(p.beta > 0.0 && p.beta < std::numbers::pi))
    throw TemplateError("beta", "must be between 0 and 180 deg");
  const double b_needed = p.a * std::sin(p.beta) / std::sin(p.alpha);
  if (std::abs(p.b - b_needed) > 1e-9 * std::max(p.a, p.b)) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "violates the Bennett condition a/sin(alpha) = b/sin(beta): with these a, alpha "
                  "and beta, b must be %.12g m",
                  b_needed);
    throw TemplateError("b", text);
  }
  if (std::abs(std::sin((p.beta - p.alpha) / 2)) < 1e-6)
    throw TemplateError("beta", "equal twists make a degenerate (folding) Bennett linkage");
  if (!std::isfinite(p.theta1)) throw TemplateError("theta1", "must be finite");
  check_section(p.section, "section");
  check_material(p.material, "material");
  if (p.drive && (!std::isfinite(p.speed) || p.speed == 0.0))
    throw TemplateError("speed", "must be a non-zero finite number");
}

// ^{i-1}: the next joint frame seen from a link frame: along the common normal x by the length,
// then twisted about it.
Iso link_step(double length, double twist) {
  return make_iso(Vec3(length, 0, 0), rot(Vec3::UnitX(), twist));
}

}  // namespace

MechanismSpec make_bennett(const BennettParams& p) {
  validate(p);
  const double a = p.a, b = p.b, al = p.alpha, be = p.beta, t1 = p.theta1;
  // tan(θ1/2) tan(θ2/2) = sin((β+α)/2) / sin((β−α)/2), written with atan2 to stay finite.
  const double t2 = 2 * std::atan2(std::sin((be + al) / 2) * std::cos(t1 / 2),
                                   std::sin((be - al) / 2) * std::sin(t1 / 2));
  SpecBuilder sb("Bennett linkage", Vec3(0, -9.81, 0));
  // DH-style link frames: z along the link's first joint axis, x along the common normal.
  // Ground is link b (twist beta) from joint 4's axis (world z) to joint 1's.
  const Iso W1 = link_step(b, be) * make_iso(Vec3::Zero(), rot(Vec3::UnitZ(), t1));
  const Iso W2 = W1 * link_step(a, al) * make_iso(Vec3::Zero(), rot(Vec3::UnitZ(), t2));
  const Iso W3 = W2 * link_step(b, be) * make_iso(Vec3::Zero(), rot(Vec3::UnitZ(), -t1));
  const BarSection& s = p.section;
  sb.body("link1", W1, bar(Vec3::Zero(), Vec3(a, 0, 0), s, p.material));
  sb.body("link2", W2, bar(Vec3::Zero(), Vec3(b, 0, 0), s, p.material));
  sb.body("link3", W3, bar(Vec3::Zero(), Vec3(a, 0, 0), s, p.material));
  JointSpec& j1 =
      sb.joint("J1", Joint::revolute(), "ground", "link1", link_step(b, be), Iso::Identity());
  if (p.drive) j1.drive = ramp_drive(t1, p.speed);
  sb.joint("J2", Joint::revolute(), "link1", "link2", link_step(a, al), Iso::Identity());
  sb.joint("J3", Joint::revolute(), "link2", "link3", link_step(b, be), Iso::Identity());
  sb.joint("J4", Joint::revolute(), "ground", "link3", Iso::Identity(), link_step(a, al));
  if (const double err = sb.closure_error(); err > 1e-9)
    throw std::logic_error("Bennett template: loop does not close (" + std::to_string(err) + ")");
  char text[300];
  std::snprintf(text, sizeof text,
                "Bennett 4R linkage from the template: a = %.4g m (twist %.4g deg), b = %.4g m "
                "(twist %.4g deg), a/sin(alpha) = b/sin(beta), zero offsets%s.",
                a, al * 180 / std::numbers::pi, b, be * 180 / std::numbers::pi,
                p.drive ? ", joint 1 motion-driven" : "");
  return sb.finish(4.0, text);
}

namespace {
// A rod of 3.4 kg/m along its body x axis (the ladder's and the four-bar chain's links), posed
// in the x-y plane at `at`, turned by `angle` about z.
void add_rod(MechanismSpec& spec, const std::string& name, double length, const Vec3& at,
             double angle) {
  BodySpec b;
  b.name = name;
  b.mass = 3.4 * length;
  b.com = Vec3(length / 2, 0, 0);
  const double r = 0.02, axial = b.mass * r * r / 2,
               tr = b.mass * (3 * r * r + length * length) / 12;
  b.inertia = {axial, tr, tr, 0, 0, 0};
  b.pose = PoseSpec{};
  b.pose->position = at;
  b.pose->orientation = Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
  spec.bodies.push_back(b);
}
// A revolute joint about z at points given in the parent's and the child's body frames.
void add_hinge(MechanismSpec& spec, const std::string& name, const std::string& parent,
               const Vec3& at_parent, const std::string& child, const Vec3& at_child) {
  JointSpec j;
  j.name = name;
  j.joint = Joint::revolute();
  j.parent = parent;
  j.child = child;
  j.parent_frame.position = at_parent;
  j.child_frame.position = at_child;
  spec.joints.push_back(j);
}
}  // namespace

MechanismSpec make_ladder(int k) {
  constexpr double L = 0.2, h = 0.15;  // rail link length, rung length
  MechanismSpec spec;
  spec.name = "ladder" + std::to_string(k);
  spec.gravity = Vec3(0, -9.81, 0);
  for (int i = 1; i <= k; ++i) {
    const std::string s = std::to_string(i), prev = std::to_string(i - 1);
    add_rod(spec, "top" + s, L, Vec3((i - 1) * L, h, 0), 0.0);
    add_rod(spec, "bottom" + s, L, Vec3((i - 1) * L, 0, 0), 0.0);
    add_hinge(spec, "t" + s, i == 1 ? "ground" : "top" + prev,
              i == 1 ? Vec3(0, h, 0) : Vec3(L, 0, 0), "top" + s, Vec3::Zero());
    add_hinge(spec, "b" + s, i == 1 ? "ground" : "bottom" + prev,
              i == 1 ? Vec3::Zero() : Vec3(L, 0, 0), "bottom" + s, Vec3::Zero());
  }
  for (int i = 1; i <= k; ++i) {
    const std::string s = std::to_string(i);
    add_rod(spec, "rung" + s, h, Vec3(i * L, h, 0), -std::numbers::pi / 2);
    add_hinge(spec, "r" + s, "top" + s, Vec3(L, 0, 0), "rung" + s, Vec3::Zero());
    add_hinge(spec, "c" + s, "rung" + s, Vec3(h, 0, 0), "bottom" + s, Vec3(L, 0, 0));
  }
  return spec;
}

MechanismSpec make_hanging_ladder(int links, int rungs) {
  if (links < 1 || rungs < 1 || rungs > links)
    throw std::invalid_argument("hanging ladder: need 1 <= rungs <= links (links " +
                                std::to_string(links) + ", rungs " + std::to_string(rungs) + ")");
  // Rails hang from ground pivots h apart, tilted by 0.2 rad from the vertical so that they
  // swing; a rung spans the matching rail tips horizontally (every cell a parallelogram).
  constexpr double L = 0.1, h = 0.15, tilt = 0.2;
  const double rail_angle =
      -std::numbers::pi / 2 + tilt;  // body x of every rail link, from world x
  const Vec3 d(std::cos(rail_angle), std::sin(rail_angle), 0);
  MechanismSpec spec;
  spec.name = "hanging_ladder" + std::to_string(2 * links + rungs);
  spec.gravity = Vec3(0, -9.81, 0);
  for (int i = 1; i <= links; ++i) {
    const std::string s = std::to_string(i), prev = std::to_string(i - 1);
    add_rod(spec, "left" + s, L, (i - 1) * L * d, rail_angle);
    add_rod(spec, "right" + s, L, Vec3(h, 0, 0) + (i - 1) * L * d, rail_angle);
    add_hinge(spec, "l" + s, i == 1 ? "ground" : "left" + prev,
              i == 1 ? Vec3::Zero() : Vec3(L, 0, 0), "left" + s, Vec3::Zero());
    add_hinge(spec, "r" + s, i == 1 ? "ground" : "right" + prev,
              i == 1 ? Vec3(h, 0, 0) : Vec3(L, 0, 0), "right" + s, Vec3::Zero());
  }
  for (int j = 1; j <= rungs;
       ++j) {  // rung j at rail link round(j links / rungs): the last at the end
    const int i = static_cast<int>(std::lround(static_cast<double>(j) * links / rungs));
    const std::string s = std::to_string(j), at = std::to_string(i);
    add_rod(spec, "rung" + s, h, i * L * d, 0.0);
    add_hinge(spec, "rt" + s, "left" + at, Vec3(L, 0, 0), "rung" + s, Vec3::Zero());
    add_hinge(spec, "rc" + s, "rung" + s, Vec3(h, 0, 0), "right" + at, Vec3(L, 0, 0));
  }
  return spec;
}

MechanismSpec make_hanging_net(int rails, int links, int rungs) {
  if (rails < 2 || links < 1 || rungs < 1 || rungs > links)
    throw std::invalid_argument("hanging net: need rails >= 2 and 1 <= rungs <= links (rails " +
                                std::to_string(rails) + ", links " + std::to_string(links) +
                                ", rungs " + std::to_string(rungs) + ")");
  constexpr double L = 0.1, h = 0.15, tilt = 0.2;  // as make_hanging_ladder
  const double rail_angle = -std::numbers::pi / 2 + tilt;
  const Vec3 d(std::cos(rail_angle), std::sin(rail_angle), 0);
  MechanismSpec spec;
  spec.name = "hanging_net" + std::to_string(rails * links + (rails - 1) * rungs);
  spec.gravity = Vec3(0, -9.81, 0);
  auto rail = [](int c, int i) { return "rail" + std::to_string(c) + "_" + std::to_string(i); };
  for (int c = 0; c < rails; ++c)
    for (int i = 1; i <= links; ++i) {
      add_rod(spec, rail(c, i), L, Vec3(c * h, 0, 0) + (i - 1) * L * d, rail_angle);
      add_hinge(spec, "p" + std::to_string(c) + "_" + std::to_string(i),
                i == 1 ? "ground" : rail(c, i - 1), i == 1 ? Vec3(c * h, 0, 0) : Vec3(L, 0, 0),
                rail(c, i), Vec3::Zero());
    }
  for (int c = 0; c + 1 < rails; ++c)
    for (int j = 1; j <= rungs; ++j) {  // at rail link round(j links / rungs), as the ladder's
      const int i = static_cast<int>(std::lround(static_cast<double>(j) * links / rungs));
      const std::string s = std::to_string(c) + "_" + std::to_string(j);
      add_rod(spec, "rung" + s, h, Vec3(c * h, 0, 0) + i * L * d, 0.0);
      add_hinge(spec, "rt" + s, rail(c, i), Vec3(L, 0, 0), "rung" + s, Vec3::Zero());
      add_hinge(spec, "rc" + s, "rung" + s, Vec3(h, 0, 0), rail(c + 1, i), Vec3(L, 0, 0));
    }
  return spec;
}

MechanismSpec make_fourbar_chain(int k) {
  // Crank a, rocker c, ground pivots d apart: Grashof (a + coupler < c + d), so the crank turns
  // fully and the crank is always a valid independent coordinate. Module i's ground is module
  // i-1's rocker: its pivots at the rocker's tip and d from it, square to the rocker, so that
  // at assembly every module's ground line is horizontal (crank and rocker vertical).
  constexpr double a = 0.10, c = 0.15, d = 0.20;
  const double b = std::hypot(d, c - a), coupler_angle = std::atan2(c - a, d);
  MechanismSpec spec;
  spec.name = "fourbar_chain" + std::to_string(k);
  // No gravity (a boom in orbit): under gravity the 4 m chain falls and whips its tip faster
  // than a 1 ms step follows; here it moves from the cranks' initial speeds.
  spec.gravity = Vec3::Zero();
  for (int i = 1; i <= k; ++i) {
    const std::string s = std::to_string(i),
                      base = i == 1 ? "ground" : "rocker" + std::to_string(i - 1);
    const Vec3 O = (i - 1) * Vec3(d, c, 0);  // module origin: its crank's pivot
    add_rod(spec, "crank" + s, a, O, std::numbers::pi / 2);
    add_rod(spec, "rocker" + s, c, O + Vec3(d, 0, 0), std::numbers::pi / 2);
    add_rod(spec, "coupler" + s, b, O + Vec3(0, a, 0), coupler_angle);
    // On ground the pivots are world points; on a rocker (x along it) they are its tip and the
    // point d to its right when it stands vertical, (c, -d).
    const Vec3 pa = i == 1 ? O : Vec3(c, 0, 0), pb = i == 1 ? O + Vec3(d, 0, 0) : Vec3(c, -d, 0);
    add_hinge(spec, "crank_pivot" + s, base, pa, "crank" + s, Vec3::Zero());
    spec.joints.back().qd0 = std::vector<double>{i % 2 ? 1.0 : -1.0};
    add_hinge(spec, "rocker_pivot" + s, base, pb, "rocker" + s, Vec3::Zero());
    add_hinge(spec, "crank_pin" + s, "crank" + s, Vec3(a, 0, 0), "coupler" + s, Vec3::Zero());
    add_hinge(spec, "rocker_pin" + s, "coupler" + s, Vec3(b, 0, 0), "rocker" + s, Vec3(c, 0, 0));
  }
  return spec;
}

}  // namespace articula
