// Template mechanisms: each one loads back identically, assembles (residual <= 1e-12) with the
// mobility its geometry gives (Stewart 6-UPS 6, RSSR 1 + the coupler's idle spin = 2, RSUR 1,
// Bennett 1, Delta 3-RUU 3, DH arm n), closes its loops already in the sketch, and simulates 1 s
// without NaN and with loop error <= 1e-9. The DH arm matches a DH product of homogeneous
// matrices written out here (1e-12), and the Puma 560 table reproduces samples/puma560.json.
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/io/project.hpp"
#include "core/model/data.hpp"
#include "core/sim/runner.hpp"
#include "core/spec/templates.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {

// World pose of every user body at coordinates q.
std::vector<Eigen::Isometry3d> body_poses(const Mechanism& m, const VecX& q) {
  Data data(m.model());
  forward_kinematics(m.model(), data, q);
  std::vector<Eigen::Isometry3d> out;
  for (std::size_t b = 0; b < m.spec.bodies.size(); ++b) {
    const int i = m.compiled.model_body[b];
    const Transform X = m.compiled.X_body[i].inverse() * data.X0[i];  // ^{user body}X_0
    Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
    T.linear() = X.rotation();
    T.translation() = X.translation();
    out.push_back(T);
  }
  return out;
}

struct Outcome {
  double residual, initial_loop_error, worst_loop;
  int mobility, redundant;
  bool finite;
};

// Round trip, assembly, mobility, 1 s of RK4.
Outcome exercise(const MechanismSpec& spec) {
  const LoadResult back = parse_project(to_text(spec));
  CHECK(back.warnings.empty());
  CHECK(back.spec == spec);  // template -> save -> load is identical
  const Mechanism m = prepare(spec);
  Outcome o{};
  o.residual = m.assembly.residual;
  o.mobility = m.mobility.mobility;
  o.redundant = m.mobility.redundant;
  // The sketch itself closes the loops: the initial guess (from q0) already has zero loop error.
  VecX q, qd;
  initial_guess(spec, m.compiled, q, qd);
  Data data(m.model());
  o.initial_loop_error = 0.0;
  if (m.has_loops()) {
    VecX delta(m.compiled.nc);
    forward_kinematics(m.model(), data, q);
    loop_position_errors(m.model(), data, m.compiled.loops, delta);
    o.initial_loop_error = delta.cwiseAbs().maxCoeff();
  }
  Simulation sim(m);
  o.worst_loop = 0.0;
  o.finite = true;
  for (int n = 1; n <= 1000; ++n) {
    sim.step(1e-3, Integrator::RK4);
    if (n % 20 == 0) {
      sim.evaluate();
      o.worst_loop = std::max(o.worst_loop, sim.loop_error());
      o.finite = o.finite && sim.q().allFinite() && sim.qdd().allFinite() && sim.tau().allFinite();
    }
  }
  INFO(spec.name << ": residual " << o.residual << ", sketch loop error " << o.initial_loop_error
                 << ", worst loop error over 1 s " << o.worst_loop);
  CHECK(o.residual <= 1e-12);
  CHECK(o.initial_loop_error <= 1e-12);
  CHECK(o.finite);
  CHECK(o.worst_loop <= 1e-9);
  for (const BodySpec& b : spec.bodies) CHECK(inertia_problem(b.mass, b.inertia_matrix()).empty());
  return o;
}

template <class F>
std::string error_parameter(F make) {
  try {
    make();
  } catch (const TemplateError& e) {
    return e.parameter;
  }
  return "no error";
}

// Standard DH link transform, written out as a homogeneous matrix.
Eigen::Matrix4d dh_matrix(double a, double alpha, double d, double theta) {
  const double ct = std::cos(theta), st = std::sin(theta), ca = std::cos(alpha),
               sa = std::sin(alpha);
  Eigen::Matrix4d A;
  A << ct, -st * ca, st * sa, a * ct,  //
      st, ct * ca, -ct * sa, a * st,   //
      0, sa, ca, d,                    //
      0, 0, 0, 1;
  return A;
}

VecX tree_q(const Mechanism& m, const std::vector<double>& joint_q) {
  VecX q = VecX::Zero(m.model().nq);
  for (std::size_t j = 0; j < joint_q.size(); ++j)
    q(m.compiled.q_index(static_cast<int>(j))) = joint_q[j];
  return q;
}
}  // namespace

TEST_CASE("Stewart-Gough template: 6 DOF, assembles, simulates", "[templates]") {
  StewartParams p;
  SECTION("home, undriven") {
    const Outcome o = exercise(make_stewart(p));
    CHECK(o.mobility == 6);
    CHECK(o.redundant == 0);
  }
  SECTION("offset and rotated, legs driven") {
    p.offset = Vec3(0.01, -0.005, 0.0);
    p.rotation = Vec3(0.02, -0.01, 0.05);
    p.drive_legs = true;
    const MechanismSpec spec = make_stewart(p);
    CHECK(spec.bodies.size() == 14);
    CHECK(spec.joints.size() == 19);
    const Outcome o = exercise(spec);
    CHECK(o.mobility == 6);
  }
  SECTION("3 and 8 legs") {
    p.legs = 3;
    CHECK(exercise(make_stewart(p)).mobility == 6);
    p.legs = 8;
    p.base_spacing = p.top_spacing = 0.3;
    CHECK(exercise(make_stewart(p)).mobility == 6);
  }
  SECTION("bad parameters name the field") {
    CHECK(error_parameter([&] {
            p.top_radius = -1;
            make_stewart(p);
          }) == "top_radius");
    p = {};
    CHECK(error_parameter([&] {
            p.legs = 2;
            make_stewart(p);
          }) == "legs");
    p = {};
    CHECK(error_parameter([&] {
            p.base_spacing = 2.5;
            make_stewart(p);
          }) == "base_spacing");
    p = {};
    CHECK(error_parameter([&] {
            p.legs = 8;
            p.drive_legs = true;
            make_stewart(p);
          }) == "drive_legs");
    p = {};
    CHECK(error_parameter([&] {
            p.rod_diameter = 0.05;
            make_stewart(p);
          }) == "rod_diameter");
    p = {};
    CHECK(error_parameter([&] {
            p.leg_material.density = 0;
            make_stewart(p);
          }) == "leg_material");
  }
}

TEST_CASE("RSSR template: crank + idle coupler spin; RSUR: 1 DOF", "[templates]") {
  RssrParams p;
  SECTION("RSSR") {
    const Outcome o = exercise(make_rssr(p));
    CHECK(o.mobility == 2);  // the crank, and the coupler spinning about its own line
    CHECK(o.redundant == 0);
  }
  SECTION("RSUR, crank driven, other branch") {
    p.universal_at_rocker = true;
    p.drive_crank = true;
    p.branch = -1;
    p.crank_angle = 0.4;
    const Outcome o = exercise(make_rssr(p));
    CHECK(o.mobility == 1);
    CHECK(o.redundant == 0);
  }
  SECTION("bad parameters name the field") {
    CHECK(error_parameter([&] {
            p.coupler = 0.01;
            make_rssr(p);
          }) == "coupler");
    p = {};
    CHECK(error_parameter([&] {
            p.branch = 0;
            make_rssr(p);
          }) == "branch");
    p = {};
    // Crank longer than the rocker reach allows for part of the turn.
    CHECK(error_parameter([&] {
            p.crank = 0.12;
            p.coupler = 0.2;
            p.drive_crank = true;
            make_rssr(p);
          }) == "drive_crank");
  }
}

TEST_CASE("Bennett template: 1 DOF with 3 redundant rows; the condition is enforced",
          "[templates]") {
  BennettParams p;
  SECTION("sample geometry, driven") {
    p.drive = true;
    const Outcome o = exercise(make_bennett(p));
    CHECK(o.mobility == 1);
    CHECK(o.redundant == 3);
  }
  SECTION("other lengths and angles") {
    p.a = 0.15;
    p.alpha = 0.4;
    p.beta = 2.0;
    p.b = p.a * std::sin(p.beta) / std::sin(p.alpha);
    p.theta1 = -2.2;
    p.section = BarSection::round(0.015);
    CHECK(exercise(make_bennett(p)).mobility == 1);
  }
  SECTION("violations are refused") {
    p.b = 0.35;
    CHECK(error_parameter([&] { make_bennett(p); }) == "b");
    p = {};
    p.beta = p.alpha;
    p.b = p.a;
    CHECK(error_parameter([&] { make_bennett(p); }) == "beta");
    p = {};
    CHECK(error_parameter([&] {
            p.alpha = 0;
            make_bennett(p);
          }) == "alpha");
  }
}

TEST_CASE("Delta template (3-RUU): 3 DOF, the platform only translates", "[templates]") {
  DeltaParams p;
  SECTION("undriven") {
    const Outcome o = exercise(make_delta(p));
    CHECK(o.mobility == 3);
    CHECK(o.redundant == 0);
  }
  SECTION("driven arms keep the platform's orientation") {
    p.drive_arms = true;
    const MechanismSpec spec = make_delta(p);
    const Outcome o = exercise(spec);
    CHECK(o.mobility == 3);
    const Mechanism m = prepare(spec);
    Simulation sim(m);
    for (int n = 0; n < 500; ++n) sim.step(1e-3, Integrator::RK4);
    const auto start = body_poses(m, m.q0), later = body_poses(m, sim.q());
    const int plat = spec.body_index("platform");
    INFO("platform moved " << (later[plat].translation() - start[plat].translation()).norm());
    CHECK((later[plat].translation() - start[plat].translation()).norm() > 1e-3);
    CHECK_CLOSE(later[plat].linear(), start[plat].linear(), 1e-8);  // pure translation
  }
  SECTION("unreachable height") {
    CHECK(error_parameter([&] {
            p.height = 2.0;
            make_delta(p);
          }) == "height");
  }
}

TEST_CASE("DH arm template: n DOF, forward kinematics equals the DH product", "[templates]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int trial = 0; trial < 5; ++trial) {
    DhArmParams p;
    const int n = 2 + trial;
    for (int i = 0; i < n; ++i)
      p.rows.push_back({0.3 * U(rng), 2 * U(rng), 0.3 * U(rng), U(rng), (i + trial) % 3 == 2,
                        1 + U(rng) * 0.5, 0.5 * U(rng)});
    p.base_position = Vec3(U(rng), U(rng), U(rng));
    p.drive_joints = trial % 2 == 1;
    const MechanismSpec spec = make_dh_arm(p);
    const Outcome o = exercise(spec);
    CHECK(o.mobility == n);
    const Mechanism m = prepare(spec);
    for (int sample = 0; sample < 5; ++sample) {
      std::vector<double> q(n);
      for (double& v : q) v = 2 * U(rng);
      const auto poses = body_poses(m, tree_q(m, q));
      Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
      T.block<3, 1>(0, 3) = p.base_position;
      for (int i = 0; i < n; ++i) {
        const DhRow& r = p.rows[i];
        T = T * (r.prismatic ? dh_matrix(r.a, r.alpha, r.d + q[i], r.theta)
                             : dh_matrix(r.a, r.alpha, r.d, r.theta + q[i]));
        CHECK_CLOSE(poses[i].matrix(), T, 1e-12);
      }
    }
  }
  DhArmParams bad = DhArmParams::puma560();
  bad.rows[2].mass = 0;
  CHECK(error_parameter([&] { make_dh_arm(bad); }) == "rows[2].mass");
  CHECK(error_parameter([&] { make_dh_arm(DhArmParams{}); }) == "rows");
}

TEST_CASE("DH arm template: the Puma 560 table reproduces samples/puma560.json", "[templates]") {
  const MechanismSpec tpl = make_dh_arm(DhArmParams::puma560());
  const MechanismSpec ref = load_project(test::sample_path("puma560.json")).spec;
  const Mechanism a = prepare(tpl), b = prepare(ref);
  REQUIRE(tpl.bodies.size() == ref.bodies.size());
  // Sketched poses agree (both at Corke's qn).
  for (std::size_t i = 0; i < tpl.bodies.size(); ++i) {
    CHECK_CLOSE(tpl.bodies[i].pose->position, ref.bodies[i].pose->position, 1e-12);
    CHECK(std::abs(std::abs(tpl.bodies[i].pose->orientation.dot(ref.bodies[i].pose->orientation)) -
                   1) < 1e-12);
  }
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-kPi, kPi);
  for (int sample = 0; sample < 20; ++sample) {
    std::vector<double> q(6);
    for (double& v : q) v = U(rng);
    const auto pa = body_poses(a, tree_q(a, q)), pb = body_poses(b, tree_q(b, q));
    for (int i = 0; i < 6; ++i) CHECK_CLOSE(pa[i].matrix(), pb[i].matrix(), 1e-12);
  }
  CHECK(exercise(tpl).mobility == 6);
}

TEST_CASE("Templates round-trip through a file on disk", "[templates]") {
  const std::string path = std::string(ARTICULA_BINARY_DIR) + "/template_roundtrip.json";
  StewartParams stewart;
  stewart.drive_legs = true;
  RssrParams rssr;
  rssr.drive_crank = true;
  BennettParams bennett;
  bennett.drive = true;
  DeltaParams delta;
  delta.drive_arms = true;
  DhArmParams arm = DhArmParams::puma560();
  arm.drive_joints = true;
  for (const MechanismSpec& spec : {make_stewart(stewart), make_rssr(rssr), make_bennett(bennett),
                                    make_delta(delta), make_dh_arm(arm)}) {
    INFO(spec.name);
    save_project(spec, path);
    const LoadResult back = load_project(path);
    CHECK(back.warnings.empty());
    CHECK(back.spec == spec);
    // Every motion drive starts at its joint's q0 (so nothing jumps at t = 0).
    const Mechanism m = prepare(back.spec);
    for (const DriveBinding& d : m.drives)
      CHECK(std::abs(d.value(0.0) - back.spec.joints[d.user_joint].q0->at(0)) <= 1e-15);
  }
  std::remove(path.c_str());
}

TEST_CASE("Random parameters are refused by name or give a mechanism that assembles",
          "[templates]") {
  std::mt19937 rng(3);
  auto r = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  auto coin = [&](double p) { return r(0, 1) < p; };
  int built = 0, refused = 0;
  auto attempt = [&](auto make) {
    try {
      const MechanismSpec spec = make();
      CHECK(parse_project(to_text(spec)).spec == spec);  // the loader accepts every inertia
      const Mechanism m = prepare(spec);
      CHECK(m.assembly.residual <= 1e-12);
      ++built;
    } catch (const TemplateError& e) {
      CHECK(!e.parameter.empty());
      ++refused;
    }  // anything else escapes and fails the test
  };
  for (int i = 0; i < 100; ++i) {
    attempt([&] {
      StewartParams p;
      p.base_radius = r(-0.1, 1);
      p.top_radius = r(-0.1, 1);
      p.legs = static_cast<int>(r(2, 13));
      p.height = r(-0.1, 1);
      p.base_spacing = r(0, 2);
      p.top_spacing = r(0, 2);
      p.offset = Vec3(r(-.2, .2), r(-.2, .2), r(-.2, .2));
      p.rotation = Vec3(r(-1, 1), r(-1, 1), r(-1, 1));
      p.drive_legs = coin(0.5);
      return make_stewart(p);
    });
    attempt([&] {
      RssrParams p;
      p.crank = r(-0.01, 0.2);
      p.rocker = r(0, 0.3);
      p.coupler = r(0, 0.4);
      p.output_axis = Vec3(r(-.2, .2), r(-.2, .2), r(-.2, .2));
      p.crank_angle = r(-7, 7);
      p.branch = coin(0.5) ? 1 : -1;
      p.universal_at_rocker = coin(0.5);
      p.drive_crank = coin(0.5);
      return make_rssr(p);
    });
    attempt([&] {
      BennettParams p;
      p.a = r(-0.1, 1);
      p.alpha = r(-0.5, 3.5);
      p.beta = r(-0.5, 3.5);
      p.b = coin(0.8) ? p.a * std::sin(p.beta) / std::sin(p.alpha) : r(0, 1);
      p.theta1 = r(-7, 7);
      p.drive = coin(0.5);
      return make_bennett(p);
    });
    attempt([&] {
      DeltaParams p;
      p.base_radius = r(0, 0.5);
      p.platform_radius = r(0, 0.3);
      p.upper_arm = r(0, 0.6);
      p.forearm = r(0, 1);
      p.height = r(0, 1);
      p.drive_arms = coin(0.5);
      return make_delta(p);
    });
    attempt([&] {
      DhArmParams p;
      const int n = static_cast<int>(r(0, 8));
      for (int k = 0; k < n; ++k)
        p.rows.push_back({r(-1, 1), r(-4, 4), r(-1, 1), r(-4, 4), coin(0.3), r(-0.5, 5), r(-3, 3)});
      p.link_radius = r(-0.01, 0.1);
      return make_dh_arm(p);
    });
  }
  INFO(built << " built, " << refused << " refused");
  CHECK(built > 100);
  CHECK(refused > 100);
}
