// Closed-loop simulation (core/sim/simulation) checked against independent solutions.
// Tests 1-3 use references written from scratch in this file (RBDA 8.11: q = γ(y)): the
// loop-closure functions γ by circle/triangle geometry, their derivatives by second-order
// forward-mode jets (exact, no finite differences), and the dynamics by energy (Lagrange in one
// coordinate), power balance or planar free-body Newton-Euler; none of them calls the library's
// dynamics. Test 5 compares with the library's RNEA/ABA on purpose; test 7 takes body motion from
// the library's forward kinematics and checks the joint wrenches against it. Tests 1 and 3 run
// with the default solver (Method 2 with projection) and with constraint embedding (minimal
// coordinates, issue 18).
//
//  1. the four-bar of the factor-graph paper (Blanco-Claraco et al., Sect. 7 / Listing 1), free
//     motion under gravity: loop error, energy drift and the crank trajectory against the reduced
//     equation M(y) ÿ + ½ M'(y) ẏ² + V'(y) = 0 integrated with our own RK4;
//  2. a slider-crank driven at constant crank speed: crank torque against the power balance
//     τ ω = d(KE)/dt + d(PE)/dt, from the Simulation and from the CSV runner;
//  3. RBDA Figure 8.3 / Example 8.2 (two-link arm with a linear actuator): actuator forces at
//     joints 3 and 4 against u = G_u^-T G^T τ_ID with the example's γ, G and g.
//  4. a non-Grashof planar four-bar and a Bennett linkage swinging freely: redundant rows,
//     finiteness, bounded multipliers, loop closure;
//  5. a spatial tree with two motion-driven joints (hybrid dynamics) against RNEA and ABA;
//  6. setup errors: over-determining drives, and a rocker driven past its dead point;
//  7. joint wrenches (tree and loop joints together) against Newton-Euler for every body, and
//     a spring / force drive placed on the joint that the compiler makes the loop joint.
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/algorithms/aba.hpp"
#include "core/algorithms/energy.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/runner.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {

// ---------------------------------------------------------------------------------------------
// Second-order jets: value and first two derivatives with respect to one independent variable
// (the crank angle for γ, or time). Exact chain rule, so derivatives of γ are analytic.
struct Jet {
  double v = 0, d = 0, dd = 0;
};
Jet constant(double c) {
  return {c, 0, 0};
}
Jet operator+(Jet a, Jet b) {
  return {a.v + b.v, a.d + b.d, a.dd + b.dd};
}
Jet operator-(Jet a, Jet b) {
  return {a.v - b.v, a.d - b.d, a.dd - b.dd};
}
Jet operator-(Jet a) {
  return {-a.v, -a.d, -a.dd};
}
Jet operator*(Jet a, Jet b) {
  return {a.v * b.v, a.d * b.v + a.v * b.d, a.dd * b.v + 2 * a.d * b.d + a.v * b.dd};
}
Jet operator*(double s, Jet a) {
  return {s * a.v, s * a.d, s * a.dd};
}
Jet operator+(Jet a, double c) {
  return {a.v + c, a.d, a.dd};
}
Jet operator/(Jet a, Jet b) {
  const double q = a.v / b.v, q1 = (a.d - q * b.d) / b.v;
  return {q, q1, (a.dd - 2 * q1 * b.d - q * b.dd) / b.v};
}
Jet sin(Jet a) {
  const double s = std::sin(a.v), c = std::cos(a.v);
  return {s, c * a.d, c * a.dd - s * a.d * a.d};
}
Jet cos(Jet a) {
  const double s = std::sin(a.v), c = std::cos(a.v);
  return {c, -s * a.d, -s * a.dd - c * a.d * a.d};
}
Jet sqrt(Jet a) {
  const double r = std::sqrt(a.v), r1 = a.d / (2 * r);
  return {r, r1, (a.dd - 2 * r1 * r1) / (2 * r)};
}
Jet atan2(Jet y, Jet x) {  // angle of (x, y)
  const double r2 = x.v * x.v + y.v * y.v, r2d = 2 * (x.v * x.d + y.v * y.d);
  const double n = x.v * y.d - y.v * x.d, nd = x.v * y.dd - y.v * x.dd;
  const double d1 = n / r2;
  return {std::atan2(y.v, x.v), d1, (nd - d1 * r2d) / r2};
}

struct P2 {  // planar point (or vector) of jets
  Jet x, y;
};
P2 operator+(P2 a, P2 b) {
  return {a.x + b.x, a.y + b.y};
}
P2 operator-(P2 a, P2 b) {
  return {a.x - b.x, a.y - b.y};
}
P2 operator*(Jet s, P2 a) {
  return {s * a.x, s * a.y};
}
P2 fixed_point(double x, double y) {
  return {constant(x), constant(y)};
}
// p + R(angle) (lx, ly): a body-fixed point of a body at p turned by `angle`.
P2 body_point(P2 p, Jet angle, double lx, double ly) {
  const Jet c = cos(angle), s = sin(angle);
  return {p.x + lx * c - ly * s, p.y + lx * s + ly * c};
}
Jet angle_of(P2 v) {
  return atan2(v.y, v.x);
}
double dot_d_dd(P2 c) {
  return c.x.d * c.x.dd + c.y.d * c.y.dd;
}
double dot_d_d(P2 c) {
  return c.x.d * c.x.d + c.y.d * c.y.d;
}
double cross(double ax, double ay, double bx, double by) {
  return ax * by - ay * bx;
}

// A planar rigid body moving with jets: centre of mass and absolute angle.
struct PlanarBody {
  double m, I;  // mass, moment of inertia about the centre of mass (z)
  P2 c;
  Jet phi;
};

// ---------------------------------------------------------------------------------------------
// Spec helpers.
PoseSpec at(double x, double y, double z = 0) {
  PoseSpec p;
  p.position = Vec3(x, y, z);
  return p;
}
PoseSpec rotated(PoseSpec p, double angle, const Vec3& axis) {
  p.orientation = Quat(Eigen::AngleAxisd(angle, axis));
  return p;
}
// Uniform slender body along its x axis: Izz = Iyy = m L²/12 about the centre of mass, plus a
// small Ixx so that the 3-D inertia is positive definite (irrelevant to planar motion).
BodySpec rod(const std::string& name, double m, double L) {
  BodySpec b;
  b.name = name;
  b.mass = m;
  b.com = Vec3(L / 2, 0, 0);
  b.inertia = {1e-4 * m, m * L * L / 12, m * L * L / 12, 0, 0, 0};
  return b;
}
JointSpec joint(const std::string& name, Joint type, const std::string& parent,
                const std::string& child, PoseSpec in_parent, PoseSpec in_child,
                std::optional<double> q0 = std::nullopt) {
  JointSpec j;
  j.name = name;
  j.joint = type;
  j.parent = parent;
  j.child = child;
  j.parent_frame = in_parent;
  j.child_frame = in_child;
  if (q0) j.q0 = std::vector<double>{*q0};
  return j;
}
DriveSpec motion(const std::string& expr) {
  DriveSpec d;
  d.kind = DriveSpec::Kind::Motion;
  d.expression = expr;
  return d;
}
DriveSpec force(const std::string& expr) {
  DriveSpec d;
  d.kind = DriveSpec::Kind::Force;
  d.expression = expr;
  return d;
}
std::string num(double x) {
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}
double q_of(const Simulation& sim, int user_joint) {
  return sim.q()[sim.mechanism().compiled.q_index(user_joint)];
}

// ---------------------------------------------------------------------------------------------
// 1. The factor-graph paper's four-bar (Listing 1): A = (0,0) and B = (4,0) fixed, P1 = (1,0),
// P2 = (1,2); crank A-P1 (L = 1, 1 kg), coupler P1-P2 (L = 2, 2 kg), rocker P2-B (L = √13,
// 4 kg), uniform rods (I0 = m L²/3 about the end = m L²/12 about the centre), g = 9.8 along -y,
// crank angle θ = 0 and at rest at t = 0.
struct PaperFourBar {
  double L1 = 1, L2 = 2, L3 = std::sqrt(13.0), xB = 4;
  double m1 = 1, m2 = 2, m3 = 4, g = 9.8;

  MechanismSpec spec() const {
    MechanismSpec s;
    s.name = "factor-graph four-bar";
    s.gravity = Vec3(0, -g, 0);
    s.bodies = {rod("crank", m1, L1), rod("coupler", m2, L2), rod("rocker", m3, L3)};
    // Body frames: crank at A, x toward P1; coupler at P1, x toward P2; rocker at B, x toward P2.
    s.joints.push_back(joint("A", Joint::revolute(), "ground", "crank", at(0, 0), at(0, 0), 0.0));
    s.joints.push_back(
        joint("P1", Joint::revolute(), "crank", "coupler", at(L1, 0), at(0, 0), kPi / 2));
    // P2's q0 (rocker angle - coupler angle) only matters when P2 is made a tree joint.
    s.joints.push_back(joint("P2", Joint::revolute(), "coupler", "rocker", at(L2, 0), at(L3, 0),
                             std::atan2(2.0, -3.0) - kPi / 2));
    s.joints.push_back(joint("B", Joint::revolute(), "ground", "rocker", at(xB, 0), at(0, 0),
                             std::atan2(2.0, -3.0)));
    return s;
  }

  // γ: the bodies as functions of the crank angle (a jet in θ), P2 by circle intersection on
  // the branch through (1, 2) (left of the ray P1→B). Crank-rocker (Grashof, 1 + 4 < 2 + √13):
  // |P1 B| stays in [3, 5], so the intersection never degenerates and θ is a global coordinate.
  std::vector<PlanarBody> bodies(Jet th) const {
    const P2 A = fixed_point(0, 0), B = fixed_point(xB, 0);
    const P2 p1 = body_point(A, th, L1, 0);
    const P2 e = B - p1;
    const Jet D = sqrt(e.x * e.x + e.y * e.y);
    const Jet a = (D * D + (L2 * L2 - L3 * L3)) / (2.0 * D);
    const Jet h = sqrt(constant(L2 * L2) - a * a);
    const P2 u = {e.x / D, e.y / D}, n = {-u.y, u.x};
    const P2 p2 = p1 + a * u + h * n;
    const Jet phi2 = angle_of(p2 - p1), phi3 = angle_of(p2 - B);
    return {{m1, m1 * L1 * L1 / 12, body_point(A, th, L1 / 2, 0), th},
            {m2, m2 * L2 * L2 / 12, body_point(p1, phi2, L2 / 2, 0), phi2},
            {m3, m3 * L3 * L3 / 12, body_point(B, phi3, L3 / 2, 0), phi3}};
  }
  // Reduced equation of motion: ÿ = -(½ M'(y) ẏ² + V'(y)) / M(y), with
  // M = Σ m |dc/dy|² + I (dφ/dy)², ½ M' = Σ m dc/dy·d²c/dy² + I dφ/dy d²φ/dy², V' = Σ m g dc_y/dy.
  double acceleration(double y, double yd) const {
    double M = 0, halfMp = 0, Vp = 0;
    for (const PlanarBody& b : bodies({y, 1, 0})) {
      M += b.m * dot_d_d(b.c) + b.I * b.phi.d * b.phi.d;
      halfMp += b.m * dot_d_dd(b.c) + b.I * b.phi.d * b.phi.dd;
      Vp += b.m * g * b.c.y.d;
    }
    return -(halfMp * yd * yd + Vp) / M;
  }
  double energy(double y, double yd, double* ke = nullptr) const {
    double T = 0, V = 0;
    for (const PlanarBody& b : bodies({y, 1, 0})) {
      T += 0.5 * (b.m * dot_d_d(b.c) + b.I * b.phi.d * b.phi.d) * yd * yd;
      V += b.m * g * b.c.y.v;
    }
    if (ke) *ke = T;
    return T + V;
  }
};

}  // namespace

TEST_CASE("factor-graph four-bar: free swing against the reduced-coordinate solution",
          "[sim][closed_loop]") {
  const PaperFourBar fb;
  const Mechanism mech = prepare(fb.spec());
  REQUIRE(mech.compiled.loops.size() == 1);
  REQUIRE(mech.mobility.mobility == 1);
  // Method 2 with projection, and constraint embedding in minimal coordinates (issue 18).
  SimulationOptions options;
  options.solver = GENERATE(SolverChoice::Auto, SolverChoice::Embedding);
  INFO("solver " << solver_name(options.solver));
  Simulation sim(mech, options);
  const Model& model = mech.model();
  Data data(model);
  auto total_energy = [&](double* ke) {
    forward_kinematics(model, data, sim.q(), sim.qd());
    *ke = kinetic_energy(model, data);
    return *ke + potential_energy(model, data);
  };
  const int iA = 0;  // joint A: the crank angle
  double ke = 0;
  sim.evaluate();
  const double E0 = total_energy(&ke);
  CHECK(std::abs(q_of(sim, iA)) <= 1e-12);  // θ(0) = 0 as in the paper
  CHECK(sim.qd().norm() <= 1e-12);          // released from rest

  // The reduced model's own energy at t = 0 equals the library's (same potential datum: origin).
  CHECK(std::abs(fb.energy(0, 0) - E0) <= 1e-12 * std::abs(E0));  // 1e-12 relative: same formula

  const double h = 1e-3;
  const int steps = 5000;  // 5 s
  double y = 0, yd = 0;
  double max_loop = sim.loop_error(), max_dE = 0, max_ke = 0, max_dy = 0, max_dyd = 0,
         E_red_drift = 0;
  const double E_red0 = fb.energy(0, 0);
  for (int n = 1; n <= steps; ++n) {
    sim.step(h, Integrator::RK4);
    sim.evaluate();
    max_loop = std::max(max_loop, sim.loop_error());
    max_dE = std::max(max_dE, std::abs(total_energy(&ke) - E0));
    max_ke = std::max(max_ke, ke);
    // Our RK4 on the reduced equation, same step.
    auto f = [&](double yy, double vv) { return fb.acceleration(yy, vv); };
    const double k1y = yd, k1v = f(y, yd);
    const double k2y = yd + 0.5 * h * k1v, k2v = f(y + 0.5 * h * k1y, yd + 0.5 * h * k1v);
    const double k3y = yd + 0.5 * h * k2v, k3v = f(y + 0.5 * h * k2y, yd + 0.5 * h * k2v);
    const double k4y = yd + h * k3v, k4v = f(y + h * k3y, yd + h * k3v);
    y += h / 6 * (k1y + 2 * k2y + 2 * k3y + k4y);
    yd += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    max_dy = std::max(max_dy, std::abs(q_of(sim, iA) - y));
    max_dyd = std::max(max_dyd, std::abs(sim.qd()[mech.compiled.v_index(iA)] - yd));
    E_red_drift = std::max(E_red_drift, std::abs(fb.energy(y, yd) - E_red0));
  }
  const double swing = max_ke;
  INFO("max loop error " << max_loop << ", energy drift " << max_dE << " J of swing energy "
                         << swing << " J (relative " << max_dE / swing
                         << "), reduced-model energy drift " << E_red_drift
                         << ", max |θ_sim - θ_reduced| " << max_dy << " rad, max |θ̇ diff| "
                         << max_dyd << " rad/s, final θ " << y);
  WARN("four-bar: loop error max "
       << max_loop << ", energy drift " << max_dE / swing << " of swing energy " << swing << " J ("
       << max_dE << " J), max |Δθ| " << max_dy << " rad, max |Δθ̇| " << max_dyd
       << " rad/s, reduced-model energy drift " << E_red_drift << " J, θ(5 s) = " << y);
  CHECK(swing > 1.0);                  // it really swings (sanity: tens of joules here)
  CHECK(max_loop <= 1e-10);            // brief: loop error ≤ 1e-10 at every step
  CHECK(max_dE <= 1e-6 * swing);       // brief: energy drift ≤ 1e-6 of the swing energy
  CHECK(E_red_drift <= 1e-6 * swing);  // the reference itself conserves energy as well
  CHECK(max_dy <= 1e-6);               // brief: crank trajectory within 1e-6 rad over 5 s
}

namespace {

// ---------------------------------------------------------------------------------------------
// 2. Slider-crank: crank O-A (r) about the origin, rod A-B (L), slider B on the line y = e,
// sliding along x. Crank motion-driven at θ = ω t.
struct SliderCrank {
  double r = 0.1, L = 0.35, e = 0.03, g = 9.81;
  double m1 = 2.0, I1 = 3e-3, c1x = 0.04, c1y = 0.01;  // crank, centre of mass off the axis
  double m2 = 1.2, c2x = 0.15;  // rod, uniform about its own centre: I2 below
  double m3 = 2.5;              // slider (does not rotate)
  double I2() const { return m2 * L * L / 12; }

  MechanismSpec spec(const std::string& law, double theta0) const {
    MechanismSpec s;
    s.name = "slider-crank";
    s.gravity = Vec3(0, -g, 0);
    BodySpec crank;
    crank.name = "crank";
    crank.mass = m1;
    crank.com = Vec3(c1x, c1y, 0);
    crank.inertia = {I1 / 2, I1 / 2 + 1e-4, I1, 0, 0, 0};
    BodySpec rod_b;
    rod_b.name = "rod";
    rod_b.mass = m2;
    rod_b.com = Vec3(c2x, 0, 0);
    rod_b.inertia = {1e-5, I2(), I2(), 0, 0, 0};
    BodySpec slider;
    slider.name = "slider";
    slider.mass = m3;
    slider.inertia = {1e-3, 1e-3, 1e-3, 0, 0, 0};
    s.bodies = {crank, rod_b, slider};
    const double psi0 = std::asin((e - r * std::sin(theta0)) / L);
    const double xB0 = r * std::cos(theta0) + L * std::cos(psi0);
    JointSpec O = joint("O", Joint::revolute(), "ground", "crank", at(0, 0), at(0, 0), theta0);
    O.drive = motion(law);
    s.joints.push_back(O);
    s.joints.push_back(
        joint("A", Joint::revolute(), "crank", "rod", at(r, 0), at(0, 0), psi0 - theta0));
    s.joints.push_back(joint("B", Joint::revolute(), "rod", "slider", at(L, 0), at(0, 0)));
    // Prismatic along world x: joint frames turned +90° about y (z → x) on both sides.
    s.joints.push_back(joint("slide", Joint::prismatic(), "ground", "slider",
                             rotated(at(0, e), kPi / 2, Vec3::UnitY()),
                             rotated(at(0, 0), kPi / 2, Vec3::UnitY()), xB0));
    return s;
  }

  // Exact kinematics with time jets (θ given as a time jet): bodies of the mechanism.
  std::vector<PlanarBody> bodies(Jet th) const {
    const P2 O = fixed_point(0, 0);
    const P2 A = body_point(O, th, r, 0);
    const Jet s = (constant(e) - r * sin(th)) / constant(L);  // sin ψ
    const Jet psi = atan2(s, sqrt(constant(1) - s * s));  // ψ ∈ (-π/2, π/2): slider to the right
    const P2 B = body_point(A, psi, L, 0);
    return {{m1, I1, body_point(O, th, c1x, c1y), th},
            {m2, I2(), body_point(A, psi, c2x, 0), psi},
            {m3, 0, B, constant(0)}};
  }
  // Power balance for the ideal mechanism: τ θ̇ = d(KE)/dt + d(PE)/dt
  //   = Σ m ċ·c̈ + I φ̇ φ̈ + Σ m g ċ_y.
  double torque(double t, double omega, double theta0) const {
    double P = 0;
    for (const PlanarBody& b : bodies({theta0 + omega * t, omega, 0}))
      P += b.m * dot_d_dd(b.c) + b.I * b.phi.d * b.phi.dd + b.m * g * b.c.y.d;
    return P / omega;
  }
};

}  // namespace

TEST_CASE("slider-crank at constant crank speed: drive torque equals the power balance",
          "[sim][closed_loop]") {
  const SliderCrank sc;
  const double omega = 2 * kPi;  // one revolution per second
  const Mechanism mech = prepare(sc.spec("2*pi*t", 0.0));
  REQUIRE(mech.compiled.loops.size() == 1);
  REQUIRE(mech.mobility.mobility == 1);
  REQUIRE(mech.spec.joints[0].name == "O");

  // Reference over one revolution and its peak.
  const int steps = 1000;
  const double h = 1e-3;
  double peak = 0;
  for (int n = 0; n <= steps; ++n) peak = std::max(peak, std::abs(sc.torque(n * h, omega, 0.0)));
  REQUIRE(peak > 1.0);  // sanity: a few N·m

  SECTION("Simulation::joint_states") {
    Simulation sim(mech);
    double max_err = 0, max_loop = 0;
    for (int n = 0; n <= steps; ++n) {
      if (n > 0) sim.step(h, Integrator::RK4);
      sim.evaluate();
      max_loop = std::max(max_loop, sim.loop_error());
      const double t = sim.time();
      CHECK(std::abs(q_of(sim, 0) - omega * t) <= 1e-12 * (1 + omega * t));  // the drive is exact
      max_err =
          std::max(max_err, std::abs(sim.joint_states()[0].tau[0] - sc.torque(t, omega, 0.0)));
    }
    INFO("peak torque " << peak << " N·m, max |τ_sim - τ_power| " << max_err << ", max loop error "
                        << max_loop);
    WARN("slider-crank (Simulation): peak torque " << peak << " N·m, max error " << max_err
                                                   << " (relative " << max_err / peak
                                                   << "), loop error max " << max_loop);
    CHECK(max_err <= 1e-8 * peak);  // brief: 1e-8 relative to the peak torque
    CHECK(max_loop <= 1e-10);       // loops stay closed while driven
  }

  SECTION("CSV runner: the O.tau column") {
    RunOptions opt;
    opt.duration = 1.0;
    opt.step = h;
    opt.integrator = Integrator::RK4;
    std::ostringstream out;
    run_to_csv(mech, opt, out);
    std::istringstream in(out.str());
    std::string line;
    REQUIRE(std::getline(in, line));
    std::vector<std::string> header;
    {
      std::stringstream ls(line);
      std::string cell;
      while (std::getline(ls, cell, ',')) header.push_back(cell);
    }
    int col_t = -1, col_tau = -1;
    for (int c = 0; c < static_cast<int>(header.size()); ++c) {
      if (header[c] == "t") col_t = c;
      if (header[c] == "O.tau") col_tau = c;
    }
    REQUIRE(col_t == 0);
    REQUIRE(col_tau > 0);
    int rows = 0;
    double max_err = 0, last_t = -1;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      std::vector<double> cells;
      std::stringstream ls(line);
      std::string cell;
      while (std::getline(ls, cell, ',')) cells.push_back(std::stod(cell));
      REQUIRE(cells.size() == header.size());
      last_t = cells[col_t];
      max_err = std::max(max_err, std::abs(cells[col_tau] - sc.torque(last_t, omega, 0.0)));
      ++rows;
    }
    INFO("CSV rows " << rows << ", max |τ_csv - τ_power| " << max_err);
    WARN("slider-crank (CSV): max error " << max_err << " (relative " << max_err / peak << ")");
    CHECK(rows == steps + 1);                // t = 0 .. 1 s, one row per step
    CHECK(std::abs(last_t - 1.0) <= 1e-12);  // the last row is at the end time
    CHECK(max_err <= 1e-8 * peak);           // brief: 1e-8 relative to the peak torque
  }
}

namespace {

// ---------------------------------------------------------------------------------------------
// 3. RBDA Figure 8.3: a two-link arm B1-B4 raised by a linear actuator (cylinder B2, piston B3).
// Joint 1 (revolute) at the origin carries B1; joint 2 (revolute) at (l1, 0) on the ground
// carries the cylinder; joint 3 (prismatic) slides the piston along the cylinder axis, q3 = d =
// distance from joint 2 to joint 5; joint 5 (revolute, the loop joint) pins the piston to B1 at
// distance l2 from joint 1; joint 4 (revolute) at the end of B1 carries B4. The triangle formulae
// of the figure: d² = l1² + l2² - 2 l1 l2 cos θ1, θ2 = atan2(l2 sin θ1, l2 cos θ1 - l1).
struct Fig83 {
  double l1 = 0.4, l2 = 0.6, La = 1.0, g = 9.81;
  // (mass, com x along the body axis, Izz about the com)
  double m1 = 3.0, c1 = 0.5, I1 = 0.25;   // arm link 1
  double m2 = 2.0, c2 = 0.15, I2 = 0.02;  // cylinder
  double m3 = 1.0, c3 = -0.1, I3 = 0.01;  // piston (rod reaches back into the cylinder)
  double m4 = 1.5, c4 = 0.4, I4 = 0.08;   // arm link 2
  double y10 = 1.2;                       // initial θ1

  double d_of(double y1) const { return std::sqrt(l1 * l1 + l2 * l2 - 2 * l1 * l2 * std::cos(y1)); }
  std::string d_law() const { return num(d_of(y10)) + " + 0.05*sin(3*t)"; }
  std::string q4_law() const { return "0.5 + 0.8*sin(2*t)"; }

  static BodySpec body(const std::string& name, double m, double cx, double Izz) {
    BodySpec b;
    b.name = name;
    b.mass = m;
    b.com = Vec3(cx, 0, 0);
    b.inertia = {0.5 * Izz, 0.5 * Izz + 1e-4, Izz, 0, 0, 0};
    return b;
  }
  MechanismSpec spec() const {
    MechanismSpec s;
    s.name = "RBDA Fig. 8.3";
    s.gravity = Vec3(0, -g, 0);
    s.bodies = {body("B1", m1, c1, I1), body("B2", m2, c2, I2), body("B3", m3, c3, I3),
                body("B4", m4, c4, I4)};
    const double theta2 = std::atan2(l2 * std::sin(y10), l2 * std::cos(y10) - l1);
    s.joints.push_back(joint("j1", Joint::revolute(), "ground", "B1", at(0, 0), at(0, 0), y10));
    s.joints.push_back(joint("j2", Joint::revolute(), "ground", "B2", at(l1, 0), at(0, 0), theta2));
    const PoseSpec along_x = rotated(at(0, 0), kPi / 2, Vec3::UnitY());  // joint z along body x
    JointSpec j3 = joint("j3", Joint::prismatic(), "B2", "B3", along_x, along_x);
    j3.drive = motion(d_law());
    s.joints.push_back(j3);
    JointSpec j4 = joint("j4", Joint::revolute(), "B1", "B4", at(La, 0), at(0, 0));
    j4.drive = motion(q4_law());
    s.joints.push_back(j4);
    s.joints.push_back(joint("j5", Joint::revolute(), "B1", "B3", at(l2, 0), at(0, 0)));
    return s;
  }

  // Tree inverse dynamics τ_ID = ID(q, q̇, q̈) of the spanning tree (joints 1-4, loop joint 5 cut),
  // by planar free-body Newton-Euler on each joint's subtree, with q as time jets:
  //   revolute at p: τ = Σ_subtree I φ̈ + (c - p) × m (c̈ - g);  prismatic along e: τ = Σ m (c̈ -
  //   g)·e.
  std::array<double, 4> tree_id(const std::array<Jet, 4>& q) const {
    const P2 o1 = fixed_point(0, 0), o2 = fixed_point(l1, 0);
    const Jet phi1 = q[0], phi2 = q[1], phi4 = q[0] + q[3];
    const P2 o3 = body_point(o2, phi2, 0, 0) + q[2] * P2{cos(phi2), sin(phi2)};
    const P2 o4 = body_point(o1, phi1, La, 0);
    const PlanarBody b1{m1, I1, body_point(o1, phi1, c1, 0), phi1},
        b2{m2, I2, body_point(o2, phi2, c2, 0), phi2},
        b3{m3, I3, body_point(o3, phi2, c3, 0), phi2},
        b4{m4, I4, body_point(o4, phi4, c4, 0), phi4};
    auto moment = [&](const PlanarBody& b, const P2& p) {
      return b.I * b.phi.dd + b.m * cross(b.c.x.v - p.x.v, b.c.y.v - p.y.v, b.c.x.dd, b.c.y.dd + g);
    };
    const double ex = std::cos(phi2.v), ey = std::sin(phi2.v);
    return {moment(b1, o1) + moment(b4, o1), moment(b2, o2) + moment(b3, o2),
            m3 * (b3.c.x.dd * ex + (b3.c.y.dd + g) * ey), moment(b4, o4)};
  }
};

}  // namespace

TEST_CASE("RBDA Fig. 8.3 / Example 8.2: actuator forces at joints 3 and 4", "[sim][closed_loop]") {
  const Fig83 arm;
  const Mechanism mech = prepare(arm.spec());
  REQUIRE(mech.compiled.loops.size() == 1);
  CHECK(mech.compiled.loops[0].name == "j5");  // joint 5 is the loop joint, as in the book
  CHECK(mech.mobility.mobility == 2);          // "its mobility is 2"
  CHECK(mech.mobility.redundant == 3);         // planar loop: 5 rows, rank 2
  const Expression d_law = Expression::parse(arm.d_law()), q4_law = Expression::parse(arm.q4_law());
  SimulationOptions options;  // Method 2, and constraint embedding (issue 18)
  options.solver = GENERATE(SolverChoice::Auto, SolverChoice::Embedding);
  INFO("solver " << solver_name(options.solver));
  Simulation sim(mech, options);
  const double h = 1e-3, l1 = arm.l1, l2 = arm.l2;
  double max_rel = 0, max_q_err = 0, peak3 = 0, peak4 = 0;
  for (int n = 0; n <= 2000; ++n) {  // 2 s
    if (n > 0) sim.step(h, Integrator::RK4);
    if (n % 10) continue;
    sim.evaluate();
    const double t = sim.time();
    // y1 = θ1 from the prescribed d (inverse of the triangle formula, θ1 ∈ (0, π)), then ẏ1, ÿ1
    // from ḋ = u2 ẏ1 and d̈ = u2 ÿ1 + u4 (u4 ∝ ẏ1²); y2 = q4 is prescribed directly.
    const TimeJet dj = d_law.eval(t), q4 = q4_law.eval(t);
    const double d = dj.value;
    const double y1 = std::acos((l1 * l1 + l2 * l2 - d * d) / (2 * l1 * l2));
    const double u1 = (l2 * l2 - l1 * l2 * std::cos(y1)) / (d * d);
    const double u2 = l1 * l2 * std::sin(y1) / d;
    const double yd1 = dj.d1 / u2;
    const double u3 = (l1 * l1 - l2 * l2) * l1 * l2 * std::sin(y1) / std::pow(d, 4) * yd1 * yd1;
    const double u4 = (l1 * l2 * std::cos(y1) - u2 * u2) / d * yd1 * yd1;
    const double ydd1 = (dj.d2 - u4) / u2;
    const double theta2 = std::atan2(l2 * std::sin(y1), l2 * std::cos(y1) - l1);
    // γ(y), G ẏ, G ÿ + g (Fig. 8.3).
    const std::array<Jet, 4> q = {Jet{y1, yd1, ydd1}, Jet{theta2, u1 * yd1, u1 * ydd1 + u3},
                                  Jet{d, u2 * yd1, u2 * ydd1 + u4}, Jet{q4.value, q4.d1, q4.d2}};
    const std::array<double, 4> tau = arm.tree_id(q);
    // Example 8.2: u = [1/u2 u1/u2 1 0; 0 0 0 1] τ_ID.
    const double uj3 = tau[0] / u2 + u1 / u2 * tau[1] + tau[2], uj4 = tau[3];
    const double s3 = sim.joint_states()[2].tau[0], s4 = sim.joint_states()[3].tau[0];
    peak3 = std::max(peak3, std::abs(uj3));
    peak4 = std::max(peak4, std::abs(uj4));
    max_rel = std::max({max_rel, std::abs(s3 - uj3) / std::max(1.0, std::abs(uj3)),
                        std::abs(s4 - uj4) / std::max(1.0, std::abs(uj4))});
    // The simulated unactuated coordinates follow γ as well.
    max_q_err = std::max({max_q_err, std::abs(q_of(sim, 0) - y1), std::abs(q_of(sim, 1) - theta2)});
  }
  INFO("peak |u3| " << peak3 << " N, peak |u4| " << peak4 << " N·m, max relative error " << max_rel
                    << ", max |q - γ(y)| " << max_q_err);
  WARN("Fig. 8.3: peak actuator force " << peak3 << " N, torque " << peak4
                                        << " N·m, max relative error " << max_rel
                                        << ", max |q - γ(y)| " << max_q_err);
  CHECK(peak3 > 1.0);         // sanity: the actuator carries the arm
  CHECK(max_rel <= 1e-8);     // 1e-8 relative (absolute below 1 N / N·m)
  CHECK(max_q_err <= 1e-10);  // loop closure by projection to 1e-12; 1e-10 rad margin
}

namespace {

// ---------------------------------------------------------------------------------------------
// Shared checks for the remaining tests.
bool outputs_finite(const Simulation& sim) {
  if (!sim.q().allFinite() || !sim.qd().allFinite() || !sim.qdd().allFinite() ||
      !sim.tau().allFinite())
    return false;
  for (const Force& f : sim.wrench())
    if (!f.allFinite()) return false;
  for (const Simulation::JointState& js : sim.joint_states())
    if (!js.q.allFinite() || !js.qd.allFinite() || !js.qdd.allFinite() || !js.tau.allFinite())
      return false;
  return true;
}
double max_wrench_component(const Simulation& sim) {
  double m = 0;
  for (const Force& f : sim.wrench()) m = std::max(m, f.cwiseAbs().maxCoeff());
  return m;
}

// Planar four-bar with ground pivots A = 0 and D = (d, 0): crank AB = a, coupler BC = b, rocker
// DC = c; body frames at A, B and D with x along AB, BC, DC; joints A, B, C, D in file order.
struct FourBar {
  double a, b, c, d;
  double m1 = 1.0, m2 = 1.5, m3 = 1.2;
  Vec3 closing_point(const Vec3& B, int side) const {
    const Vec3 e = Vec3(d, 0, 0) - B;
    const double L = e.norm(), x = (b * b - c * c + L * L) / (2 * L), h = std::sqrt(b * b - x * x);
    const Vec3 u = e / L, n(-u.y(), u.x(), 0);
    return B + x * u + side * h * n;
  }
  MechanismSpec spec(double theta, int side = 1) const {
    const Vec3 B(a * std::cos(theta), a * std::sin(theta), 0), C = closing_point(B, side);
    const double phi = std::atan2(C.y() - B.y(), C.x() - B.x()), psi = std::atan2(C.y(), C.x() - d);
    MechanismSpec s;
    s.name = "four-bar";
    s.bodies = {rod("crank", m1, a), rod("coupler", m2, b), rod("rocker", m3, c)};
    s.joints.push_back(joint("A", Joint::revolute(), "ground", "crank", at(0, 0), at(0, 0), theta));
    s.joints.push_back(
        joint("B", Joint::revolute(), "crank", "coupler", at(a, 0), at(0, 0), phi - theta));
    s.joints.push_back(joint("C", Joint::revolute(), "coupler", "rocker", at(b, 0), at(c, 0)));
    s.joints.push_back(joint("D", Joint::revolute(), "ground", "rocker", at(d, 0), at(0, 0), psi));
    return s;
  }
};

// Bennett linkage with Denavit-Hartenberg frames: body i carries DH frame i (on the axis of joint
// i+1), frame i = frame i-1 · Rz(θi) · Tx(a_i) · Rx(α_i), frame 4 = frame 0 = world. Joint i has
// its parent frame at frame i-1 and its child frame at (Tx(a_i) Rx(α_i))^-1 in body i. Bennett:
// a1 = a3 = a, a2 = a4 = b, α1 = α3 = α, α2 = α4 = β, a / sin α = b / sin β, zero offsets; it
// closes for θ3 = -θ1, θ4 = -θ2, tan(θ1/2) tan(θ2/2) = sin((β+α)/2) / sin((β-α)/2).
struct Bennett {
  double a = 0.25, al = 40 * kPi / 180, be = 75 * kPi / 180;
  double b() const { return a * std::sin(be) / std::sin(al); }
  double theta2_of(double th1) const {
    return 2 * std::atan(std::sin((be + al) / 2) / std::sin((be - al) / 2) / std::tan(th1 / 2));
  }
  static Eigen::Isometry3d dh(double th, double ai, double alpha) {
    Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
    X.rotate(Eigen::AngleAxisd(th, Vec3::UnitZ()));
    X.translate(Vec3(ai, 0, 0));
    X.rotate(Eigen::AngleAxisd(alpha, Vec3::UnitX()));
    return X;
  }
  MechanismSpec spec(double th1) const {
    const double th2 = theta2_of(th1), len[4] = {a, b(), a, b()}, tw[4] = {al, be, al, be};
    MechanismSpec s;
    s.name = "Bennett";
    s.gravity = Vec3(0, -9.81, 0);
    const double mass[3] = {0.8, 1.1, 0.9};
    for (int k = 0; k < 3; ++k) {
      BodySpec body = rod("link" + std::to_string(k + 1), mass[k], len[k]);
      body.com = Vec3(-len[k] / 2, 0, 0);  // the link runs from joint i (at -a_i) to the origin
      s.bodies.push_back(body);
    }
    auto child = [&](int k) {  // (Tx(a) Rx(α))^-1 = Rx(-α) Tx(-a)
      return rotated(at(-len[k], 0), -tw[k], Vec3::UnitX());
    };
    s.joints.push_back(joint("J1", Joint::revolute(), "ground", "link1", at(0, 0), child(0), th1));
    s.joints.push_back(joint("J2", Joint::revolute(), "link1", "link2", at(0, 0), child(1), th2));
    s.joints.push_back(joint("J3", Joint::revolute(), "link2", "link3", at(0, 0), child(2), -th1));
    s.joints.push_back(joint("J4", Joint::revolute(), "link3", "ground", at(0, 0), child(3), -th2));
    return s;
  }
};

// Runs `seconds` under gravity and checks the per-step invariants of test 4.
void swing_and_check(const Mechanism& mech, double seconds, const char* label) {
  Simulation sim(mech);
  double max_loop = 0, max_w = 0;
  bool finite = true;
  const int steps = static_cast<int>(std::lround(seconds / 1e-3));
  for (int n = 0; n <= steps && finite; ++n) {
    if (n > 0) sim.step(1e-3, Integrator::RK4);
    sim.evaluate();
    finite = outputs_finite(sim);
    max_loop = std::max(max_loop, sim.loop_error());
    max_w = std::max(max_w, max_wrench_component(sim));
  }
  INFO(label << ": max loop error " << max_loop << ", max wrench component " << max_w);
  WARN(label << ": 2 s swing, loop error max " << max_loop << ", largest wrench component "
             << max_w);
  CHECK(finite);             // no NaN/inf in q, qd, qdd, tau, wrenches or joint states
  CHECK(max_w < 1e4);        // brief: multipliers bounded, every wrench component < 1e4 N (N·m)
  CHECK(max_loop <= 1e-10);  // brief: loop error ≤ 1e-10 at every step
  CHECK(std::abs(sim.time() - seconds) <= 1e-9);
}

}  // namespace

TEST_CASE("planar four-bar and Bennett linkage: redundant rows and a clean 2 s swing",
          "[sim][closed_loop]") {
  SECTION("non-Grashof planar four-bar (triple rocker, s + l > p + q)") {
    const FourBar fb{0.3, 0.35, 0.3, 0.4};
    MechanismSpec s = fb.spec(1.0);
    const Mechanism mech = prepare(s);
    REQUIRE(mech.compiled.loops.size() == 1);
    // Tree: 3 revolutes; loop revolute: 5 rows. Planar: the two out-of-plane rotation rows and the
    // z translation row are identically zero, leaving rank 2 → mobility 1, 3 redundant rows.
    CHECK(mech.mobility.constraint_rows == 5);
    CHECK(mech.mobility.rank == 2);
    CHECK(mech.mobility.mobility == 1);
    CHECK(mech.mobility.redundant == 3);
    CHECK(mech.mobility.redundant_rows.size() == 3);
    CHECK(mech.planar);
    CHECK(mech.gruebler == 1);
    swing_and_check(mech, 2.0, "non-Grashof four-bar");
  }
  SECTION("Bennett spatial 4R") {
    const Bennett bn;
    // The DH chain closes at the chosen angles (1e-14: double rounding of 4 rotations).
    const double th1 = 0.9, th2 = bn.theta2_of(th1);
    const Eigen::Isometry3d loop = Bennett::dh(th1, bn.a, bn.al) * Bennett::dh(th2, bn.b(), bn.be) *
                                   Bennett::dh(-th1, bn.a, bn.al) *
                                   Bennett::dh(-th2, bn.b(), bn.be);
    REQUIRE(loop.matrix().isIdentity(1e-14));
    const Mechanism mech = prepare(bn.spec(th1));
    REQUIRE(mech.compiled.loops.size() == 1);
    CHECK(mech.assembly.residual <= 1e-12);
    // Expected: the tree has 3 coordinates and the loop revolute 5 rows. Bennett's conditions give
    // a one-parameter family of closed configurations (mobility 1, not Grübler's -2), so
    // rank K = 3 - 1 = 2 and 5 - 2 = 3 rows are redundant, as for the planar four-bar (there the
    // dependence is trivial, three zero rows; here it comes from Bennett's special geometry).
    CHECK_FALSE(mech.planar);
    CHECK(mech.gruebler == -2);
    CHECK(mech.mobility.rank == 2);
    CHECK(mech.mobility.mobility == 1);
    CHECK(mech.mobility.redundant == 3);
    const auto red = mech.redundant_joints();
    REQUIRE(red.size() == 1);
    CHECK(red[0].second == 3);
    swing_and_check(mech, 2.0, "Bennett");
  }
}

TEST_CASE("hybrid dynamics in a spatial tree: driven joints 1 and 3 against RNEA and ABA",
          "[sim][closed_loop]") {
  MechanismSpec s;
  s.name = "spatial chain";
  s.gravity = Vec3(0.3, -9.81, 0.5);
  const double masses[4] = {2.0, 1.5, 1.0, 0.7};
  for (int k = 0; k < 4; ++k) {
    BodySpec b;
    b.name = "b" + std::to_string(k + 1);
    b.mass = masses[k];
    b.com = Vec3(0.1 + 0.02 * k, 0.03, -0.02 * k);
    b.inertia = {0.02, 0.025, 0.018, 0.002, -0.001, 0.0015};
    s.bodies.push_back(b);
  }
  auto pose = [](double x, double y, double z, double angle, const Vec3& axis) {
    return rotated(at(x, y, z), angle, axis.normalized());
  };
  JointSpec j1 =
      joint("j1", Joint::revolute(), "ground", "b1", pose(0, 0.1, 0, 0.3, Vec3(1, 0, 0)), at(0, 0));
  j1.drive = motion("0.3*sin(2*t) + 0.1*t");
  JointSpec j2 = joint("j2", Joint::revolute(), "b1", "b2", pose(0.3, 0, 0.05, 1.1, Vec3(1, 1, 0)),
                       pose(-0.02, 0, 0, 0.4, Vec3(0, 0, 1)), 0.4);
  j2.qd0 = std::vector<double>{-0.5};
  j2.spring = SpringSpec{};
  j2.spring->stiffness = 5.0;
  j2.spring->rest = 0.2;
  j2.spring->damping = 0.3;
  j2.drive = force("0.5*cos(t)");
  JointSpec j3 = joint("j3", Joint::prismatic(), "b2", "b3",
                       pose(0.25, 0.05, 0, -0.7, Vec3(0, 1, 1)), at(0, 0));
  j3.drive = motion("0.1 + 0.05*sin(3*t)");
  JointSpec j4 = joint("j4", Joint::spherical(), "b3", "b4", pose(0.1, 0, 0.2, 0.5, Vec3(1, 0, 1)),
                       at(-0.05, 0, 0));
  j4.q0 = std::vector<double>{std::cos(0.3), 0, std::sin(0.3), 0};
  j4.qd0 = std::vector<double>{0.4, -1.0, 0.7};
  s.joints = {j1, j2, j3, j4};
  const Mechanism mech = prepare(s);
  REQUIRE_FALSE(mech.has_loops());
  const Model& model = mech.model();
  REQUIRE(model.nv == 6);
  const Expression law1 = Expression::parse("0.3*sin(2*t) + 0.1*t"),
                   law3 = Expression::parse("0.1 + 0.05*sin(3*t)");
  Simulation sim(mech);
  Data d_id(model), d_fd(model);
  const int v1 = mech.compiled.v_index(0), v2 = mech.compiled.v_index(1),
            v3 = mech.compiled.v_index(2), v4 = mech.compiled.v_index(3);
  double max_err = 0;
  for (int n = 0; n <= 400; ++n) {
    if (n > 0) sim.step(1e-3, Integrator::RK4);
    if (n % 100) continue;
    sim.evaluate();
    const double t = sim.time();
    const VecX q = sim.q(), qd = sim.qd(), qdd = sim.qdd(), tau = sim.tau();
    // RNEA at the simulated accelerations reproduces the driven-joint forces and, at the free
    // joints, exactly the applied forces (spring + damper + force drive at j2, nothing at j4).
    const VecX tau_id = rnea(model, d_id, q, qd, qdd);
    const double q2 = q[mech.compiled.q_index(1)];
    const double applied2 = -5.0 * (q2 - 0.2) - 0.3 * qd[v2] + 0.5 * std::cos(t);
    const double scale = std::max(1.0, tau_id.cwiseAbs().maxCoeff());
    max_err =
        std::max({max_err, std::abs(tau_id[v1] - tau[v1]) / scale,
                  std::abs(tau_id[v3] - tau[v3]) / scale, std::abs(tau_id[v2] - applied2) / scale,
                  tau_id.segment(v4, 3).cwiseAbs().maxCoeff() / scale,
                  std::abs(sim.joint_states()[0].tau[0] - tau_id[v1]) / scale,
                  std::abs(sim.joint_states()[2].tau[0] - tau_id[v3]) / scale,
                  std::abs(sim.joint_states()[1].tau[0] - applied2) / scale});
    // ABA with the simulation's forces reproduces every acceleration.
    const VecX qdd_fd = aba(model, d_fd, q, qd, tau);
    max_err = std::max(
        max_err, (qdd_fd - qdd).cwiseAbs().maxCoeff() / std::max(1.0, qdd.cwiseAbs().maxCoeff()));
    // The driven joints move exactly by their laws.
    max_err = std::max({max_err, std::abs(q[mech.compiled.q_index(0)] - law1.value(t)),
                        std::abs(qd[v1] - law1.eval(t).d1), std::abs(qdd[v1] - law1.eval(t).d2),
                        std::abs(q[mech.compiled.q_index(2)] - law3.value(t)),
                        std::abs(qdd[v3] - law3.eval(t).d2)});
  }
  INFO("max relative disagreement " << max_err);
  WARN("hybrid tree: max relative disagreement with RNEA/ABA/drive laws " << max_err);
  CHECK(max_err <= 1e-9);  // brief: 1e-9
}

TEST_CASE("setup errors: over-determining drives and a rocker driven through its dead point",
          "[sim][closed_loop]") {
  const PaperFourBar fb;
  const double phi0 = std::atan2(2.0, -3.0);  // rocker angle at the paper's start
  SECTION("two motion drives on a one-DOF four-bar") {
    MechanismSpec s = fb.spec();
    s.joints[0].drive = motion("0.5*t");
    s.joints[3].drive = motion(num(phi0) + " + 0.1*t");  // consistent at t = 0: assembly succeeds
    const Mechanism mech = prepare(s);
    REQUIRE(mech.mobility.mobility == 1);
    try {
      Simulation sim(mech);
      FAIL("Simulation accepted two motion drives on a one-DOF mechanism");
    } catch (const SetupError& e) {
      const std::string msg = e.what();
      INFO(msg);
      WARN("two drives: " << msg);
      CHECK(msg.find("'A'") != std::string::npos);
      CHECK(msg.find("'B'") != std::string::npos);
    }
  }
  SECTION("rocker angle law beyond the rocker's range") {
    // Crank-rocker: the rocker reaches its limit where crank and coupler fold (|A P2| = 2 - 1),
    // |A P2|² = 29 + 8√13 cos φ → φ_max = acos(-28 / (8√13)) ≈ 2.899 rad, reached at t* below.
    const double phi_max = std::acos(-28.0 / (8 * std::sqrt(13.0))), rate = 0.5;
    const double t_star = (phi_max - phi0) / rate;
    MechanismSpec s = fb.spec();
    s.joints[3].drive = motion(num(phi0) + " + " + num(rate) + "*t");
    const Mechanism mech = prepare(s);
    Simulation sim(mech);
    bool threw = false, finite = true, in_step = false;
    std::string msg;
    double t_fail = 0;
    for (int n = 0; n < 2000 && !threw && finite; ++n) {
      try {
        in_step = true;
        if (n > 0) sim.step(1e-3, Integrator::RK4);
        in_step = false;
        sim.evaluate();
        finite = outputs_finite(sim);
      } catch (const SetupError& e) {
        threw = true;
        msg = e.what();
        t_fail = sim.time();
      }
    }
    INFO("message: " << msg << "\nthrown at t = " << t_fail << ", dead point at t* = " << t_star);
    WARN("dead point: thrown at t = " << t_fail << " (t* = " << t_star << "): " << msg);
    CHECK(finite);  // no NaN in any output before the error
    REQUIRE(threw);
    CHECK(in_step);  // Simulation::step reports it
    CHECK((msg.find("dead point") != std::string::npos || msg.find("range") != std::string::npos));
    CHECK(t_fail >= t_star - 0.02);  // not long before the law leaves the range (20 ms)...
    CHECK(t_fail <= t_star + 0.02);  // ...and promptly after it (20 ms)
  }
}

namespace {

// Newton-Euler for every body: Σ joint wrenches (+ on the child, - on the parent) + gravity =
// d/dt(momentum), all in world coordinates about the world origin. Returns the worst residual
// relative to max(1, largest term).
double newton_euler_residual(const Simulation& sim) {
  const Mechanism& m = sim.mechanism();
  const Model& model = m.model();
  const MechanismSpec& s = m.spec;
  Data d(model);
  forward_kinematics(model, d, sim.q(), sim.qd(), sim.qdd());
  auto user_X0 = [&](const std::string& name) {  // ^{user body} X_world
    if (name == "ground") return Transform();
    const int i = m.compiled.model_body[s.body_index(name)];
    return Transform(m.compiled.X_body[i].inverse() * d.X0[i]);
  };
  std::vector<Force> net(s.bodies.size(), Force::Zero());
  double scale = 1.0;
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    const JointSpec& js = s.joints[j];
    const Transform X =
        js.child_frame.transform() * user_X0(js.child);  // ^{child joint frame} X_world
    const Force f0 = X.transpose_apply(sim.wrench()[j]);
    scale = std::max(scale, f0.norm());
    if (js.child != "ground") net[s.body_index(js.child)] += f0;
    if (js.parent != "ground") net[s.body_index(js.parent)] -= f0;
  }
  double worst = 0;
  for (std::size_t b = 0; b < s.bodies.size(); ++b) {
    const int i = m.compiled.model_body[b];
    const RigidBodyInertia& I = model.inertia[i];
    const Motion& v = d.v[i];
    const Force h = I * v;
    Force rate = I * d.a[i];
    rate.head<3>() += v.head<3>().cross(h.head<3>()) + v.tail<3>().cross(h.tail<3>());  // v ×* I v
    rate.tail<3>() += v.head<3>().cross(h.tail<3>());
    const Force gravity = I * d.X0[i].apply(model.a_grav);
    const Force residual = d.X0[i].transpose_apply(Force(rate - gravity)) - net[b];
    scale = std::max(scale, d.X0[i].transpose_apply(rate).norm());
    worst = std::max(worst, residual.norm());
  }
  return worst / scale;
}

double run_and_check_newton_euler(const MechanismSpec& spec, double t_end, const char* label) {
  const Mechanism mech = prepare(spec);
  Simulation sim(mech);
  double worst = 0;
  const int steps = static_cast<int>(std::lround(t_end / 1e-3));
  for (int n = 0; n <= steps; ++n) {
    if (n > 0) sim.step(1e-3, Integrator::RK4);
    if (n % 50) continue;
    sim.evaluate();
    worst = std::max(worst, newton_euler_residual(sim));
  }
  WARN(label << ": worst Newton-Euler residual per body (relative) " << worst);
  return worst;
}

}  // namespace

TEST_CASE("joint wrenches satisfy Newton-Euler for every body of loop mechanisms",
          "[sim][closed_loop]") {
  SECTION("paper four-bar, crank driven, spring on the coupler pin") {
    MechanismSpec s = PaperFourBar{}.spec();
    s.joints[0].drive = motion("0.8*sin(3*t)");
    s.joints[1].spring = SpringSpec{};
    s.joints[1].spring->stiffness = 40;
    s.joints[1].spring->rest = 1.3;
    s.joints[1].spring->damping = 0.5;
    CHECK(run_and_check_newton_euler(s, 0.5, "driven four-bar") <= 1e-8);  // brief: 1e-8
  }
  SECTION("slider-crank (prismatic tree joint, revolute loop joint)") {
    CHECK(run_and_check_newton_euler(SliderCrank{}.spec("0.3 + 2*pi*t", 0.3), 0.5,
                                     "slider-crank") <= 1e-8);
  }
  SECTION("RBDA Fig. 8.3 arm (two motion drives, prismatic actuator)") {
    CHECK(run_and_check_newton_euler(Fig83{}.spec(), 0.5, "Fig. 8.3 arm") <= 1e-8);
  }
  SECTION("Bennett linkage (spatial loop, reversed tree joint)") {
    CHECK(run_and_check_newton_euler(Bennett{}.spec(0.9), 0.5, "Bennett") <= 1e-8);
  }
}

namespace {
double wrap(double a) {
  return std::remainder(a, 2 * kPi);
}  // to [-π, π]

// Work-energy bookkeeping on the paper's four-bar with a spring (k, rest) on joint `spring_at`
// and/or constant force drives: max over 1 s of |E_mech + E_spring - E0 - W_drives|, the swing
// energy (max KE) and the worst |JointState::tau - (drive + spring)| of those joints. Joint
// coordinates come from joint_states(), so loop joints are measured like tree joints.
struct Balance {
  double drift = 0, swing = 0, tau_err = 0;
  bool loop_spring = false, loop_drive = false;
};
Balance work_energy(int spring_at, const std::vector<std::pair<int, double>>& torques) {
  const double k = 50, rest = 0.5;
  MechanismSpec s = PaperFourBar{}.spec();
  if (spring_at == 2)
    s.joints[1].spring = SpringSpec{};  // k = 0 on P1: it keeps the tree by file order
  if (spring_at >= 0) {
    s.joints[spring_at].spring = SpringSpec{};
    s.joints[spring_at].spring->stiffness = k;
    s.joints[spring_at].spring->rest = rest;
  }
  for (const auto& [j, tau] : torques) s.joints[j].drive = force(num(tau));
  const Mechanism mech = prepare(s);
  Balance out;
  if (spring_at >= 0) out.loop_spring = mech.compiled.joint_map[spring_at].loop;
  for (const auto& [j, tau] : torques)
    out.loop_drive = out.loop_drive || mech.compiled.joint_map[j].loop;
  Simulation sim(mech);
  Data data(mech.model());
  auto energy = [&] {
    forward_kinematics(mech.model(), data, sim.q(), sim.qd());
    double E = kinetic_energy(mech.model(), data) + potential_energy(mech.model(), data);
    if (spring_at >= 0) E += 0.5 * k * std::pow(sim.joint_states()[spring_at].q[0] - rest, 2);
    return E;
  };
  auto tau_err = [&] {
    std::vector<double> expected(s.joints.size(), 0.0);
    if (spring_at >= 0) expected[spring_at] -= k * (sim.joint_states()[spring_at].q[0] - rest);
    for (const auto& [j, tau] : torques) expected[j] += tau;
    double e = 0;
    for (std::size_t j = 0; j < s.joints.size(); ++j)
      e = std::max(e, std::abs(sim.joint_states()[j].tau[0] - expected[j]));
    return e;
  };
  sim.evaluate();
  const double E0 = energy();
  std::vector<double> q_prev;
  for (const auto& jt : torques) q_prev.push_back(sim.joint_states()[jt.first].q[0]);
  double work = 0;
  out.tau_err = tau_err();
  for (int n = 1; n <= 1000; ++n) {
    sim.step(1e-3, Integrator::RK4);
    sim.evaluate();
    for (std::size_t d = 0; d < torques.size(); ++d) {  // constant torques: W = Σ τ Δq
      const double qn = sim.joint_states()[torques[d].first].q[0];
      work += torques[d].second * wrap(qn - q_prev[d]);
      q_prev[d] = qn;
    }
    out.drift = std::max(out.drift, std::abs(energy() - E0 - work));
    out.swing = std::max(out.swing, kinetic_energy(mech.model(), data));
    out.tau_err = std::max(out.tau_err, tau_err());
  }
  return out;
}
}  // namespace

TEST_CASE("control: springs and force drives on tree joints satisfy the work-energy balance",
          "[sim][closed_loop]") {
  // The bookkeeping of the next test, on the same four-bar, with the elements on tree joints.
  const Balance spring = work_energy(1, {});  // spring on P1 (tree joint)
  const Balance drive =
      work_energy(-1, {{0, 2.0}, {1, -3.0}});  // torques on A and P1 (tree joints)
  REQUIRE_FALSE(spring.loop_spring);
  REQUIRE_FALSE(drive.loop_drive);
  WARN("control: spring on tree joint: drift " << spring.drift << " J of swing " << spring.swing
                                               << " J; force drives on tree joints: drift "
                                               << drive.drift << " J of swing " << drive.swing
                                               << " J");
  CHECK(spring.drift <= 1e-6 * spring.swing);  // 1e-6 of the swing energy, as in test 1
  CHECK(drive.drift <= 1e-6 * drive.swing);    // 1e-6 of the swing energy
  CHECK(spring.tau_err <= 1e-12);              // J.tau = spring force, exactly (same formula)
  CHECK(drive.tau_err <= 1e-12);               // J.tau = drive value, exactly
}

// Springs and force drives on a loop joint act as equal and opposite wrenches on its two bodies
// (the compiler keeps them on tree joints when it can; here file order forces P2 to close).
TEST_CASE("a spring or force drive on a loop joint acts on the mechanism", "[sim][closed_loop]") {
  const PaperFourBar fb;
  SECTION("spring on P2 (the loop joint): mechanical + spring energy is conserved") {
    const Balance b = work_energy(2, {});
    REQUIRE(b.loop_spring);
    INFO("energy drift " << b.drift << " J (swing " << b.swing << " J), max |tau - spring| "
                         << b.tau_err);
    CHECK(b.drift <= 1e-6 * b.swing);  // as the control: 1e-6 of the swing energy
    CHECK(b.tau_err <= 1e-12);         // contract: J.tau is the spring's generalized force
  }
  SECTION("spring on P2: same motion whether P2 is the loop joint or a tree joint") {
    auto run = [&](bool p2_in_tree) {
      MechanismSpec s = fb.spec();
      s.joints[1].spring = SpringSpec{};  // k = 0: equal tree preference, file order decides
      s.joints[2].spring = SpringSpec{};
      s.joints[2].spring->stiffness = 50;
      s.joints[2].spring->rest = 0.5;
      if (p2_in_tree) std::swap(s.joints[1], s.joints[2]);  // file order A, P2, P1, B: P1 closes
      const Mechanism mech = prepare(s);
      REQUIRE(mech.compiled.joint_map[p2_in_tree ? 1 : 2].loop == !p2_in_tree);
      Simulation sim(mech);
      for (int n = 0; n < 300; ++n) sim.step(1e-3, Integrator::RK4);
      return q_of(sim, 0);  // crank angle (joint A is first in both)
    };
    const double crank_loop = run(false), crank_tree = run(true);
    INFO("crank angle at t = 0.3 s: P2 as loop joint " << crank_loop << ", P2 as tree joint "
                                                       << crank_tree);
    CHECK(std::abs(crank_loop - crank_tree) <= 1e-9);  // same mechanism, same integrator: 1e-9 rad
  }
  SECTION("constant force drives on P1 and P2 (P2 becomes the loop joint): work-energy balance") {
    const Balance b = work_energy(-1, {{1, 3.0}, {2, -2.0}});
    REQUIRE(b.loop_drive);  // both pins driven: P1 wins the tree by file order, P2 closes the loop
    INFO("|E - E0 - W| max " << b.drift << " J (swing " << b.swing << " J), max |tau - drive| "
                             << b.tau_err);
    CHECK(b.drift <= 1e-6 * b.swing);  // 1e-6 of the swing energy
    CHECK(b.tau_err <= 1e-12);         // contract: J.tau is the drive's value
  }
}
