// Method 2's per-step solve (constrained_dynamics.hpp) on many sparse rows: past 64 rows the
// per-column hulls of nonzero rows need more than one 64-bit mask (the walker's 72 in-plane loop
// rows, its drive and its contacts). Against the minimum-norm path (Y = H^-1 G^T by full solves,
// the dense G Y and a complete orthogonal decomposition: no spans, no pivoted L D L^T).
#include <random>

#include "core/algorithms/constrained_dynamics.hpp"
#include "core/algorithms/crba.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/model/configuration.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

TEST_CASE("Method 2 with more than 64 sparse rows equals the dense minimum-norm solve",
          "[constrained_dynamics]") {
  // Rows touching a few consecutive coordinates each (a loop's branch), some redundant (sums of
  // others, so the pivoted factor drops them) and a few touching the first coordinates too (the
  // frame). g = G x for a random x: consistent, so q̈ and G^T μ are unique; q̈ to 1e-9 relative,
  // G^T μ to 1e-9 of its largest entry, the rank exact.
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const auto& [nb, m] : {std::pair{120, 70}, std::pair{160, 130}, std::pair{240, 200}}) {
    const Model model = test::random_tree(nb, rng, false);
    const int nv = model.nv;
    Data data(model);
    const VecX q = random_configuration(model, rng), qd = test::random_vector(nv, rng);
    crba(model, data, q);
    nonlinear_effects(model, data, q, qd);
    REQUIRE(ltdl_factor(model, data));
    MatX G = MatX::Zero(m, nv);
    const int independent = m - m / 8;
    for (int r = 0; r < independent; ++r) {
      const int lo = std::uniform_int_distribution<int>(0, nv - 6)(rng);
      for (int j = lo; j < lo + 5; ++j) G(r, j) = u(rng);
      if (r % 5 == 0) G(r, 0) = u(rng);
    }
    for (int r = independent; r < m; ++r) G.row(r) = G.row(r - independent) - G.row(r / 2);
    const VecX g = G * test::random_vector(nv, rng), tau = test::random_vector(nv, rng);
    Data dense = data;  // H's factor and C as data's
    ConstrainedDynamicsWork w, wd;
    wd.minimum_norm = true;
    constrained_forward_dynamics(model, data, G, g, tau, w);
    constrained_forward_dynamics(model, dense, G, g, tau, wd);
    INFO("nv " << nv << ", rows " << m);
    CHECK(w.rank == wd.rank);
    CHECK(w.rank <= independent);
    CHECK((data.qdd - dense.qdd).cwiseAbs().maxCoeff() <=
          1e-9 * std::max(1.0, dense.qdd.cwiseAbs().maxCoeff()));
    const VecX f = G.transpose() * w.mu, fd = G.transpose() * wd.mu;
    CHECK((f - fd).cwiseAbs().maxCoeff() <= 1e-9 * std::max(1.0, fd.cwiseAbs().maxCoeff()));
    CHECK(w.residual <= 1e-9 * std::max(1.0, g.cwiseAbs().maxCoeff()));
  }
}
