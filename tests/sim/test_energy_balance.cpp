// Energy bookkeeping: T + V - (T0 + V0) = W_in - D for driven, damped, sprung mechanisms.
#include <cmath>

#include "core/io/project.hpp"
#include "core/sim/runner.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
double worst_residual(const MechanismSpec& spec, double duration, Integrator integ, double* scale) {
  const Mechanism m = prepare(spec);
  Simulation sim(m);
  sim.evaluate();
  double worst = 0.0;
  *scale = 0.0;
  const int n = static_cast<int>(std::lround(duration / 1e-3));
  for (int k = 1; k <= n; ++k) {
    sim.step(1e-3, integ);
    sim.evaluate();
    const Simulation::Energy& e = sim.energy();
    worst = std::max(worst, std::abs(e.residual));
    *scale = std::max({*scale, std::abs(e.work), e.kinetic, e.dissipated});
  }
  return worst;
}

MechanismSpec sample(const char* file) {
  return load_project(std::string(ARTICULA_SOURCE_DIR) + "/samples/" + file).spec;
}
}  // namespace

TEST_CASE("Energy balance with motion drives, springs and dampers", "[sim][energy]") {
  SECTION("driven four-bar with a damped spring on the rocker pivot") {
    MechanismSpec s = sample("fourbar.json");
    for (JointSpec& j : s.joints)
      if (!j.drive && j.parent == "ground") j.spring = SpringSpec{2.0, 0.0, 0.05, {}};
    double scale = 0;
    const double r = worst_residual(s, 2.0, Integrator::RK4, &scale);
    INFO("worst residual " << r << " J, energy scale " << scale << " J");
    CHECK(r <= 1e-7 * scale);  // RK4 at 1 ms with projection: ~1e-9 relative observed
  }
  SECTION("double pendulum with a motion drive and a damped spring (tree, hybrid dynamics)") {
    MechanismSpec s = sample("double_pendulum.json");
    s.joints[0].drive = DriveSpec{DriveSpec::Kind::Motion, "0.3*sin(4*t)", {}};
    s.joints[1].spring = SpringSpec{5.0, 0.1, 0.2, {}};
    double scale = 0;
    const double r = worst_residual(s, 2.0, Integrator::RK4, &scale);
    INFO("worst residual " << r << " J, energy scale " << scale << " J");
    CHECK(r <= 1e-8 * scale);
  }
  SECTION("passive Stewart platform settles under gravity with leg dampers") {
    MechanismSpec s = sample("stewart_platform.json");
    for (JointSpec& j : s.joints)
      if (j.drive) {
        j.drive.reset();
        j.spring = SpringSpec{2000.0, j.q0 ? (*j.q0)[0] : 0.0, 50.0, {}};
      }
    double scale = 0;
    const double r = worst_residual(s, 1.0, Integrator::RK4, &scale);
    INFO("worst residual " << r << " J, energy scale " << scale << " J");
    CHECK(r <= 1e-6 * scale);
  }
}
