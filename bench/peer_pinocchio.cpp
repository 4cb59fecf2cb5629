// Pinocchio 3 side of articula-bench (issue 17 item 6): the tree benchmark models built as
// pinocchio::Model (the same joint placements, axes and inertias), checked against Articula's mass
// matrix and inverse dynamics, then timed: RNEA, CRBA (both of Pinocchio's conventions), CRBA with
// its sparse Cholesky factorisation and solve, and ABA (both conventions). Pinocchio is not a
// Debian package: this file is built only when ARTICULA_PINOCCHIO_INCLUDE names a copy of its
// headers (scripts/fetch-pinocchio).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/cholesky.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/multibody/data.hpp>
#include <pinocchio/multibody/model.hpp>
#include <string>
#include <vector>

#include "bench/peer_model.hpp"

namespace articula::bench {
namespace {

namespace pin = pinocchio;

pin::SE3 se3(const PeerPose& p) {
  Eigen::Matrix3d R;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) R(r, c) = p.R[3 * r + c];
  return pin::SE3(R, Eigen::Vector3d(p.p[0], p.p[1], p.p[2]));
}

pin::Inertia inertia(const PeerBody& b) {
  const auto& I = b.I_com;  // xx yy zz xy xz yz about the centre of mass
  Eigen::Matrix3d Ic;
  Ic << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
  return pin::Inertia(b.mass, Eigen::Vector3d(b.com[0], b.com[1], b.com[2]), Ic);
}

// Pinocchio's numbering is depth-first (its algorithms take a joint's subtree as a contiguous
// range of coordinates); Articula's benchmark tree is numbered breadth-first (parent(i) = i / 2).
// The case keeps Articula's coordinate of each of Pinocchio's.
struct PinCase {
  const PeerModel* pm = nullptr;
  pin::Model model;
  std::vector<int> coord;  // Pinocchio v index -> Articula v index (1-DoF joints: q too)
  Eigen::VectorXd from_articula(const std::vector<double>& x) const {
    Eigen::VectorXd out(coord.size());
    for (std::size_t k = 0; k < coord.size(); ++k) out[k] = x[coord[k]];
    return out;
  }
};

void add_subtree(const PeerModel& pm, int i, pin::JointIndex parent, PinCase& c) {
  const PeerBody& b = pm.bodies[i];
  const pin::SE3 X = se3(b.joint_frame);
  const pin::JointIndex id = b.joint == PeerJoint::Revolute
                                 ? c.model.addJoint(parent, pin::JointModelRZ(), X, b.name)
                                 : c.model.addJoint(parent, pin::JointModelPZ(), X, b.name);
  c.model.appendBodyToJoint(id, inertia(b), pin::SE3::Identity());
  c.coord.push_back(b.v_index);
  for (std::size_t k = 1; k < pm.bodies.size(); ++k)
    if (pm.bodies[k].parent == i) add_subtree(pm, static_cast<int>(k), id, c);
}

// False for what is not compared here: loops, couplings, and joints other than unreversed
// revolute and prismatic ones about z (the benchmark trees have none).
bool build(const PeerModel& pm, PinCase& c) {
  if (!pm.loops.empty() || !pm.couplings.empty() || pm.gate_only) return false;
  for (std::size_t i = 1; i < pm.bodies.size(); ++i) {
    const PeerBody& b = pm.bodies[i];
    if (b.reversed || (b.joint != PeerJoint::Revolute && b.joint != PeerJoint::Prismatic))
      return false;
  }
  c.pm = &pm;
  c.model.gravity = pin::Motion(Eigen::Vector3d(pm.gravity[0], pm.gravity[1], pm.gravity[2]),
                                Eigen::Vector3d::Zero());
  for (std::size_t k = 1; k < pm.bodies.size(); ++k)
    if (pm.bodies[k].parent == 0) add_subtree(pm, static_cast<int>(k), 0, c);
  return true;
}

// Pinocchio's H and inverse dynamics at the model's state against Articula's, relative to the
// largest entry: the same model to rounding (1e-10).
bool matches(const PinCase& c) {
  const PeerModel& pm = *c.pm;
  pin::Data data(c.model);
  const Eigen::VectorXd tau = pin::rnea(c.model, data, c.from_articula(pm.q),
                                        c.from_articula(pm.qd), c.from_articula(pm.qdd));
  pin::crba(c.model, data, c.from_articula(pm.q), pin::Convention::WORLD);
  data.M.triangularView<Eigen::StrictlyLower>() = data.M.transpose();
  const int n = pm.nv;
  double dH = 0, Hmax = 0, dt = 0, tmax = 0;
  for (int r = 0; r < n; ++r) {
    for (int k = 0; k < n; ++k) {
      const double h = pm.H[c.coord[r] * n + c.coord[k]];
      Hmax = std::max(Hmax, std::abs(h));
      dH = std::max(dH, std::abs(h - data.M(r, k)));
    }
    tmax = std::max(tmax, std::abs(pm.tau_rnea[c.coord[r]]));
    dt = std::max(dt, std::abs(pm.tau_rnea[c.coord[r]] - tau[r]));
  }
  if (dH <= 1e-10 * Hmax && dt <= 1e-10 * tmax) return true;
  std::fprintf(stderr, "pinocchio: %s differs from Articula: H %g of %g, tau %g of %g\n",
               pm.name.c_str(), dH, Hmax, dt, tmax);
  return false;
}

void run(benchmark::State& s, const PinCase& c, const std::string& op) {
  pin::Data d(c.model);
  const Eigen::VectorXd q = c.from_articula(c.pm->q), v = c.from_articula(c.pm->qd),
                        a = c.from_articula(c.pm->qdd), tau = c.from_articula(c.pm->tau);
  Eigen::VectorXd x = tau;
  for (auto _ : s) {
    if (op == "rnea") {
      benchmark::DoNotOptimize(pin::rnea(c.model, d, q, v, a).data());
    } else if (op == "crba_world") {
      benchmark::DoNotOptimize(pin::crba(c.model, d, q, pin::Convention::WORLD).data());
    } else if (op == "crba_local") {
      benchmark::DoNotOptimize(pin::crba(c.model, d, q, pin::Convention::LOCAL).data());
    } else if (op == "crba_ltdl") {  // Articula's crba_ltdl: H, its factors, one solve
      pin::crba(c.model, d, q, pin::Convention::WORLD);
      pin::cholesky::decompose(c.model, d);
      x = tau;
      pin::cholesky::solve(c.model, d, x);
      benchmark::DoNotOptimize(x.data());
    } else if (op == "aba_world") {
      benchmark::DoNotOptimize(pin::aba(c.model, d, q, v, tau, pin::Convention::WORLD).data());
    } else {
      benchmark::DoNotOptimize(pin::aba(c.model, d, q, v, tau, pin::Convention::LOCAL).data());
    }
  }
}
}  // namespace

bool register_pinocchio(const std::vector<PeerModel>& models) {
  static std::vector<std::unique_ptr<PinCase>> cases;
  for (const PeerModel& pm : models) {
    auto c = std::make_unique<PinCase>();
    if (!build(pm, *c)) continue;  // mechanisms with loops: not compared here
    if (!matches(*c)) return false;
    cases.push_back(std::move(c));
  }
  for (const auto& c : cases)
    for (const std::string op :
         {"rnea", "crba_world", "crba_local", "crba_ltdl", "aba_world", "aba_local"})
      benchmark::RegisterBenchmark(("pinocchio/" + op + "/" + c->pm->name).c_str(),
                                   [pc = c.get(), op](benchmark::State& s) { run(s, *pc, op); });
  return true;
}

}  // namespace articula::bench
