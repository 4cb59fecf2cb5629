// Compiling MechanismSpecs: spanning-tree choice (minimum depth, reversed joints, drives
// preferred), loop joints, mobility by rank, and the loop Jacobian K and bias k against finite
// differences.
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/mechanism.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using Iso = Eigen::Isometry3d;

namespace {

PoseSpec to_pose(const Iso& X) {
  PoseSpec p;
  p.position = X.translation();
  p.orientation = Quat(X.rotation());
  return p;
}
Iso iso(const Vec3& p, const Mat3& R = Mat3::Identity()) {
  Iso X = Iso::Identity();
  X.linear() = R;
  X.translation() = p;
  return X;
}
Mat3 about(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// Mechanisms drawn in world coordinates: bodies by their sketched pose, joints at a world point
// with world joint axes. Joint frames are derived from the sketch, so every sketch is assembled
// (all joint coordinates zero) and link lengths follow from the drawn points.
struct Sketch {
  MechanismSpec spec;
  std::map<std::string, Iso> pose;

  Iso world(const std::string& b) const { return b == "ground" ? Iso::Identity() : pose.at(b); }
  void body(const std::string& name, const Iso& X, const Vec3& com_world, double mass = 1.0) {
    spec.bodies.push_back({name,
                           mass,
                           X.inverse() * com_world,
                           {0.002 * mass, 0.003 * mass, 0.004 * mass, 0, 0, 0},
                           to_pose(X)});
    pose[name] = X;
  }
  // A planar bar from P to Q: body frame at P, x along PQ.
  void bar(const std::string& name, const Vec3& P, const Vec3& Q, double mass = 1.0) {
    const Vec3 d = Q - P;
    body(name, iso(P, about(Vec3::UnitZ(), std::atan2(d.y(), d.x()))), 0.5 * (P + Q), mass);
    const double L2 = d.squaredNorm();
    spec.bodies.back().inertia = {
        1e-4 * mass, mass * L2 / 12 + 1e-4 * mass, mass * L2 / 12 + 1e-4 * mass, 0, 0, 0};
  }
  JointSpec& joint(const std::string& name, Joint type, const std::string& parent,
                   const std::string& child, const Vec3& P, const Mat3& R = Mat3::Identity()) {
    spec.joints.push_back({name, type, parent, child, to_pose(world(parent).inverse() * iso(P, R)),
                           to_pose(world(child).inverse() * iso(P, R))});
    return spec.joints.back();
  }
  JointSpec& pin(const std::string& name, const std::string& parent, const std::string& child,
                 const Vec3& P) {
    return joint(name, Joint::revolute(), parent, child, P);
  }
};

// Planar four-bar: ground pivots A, D; crank AB, coupler BC, rocker DC. Joints in the order
// A, B, C, D so that a depth-first tree would put the rocker at depth 3.
Sketch four_bar(bool backwards = false) {
  Sketch s;
  const Vec3 A(0, 0, 0), B(0.05, 0.087, 0), C(0.32, 0.21, 0), D(0.4, 0, 0);
  s.bar("crank", A, B);
  s.bar("coupler", B, C);
  s.bar("rocker", D, C);
  s.pin("A", "ground", "crank", A);
  // backwards: B and D written with the child nearer to ground than the parent.
  s.pin("B", backwards ? "coupler" : "crank", backwards ? "crank" : "coupler", B);
  s.pin("C", "coupler", "rocker", C);
  s.pin("D", backwards ? "rocker" : "ground", backwards ? "ground" : "rocker", D);
  return s;
}

// Stephenson III six-bar: the four-bar plus a dyad E-F-G hung from the coupler (a ternary link).
// The two loops share the coupler and the crank.
Sketch stephenson() {
  Sketch s = four_bar();
  const Vec3 E(0.2, 0.3, 0), F(0.45, 0.42, 0), G(0.6, 0.1, 0);  // E: a third point on the coupler
  s.bar("link5", E, F);
  s.bar("link6", G, F);
  s.pin("E", "coupler", "link5", E);
  s.pin("F", "link5", "link6", F);
  s.pin("G", "ground", "link6", G);
  return s;
}

// Spatial R-?-?-R linkage: crank about z at A, coupler B-C, rocker about a skew axis at D.
Sketch spatial_rxxr(Joint at_B, Joint at_C) {
  Sketch s;
  const Vec3 A(0, 0, 0), B(0.1, 0.02, 0), C(0.3, 0.25, 0.12), D(0.35, 0.05, 0.15);
  s.body("crank", iso(A), 0.5 * (A + B));
  s.body("coupler", iso(B, about(Vec3(1, 2, 3), 0.4)), 0.5 * (B + C));
  s.body("rocker", iso(D, about(Vec3(-1, 0.5, 0.2), 0.8)), 0.5 * (C + D));
  s.joint("A", Joint::revolute(), "ground", "crank", A);
  s.joint("B", at_B, "crank", "coupler", B, about(Vec3(0.3, -1, 0.5), 1.1));
  // Axes skew to BC: a universal's axes spanning BC would let the coupler spin idly and lock the
  // crank.
  s.joint("C", at_C, "coupler", "rocker", C, about(Vec3(1, -1, 2), 0.9));
  s.joint("D", Joint::revolute(), "ground", "rocker", D, about(Vec3(0.2, 1, -0.3), 1.3));
  return s;
}

int depth(const Model& m, int i) {
  return i == 0 ? 0 : 1 + depth(m, m.parent[i]);
}
int max_depth(const Model& m) {
  int d = 0;
  for (int i = 1; i <= m.nb; ++i) d = std::max(d, depth(m, i));
  return d;
}
int model_of(const CompiledMechanism& c, const MechanismSpec& s, const std::string& body) {
  return body == "ground" ? 0 : c.model_body[s.body_index(body)];
}
// ^{user body}X_0 of user body b after forward kinematics.
Transform user_body_from_world(const CompiledMechanism& c, const Data& data, int b) {
  const int i = c.model_body[b];
  return c.X_body[i].inverse() * data.X0[i];
}

// Every user joint maps to exactly one tree joint (with its name) or one loop joint.
void check_joint_map(const MechanismSpec& s, const CompiledMechanism& c) {
  REQUIRE(c.joint_map.size() == s.joints.size());
  std::vector<int> tree_hits(c.model.nb + 1, 0), loop_hits(c.loops.size(), 0);
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    const JointMapping& m = c.joint_map[j];
    REQUIRE(m.index >= (m.loop ? 0 : 1));
    REQUIRE(m.index < (m.loop ? static_cast<int>(c.loops.size()) : c.model.nb + 1));
    CHECK((m.loop ? c.loops[m.index].name : c.model.joint_names[m.index]) == s.joints[j].name);
    ++(m.loop ? loop_hits : tree_hits)[m.index];
  }
  for (int i = 1; i <= c.model.nb; ++i) CHECK(tree_hits[i] == 1);
  for (int h : loop_hits) CHECK(h == 1);
}

VecX deltas(const CompiledMechanism& c, Data& data, const VecX& q) {
  VecX d;
  forward_kinematics(c.model, data, q);
  loop_position_errors(c.model, data, c.loops, d);
  return d;
}
MatX jacobian(const CompiledMechanism& c, Data& data, const VecX& q) {
  MatX K;
  forward_kinematics(c.model, data, q);
  loop_jacobian(c.model, data, c.loops, K);
  return K;
}
MatX kernel(const MatX& K) {
  Eigen::FullPivLU<MatX> lu(K);
  lu.setThreshold(1e-9);
  return lu.kernel();
}
VecX random_in(const MatX& N, std::mt19937& rng) {
  return N * test::random_vector(static_cast<int>(N.cols()), rng);
}

// Moves an assembled configuration a finite way along its free motion (null space of K) and
// closes the loops again: a generic assembled configuration, not the all-zero sketch.
VecX generic_assembled(const CompiledMechanism& c, Data& data, VecX q, std::mt19937& rng) {
  VecX step = random_in(kernel(jacobian(c, data, q)), rng);
  q = integrate(c.model, q, step * (0.4 / step.cwiseAbs().maxCoeff()), 1.0);
  REQUIRE(assemble(c.model, data, c.loops, q, std::vector<bool>(c.model.nv, false)).converged);
  return q;
}

// d/dt (K(q(t)) q̇(t)) at t = 0 along q(t) = q ⊕ (t q̇ + t²/2 q̈), q̇(t) = q̇ + t q̈, by central
// differences with h = 1e-5 (truncation O(h²) ~ 1e-10, rounding ~ 1e-16/h ~ 1e-11).
VecX rate_of_Kqd(const CompiledMechanism& c, Data& data, const VecX& q, const VecX& qd,
                 const VecX& qdd) {
  auto Kqd = [&](double t) {
    return VecX(jacobian(c, data, integrate(c.model, q, t * qd + 0.5 * t * t * qdd, 1.0)) *
                (qd + t * qdd));
  };
  const double h = 1e-5;
  return (Kqd(h) - Kqd(-h)) / (2 * h);
}

// δ̇ = K q̇ and d/dt(K q̇) = K q̈ - k by central differences at a generic assembled configuration.
void check_K_and_k(const MechanismSpec& spec, unsigned seed) {
  const CompiledMechanism c = compile(spec);
  REQUIRE_FALSE(c.loops.empty());
  Data data(c.model);
  VecX q, qd;
  initial_guess(spec, c, q, qd);
  std::mt19937 rng(seed);
  q = generic_assembled(c, data, q, rng);
  REQUIRE(deltas(c, data, q).cwiseAbs().maxCoeff() <= 1e-12);
  const MatX K = jacobian(c, data, q);

  // δ̇ = K qd for an arbitrary qd. h = 1e-6: truncation O(h²) ~ 1e-12, rounding ~ 1e-16/h ~ 1e-10,
  // so 1e-7 is a wide margin that a wrong column or sign (errors of order 0.1) cannot pass.
  const VecX v = test::random_vector(c.model.nv, rng);
  const double h = 1e-6;
  const VecX fd = (deltas(c, data, integrate(c.model, q, v, h)) -
                   deltas(c, data, integrate(c.model, q, v, -h))) /
                  (2 * h);
  CHECK((fd - K * v).cwiseAbs().maxCoeff() <= 1e-7);
  CHECK(K.norm() > 0.1);  // a real, nonzero Jacobian

  // K q̈ = k  ⇔  d/dt(K qd) = K qdd - k for any qdd. Checked for qd with K qd = 0 (the case
  // that matters) and for an arbitrary qd. Tolerance 1e-6 as briefed (errors are ~1e-10).
  const std::vector<VecX> qdots{random_in(kernel(K), rng), test::random_vector(c.model.nv, rng)};
  for (std::size_t n = 0; n < qdots.size(); ++n) {
    const VecX& qdot = qdots[n];
    VecX k, delta;
    MatX K2;
    loop_constraints(c.model, data, c.loops, q, qdot, 0.0, 0.0, delta, K2, k);
    CHECK((K2 - K).cwiseAbs().maxCoeff() <= 1e-15);
    const VecX qdd = test::random_vector(c.model.nv, rng);
    CHECK((rate_of_Kqd(c, data, q, qdot, qdd) - (K * qdd - k)).cwiseAbs().maxCoeff() <= 1e-6);
    CHECK(k.norm() > 1e-3);  // the velocity-product term is really exercised
    // A q̈ that keeps the trajectory on the constraint (K q̈ = k, least squares) gives d/dt(K qd) =
    // 0.
    if (n == 0) {
      const VecX qdd_on = K.completeOrthogonalDecomposition().solve(k);
      CHECK((K * qdd_on - k).cwiseAbs().maxCoeff() <= 1e-10);
      CHECK(rate_of_Kqd(c, data, q, qdot, qdd_on).cwiseAbs().maxCoeff() <= 1e-6);
    }
  }
}

}  // namespace

TEST_CASE("a serial chain compiles to a tree with no loop joints", "[spec][compile]") {
  Sketch s;
  const Vec3 P0(0, 0, 0), P1(0.3, 0.1, 0), P2(0.5, 0.4, 0), P3(0.6, 0.8, 0);
  s.bar("l1", P0, P1);
  s.bar("l2", P1, P2);
  s.bar("l3", P2, P3);
  s.pin("J1", "ground", "l1", P0);
  s.pin("J2", "l1", "l2", P1);
  s.pin("J3", "l2", "l3", P2);
  const CompiledMechanism c = compile(s.spec);
  CHECK(c.loops.empty());
  CHECK(c.nc == 0);
  REQUIRE(c.model.nb == 3);
  for (const auto& [body, parent] : {std::pair{"l1", "ground"}, {"l2", "l1"}, {"l3", "l2"}}) {
    CHECK(c.model.parent[model_of(c, s.spec, body)] == model_of(c, s.spec, parent));
    CHECK_FALSE(c.model.joints[model_of(c, s.spec, body)].reversed);
  }
  check_joint_map(s.spec, c);
  const Mechanism m = prepare(s.spec);
  CHECK(m.mobility.mobility == 3);
  CHECK(m.mobility.redundant == 0);
  CHECK(m.gruebler == 3);
}

TEST_CASE("a four-bar has one loop joint on a minimum-depth tree, mobility 1", "[spec][compile]") {
  const Sketch s = four_bar();
  const CompiledMechanism c = compile(s.spec);
  REQUIRE(c.loops.size() == 1);
  CHECK(c.model.nb == 3);
  CHECK(c.nc == 5);
  // Breadth-first: crank and rocker hang from ground, the coupler from the crank (first in file
  // order); C closes the loop. A depth-first tree A-B-C would have had depth 3.
  CHECK(max_depth(c.model) == 2);
  CHECK(c.model.parent[model_of(c, s.spec, "crank")] == 0);
  CHECK(c.model.parent[model_of(c, s.spec, "rocker")] == 0);
  CHECK(c.model.parent[model_of(c, s.spec, "coupler")] == model_of(c, s.spec, "crank"));
  CHECK(c.joint_map[s.spec.joint_index("C")].loop);
  CHECK(c.loops[0].name == "C");
  CHECK(c.loops[0].predecessor == model_of(c, s.spec, "coupler"));
  CHECK(c.loops[0].successor == model_of(c, s.spec, "rocker"));
  check_joint_map(s.spec, c);

  const Mechanism m = prepare(s.spec);
  CHECK(m.assembly.residual <= 1e-12);  // the sketch is exact
  CHECK(m.mobility.coordinates == 3);
  CHECK(m.mobility.rank == 2);
  CHECK(m.mobility.mobility == 1);
  CHECK(m.mobility.redundant == 3);
  // The planar loop's out-of-plane rows (moments about x, y and the force along z) are the
  // redundant ones, and all belong to the loop joint C.
  CHECK(m.mobility.redundant_rows == std::vector<int>{0, 1, 4});
  CHECK(m.redundant_joints() == std::vector<std::pair<std::string, int>>{{"C", 3}});
  CHECK(m.planar);
  CHECK(m.gruebler == 1);  // 3·3 - 2·4
}

TEST_CASE("two loops: a Stephenson six-bar and two four-bars sharing a crank", "[spec][compile]") {
  SECTION("Stephenson III: coupled loops sharing the ternary coupler") {
    const Sketch s = stephenson();
    const CompiledMechanism c = compile(s.spec);
    REQUIRE(c.loops.size() == 2);
    CHECK(c.nc == 10);
    CHECK(c.model.nb == 5);
    // link5 is reached through link6 (depth 1) at depth 2, so F is a reversed tree joint and the
    // loops close at C and E.
    CHECK(max_depth(c.model) == 2);
    CHECK(c.model.joints[c.joint_map[s.spec.joint_index("F")].index].reversed);
    CHECK(c.loops[0].name == "C");
    CHECK(c.loops[1].name == "E");
    check_joint_map(s.spec, c);
    const Mechanism m = prepare(s.spec);
    CHECK(m.mobility.mobility == 1);
    CHECK(m.mobility.rank == 4);
    CHECK(m.mobility.redundant == 6);
    CHECK(m.gruebler == 1);  // 3·5 - 2·7
  }
  SECTION("two four-bars driven by one crank") {
    Sketch s = four_bar();
    const Vec3 B(0.05, 0.087, 0), C2(-0.2, 0.25, 0), D2(-0.3, -0.05, 0);
    s.bar("coupler2", B, C2);
    s.bar("rocker2", D2, C2);
    s.pin("B2", "crank", "coupler2", B);
    s.pin("C2", "coupler2", "rocker2", C2);
    s.pin("D2", "ground", "rocker2", D2);
    const CompiledMechanism c = compile(s.spec);
    REQUIRE(c.loops.size() == 2);
    CHECK(c.loops[0].name == "C");
    CHECK(c.loops[1].name == "C2");
    CHECK(c.loops[1].row == 5);
    CHECK(max_depth(c.model) == 2);
    check_joint_map(s.spec, c);
    const Mechanism m = prepare(s.spec);
    CHECK(m.mobility.mobility == 1);
    CHECK(m.mobility.redundant == 6);
    CHECK(m.redundant_joints() == std::vector<std::pair<std::string, int>>{{"C", 3}, {"C2", 3}});
  }
}

TEST_CASE("joints written backwards become reversed tree joints with the same kinematics",
          "[spec][compile]") {
  // A spatial chain with revolute, spherical and prismatic joints and skew joint axes.
  auto chain = [](bool backwards) {
    Sketch s;
    const Vec3 P1(0.1, 0, 0.05), P2(0.3, 0.2, 0), P3(0.5, 0.1, 0.3), P4(0.6, 0.5, 0.2);
    s.body("l1", iso(P1, about(Vec3(1, 0, 1), 0.3)), Vec3(0.2, 0.1, 0), 1.0);
    s.body("l2", iso(P2, about(Vec3(0, 1, 1), -0.7)), Vec3(0.4, 0.15, 0.1), 1.5);
    s.body("l3", iso(P3, about(Vec3(1, 1, 0), 1.2)), Vec3(0.55, 0.3, 0.25), 0.7);
    s.body("l4", iso(P4, about(Vec3(0, 0, 1), 0.4)), Vec3(0.7, 0.5, 0.2), 0.4);
    s.joint("J1", Joint::revolute(), "ground", "l1", P1, about(Vec3(0, 1, 0), 0.5));
    const std::string a[3] = {"l1", "l2", "l3"}, b[3] = {"l2", "l3", "l4"};
    const Joint type[3] = {Joint::revolute(), Joint::spherical(), Joint::prismatic()};
    const Vec3 P[3] = {P2, P3, P4};
    for (int k = 0; k < 3; ++k)
      s.joint("J" + std::to_string(k + 2), type[k], backwards ? b[k] : a[k],
              backwards ? a[k] : b[k], P[k], about(Vec3(k, 1, 2), 0.3 + k));
    return s;
  };
  const Sketch fwd = chain(false), bwd = chain(true);
  const CompiledMechanism cf = compile(fwd.spec), cb = compile(bwd.spec);
  REQUIRE(cb.model.nb == 4);
  CHECK(cb.loops.empty());
  for (int j = 0; j < 4; ++j) {
    CHECK(cb.model.joints[cb.joint_map[j].index].reversed == (j > 0));
    CHECK_FALSE(cf.model.joints[cf.joint_map[j].index].reversed);
  }
  for (const char* b : {"l1", "l2", "l3", "l4"}) {  // same tree
    const int pf = cf.model.parent[model_of(cf, fwd.spec, b)],
              pb = cb.model.parent[model_of(cb, bwd.spec, b)];
    CHECK(cf.user_body[pf] == cb.user_body[pb]);
  }
  check_joint_map(bwd.spec, cb);
  Data df(cf.model), db(cb.model);

  // 1) From the sketch: the initial guess reproduces the drawn poses (both versions).
  VecX qf, qb, v;
  initial_guess(fwd.spec, cf, qf, v);
  initial_guess(bwd.spec, cb, qb, v);
  forward_kinematics(cf.model, df, qf);
  forward_kinematics(cb.model, db, qb);
  for (int b = 0; b < 4; ++b) {
    const Iso& X = fwd.pose.at(fwd.spec.bodies[b].name);
    const Transform sketched = Transform::from_pose(X.rotation(), X.translation());
    CHECK(user_body_from_world(cf, df, b).isApprox(sketched, 1e-12));  // rounding only
    CHECK(user_body_from_world(cb, db, b).isApprox(sketched, 1e-12));
  }

  // 2) At arbitrary user coordinates: a joint written backwards has the inverse motion
  // (q → -q for revolute/prismatic, conjugate quaternion for spherical).
  const Quat r = Quat(0.8, 0.3, -0.4, 0.2).normalized();
  qf[cf.q_index(0)] = qb[cb.q_index(0)] = 0.7;
  qf[cf.q_index(1)] = -(qb[cb.q_index(1)] = 1.1);
  qf.segment<4>(cf.q_index(2)) << r.w(), r.x(), r.y(), r.z();
  qb.segment<4>(cb.q_index(2)) << r.w(), -r.x(), -r.y(), -r.z();
  qf[cf.q_index(3)] = -(qb[cb.q_index(3)] = -0.15);
  forward_kinematics(cf.model, df, qf);
  forward_kinematics(cb.model, db, qb);
  for (int b = 0; b < 4; ++b) {
    const Transform Xf = user_body_from_world(cf, df, b), Xb = user_body_from_world(cb, db, b);
    for (const Vec3& p :
         {Vec3(0, 0, 0), Vec3(0.3, -0.2, 0.1)}) {  // body points in world coordinates
      const Vec3 wf = Xf.r + Xf.E.transpose() * p, wb = Xb.r + Xb.E.transpose() * p;
      CHECK((wf - wb).norm() <= 1e-12);  // rounding only
      if (p.norm() > 0)
        CHECK((wf - fwd.pose.at(fwd.spec.bodies[b].name) * p).norm() >
              1e-3);  // moved off the sketch
    }
    CHECK((Xf.E - Xb.E).norm() <= 1e-12);
  }
}

TEST_CASE("a four-bar written backwards assembles to the same poses", "[spec][compile]") {
  const Sketch fwd = four_bar(false), bwd = four_bar(true);
  const Mechanism mf = prepare(fwd.spec), mb = prepare(bwd.spec);
  REQUIRE(mb.compiled.loops.size() == 1);
  CHECK(mb.compiled.loops[0].name == "C");
  CHECK(mb.model().joints[mb.compiled.joint_map[1].index].reversed);  // B: coupler → crank
  CHECK(mb.model().joints[mb.compiled.joint_map[3].index].reversed);  // D: rocker → ground
  CHECK(mb.mobility.mobility == 1);
  CHECK(mb.mobility.redundant == 3);
  Data df(mf.model()), db(mb.model());
  forward_kinematics(mf.model(), df, mf.q0);
  forward_kinematics(mb.model(), db, mb.q0);
  for (int b = 0; b < 3; ++b)
    CHECK(user_body_from_world(mf.compiled, df, b)
              .isApprox(user_body_from_world(mb.compiled, db, b), 1e-12));
}

TEST_CASE("motion-driven joints are preferred as tree joints when the depth allows",
          "[spec][compile]") {
  SECTION("a drive on C puts C in the tree and closes the loop at B") {
    Sketch s = four_bar();
    s.spec.joints[2].drive = DriveSpec{DriveSpec::Kind::Motion, "0.1*t"};
    const CompiledMechanism c = compile(s.spec);
    CHECK_FALSE(c.joint_map[2].loop);
    REQUIRE(c.joint_map[1].loop);
    CHECK(c.loops.at(0).name == "B");
    CHECK(c.model.parent[model_of(c, s.spec, "coupler")] == model_of(c, s.spec, "rocker"));
    CHECK(max_depth(c.model) == 2);
    check_joint_map(s.spec, c);
  }
  SECTION("but not at the price of depth") {
    // Single loop of five moving links: l1, l4 at depth 1, l2, l3 at depth 2. The driven joint C
    // joins two depth-2 bodies, so it must stay a loop joint.
    Sketch s;
    const Vec3 P[6] = {{0, 0, 0},     {0.1, 0.2, 0}, {0.3, 0.35, 0},
                       {0.5, 0.3, 0}, {0.6, 0.1, 0}, {0.7, 0, 0}};
    const char* names[4] = {"l1", "l2", "l3", "l4"};
    for (int k = 0; k < 4; ++k) s.bar(names[k], P[k + 1], P[k + 2]);
    s.pin("A", "ground", "l1", P[1]);
    s.pin("B", "l1", "l2", P[2]);
    s.pin("C", "l2", "l3", P[3]).drive = DriveSpec{DriveSpec::Kind::Motion, "t"};
    s.pin("D", "l3", "l4", P[4]);
    s.pin("E", "l4", "ground", P[5]);
    const CompiledMechanism c = compile(s.spec);
    CHECK(max_depth(c.model) == 2);
    REQUIRE(c.loops.size() == 1);
    CHECK(c.loops[0].name == "C");
    CHECK(c.model.joints[c.joint_map[4].index].reversed);  // E written l4 → ground
    check_joint_map(s.spec, c);
  }
}

TEST_CASE("spatial loops: RSSR, RSUR and RUSR mobility", "[spec][compile]") {
  const Mechanism rssr = prepare(spatial_rxxr(Joint::spherical(), Joint::spherical()).spec);
  CHECK(rssr.compiled.loops.at(0).joint.type == JointType::Spherical);
  CHECK(rssr.model().nq == 6);
  CHECK(rssr.mobility.mobility == 2);  // the crank, and the coupler spinning about BC
  CHECK(rssr.mobility.redundant == 0);
  CHECK_FALSE(rssr.planar);
  CHECK(rssr.gruebler == 2);  // 6·3 - 5 - 3 - 3 - 5

  const Mechanism rsur = prepare(spatial_rxxr(Joint::spherical(), Joint::universal()).spec);
  CHECK(rsur.compiled.loops.at(0).joint.type == JointType::Universal);
  CHECK(rsur.mobility.mobility == 1);
  CHECK(rsur.mobility.redundant == 0);
  CHECK(rsur.gruebler == 1);

  Data data(rsur.model());  // its one freedom turns the crank (no idle motion with the crank held)
  const MatX N = kernel(jacobian(rsur.compiled, data, rsur.q0));
  REQUIRE(N.cols() == 1);
  CHECK(std::abs(N(rsur.compiled.v_index(0), 0)) > 0.1 * N.norm());

  const Mechanism rusr = prepare(spatial_rxxr(Joint::universal(), Joint::spherical()).spec);
  CHECK(rusr.mobility.mobility == 1);
  CHECK(rusr.model().nv == 4);
}

TEST_CASE("loop Jacobian K and bias k agree with finite differences", "[spec][compile][loops]") {
  SECTION("planar four-bar") {
    check_K_and_k(four_bar().spec, 1);
  }
  SECTION("four-bar with reversed tree joints") {
    check_K_and_k(four_bar(true).spec, 2);
  }
  SECTION("Stephenson six-bar, two coupled loops") {
    check_K_and_k(stephenson().spec, 3);
  }
  SECTION("RSSR: spherical loop joint, spherical tree joint") {
    check_K_and_k(spatial_rxxr(Joint::spherical(), Joint::spherical()).spec, 4);
  }
  SECTION("RSUR: universal loop joint") {
    check_K_and_k(spatial_rxxr(Joint::spherical(), Joint::universal()).spec, 5);
  }
  SECTION("RUSR: universal tree joint, spherical loop joint") {
    check_K_and_k(spatial_rxxr(Joint::universal(), Joint::spherical()).spec, 6);
  }
}
