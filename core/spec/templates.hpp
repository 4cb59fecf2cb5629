#pragma once
// Parameterised spatial mechanisms: each generator returns a complete MechanismSpec (bodies with
// mass properties from core/spec/link_inertia, joints with frames, sketched poses that close every
// loop exactly, q0 matching the poses, optional drives, a simulation block). Parameters are SI
// (m, kg, rad, s). Invalid parameters throw TemplateError naming the parameter.
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/spec/link_inertia.hpp"
#include "core/spec/mechanism_spec.hpp"

namespace articula {

struct TemplateError : std::invalid_argument {
  TemplateError(std::string parameter_, const std::string& problem)
      : std::invalid_argument(parameter_ + ": " + problem), parameter(std::move(parameter_)) {}
  std::string parameter;  // the field name in the parameter struct, e.g. "top_radius"
};

// Stewart-Gough 6-UPS platform (z up): a base plate fixed to ground, a top plate, and legs of a
// cylinder on a universal joint at the base, a piston rod on a prismatic joint (q = pin-to-pin
// length) and a spherical joint at the top. Both universal axes are perpendicular to the leg, so
// legs cannot spin: mobility 6 for any leg count. Joints sit in pairs `*_spacing` apart, base pairs
// centred on 0°, 120°, 240° (legs / 2 pairs in general), top pairs offset by half a period; an odd
// leg count spreads the joints evenly. Six legs are the classic fully actuated platform; with fewer
// the driven platform keeps free motions, with more its leg drives would over-constrain it.
struct StewartParams {
  double base_radius = 0.30;  // circle of the universal joints
  double top_radius = 0.20;   // circle of the spherical joints
  int legs = 6;               // 3 ... 12
  double height = 0.45;       // top joint plane above the base joint plane, at home
  double base_spacing = 20.0 * std::numbers::pi / 180.0;  // angle between a pair's joints
  double top_spacing = 20.0 * std::numbers::pi / 180.0;
  Vec3 offset = Vec3::Zero();    // initial platform position relative to home
  Vec3 rotation = Vec3::Zero();  // initial roll, pitch, yaw (about x, y, z)
  double base_thickness = 0.025, top_thickness = 0.02;
  double cylinder_diameter = 0.05, rod_diameter = 0.024;
  Material base_material = Material::steel(), top_material = Material::aluminium(),
           leg_material = Material::steel();
  bool drive_legs = false;  // legs follow L0 + amplitude·sin(2π frequency t); needs legs <= 6
  double drive_amplitude = 0.03, drive_frequency = 0.5;
};
MechanismSpec make_stewart(const StewartParams& p);

// Spatial RSSR four-bar (y up as the samples): the crank turns about world z through the origin,
// the rocker about an axis parallel to world x through `output_axis`. The coupler joins the crank
// pin to the rocker pin with two spherical joints (mobility 2: the crank plus the idle spin of the
// coupler about its own line), or, with `universal_at_rocker`, with a universal joint whose axes
// are both perpendicular to the coupler (RSUR: mobility 1, no idle spin).
struct RssrParams {
  double crank = 0.05, rocker = 0.08, coupler = 0.18;
  Vec3 output_axis{0.08, 0.0, 0.15};
  double crank_angle = 0.0;  // initial crank angle
  int branch = 1;            // +1 or -1: which of the two assemblies
  bool universal_at_rocker = false;
  BarSection section = BarSection::round(0.012);
  Material material = Material::steel();
  bool drive_crank = false;  // crank_angle + crank_speed·t; needs a crank that turns fully
  double crank_speed = std::numbers::pi;
};
MechanismSpec make_rssr(const RssrParams& p);

// Bennett 4R linkage: links a (twist alpha), b (twist beta), a, b in a loop, zero offsets, with
// a / sin(alpha) = b / sin(beta) (the Bennett condition; opposite links equal by construction).
// Joint angles: tan(θ1/2) tan(θ2/2) = sin((β+α)/2) / sin((β−α)/2), θ3 = −θ1, θ4 = −θ2.
struct BennettParams {
  double a = 0.2, b = 0.34641016151377546;
  double alpha = std::numbers::pi / 6.0, beta = std::numbers::pi / 3.0;
  double theta1 = 1.0;  // initial angle of joint 1
  BarSection section = BarSection::rectangular(0.02, 0.02);
  Material material = Material::aluminium();
  bool drive = false;  // joint 1 at theta1 + speed·t
  double speed = std::numbers::pi;
};
MechanismSpec make_bennett(const BennettParams& p);

// Translational Delta robot, 3-RUU (z up): three upper arms on revolute joints tangent to the base
// circle, forearms on universal joints at both ends. At each forearm the inner universal axes are
// parallel and the outer ones parallel to the arm's base axis, so the platform only translates:
// mobility 3.
struct DeltaParams {
  double base_radius = 0.20, platform_radius = 0.06;
  double upper_arm = 0.25, forearm = 0.50;
  double height = 0.40;  // platform joint plane below the base joint plane
  BarSection arm_section = BarSection::round(0.03, 0.024),
             forearm_section = BarSection::round(0.016, 0.012);
  Material material = Material::aluminium();
  double platform_thickness = 0.015;
  bool drive_arms = false;  // q0 + amplitude·(sin(2π frequency t + 2π k/3) − sin(2π k/3))
  double drive_amplitude = 0.15, drive_frequency = 0.5;
};
MechanismSpec make_delta(const DeltaParams& p);

// Serial arm from a standard Denavit-Hartenberg table (z up): link i's frame {i} is
// {i-1} Rz(θ) Tz(d) Tx(a) Rx(α), with θ = q + theta for a revolute joint and d = q + d for a
// prismatic one; {0} is the ground frame at base_position. Body "link<i>" has frame {i}.
struct DhRow {
  double a = 0.0, alpha = 0.0, d = 0.0, theta = 0.0;
  bool prismatic = false;
  double mass = 1.0;  // the link is a rod of `link_radius` from joint i to {i}
  double q0 = 0.0;
};
struct DhArmParams {
  std::vector<DhRow> rows;  // 1 ... 12
  Vec3 base_position = Vec3::Zero();
  double link_radius = 0.03;
  bool drive_joints = false;  // q0 + amplitude·sin(2π frequency t)
  double drive_amplitude = 0.3, drive_frequency = 0.5;
  static DhArmParams puma560();  // Corke's mdl_puma560 kinematics on a 0.66 m pedestal
};
MechanismSpec make_dh_arm(const DhArmParams& p);

// The ladder of RBDA Fig. 8.4 with k loops, in the x-y plane: two rails of k revolute links
// (0.2 m) hinged to ground 0.15 m apart, and k rungs, each hinged to a top-rail tip and closing a
// loop on the matching bottom-rail tip. 3k bodies (rods of 3.4 kg/m), 4k revolute joints,
// mobility k. No spanning-tree method is O(n) on it (RBDA 8.13): a benchmark and test model.
MechanismSpec make_ladder(int k);

// The scale family of issue 17: two rails of `links` revolute rods (0.1 m, 3.4 kg/m) hanging from
// ground pivots 0.15 m apart in the x-y plane, tilted 0.2 rad from the vertical (they swing under
// gravity), joined by `rungs` horizontal rungs spread evenly along them (rung j at rail link
// round(j links / rungs), the last at the rails' ends), each closing a loop. 2 links + rungs
// bodies, `rungs` loops, mobility 2 links - rungs.
// make_hanging_ladder(450, 100): 1,000 bodies, 100 loops. Throws std::invalid_argument unless
// 1 <= rungs <= links.
MechanismSpec make_hanging_ladder(int links, int rungs);

// The planar truss of issue 17's scale families: `rails` parallel rails of `links` revolute rods
// (0.1 m, 3.4 kg/m) hanging from ground pivots 0.15 m apart in the x-y plane, tilted 0.2 rad
// from the vertical, with `rungs` horizontal rungs between each pair of neighbouring rails at
// the levels of make_hanging_ladder (each rung a child of the rail on its left, closing a loop
// on the one to its right): rows of four-bar cells. rails links + (rails - 1) rungs bodies,
// (rails - 1) rungs loops, mobility rails links - (rails - 1) rungs; its rails are only `links`
// deep (MuJoCo's XML reader takes up to ~95). make_hanging_net(10, 90, 10): 990 bodies, 90 loops.
// Throws std::invalid_argument unless rails >= 2 and 1 <= rungs <= links.
MechanismSpec make_hanging_net(int rails, int links, int rungs);

// A chain of k planar four-bar modules (crank 0.1 m, coupler 0.206 m, rocker 0.15 m, pivots
// 0.2 m apart; rods of 3.4 kg/m), each module's ground being the previous module's rocker:
// 3k bodies, 4k revolute joints, k local loops, mobility k; no gravity, the cranks started at
// alternately +1 and -1 rad/s. Every loop is its own aggregated
// node of three bodies (constraint embedding, issue 18): a benchmark and test model.
MechanismSpec make_fourbar_chain(int k);

}  // namespace articula
