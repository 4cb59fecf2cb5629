#pragma once
// The immutable kinematic-tree model (RBDA Table 4.3): bodies 1..NB, body 0 is the fixed base
// ("ground"). Joint i connects parent λ(i) to body i. Built once by ModelBuilder.
#include <string>
#include <vector>

#include "core/model/joint.hpp"
#include "core/spatial/inertia.hpp"

namespace articula {

struct Model {
  int nb = 0;  // NB: number of moving bodies (body 0 is the base)
  int nq = 0;  // position coordinates
  int nv = 0;  // velocity coordinates (degrees of freedom of the tree)

  // Per body, indexed 0..NB (entry 0 is the base and unused except for names).
  std::vector<int> parent;                   // λ(i), parent[0] = -1                 (NB+1)
  std::vector<Joint> joints;                 // joint i between λ(i) and i          (NB+1)
  std::vector<Transform> X_tree;             // X_T(i) = ^{p_i} X_{λ(i)}            (NB+1)
  std::vector<AxisPermutation> X_tree_axes;  // X_T(i)'s rotation when a signed permutation (NB+1)
  std::vector<RigidBodyInertia> inertia;     // I_i in body coordinates             (NB+1)
  std::vector<int> q_index;                  // first position coordinate of joint i (NB+1)
  std::vector<int> v_index;                  // first velocity coordinate of joint i (NB+1)
  std::vector<std::vector<int>> children;    // μ(i)                                (NB+1)
  std::vector<std::string> body_names;       //                                     (NB+1)
  std::vector<std::string> joint_names;      //                                     (NB+1)

  // Per velocity coordinate.
  std::vector<int> lambda_v;  // expanded parent array λ' (RBDA Table 6.4), -1 at a root (nv)
  std::vector<int> v_body;    // body whose joint owns the coordinate                   (nv)

  Motion a_grav = Motion::Zero();  // spatial acceleration of gravity in base coordinates

  Model() = default;
  int body_index(const std::string& name) const;  // -1 when absent
  void set_gravity(const Vec3& g) {
    a_grav.setZero();
    a_grav.tail<3>() = g;
  }
  Vec3 gravity() const { return a_grav.tail<3>(); }
};

// Whether body i or one of its ancestors has a joint with degrees of freedom: otherwise body i
// is welded to the base (v = 0, and its inertia or force enters no entry of H, C or τ).
inline bool body_moves(const Model& model, int i) {
  for (; i > 0; i = model.parent[i])
    if (model.joints[i].nv() > 0) return true;
  return false;
}

// Assembles a Model body by body; a body's parent must already exist.
class ModelBuilder {
 public:
  ModelBuilder();
  // Adds body `name` attached to `parent` (0 = base) through `joint`, whose predecessor frame is
  // X_T = ^{joint} X_{parent}. Returns the new body's index. Throws std::invalid_argument on a bad
  // parent, a duplicate name or an inertia that is not physically valid.
  int add_body(const std::string& name, int parent, const Joint& joint, const Transform& X_T,
               const RigidBodyInertia& inertia, const std::string& joint_name = {});
  void set_gravity(const Vec3& g) { model_.set_gravity(g); }
  Model build() const;

 private:
  Model model_;
};

// Checks physical validity of a rigid-body inertia: m > 0 and the rotational inertia about the
// centre of mass positive definite and obeying the triangle inequality. Returns an empty string
// when valid, else the reason.
std::string inertia_problem(double mass, const Mat3& I_com);

}  // namespace articula
