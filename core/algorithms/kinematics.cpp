#include "core/algorithms/kinematics.hpp"

#include "core/model/joint_ops.hpp"
#include "core/spatial/cross.hpp"

namespace articula {

namespace {
// out = x + y in scalars.
void add_to(const Motion& x, const Motion& y, Motion& out) {
  for (int e = 0; e < 6; ++e) out[e] = x[e] + y[e];
}

void fk_pass(const Model& model, Data& data, const VecX& q, const VecX* qd, const VecX* qdd,
             bool bias = false) {
  static const VecX kNoVelocity = VecX::Zero(6);
  data.v[0].setZero();
  data.a[0].setZero();
  for (int i = 1; i <= model.nb; ++i) {
    const int p = model.parent[i];
    JointCalc& jc = data.jc[i];
    const double* qdi = qd ? qd->data() + model.v_index[i] : kNoVelocity.data();
    joint_calc(model.joints[i], q.data() + model.q_index[i], qdi, jc);
    data.Xup[i] = compose_joint(model.joints[i], jc.XJ, model.X_tree[i]);
    data.X0[i] = p > 0 ? data.Xup[i] * data.X0[p] : data.Xup[i];
    if (!qd) continue;
    // A parent welded to the base has v = a = 0 exactly: nothing to carry over. The sums are
    // taken element by element: the terms were just stored scalar by scalar, and Eigen's 2-wide
    // loads of them would stall on store forwarding.
    const bool still = !body_moves(model, p);
    if (still)
      data.v[i] = jc.vJ;
    else
      add_to(data.Xup[i].apply(data.v[p]), jc.vJ, data.v[i]);
    data.c[i] = joint_bias(model.joints[i], jc, data.v[i]);
    if (bias) {
      if (still)
        data.a[i] = data.c[i];
      else
        add_to(data.Xup[i].apply(data.a[p]), data.c[i], data.a[i]);
    }
    if (!qdd) continue;
    const auto qddi = qdd->segment(model.v_index[i], model.joints[i].nv());
    const Motion ap = still ? data.c[i] : Motion(data.Xup[i].apply(data.a[p]) + data.c[i]);
    data.a[i] = ap + jc.S * qddi;
  }
}
}  // namespace

void forward_kinematics(const Model& model, Data& data, const VecX& q) {
  fk_pass(model, data, q, nullptr, nullptr);
}
void forward_kinematics(const Model& model, Data& data, const VecX& q, const VecX& qd) {
  fk_pass(model, data, q, &qd, nullptr);
}
void forward_kinematics(const Model& model, Data& data, const VecX& q, const VecX& qd,
                        const VecX& qdd) {
  fk_pass(model, data, q, &qd, &qdd);
}

void forward_kinematics_bias(const Model& model, Data& data, const VecX& q, const VecX& qd) {
  fk_pass(model, data, q, &qd, nullptr, true);
}

Vec3 point_position(const Data& data, int i, const Vec3& p_body) {
  const Transform& X = data.X0[i];
  return X.r + X.E.transpose() * p_body;
}

Motion body_velocity_in_base(const Data& data, int i) {
  return data.X0[i].inverse_apply(data.v[i]);
}

Vec3 point_velocity(const Data& data, int i, const Vec3& p_body) {
  const Motion& v = data.v[i];  // body coordinates
  const Vec3 vp = v.tail<3>() + v.head<3>().cross(p_body);
  return data.X0[i].E.transpose() * vp;
}

Vec3 point_acceleration(const Data& data, int i, const Vec3& p_body) {
  // Classical acceleration from the spatial one: a_p = a_lin + ω̇ × p + ω × v_p (RBDA Eq. 2.48).
  const Motion& v = data.v[i];
  const Motion& a = data.a[i];
  const Vec3 w = v.head<3>();
  const Vec3 vp = v.tail<3>() + w.cross(p_body);
  const Vec3 ap = a.tail<3>() + a.head<3>().cross(p_body) + w.cross(vp);
  return data.X0[i].E.transpose() * ap;
}

}  // namespace articula
