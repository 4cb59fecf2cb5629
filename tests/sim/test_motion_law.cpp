// Motion laws: closed-form values, derivatives against finite differences, continuity at segment
// boundaries, spline interpolation, validation, and use from a project file.
#include <cmath>
#include <numbers>

#include "core/io/project.hpp"
#include "core/sim/motion_law.hpp"
#include "core/sim/runner.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using nlohmann::json;

namespace {

// Central differences of value and d1: truncation O(h²) ≈ 1e-12 relative, round-off ≈ 1e-10.
void check_derivatives(const MotionLaw& law, double t) {
  const double h = 1e-5;
  const TimeJet j = law.eval(t), p = law.eval(t + h), m = law.eval(t - h);
  INFO("t = " << t);
  CHECK(std::abs((p.value - m.value) / (2 * h) - j.d1) <= 1e-7 * std::max(1.0, std::abs(j.d1)));
  CHECK(std::abs((p.d1 - m.d1) / (2 * h) - j.d2) <= 1e-6 * std::max(1.0, std::abs(j.d2)));
}
}  // namespace

TEST_CASE("Constant velocity and harmonic laws", "[motion_law]") {
  const MotionLaw cv =
      MotionLaw::from_json({{"type", "constant_velocity"}, {"start", 0.3}, {"velocity", 2.0}});
  CHECK(cv.eval(1.5).value == 0.3 + 3.0);
  CHECK(cv.eval(1.5).d1 == 2.0);
  CHECK(cv.eval(1.5).d2 == 0.0);
  const MotionLaw hm = MotionLaw::from_json({{"type", "harmonic"},
                                             {"offset", 1.0},
                                             {"amplitude", 0.5},
                                             {"frequency", 2.0},
                                             {"phase", 0.1}});
  const double w = 4 * kPi, t = 0.37;
  CHECK(std::abs(hm.eval(t).value - (1.0 + 0.5 * std::sin(w * t + 0.1))) < 1e-15);
  CHECK(std::abs(hm.eval(t).d2 + 0.5 * w * w * std::sin(w * t + 0.1)) < 1e-12);
  for (double s : {0.0, 0.2, 0.9}) check_derivatives(hm, s);
}

TEST_CASE("Rise-dwell-return profiles reach their ends with the textbook peak values",
          "[motion_law]") {
  // Peak velocity / acceleration factors of the normalised rise (cam design tables):
  // cycloidal 2 and 2π; 3-4-5 polynomial 1.875 and 5.7735; simple harmonic π/2 and π²/2.
  struct Case {
    const char* profile;
    double v_peak, a_peak;
  };
  for (const Case c :
       {Case{"cycloidal", 2.0, 2 * kPi}, Case{"polynomial_345", 1.875, 10 / std::sqrt(3.0)},
        Case{"harmonic", kPi / 2, kPi * kPi / 2}}) {
    SECTION(c.profile) {
      const double h = 0.05, rise = 0.4;
      const MotionLaw law = MotionLaw::from_json({{"type", "rise_dwell_return"},
                                                  {"profile", c.profile},
                                                  {"low", 0.0},
                                                  {"high", h},
                                                  {"rise", rise},
                                                  {"dwell", 0.1},
                                                  {"return", 0.3},
                                                  {"dwell_low", 0.2}});
      CHECK(std::abs(law.eval(0.0).value) < 1e-15);
      CHECK(std::abs(law.eval(rise).value - h) < 1e-15);
      CHECK(std::abs(law.eval(0.45).value - h) < 1e-15);             // dwell
      CHECK(std::abs(law.eval(1.0 + 0.45).value - h) < 1e-14);       // periodic: period 1.0
      CHECK(std::abs(law.eval(1.0 + 0.2).value - 0.5 * h) < 1e-14);  // mid-rise: half the lift
      double vmax = 0, amax = 0;
      for (int k = 0; k <= 4000; ++k) {
        const TimeJet j = law.eval(rise * k / 4000.0);
        vmax = std::max(vmax, std::abs(j.d1));
        amax = std::max(amax, std::abs(j.d2));
      }
      CHECK(std::abs(vmax - c.v_peak * h / rise) < 1e-6 * c.v_peak * h / rise);
      CHECK(std::abs(amax - c.a_peak * h / (rise * rise)) < 1e-5 * c.a_peak * h / (rise * rise));
      // Velocity is continuous at every segment boundary (rise/dwell/return/dwell).
      for (double tb : {0.4, 0.5, 0.8, 1.0}) {
        CHECK(std::abs(law.eval(tb - 1e-12).value - law.eval(tb + 1e-12).value) < 1e-10);
        CHECK(std::abs(law.eval(tb - 1e-12).d1 - law.eval(tb + 1e-12).d1) < 1e-9);
      }
      for (double s : {0.1, 0.25, 0.6, 0.7}) check_derivatives(law, s);
    }
  }
}

TEST_CASE("Cubic splines interpolate, are C2 and honour their end conditions", "[motion_law]") {
  const json pts = json::array({{0.0, 0.0}, {0.3, 0.5}, {0.7, 0.2}, {1.0, 0.0}});
  for (const char* end : {"natural", "clamped", "periodic"}) {
    SECTION(end) {
      const MotionLaw law =
          MotionLaw::from_json({{"type", "spline"}, {"points", pts}, {"end", end}});
      for (const auto& p : pts)
        CHECK(std::abs(law.eval(p[0].get<double>()).value - p[1].get<double>()) < 1e-14);
      for (double knot : {0.3, 0.7}) {  // C2 at interior knots
        const TimeJet a = law.eval(knot - 1e-13), b = law.eval(knot + 1e-13);
        CHECK(std::abs(a.d1 - b.d1) < 1e-9);
        CHECK(std::abs(a.d2 - b.d2) < 1e-8);
      }
      if (std::string(end) == "natural") {
        CHECK(std::abs(law.eval(0.0).d2) < 1e-12);
        CHECK(std::abs(law.eval(1.0).d2) < 1e-12);
      }
      if (std::string(end) == "clamped") CHECK(std::abs(law.eval(0.0).d1) < 1e-12);
      if (std::string(end) == "periodic") {
        CHECK(std::abs(law.eval(0.0).d1 - law.eval(1.0).d1) < 1e-12);
        CHECK(std::abs(law.eval(1.25).value - law.eval(0.25).value) < 1e-14);
      }
      for (double s : {0.1, 0.5, 0.9}) check_derivatives(law, s);
    }
  }
  // A spline through points of a cubic reproduces the cubic exactly with clamped-free ends?
  // Natural splines reproduce straight lines exactly:
  const MotionLaw line = MotionLaw::from_json(
      {{"type", "spline"}, {"points", json::array({{0, 1}, {1, 3}, {2.5, 6}, {4, 9}})}});
  CHECK(std::abs(line.eval(3.3).value - (1 + 2 * 3.3)) < 1e-13);
  CHECK(std::abs(line.eval(5.0).value - 11.0) < 1e-13);  // linear continuation past the end
}

TEST_CASE("Motion law validation names the field", "[motion_law]") {
  auto field_of = [](const json& j) {
    try {
      MotionLaw::from_json(j);
    } catch (const MotionLawError& e) {
      return e.field;
    }
    return std::string("(accepted)");
  };
  CHECK(field_of({{"type", "cam"}}) == "type");
  CHECK(field_of({{"type", "harmonic"}, {"amplitude", 1}, {"frequency", 0}}) == "frequency");
  CHECK(field_of({{"type", "rise_dwell_return"},
                  {"high", 1},
                  {"rise", -1},
                  {"return", 1},
                  {"dwell", 0},
                  {"dwell_low", 0}}) == "rise");
  CHECK(field_of({{"type", "spline"}, {"points", json::array({{0, 0}, {0, 1}})}}) == "points/1");
  CHECK(field_of({{"type", "spline"},
                  {"points", json::array({{0, 0}, {1, 1}, {2, 0.5}})},
                  {"end", "periodic"}}) == "points");
}

TEST_CASE("A project with a motion law loads, saves, and drives the joint exactly",
          "[motion_law]") {
  LoadResult r = load_project(std::string(ARTICULA_SOURCE_DIR) + "/samples/slider_crank.json");
  for (JointSpec& j : r.spec.joints)
    if (j.drive) {
      j.drive->expression.clear();
      j.drive->law = json{{"type", "constant_velocity"}, {"start", 0.0}, {"velocity", 2 * kPi}};
    }
  const std::string text = to_text(r.spec);
  CHECK(text.find("\"law\"") != std::string::npos);
  CHECK(parse_project(text).spec == r.spec);
  const Mechanism m = prepare(r.spec);
  Simulation sim(m);
  for (int k = 0; k < 250; ++k) sim.step(1e-3, Integrator::RK4);
  sim.evaluate();
  const int driven = m.drives.front().user_joint;
  CHECK(std::abs(sim.joint_states()[driven].q[0] - 2 * kPi * 0.25) < 1e-12);
  CHECK(std::abs(sim.joint_states()[driven].qd[0] - 2 * kPi) < 1e-12);
  // An invalid law is reported at its JSON pointer.
  std::string bad = text;
  bad.replace(bad.find("\"velocity\""), 10, "\"velocityX\"");
  try {
    parse_project(bad);
    FAIL("accepted a law without velocity");
  } catch (const ProjectError& e) {
    CHECK(e.pointer.find("/drive/law/velocity") != std::string::npos);
  }
}
