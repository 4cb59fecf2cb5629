// ModelBuilder: topology arrays, the expanded parent array of RBDA Table 6.4, input validation.
#include <stdexcept>

#include "core/algorithms/crba.hpp"
#include "core/model/configuration.hpp"
#include "core/model/data.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
RigidBodyInertia unit_body() {
  return RigidBodyInertia::from_mass_com(1.0, Vec3::Zero(), Mat3::Identity() * 0.1);
}
}  // namespace

TEST_CASE("Expanded parent array matches RBDA Table 6.4", "[model]") {
  // λ = (0, 1, 1, 2, 2, 3) with a 3-DoF joint 2 gives λ' = (0, 1, 2, 3, 1, 4, 4, 5) (1-based).
  ModelBuilder b;
  const int parents[] = {0, 1, 1, 2, 2, 3};
  for (int i = 0; i < 6; ++i)
    b.add_body("b" + std::to_string(i + 1), parents[i],
               i == 1 ? Joint::spherical() : Joint::revolute(), Transform(), unit_body());
  const Model m = b.build();
  REQUIRE(m.nv == 8);
  REQUIRE(m.nq == 9);
  const std::vector<int> expected = {-1, 0, 1, 2, 0, 3, 3, 4};  // 0-based, -1 = base
  CHECK(m.lambda_v == expected);
  CHECK(m.v_index[3] == 4);
  CHECK(m.q_index[3] == 5);
  CHECK(m.children[1] == std::vector<int>{2, 3});
}

TEST_CASE("Fixed joints are skipped by the expanded parent array", "[model]") {
  ModelBuilder b;
  b.add_body("a", 0, Joint::revolute(), Transform(), unit_body());
  b.add_body("weld", 1, Joint::fixed(), Transform(), unit_body());
  b.add_body("c", 2, Joint::prismatic(), Transform(), unit_body());
  const Model m = b.build();
  CHECK(m.lambda_v == std::vector<int>{-1, 0});
  CHECK(m.v_body == std::vector<int>{1, 3});
}

TEST_CASE("ModelBuilder rejects bad input with a reason", "[model]") {
  ModelBuilder b;
  b.add_body("a", 0, Joint::revolute(), Transform(), unit_body());
  CHECK_THROWS_WITH(b.add_body("a", 0, Joint::revolute(), Transform(), unit_body()),
                    Catch::Contains("duplicate"));
  CHECK_THROWS_WITH(b.add_body("x", 5, Joint::revolute(), Transform(), unit_body()),
                    Catch::Contains("unknown parent"));
  const RigidBodyInertia thin =
      RigidBodyInertia::from_mass_com(1.0, Vec3::Zero(), Vec3(0.1, 0.1, 0.5).asDiagonal());
  CHECK_THROWS_WITH(b.add_body("y", 1, Joint::revolute(), Transform(), thin),
                    Catch::Contains("triangle inequality"));
  const RigidBodyInertia negative =
      RigidBodyInertia::from_mass_com(-1.0, Vec3::Zero(), Mat3::Identity());
  CHECK_THROWS_WITH(b.add_body("z", 1, Joint::revolute(), Transform(), negative),
                    Catch::Contains("mass"));
  CHECK(inertia_problem(1.0, Vec3(1, 1, 2).asDiagonal()).empty());  // a thin disc is the limit
}

TEST_CASE("Data is sized from the model", "[model]") {
  std::mt19937 rng(21);
  const Model m = test::random_tree(12, rng);
  Data d(m);
  CHECK(d.H.size() == 0);  // formed by the first crba (reserve_mass_matrix)
  CHECK(d.LD.size() == 0);
  crba(m, d, neutral_configuration(m));
  CHECK(d.H.rows() == m.nv);
  CHECK(d.H.cols() == m.nv);
  CHECK(d.v.size() == static_cast<std::size_t>(m.nb + 1));
  for (int i = 1; i <= m.nb; ++i) CHECK(d.jc[i].S.cols() == m.joints[i].nv());
}
