// The innovations factorisation (SOA Eqs. 0.28-0.34) against independent algorithms on random
// branching trees with every joint type: M x against CRBA's H x, M^-1 x against the sparse L^T D L
// solve of H (RBDA 6.3-6.5), the per-body Υ_i and the row operator Λ^-1 = J M^-1 J^T against
// dense J H^-1 J^T from base Jacobians; and the operation count, linear in N at a fixed number of
// rows.
#include <random>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/innovations.hpp"
#include "core/algorithms/jacobian.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/model/configuration.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
struct Tree {
  Model model;
  VecX q;
};

Tree random_case(int nb, std::mt19937& rng) {
  Tree t{test::random_tree(nb, rng), {}};
  t.q = random_configuration(t.model, rng);
  return t;
}

// A random tree factorised both ways: `data` by the innovations factorisation, `ref` by CRBA
// (ref.H) and forward kinematics (base Jacobians).
struct Factored {
  Tree t;
  Data data, ref;
  Factored(int nb, std::mt19937& rng) : t(random_case(nb, rng)), data(t.model), ref(t.model) {
    REQUIRE(innovations_factorisation(t.model, data, t.q));
    crba(t.model, ref, t.q);
    forward_kinematics(t.model, ref, t.q);
  }
};

// The dense row of J for an OperatorRow: Σ T_k^T J_b (base Jacobian) + Σ c_k e_v.
Eigen::RowVectorXd dense_row(const Model& model, const Data& data, const OperatorRow& r) {
  Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(model.nv);
  MatX J;
  for (int k = 0; k < 2; ++k) {
    if (r.body[k] > 0) {
      base_jacobian(model, data, r.body[k], J);
      row += r.T[k].transpose() * J;
    }
    if (r.coord[k] >= 0) row[r.coord[k]] += r.c[k];
  }
  return row;
}

// J H^-1 J^T in long double: the reference's own round-off (cond(H) eps) stays far below the
// tolerance, so the checks measure the operator's error.
MatX dense_inverse_inertia(const MatX& J, const MatX& H) {
  using MatL = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
  const MatL Jl = J.cast<long double>();
  const MatL x = Eigen::LLT<MatL>(H.cast<long double>()).solve(MatL(Jl.transpose()));
  return (Jl * x).cast<double>();
}

OperatorRow random_row(const Model& model, std::mt19937& rng) {
  std::uniform_int_distribution<int> body(0, model.nb), coord(-1, model.nv - 1);
  OperatorRow r;
  for (int k = 0; k < 2; ++k) {
    r.body[k] = body(rng);
    r.T[k] = test::random_vector(6, rng);
    r.coord[k] = coord(rng);
    r.c[k] = test::random_vector(1, rng)[0];
  }
  return r;
}
}  // namespace

TEST_CASE("innovations: M x and M^-1 x against CRBA and the L^T D L solve", "[innovations]") {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 40; ++trial) {
    Factored f(1 + trial % 25, rng);
    const Model& model = f.t.model;
    Data &data = f.data, &ref = f.ref;
    const MatX H = ref.H;
    REQUIRE(ltdl_factor(model, ref));
    InnovationsWork w;
    w.resize(model);
    const VecX x = test::random_vector(model.nv, rng);
    VecX Mx, Minv_x, back;
    mass_times(model, data, x, Mx, w);
    inverse_mass_times(model, data, x, Minv_x, w);
    VecX solve = x;
    ltdl_solve(model, ref, solve);
    INFO("trial " << trial << ", " << model.nb << " bodies, nv " << model.nv);
    CHECK_CLOSE(Mx, H * x, 1e-12);  // relative to |H x|
    // Relative to |H^-1 x|; the L^T D L solve is itself exact only to cond(H) ε: measured at
    // most 2.3e-12 apart on these trees (clang -O1; GCC -O2 stays under 1e-12).
    CHECK_CLOSE(Minv_x, solve, 5e-12);
    mass_times(model, data, Minv_x, back, w);
    CHECK_CLOSE(back, x, 5e-12);  // M (M^-1 x) = x, to the same cond(H) ε
  }
}

TEST_CASE("innovations: Υ_i = J_i H^-1 J_i^T for every body", "[innovations]") {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    Factored f(2 + trial, rng);
    const Model& model = f.t.model;
    const Data &data = f.data, &ref = f.ref;
    std::vector<Mat6> Y;
    inverse_operational_inertias(model, data, Y);
    MatX J;
    for (int i = 1; i <= model.nb; ++i) {
      base_jacobian(model, ref, i, J);
      const MatX expected = dense_inverse_inertia(J, ref.H);
      INFO("trial " << trial << " body " << i);
      // Relative to |J H^-1 J^T|: at most 1.9e-12 measured over these trees (the products
      // of ψ carry base-coordinate lever arms of a deep random tree: cond(H) ε).
      CHECK_CLOSE(Y[i], expected, 5e-12);
    }
  }
}

TEST_CASE("innovations: Λ^-1 of body-level rows against dense J H^-1 J^T", "[innovations]") {
  std::mt19937 rng(29);
  for (int trial = 0; trial < 20; ++trial) {
    Factored f(3 + trial, rng);
    const Model& model = f.t.model;
    const Data &data = f.data, &ref = f.ref;
    const int m = 1 + trial % 9;
    std::vector<OperatorRow> rows;
    std::vector<int> sel;
    MatX J(m, model.nv);
    for (int r = 0; r < m; ++r) {
      rows.push_back(random_row(model, rng));
      sel.push_back(r);
      J.row(r) = dense_row(model, ref, rows.back());
    }
    InnovationsWork w;
    w.resize(model);
    MatX A;
    inverse_operational_inertia(model, data, rows, sel, A, w);
    const MatX expected = dense_inverse_inertia(J, ref.H);
    INFO("trial " << trial << ", " << m << " rows");
    // Relative to |J H^-1 J^T| (long-double reference): at most 6.3e-12 measured (clang -O1;
    // GCC -O2 under 1e-12), the round-off of the ψ products along deep random trees.
    CHECK_CLOSE(A, expected, 1e-11);
  }
}

TEST_CASE("innovations: the passes visit each body a fixed number of times", "[innovations]") {
  // Λ^-1 of 6 rows on a chain: two passes per row, each visiting every body once, so the count
  // doubles exactly with N (O(N m)), and M x / M^-1 x visit each body twice.
  const int m = 6;
  long steps[2] = {};
  for (int k = 0; k < 2; ++k) {
    const Model model = test::planar_chain(100 << k);
    Data data(model);
    std::mt19937 rng(5);
    REQUIRE(innovations_factorisation(model, data, random_configuration(model, rng)));
    std::vector<OperatorRow> rows(m);
    std::vector<int> sel;
    for (int r = 0; r < m; ++r) {
      rows[r].body[0] = 1 + r * (model.nb - 1) / m;
      rows[r].T[0] = test::random_vector(6, rng);
      sel.push_back(r);
    }
    InnovationsWork w;
    w.resize(model);
    MatX A;
    inverse_operational_inertia(model, data, rows, sel, A, w);
    steps[k] = w.body_steps;
    CHECK(w.body_steps == 2L * m * model.nb);
    w.body_steps = 0;
    VecX y;
    mass_times(model, data, VecX::Ones(model.nv), y, w);
    inverse_mass_times(model, data, y, y, w);
    CHECK(w.body_steps == 4L * model.nb);
  }
  CHECK(steps[1] == 2 * steps[0]);
}
