// The sparse LTDL factorisation and solve by contiguous runs of ancestors (issue 17 item 6:
// Pinocchio factorised a 100-link chain's H 4x faster than the walk of λ') against the form they
// replaced, kept here as the reference: RBDA Tables 6.3 and 6.5 walking λ' one entry at a time.
// Same operations in the same order per entry, so the results must be equal bit for bit
// (tolerance 0), on random trees with every joint type and fixed joints, and on long chains.
#include <random>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/model/configuration.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
// ltdl_factor and ltdl_solve (inverse pivots) at 93e9ff1, on the upper triangle.
bool factor_walk(MatX& U, VecX& dinv, const std::vector<int>& lam) {
  const int n = static_cast<int>(U.rows());
  for (int k = n - 1; k >= 0; --k) {
    if (!(U(k, k) > 0.0)) return false;
    dinv[k] = 1.0 / U(k, k);
    for (int i = lam[k]; i >= 0; i = lam[i]) {
      const double a = U(i, k) * dinv[k];
      for (int j = i; j >= 0; j = lam[j]) U(j, i) -= a * U(j, k);
      U(i, k) = a;
    }
  }
  return true;
}
void solve_walk(const MatX& U, const VecX& dinv, const std::vector<int>& lam, VecX& x) {
  const int n = static_cast<int>(U.rows());
  for (int i = n - 1; i >= 0; --i)
    for (int j = lam[i]; j >= 0; j = lam[j]) x[j] -= U(j, i) * x[i];
  for (int i = 0; i < n; ++i) {
    double xi = x[i] * dinv[i];
    for (int j = lam[i]; j >= 0; j = lam[j]) xi -= U(j, i) * x[j];
    x[i] = xi;
  }
}

void check_same(const Model& model, const VecX& q, std::mt19937& rng) {
  Data data(model);
  const MatX H = crba(model, data, q);
  REQUIRE(ltdl_factor(model, data));
  MatX U = MatX::Zero(model.nv, model.nv);
  for (int k = 0; k < model.nv; ++k) {
    U(k, k) = H(k, k);
    for (int j = model.lambda_v[k]; j >= 0; j = model.lambda_v[j]) U(j, k) = H(k, j);
  }
  VecX dinv(model.nv);
  REQUIRE(factor_walk(U, dinv, model.lambda_v));
  CHECK((data.LD.triangularView<Eigen::Upper>().toDenseMatrix() - U).cwiseAbs().maxCoeff() == 0.0);
  CHECK((data.LD_dinv - dinv).cwiseAbs().maxCoeff() == 0.0);
  const VecX b = test::random_vector(model.nv, rng);
  VecX x = b, x_walk = b;
  ltdl_solve(model, data, x);
  solve_walk(U, dinv, model.lambda_v, x_walk);
  CHECK((x - x_walk).cwiseAbs().maxCoeff() == 0.0);
  CHECK_CLOSE(H * x, b, 1e-9);  // and it solves H x = b (H of these trees: cond < 1e6)
}
}  // namespace

TEST_CASE("LTDL by runs of ancestors equals the one-at-a-time walk bit for bit", "[ltdl]") {
  std::mt19937 rng(1717);
  for (int trial = 0; trial < 40; ++trial) {
    const Model model = test::random_tree(1 + trial % 25, rng);
    INFO("random tree " << trial << ", nb = " << model.nb);
    check_same(model, random_configuration(model, rng), rng);
  }
  for (int n : {7, 30, 100}) {
    const Model chain = test::planar_chain(n);
    INFO("planar chain " << n);
    check_same(chain, test::random_vector(chain.nq, rng), rng);
  }
}
