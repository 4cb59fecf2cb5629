// The design report (core/sim/design_report, design_inertia, transmission_angle) against
// independent computations: the reflected inertia against the simulation's kinetic energy
// (2T / q̇², 1e-9), the slider-crank's closed form (1e-10) and the dense null-space projection of
// H from CRBA (1e-10); the apparent mass against a pendulum's closed form and the dense
// J N (Nᵀ H N)⁻¹ Nᵀ Jᵀ (1e-10); the drive work against the simulation's energy account; the
// four-bar's transmission angle against the law of cosines (1e-9).
#include <cmath>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/jacobian.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/design_inertia.hpp"
#include "core/sim/design_report.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using nlohmann::json;

namespace {
RunOptions options(const Mechanism& m, double duration) {
  RunOptions opt = run_options_from(m.spec);
  opt.duration = duration;
  return opt;
}

// Every CSV row of a run (the same doubles the report sees).
std::vector<std::vector<double>> csv_rows(const Mechanism& m, const RunOptions& opt) {
  std::vector<std::vector<double>> rows;
  RowSink sink;
  sink.row = [&](const Simulation&, const std::vector<double>& r) { rows.push_back(r); };
  run_rows(m, opt, sink);
  return rows;
}

int col(const Mechanism& m, const std::string& name) {
  const std::vector<std::string> h = csv_header(m);
  return static_cast<int>(std::find(h.begin(), h.end(), name) - h.begin());
}

double rel(double a, double b) {
  return std::abs(a - b) / std::abs(b);
}

// A basis of the null space of the rows `rows` of G (all of G's columns).
MatX null_space(const MatX& G, const std::vector<int>& rows, int nv) {
  if (rows.empty()) return MatX::Identity(nv, nv);
  MatX Gs(rows.size(), nv);
  for (std::size_t i = 0; i < rows.size(); ++i) Gs.row(i) = G.row(rows[i]);
  Eigen::FullPivLU<MatX> lu(Gs);
  lu.setThreshold(1e-10);
  return lu.kernel();
}

// The dense reference: H by CRBA, G of the loops, every drive (as a motion drive) and the
// couplings from the constraint set's acceleration rows, N spanning the held rows' null space.
struct Dense {
  const Mechanism& m;
  std::vector<DriveBinding> drives;
  Data data;
  MatX H, G;
  std::vector<int> drive_row, structural;
  Dense(const Mechanism& mech, const VecX& q) : m(mech), drives(mech.drives), data(mech.model()) {
    for (DriveBinding& d : drives) d.kind = DriveSpec::Kind::Motion;
    ConstraintSet set(m, drives);
    const VecX zero = VecX::Zero(m.model().nv);
    forward_kinematics_bias(m.model(), data, q, zero);
    set.acceleration(ConstraintContext{m, drives, data, nullptr, nullptr, 0.0, &q, &zero});
    G = set.G();
    H = crba(m.model(), data, q);
    forward_kinematics(m.model(), data, q);
    const int nc = m.compiled.nc, nd = static_cast<int>(drives.size());
    drive_row.assign(nd, -1);  // ConstraintSet's order: drives on tree joints, then on loops
    int r = nc;
    for (bool on_loop : {false, true})
      for (int k = 0; k < nd; ++k)
        if ((drives[k].v < 0) == on_loop) drive_row[k] = r++;
    for (int r = 0; r < G.rows(); ++r)
      if (r < nc || r >= nc + nd) structural.push_back(r);
  }
  MatX projected_inverse(const std::vector<int>& held) const {
    const MatX N = null_space(G, held, m.model().nv);
    return N * (N.transpose() * H * N).inverse() * N.transpose();
  }
  double reflected(int k) const {
    std::vector<int> held = structural;
    for (int j = 0; j < static_cast<int>(drives.size()); ++j)
      if (j != k && m.drives[j].kind == DriveSpec::Kind::Motion) held.push_back(drive_row[j]);
    const VecX e = G.row(drive_row[k]).transpose();
    return 1.0 / e.dot(projected_inverse(held) * e);
  }
  Mat3 apparent_inverse(int body, const Vec3& p) const {
    MatX J;
    point_jacobian(m.model(), data, body, p, J);
    return J * projected_inverse(structural) * J.transpose();
  }
};
}  // namespace

TEST_CASE("design report: reflected inertia is 2T/q̇² of the simulation on 1-DoF samples",
          "[sim][report]") {
  // The energy is the simulation's own (Σ ½ vᵀ I v over the bodies), M never enters it.
  for (const char* file : {"fourbar.json", "slider_crank.json", "geared_crank_rocker.json",
                           "watt_six_bar.json", "bennett.json", "stephenson_six_bar.json"}) {
    INFO(file);
    const Mechanism m = test::sample_mechanism(file);
    REQUIRE(m.mobility.mobility == 1);
    const RunOptions opt = options(m, 0.2);
    const json r = design_report(m, opt, {});
    const std::vector<std::vector<double>> rows = csv_rows(m, opt);
    const std::string joint = m.spec.joints[m.drives[0].user_joint].name;
    const json& value = r["drives"][joint]["reflected_inertia"]["value"];
    REQUIRE(value.size() == rows.size());
    const int T = col(m, "kinetic_energy"), qd = col(m, joint + ".qd");
    double worst = 0.0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const double v = rows[i][qd];
      if (std::abs(v) < 1e-3) continue;
      worst = std::max(worst, rel(value[i].get<double>(), 2 * rows[i][T] / (v * v)));
    }
    CHECK(worst <= 1e-9);
  }
}

TEST_CASE("design report: slider-crank reflected inertia against its closed form",
          "[sim][report]") {
  // In-line slider-crank: crank r = 0.05 at θ (its joint angle; ground frame along x), conrod
  // l = 0.2 with its centre of mass g = 0.1 from the crank pin, slider on the x axis. With
  // sin φ = -r sin θ / l: φ' = -r cos θ / (l cos φ), x' = -r sin θ - l sin φ φ', and
  // I = I_crank,O + m_rod |G'|² + I_rod φ'² + m_slider x'² (G the rod's centre of mass).
  const Mechanism m = test::sample_mechanism("slider_crank.json");
  const json r = design_report(m, options(m, 0.5), {});
  const json& ri = r["drives"]["crank_pin"]["reflected_inertia"];
  const double rc = 0.05, l = 0.2, g = 0.1;
  const BodySpec &crank = m.spec.bodies[0], &rod = m.spec.bodies[1], &slider = m.spec.bodies[2];
  const double I_crank = crank.inertia[2] + crank.mass * 0.025 * 0.025;
  double worst = 0.0;
  for (std::size_t i = 0; i < ri["t"].size(); ++i) {
    const double th = 0.3 + 4 * M_PI * ri["t"][i].get<double>();
    const double phi = std::asin(-rc * std::sin(th) / l);
    const double dphi = -rc * std::cos(th) / (l * std::cos(phi));
    const double dx = -rc * std::sin(th) - l * std::sin(phi) * dphi;
    const Eigen::Vector2d dG(-rc * std::sin(th) - g * std::sin(phi) * dphi,
                             rc * std::cos(th) + g * std::cos(phi) * dphi);
    const double I = I_crank + rod.mass * dG.squaredNorm() + rod.inertia[2] * dphi * dphi +
                     slider.mass * dx * dx;
    worst = std::max(worst, rel(ri["value"][i].get<double>(), I));
  }
  CHECK(worst <= 1e-10);
}

TEST_CASE("design report: reflected inertia and apparent mass equal the dense projection",
          "[sim][report]") {
  // Several drives (the others held), spatial and planar loops, a tree (puma560: with every
  // other joint held the reflected inertia is H_dd itself).
  for (const char* file : {"delta_robot.json", "rrr3_planar.json", "puma560.json",
                           "stephenson_six_bar.json", "fourbar.json", "double_pendulum.json"}) {
    INFO(file);
    const Mechanism m = test::sample_mechanism(file);
    DesignInertia di(m);
    std::mt19937 rng(7);
    for (int s = 0; s < 3; ++s) {
      VecX q = m.q0;  // off the manifold is fine: both sides use the same rows at q
      if (s > 0) integrate_in_place(m.model(), q, test::random_vector(m.model().nv, rng), 0.1);
      di.set_configuration(q);
      const Dense dense(m, q);
      for (int k = 0; k < static_cast<int>(m.drives.size()); ++k) {
        const double expected = dense.reflected(k);
        CHECK(rel(di.reflected_inertia(k), expected) <= 1e-10);
        if (std::string(file) == "puma560.json")
          CHECK(rel(expected, dense.H(m.drives[k].v, m.drives[k].v)) <= 1e-10);
      }
      for (int b = 1; b <= m.model().nb; ++b) {
        const Vec3 p(0.05 * b, -0.02, 0.01);
        const ApparentMass am = di.apparent_mass(b, p);
        const Mat3 inv = dense.apparent_inverse(b, p);
        CHECK((am.inverse - inv).norm() <= 1e-10 * inv.norm());
        Eigen::CompleteOrthogonalDecomposition<Mat3> cod;
        cod.setThreshold(1e-9);  // before compute: the rank decides the factorisation
        cod.compute(inv);
        const Mat3 pinv = cod.pseudoInverse();
        CHECK((am.mass - pinv).norm() <= 1e-9 * pinv.norm());
        CHECK(am.constrained_directions.size() == static_cast<std::size_t>(3 - cod.rank()));
      }
    }
  }
}

TEST_CASE("design report: apparent mass of a pendulum point, closed form", "[sim][report]") {
  // A point at radius r on a pendulum about a fixed pivot: it moves only along the tangent t,
  // with mass I_O / r² (I_O = I_zz,c + m c², so a point mass at the tip gives m + I_c / r²);
  // the radial direction and z are constrained (pseudo-inverse: 0 there, listed).
  const Mechanism m = test::sample_mechanism("pendulum.json");
  const BodySpec& b = m.spec.bodies[0];
  const double c = b.com.norm(), I_O = b.inertia[2] + b.mass * c * c;
  const double radius = 1.5;
  const json r = design_report(m, options(m, 0.01), {parse_report_point("tip=pendulum@1.5,0,0")});
  const json& p = r["points"]["tip"];
  const Vec3 x(p["path"][0][0], p["path"][0][1], p["path"][0][2]);
  REQUIRE(std::abs(x.norm() - radius) < 1e-12);
  const Vec3 t = Vec3::UnitZ().cross(x / radius);
  const Mat3 expected = I_O / (radius * radius) * t * t.transpose();
  Mat3 mass;
  for (int i = 0; i < 9; ++i) mass(i / 3, i % 3) = p["apparent_mass"][i];
  CHECK((mass - expected).norm() <= 1e-10 * expected.norm());
  REQUIRE(p["constrained_directions"].size() == 2);
  for (const json& d : p["constrained_directions"])
    CHECK(std::abs(Vec3(d[0], d[1], d[2]).dot(t)) <= 1e-12);
}

TEST_CASE("design report: drive work against the energy account", "[sim][report]") {
  // The four-bar's crank: the trapezoid of τ q̇ over the samples against the simulation's
  // input_work (integrated with RK4's own quadrature, stage by stage). The trapezoid's error is
  // O(h²): under 1e-6 of the work that flowed either way at h = 1 ms, and about 4 times smaller
  // at half the sample interval.
  const Mechanism m = test::sample_mechanism("fourbar.json");
  double err_prev = 0.0;
  for (double h : {2e-3, 1e-3}) {
    RunOptions opt = options(m, 1.0);
    opt.step = h;
    const json r = design_report(m, opt, {});
    const json& d = r["drives"]["A0"];
    const double pos = d["positive_work"], neg = d["negative_work"];
    CHECK(pos > 0.0);
    CHECK(neg < 0.0);
    const std::vector<std::vector<double>> rows = csv_rows(m, opt);
    const int tau = col(m, "A0.tau"), qd = col(m, "A0.qd"), work = col(m, "input_work");
    double trapezoid = 0.0, peak = 0.0, f2 = 0.0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
      const double dt = rows[i][0] - rows[i - 1][0];
      trapezoid += 0.5 * dt * (rows[i][tau] * rows[i][qd] + rows[i - 1][tau] * rows[i - 1][qd]);
      f2 += 0.5 * dt * (rows[i][tau] * rows[i][tau] + rows[i - 1][tau] * rows[i - 1][tau]);
    }
    for (const std::vector<double>& row : rows) peak = std::max(peak, std::abs(row[tau]));
    CHECK(std::abs(pos + neg - trapezoid) <= 1e-13 * (pos - neg));  // the split is exact
    CHECK(d["peak_force"].get<double>() == peak);
    CHECK(rel(d["rms_force"].get<double>(), std::sqrt(f2 / 1.0)) <= 1e-13);
    const double err = std::abs(pos + neg - rows.back()[work]);
    INFO("h " << h << " error " << err << " of " << pos - neg);
    CHECK(err <= 4e-6 * (pos - neg));
    if (err_prev > 0) CHECK(err_prev / err > 3.5);
    err_prev = err;
  }
}

TEST_CASE("design report: four-bar transmission angle against the law of cosines",
          "[sim][report]") {
  // Crank a = 0.1 at θ = q_A0 from the ground link d = 0.3 (ground pivots on the x axis),
  // coupler b = 0.28, rocker c = 0.25; B (coupler-rocker) is the loop joint.
  const Mechanism m = test::sample_mechanism("fourbar.json");
  const json r = design_report(m, options(m, 1.0), {});
  REQUIRE(r["loops"].size() == 1);
  const json& mu = r["loops"]["B"]["transmission_angle"];
  const double a = 0.1, b = 0.28, c = 0.25, d = 0.3;
  double worst = 0.0;
  for (std::size_t i = 0; i < mu["t"].size(); ++i) {
    const double th = 0.3 + 2 * M_PI * mu["t"][i].get<double>();
    const double expected =
        std::acos((b * b + c * c - a * a - d * d + 2 * a * d * std::cos(th)) / (2 * b * c));
    worst = std::max(worst, std::abs(mu["value"][i].get<double>() - expected));
  }
  CHECK(worst <= 1e-9);
  // Not four-bar-like: the slider-crank's cycle has a prismatic joint, the six-bars' loops
  // close cycles of four revolutes each (Watt: two four-bar loops).
  CHECK(design_report(test::sample_mechanism("slider_crank.json"), options(m, 0.01), {})["loops"]
            .empty());
}

TEST_CASE("design report: bad points are named", "[sim][report]") {
  for (const char* bad : {"tip", "=crank@1,2,3", "tip=@1,2,3", "tip=crank@1,2", "tip=crank@1,2,x",
                          "tip=crank@1,2,3,4", "tip=crank1,2,3"}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse_report_point(bad),
                      Catch::StartsWith(std::string("--point ") + bad + ": "));
  }
  const Mechanism m = test::sample_mechanism("fourbar.json");
  CHECK_THROWS_WITH(design_report(m, options(m, 0.01), {parse_report_point("p=wheel@0,0,0")}),
                    "--point p=wheel@0,0,0: unknown body 'wheel'");
  CHECK_THROWS_WITH(
      design_report(m, options(m, 0.01),
                    {parse_report_point("p=crank@0,0,0"), parse_report_point("p=rocker@0,0,0")}),
      "--point p=rocker@0,0,0: a second point named 'p'");
  const json g = design_report(m, options(m, 0.01), {parse_report_point("g=ground@1,0,0")});
  CHECK(g["points"]["g"]["constrained_directions"].size() == 3);
}
