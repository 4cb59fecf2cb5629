// SO(3)/SE(3) exponential and logarithm against Eigen's matrix exponential.
#include <unsupported/Eigen/MatrixFunctions>

#include "core/spatial/lie.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

TEST_CASE("quat_exp and se3_exp equal the matrix exponential of the twist", "[spatial][lie]") {
  std::mt19937 rng(5);
  for (double scale : {1e-9, 1e-5, 1e-3, 0.1, 1.0, 3.0}) {
    const Vec3 w = scale * test::random_vector(3, rng).normalized();
    const Vec3 v = test::random_vector(3, rng);
    Eigen::Matrix4d T = Eigen::Matrix4d::Zero();  // the se(3) element [w× v; 0 0]
    T.topLeftCorner<3, 3>() = skew(w);
    T.topRightCorner<3, 1>() = v;
    const Eigen::Matrix4d G = T.exp();
    Quat R;
    Vec3 p;
    se3_exp(w, v, R, p);
    CHECK_CLOSE(R.toRotationMatrix(), Mat3(G.topLeftCorner<3, 3>()), 1e-13);
    CHECK_CLOSE(p, Vec3(G.topRightCorner<3, 1>()), 1e-13);
    Vec3 w2, v2;
    se3_log(R, p, w2, v2);
    CHECK_CLOSE(w2, w, 1e-12);
    CHECK_CLOSE(v2, v, 1e-12);
    CHECK_CLOSE(quat_log(quat_exp(w)), w, 1e-12);
  }
}
