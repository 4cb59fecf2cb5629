// Assembly of closed loops (Levenberg-Marquardt from the sketch), velocity projection, failures
// reported by loop joint, and the mobility of the overconstrained Bennett linkage.
#include <Eigen/LU>
#include <Eigen/SVD>
#include <cmath>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/mobility.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/mechanism.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180.0;

PoseSpec planar_pose(double x, double y, double angle) {
  PoseSpec p;
  p.position = Vec3(x, y, 0);
  p.orientation = Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
  return p;
}
double cross2(const Vec3& u, const Vec3& v) {
  return u.x() * v.y() - u.y() * v.x();
}

// Planar four-bar: ground pivots A = 0 and D = (d, 0); crank AB = a, coupler BC = b, rocker DC = c.
// Body frames at A, B, D with x along AB, BC, DC; the coupler point P = (px, py) in coupler axes.
struct FourBar {
  double a = 0.1, b = 0.35, c = 0.3, d = 0.4;
  Vec3 P_local{0.2, 0.08, 0};
  Vec3 D() const { return {d, 0, 0}; }

  // Exact closing point for crank tip B on branch `side` (+1: C to the left of the ray B→D).
  Vec3 closing_point(const Vec3& B, int side) const {
    const Vec3 e = D() - B;
    const double L = e.norm(), x = (b * b - c * c + L * L) / (2 * L), h = std::sqrt(b * b - x * x);
    const Vec3 u = e / L, n(-u.y(), u.x(), 0);
    return B + x * u + side * h * n;
  }
  Vec3 coupler_point(const Vec3& B, const Vec3& C) const {
    const Vec3 u = (C - B).normalized(), n(-u.y(), u.x(), 0);
    return B + P_local.x() * u + P_local.y() * n;
  }

  // The sketch at crank angle theta on branch `side`, body poses moved by `mm` millimetres and
  // `deg` degrees (different directions per body).
  MechanismSpec spec(double theta, int side, double mm = 0.0, double deg = 0.0) const {
    const Vec3 B(a * std::cos(theta), a * std::sin(theta), 0), C = closing_point(B, side);
    const double phi = std::atan2(C.y() - B.y(), C.x() - B.x()), psi = std::atan2(C.y(), C.x() - d);
    return spec_from_poses(planar_pose(0.001 * mm, -0.0005 * mm, theta + deg * kDeg),
                           planar_pose(B.x() + 0.001 * mm, B.y() - 0.0007 * mm, phi - deg * kDeg),
                           planar_pose(d - 0.0006 * mm, 0.001 * mm, psi + 0.8 * deg * kDeg));
  }
  MechanismSpec spec_from_poses(const PoseSpec& crank, const PoseSpec& coupler,
                                const PoseSpec& rocker) const {
    MechanismSpec s;
    s.name = "four-bar";
    const std::pair<const char*, double> links[3] = {{"crank", a}, {"coupler", b}, {"rocker", c}};
    const PoseSpec poses[3] = {crank, coupler, rocker};
    for (int k = 0; k < 3; ++k) {
      BodySpec body;
      body.name = links[k].first;
      const double L = links[k].second;
      body.com = Vec3(L / 2, 0, 0);
      body.inertia = {1e-4, L * L / 12 + 1e-4, L * L / 12 + 1e-4, 0, 0, 0};
      body.pose = poses[k];
      s.bodies.push_back(body);
    }
    auto pin = [&](const char* name, const char* parent, const char* child, Vec3 in_parent,
                   Vec3 in_child) {
      JointSpec j;
      j.name = name;
      j.joint = Joint::revolute();
      j.parent = parent;
      j.child = child;
      j.parent_frame.position = in_parent;
      j.child_frame.position = in_child;
      s.joints.push_back(j);
    };
    pin("A", "ground", "crank", Vec3::Zero(), Vec3::Zero());
    pin("B", "crank", "coupler", Vec3(a, 0, 0), Vec3::Zero());
    pin("C_pin", "coupler", "rocker", Vec3(b, 0, 0), Vec3(c, 0, 0));
    pin("D", "ground", "rocker", D(), Vec3::Zero());
    return s;
  }
};

// World position of a point given in a user body's coordinates, at the mechanism's q0.
struct Placed {
  const Mechanism& m;
  Data data;
  explicit Placed(const Mechanism& mech) : m(mech), data(mech.model()) {
    forward_kinematics(m.model(), data, m.q0);
  }
  Vec3 point(const std::string& body, const Vec3& p) {
    const int i = m.compiled.model_body[m.spec.body_index(body)];
    const Transform X = m.compiled.X_body[i].inverse() * data.X0[i];  // ^{user body} X_0
    return X.r + X.E.transpose() * p;
  }
};

MatX loop_jacobian_at(const Mechanism& m, const VecX& q) {
  Data data(m.model());
  forward_kinematics(m.model(), data, q);
  MatX K;
  loop_jacobian(m.model(), data, m.compiled.loops, K);
  return K;
}

}  // namespace

TEST_CASE("a perturbed four-bar sketch assembles onto the drawn branch", "[spec][assembly]") {
  const FourBar g;
  for (int side : {+1, -1}) {
    INFO("branch " << side);
    const Mechanism m = prepare(g.spec(1.0, side, 3.0, 3.0));  // 3 mm and 3° off
    CHECK(m.assembly.converged);
    CHECK(m.assembly.iterations >= 1);
    CHECK(m.assembly.residual <= 1e-12);
    Placed at(m);
    const Vec3 B = at.point("crank", Vec3(g.a, 0, 0));
    CHECK(std::abs(B.norm() - g.a) <= 1e-15);
    const Vec3 C_exact =
        g.closing_point(B, side);  // the exact closure for the crank where it ended
    const Vec3 P_exact = g.coupler_point(B, C_exact);
    // 1e-9: the loop is closed to 1e-12 and this geometry is well conditioned (transmission
    // angle far from 0), so the coupler point is exact to about 1e-11.
    CHECK((at.point("coupler", g.P_local) - P_exact).norm() <= 1e-9);
    CHECK((at.point("rocker", Vec3(g.c, 0, 0)) - C_exact).norm() <= 1e-9);
    // Same side of the line BD as drawn, and far from the other branch.
    const Vec3 C = at.point("coupler", Vec3(g.b, 0, 0));
    CHECK(cross2(g.D() - B, C - B) * side > 0.01);
    const Vec3 P_other = g.coupler_point(B, g.closing_point(B, -side));
    CHECK((at.point("coupler", g.P_local) - P_other).norm() > 0.05);
    // Assembly moves as little as possible: the crank stays within a few degrees of the sketch.
    CHECK(std::abs(std::atan2(B.y(), B.x()) - 1.0) < 5 * kDeg);
  }
}

TEST_CASE("lengths that cannot close report the loop joint and the residual", "[spec][assembly]") {
  FourBar g;
  // Crank a = 1 longer than b + c + d = 0.3 + 0.3 + 0.2: |BD| >= a - d = 0.8 > b + c = 0.6.
  g.a = 1.0;
  g.b = 0.3;
  g.d = 0.2;
  const MechanismSpec s = g.spec_from_poses(planar_pose(0, 0, 0.5), planar_pose(0.88, 0.48, 0.0),
                                            planar_pose(0.2, 0, 1.0));
  CHECK_THROWS_AS(prepare(s), SetupError);
  CHECK_THROWS_WITH(prepare(s), Catch::Contains("'C_pin'") && Catch::Contains("residual"));
  try {
    prepare(s);
  } catch (const SetupError& e) {
    // The gap |BD| - (b + c) >= 0.2 m shows in the two in-plane rows: max |δ| >= 0.2/√2 > 0.01.
    const std::string msg = e.what();
    const auto pos = msg.find("residual ");
    REQUIRE(pos != std::string::npos);
    CHECK(std::stod(msg.substr(pos + 9)) > 0.01);
  }
}

TEST_CASE("a motion-driven crank is held at its t = 0 value", "[spec][assembly]") {
  const FourBar g;
  MechanismSpec s = g.spec(1.0, +1, 2.0, 2.0);  // drawn at 1.0 rad, the drive says 0.9
  s.joints[0].drive = DriveSpec{DriveSpec::Kind::Motion, "0.9 + 0.5*sin(2*t)"};
  const Mechanism m = prepare(s);
  const int qa = m.compiled.q_index(0), va = m.compiled.v_index(0);
  CHECK(m.locked_v[va]);
  CHECK(m.q0[qa] == 0.9);   // exactly: a locked coordinate is never stepped
  CHECK(m.qd0[va] == 1.0);  // d/dt at t = 0 is 0.5·2·cos 0 = 1, exactly
  CHECK(m.assembly.residual <= 1e-12);
  Placed at(m);
  const Vec3 B(g.a * std::cos(0.9), g.a * std::sin(0.9), 0);
  CHECK((at.point("crank", Vec3(g.a, 0, 0)) - B).norm() <= 1e-15);
  CHECK((at.point("coupler", g.P_local) - g.coupler_point(B, g.closing_point(B, +1))).norm() <=
        1e-9);
}

TEST_CASE("velocity projection satisfies K qd = 0 and moves only free coordinates",
          "[spec][assembly]") {
  const FourBar g;
  MechanismSpec s = g.spec(1.0, +1);
  s.joints[1].qd0 = std::vector<double>{0.5};
  s.joints[3].qd0 = std::vector<double>{-0.3};

  SECTION("prepare projects, keeping the driven crank's velocity") {
    s.joints[0].drive = DriveSpec{DriveSpec::Kind::Motion, "1.0 + 2*t"};
    const Mechanism m = prepare(s);
    const MatX K = loop_jacobian_at(m, m.q0);
    CHECK((K * m.qd0).cwiseAbs().maxCoeff() <= 1e-12);  // rounding of a 5x3 solve
    CHECK(m.qd0[m.compiled.v_index(0)] == 2.0);         // locked: bit-for-bit the drive's rate
    CHECK(m.qd0[m.compiled.v_index(1)] != 0.5);         // the free ones were corrected
    CHECK(m.qd0[m.compiled.v_index(3)] != -0.3);
    // With the crank at 2 rad/s the mechanism's single freedom fixes the others: compare with the
    // null-space direction of K scaled to the crank rate.
    Eigen::FullPivLU<MatX> lu(K);
    lu.setThreshold(1e-9);
    const MatX N = lu.kernel();
    REQUIRE(N.cols() == 1);
    const VecX expect = N.col(0) * (2.0 / N(m.compiled.v_index(0), 0));
    CHECK_CLOSE(m.qd0, expect, 1e-12);
  }
  SECTION("project_velocity leaves locked coordinates alone and makes the least change") {
    const Mechanism m = prepare(s);  // no drive: all free
    CHECK((loop_jacobian_at(m, m.q0) * m.qd0).cwiseAbs().maxCoeff() <= 1e-12);
    const int vd = m.compiled.v_index(3);
    VecX qd = VecX::Zero(3);
    qd[m.compiled.v_index(0)] = 1.0;
    qd[m.compiled.v_index(1)] = 0.5;
    qd[vd] = -0.3;
    const VecX before = qd;
    std::vector<bool> locked(3, false);
    locked[vd] = true;
    Data data(m.model());
    project_velocity(m.model(), data, m.compiled.loops, m.q0, qd, locked);
    const MatX K = loop_jacobian_at(m, m.q0);
    CHECK((K * qd).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK(qd[vd] == -0.3);  // exactly unchanged
    // Least change: with D held, the free correction is orthogonal to every free motion that
    // keeps K qd = 0 — here there is none (mobility 1, D held), so the result is unique: the
    // null-space direction scaled to the held rate.
    Eigen::FullPivLU<MatX> lu(K);
    lu.setThreshold(1e-9);
    const MatX N = lu.kernel();
    CHECK_CLOSE(qd, VecX(N.col(0) * (-0.3 / N(vd, 0))), 1e-12);
    CHECK((qd - before).norm() > 1e-3);
    // Nothing locked: the correction is orthogonal to the null space (minimum norm).
    VecX qd2 = before;
    project_velocity(m.model(), data, m.compiled.loops, m.q0, qd2, std::vector<bool>(3, false));
    CHECK((K * qd2).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK(std::abs(N.col(0).normalized().dot(qd2 - before)) <= 1e-12);
  }
}

TEST_CASE("the Bennett linkage is a mobile overconstrained spatial 4R", "[spec][assembly]") {
  // Denavit-Hartenberg: joint i+1 sits at Rz(θi) Tx(a_i) Rx(α_i) from joint i. Bennett: a12 = a34
  // = a, a23 = a41 = b, α12 = α34 = α, α23 = α41 = β with a / sin α = b / sin β; closure holds for
  // θ3 = -θ1, θ4 = -θ2 and tan(θ1/2) tan(θ2/2) = sin((β+α)/2) / sin((β-α)/2).
  using Iso = Eigen::Isometry3d;
  const double al = 0.5, be = 1.1, a = 0.2, b = a * std::sin(be) / std::sin(al);
  const double ratio = std::sin((be + al) / 2) / std::sin((be - al) / 2);
  auto theta2_of = [&](double th1) { return 2 * std::atan(ratio / std::tan(th1 / 2)); };
  auto link = [](double ai, double alpha) {  // Tx(a) Rx(α)
    Iso X = Iso::Identity();
    X.translate(Vec3(ai, 0, 0));
    X.rotate(Eigen::AngleAxisd(alpha, Vec3::UnitX()));
    return X;
  };
  auto rz = [](double th) { return Iso(Eigen::AngleAxisd(th, Vec3::UnitZ())); };
  auto pose = [](const Iso& X) {
    PoseSpec p;
    p.position = X.translation();
    p.orientation = Quat(X.rotation());
    return p;
  };
  const double th1 = 0.7, th2 = theta2_of(th1);
  const Iso F1 = rz(th1), F2 = F1 * link(a, al) * rz(th2), F3 = F2 * link(b, be) * rz(-th1);
  REQUIRE((F3 * link(a, al) * rz(-th2) * link(b, be)).matrix().isIdentity(1e-14));  // closes

  MechanismSpec s;
  s.name = "Bennett";
  const Iso frames[3] = {F1, F2, F3};
  const double len[3] = {a, b, a};
  for (int k = 0; k < 3; ++k) {
    BodySpec body;
    body.name = "link" + std::to_string(k + 1);
    body.com = Vec3(len[k] / 2, 0, 0);
    body.inertia = {1e-3, 2e-3, 2e-3, 0, 0, 0};
    body.pose = pose(frames[k]);
    s.bodies.push_back(body);
  }
  auto add = [&](const char* name, const char* parent, const char* child, const Iso& in_parent,
                 const Iso& in_child) {
    JointSpec j;
    j.name = name;
    j.joint = Joint::revolute();
    j.parent = parent;
    j.child = child;
    j.parent_frame = pose(in_parent);
    j.child_frame = pose(in_child);
    s.joints.push_back(j);
  };
  add("J1", "ground", "link1", Iso::Identity(), Iso::Identity());
  add("J2", "link1", "link2", link(a, al), Iso::Identity());
  add("J3", "link2", "link3", link(b, be), Iso::Identity());
  add("J4", "link3", "ground", link(a, al), link(b, be).inverse());  // written backwards

  const Mechanism m = prepare(s);
  CHECK(m.assembly.residual <= 1e-12);
  REQUIRE(m.compiled.loops.size() == 1);
  CHECK(m.compiled.loops[0].name == "J3");
  CHECK_FALSE(m.planar);
  CHECK(m.gruebler == -2);  // 6·3 - 4·5: Grübler says rigid...
  CHECK(m.mobility.rank == 2);
  CHECK(m.mobility.mobility == 1);  // ...but the Bennett geometry moves
  CHECK(m.mobility.redundant == 3);
  const VecX q_sketch = m.q0;
  CHECK(std::abs(q_sketch[m.compiled.q_index(0)] - th1) <= 1e-12);
  CHECK(std::abs(q_sketch[m.compiled.q_index(1)] - th2) <= 1e-12);

  // A finite motion: step along the null space of K, close the loop again and compare with the
  // closed-form Bennett relation (1e-9: assembly to 1e-12 on a well-conditioned loop).
  const MatX K = loop_jacobian_at(m, q_sketch);
  Eigen::FullPivLU<MatX> lu(K);
  lu.setThreshold(1e-9);
  const MatX N = lu.kernel();
  REQUIRE(N.cols() == 1);
  VecX q = integrate(m.model(), q_sketch, N.col(0) * (0.3 / N.col(0).cwiseAbs().maxCoeff()), 1.0);
  Data data(m.model());
  const AssemblyResult r =
      assemble(m.model(), data, m.compiled.loops, q, std::vector<bool>(3, false));
  REQUIRE(r.converged);
  CHECK(r.residual <= 1e-12);
  const double t1 = q[m.compiled.q_index(0)], t2 = q[m.compiled.q_index(1)],
               t4 = q[m.compiled.q_index(3)];
  CHECK(std::abs(t1 - th1) > 0.05);  // it really moved
  CHECK(std::abs(t2 - theta2_of(t1)) <= 1e-9);
  CHECK(std::abs(std::remainder(t4 + t2, 2 * 3.14159265358979323846)) <= 1e-9);  // θ4 = -θ2
}

namespace {
int svd_rank(const MatX& A) {
  if (A.rows() == 0) return 0;
  const VecX sv = Eigen::BDCSVD<MatX>(A).singularValues();
  int rank = 0;
  for (int i = 0; i < sv.size(); ++i) rank += sv[i] > 1e-9 * std::max(1.0, sv[0]);
  return rank;
}
}  // namespace

// The mobility report against the whole loop Jacobian (its rows zero to round-off included,
// which mobility() sets aside): the rank by an SVD of all of K, and the rows it keeps as
// independent are independent (full rank) and as many as the rank.
TEST_CASE("mobility on every sample: rank of the whole K, independent rows", "[spec][assembly]") {
  int planar_with_zero_rows = 0;
  for (const std::string& f : test::sample_files()) {
    INFO(f);
    const Mechanism m = test::sample_mechanism(f);
    if (m.compiled.loops.empty()) continue;
    Data data(m.model());
    forward_kinematics(m.model(), data, m.q0);
    MatX K;
    loop_jacobian(m.model(), data, m.compiled.loops, K);
    const MobilityReport r = mobility(m.model(), m.compiled.loops, K, m.length_scale);
    CHECK(r.rank == svd_rank(K));  // unscaled: the samples' ranks do not hinge on row scales
    CHECK(r.redundant == K.rows() - r.rank);
    std::vector<Eigen::Index> independent;
    for (Eigen::Index row = 0; row < K.rows(); ++row)
      if (std::find(r.redundant_rows.begin(), r.redundant_rows.end(), row) ==
          r.redundant_rows.end())
        independent.push_back(row);
    CHECK(static_cast<int>(independent.size()) == r.rank);
    CHECK(svd_rank(K(independent, Eigen::all)) == r.rank);
    planar_with_zero_rows += m.planar && (K.rowwise().norm().array() < 1e-14).any();
  }
  CHECK(planar_with_zero_rows >= 5);  // the case set aside is exercised
}
