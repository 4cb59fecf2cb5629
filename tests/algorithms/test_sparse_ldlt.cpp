// The block-sparse L S L^T of RBDA 8.13's body-coordinate system against a dense LU solve of the
// same matrix (1e-9 relative), its O(n) fill on the ladder graph, and its refusals: an
// over-constrained body in the analysis, dependent joint rows in the factorisation (no NaN).
#include <Eigen/LU>
#include <random>

#include "core/algorithms/sparse_ldlt.hpp"
#include "core/spatial/types.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
struct Kkt {
  std::vector<int> dim;
  std::vector<char> body;
  std::vector<std::array<int, 2>> ends;
  MatX K;  // dense copy
};

// nb bodies of size d chained to the base and to each other by joints of `rows` rows (plus
// `extra` joints between random bodies), random SPD body blocks and random joint columns.
Kkt random_kkt(int nb, int d, int rows, int extra, std::mt19937& rng) {
  Kkt k;
  k.dim.assign(nb, d);
  k.body.assign(nb, 1);
  k.ends.assign(nb, {-1, -1});
  std::uniform_int_distribution<int> pick(0, nb - 1);
  for (int i = 0; i < nb; ++i) {  // a chain: joint i between body i-1 (or the base) and body i
    k.dim.push_back(rows), k.body.push_back(0), k.ends.push_back({i, i - 1});
  }
  for (int e = 0; e < extra; ++e) {
    const int a = pick(rng), b = (a + 1 + pick(rng) % (nb - 1)) % nb;
    k.dim.push_back(1), k.body.push_back(0), k.ends.push_back({a, b});
  }
  std::vector<int> off(k.dim.size());
  int n = 0;
  for (std::size_t u = 0; u < k.dim.size(); ++u) off[u] = n, n += k.dim[u];
  k.K.setZero(n, n);
  for (int i = 0; i < nb; ++i) {
    const MatX A = test::random_vector(d * d, rng).reshaped(d, d);
    k.K.block(off[i], off[i], d, d) = A * A.transpose() + MatX::Identity(d, d);
  }
  for (std::size_t u = nb; u < k.dim.size(); ++u) {
    const MatX T = test::random_vector(d * k.dim[u], rng).reshaped(d, k.dim[u]);
    double sign = -1.0;
    for (int b : k.ends[u]) {
      if (b >= 0) {
        k.K.block(off[b], off[u], d, k.dim[u]) = sign * T;
        k.K.block(off[u], off[b], k.dim[u], d) = sign * T.transpose();
      }
      sign = -sign;
    }
  }
  return k;
}

// Copies the dense matrix's blocks into the factor's storage.
void load(const Kkt& k, const SparseLdltPattern& p, SparseLdltFactor& f) {
  f.zero();
  const int n = static_cast<int>(k.dim.size());
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      const auto block = k.K.block(p.x_offset[a], p.x_offset[b], k.dim[a], k.dim[b]);
      if (a == b) {
        Eigen::Map<MatX>(f.values.data() + p.diag_offset[a], k.dim[a], k.dim[a]) = block;
        continue;
      }
      if (block.isZero(0.0) || p.position[a] < p.position[b]) continue;
      bool t = false;
      const int o = p.block_offset(a, b, t);
      REQUIRE(o >= 0);
      Eigen::Map<MatX>(f.values.data() + o, k.dim[a], k.dim[b]) = block;
    }
}
}  // namespace

TEST_CASE("Block-sparse L S L^T solves the body-joint system like dense LU", "[sparse]") {
  std::mt19937 rng(7);
  for (int d : {3, 6}) {
    for (int trial = 0; trial < 10; ++trial) {
      const Kkt k = random_kkt(12, d, d == 3 ? 2 : 5, trial % 2, rng);  // extra rows: loops
      SparseLdltPattern p;
      if (!sparse_ldlt_analyse(k.dim, k.body, k.ends, p)) {
        CHECK(trial % 2 == 1);  // only a random extra joint can over-constrain a part
        continue;
      }
      SparseLdltFactor f;
      f.resize(p);
      load(k, p, f);
      REQUIRE(sparse_ldlt_calibrate(p, f));
      const VecX b = test::random_vector(p.size, rng);
      VecX x = b;
      sparse_ldlt_solve(p, f, x.data());
      const VecX expected = k.K.fullPivLu().solve(b);
      CHECK_CLOSE(x, expected, 1e-9);  // random blocks: condition numbers up to ~1e4
      // The factorisation with the forward substitution interleaved: the same x, bit for bit
      // (the same operations in the same order), and the same factor.
      SparseLdltFactor g;
      g.resize(p);
      load(k, p, g);
      g.reference = f.reference;
      VecX y = b;
      REQUIRE(sparse_ldlt_factor_solve(p, g, y.data()));
      CHECK((y - x).cwiseAbs().maxCoeff() == 0.0);
      load(k, p, f);
      REQUIRE(sparse_ldlt_factor(p, f));
      CHECK(f.values == g.values);
    }
  }
}

TEST_CASE("Block-sparse analysis refuses over-constrained bodies; dependent rows fail the factor",
          "[sparse]") {
  // One planar body pinned to the base by two 2-row joints: 4 rows on 3 coordinates.
  SparseLdltPattern p;
  CHECK_FALSE(sparse_ldlt_analyse({3, 2, 2}, {1, 0, 0}, {{{-1, -1}}, {{0, -1}}, {{0, -1}}}, p));
  // Two 1-row joints with the same column on one body: the count allows it, the pivot does not.
  REQUIRE(sparse_ldlt_analyse({3, 1, 1}, {1, 0, 0}, {{{-1, -1}}, {{0, -1}}, {{0, -1}}}, p));
  Kkt k{{3, 1, 1}, {1, 0, 0}, {{{-1, -1}}, {{0, -1}}, {{0, -1}}}, MatX::Zero(5, 5)};
  k.K.topLeftCorner(3, 3) = Mat3::Identity();
  k.K(0, 3) = k.K(3, 0) = k.K(0, 4) = k.K(4, 0) = -1.0;
  SparseLdltFactor f;
  f.resize(p);
  load(k, p, f);
  CHECK_FALSE(sparse_ldlt_calibrate(p, f));
  for (double v : f.values) CHECK(std::isfinite(v));
}
