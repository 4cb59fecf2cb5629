#include "core/model/joint.hpp"

#include <array>
#include <cmath>
#include <numbers>

#include "core/spatial/lie.hpp"

namespace articula {

namespace {
constexpr std::array<std::pair<JointType, std::string_view>, 9> kNames{{
    {JointType::Revolute, "revolute"},
    {JointType::Prismatic, "prismatic"},
    {JointType::Helical, "helical"},
    {JointType::Cylindrical, "cylindrical"},
    {JointType::Universal, "universal"},
    {JointType::Spherical, "spherical"},
    {JointType::Planar, "planar"},
    {JointType::Free, "free"},
    {JointType::Fixed, "fixed"},
}};

Quat quat_at(const double* q) {
  return Quat(q[0], q[1], q[2], q[3]).normalized();
}
void store_quat(const Quat& r, double* q) {
  q[0] = r.w();
  q[1] = r.x();
  q[2] = r.y();
  q[3] = r.z();
}
}  // namespace

std::string_view joint_type_name(JointType type) {
  for (const auto& [t, name] : kNames)
    if (t == type) return name;
  return "unknown";
}

std::optional<JointType> joint_type_from_name(std::string_view name) {
  for (const auto& [t, n] : kNames)
    if (n == name) return t;
  return std::nullopt;
}

namespace {
Transform forward_transform(const Joint& joint, const double* q) {  // RBDA Table 4.1, X_J column
  switch (joint.type) {
    case JointType::Revolute:
      return Transform::rot(rz(q[0]));
    case JointType::Prismatic:
      return Transform::xlt(Vec3(0, 0, q[0]));
    case JointType::Helical:
      return {rz(q[0]), Vec3(0, 0, joint.pitch * q[0])};
    case JointType::Cylindrical:
      return {rz(q[0]), Vec3(0, 0, q[1])};
    case JointType::Universal: {  // ry(q1) rz(q0), multiplied out
      double sa, ca, sb, cb;
      sin_cos(q[0], sa, ca);
      sin_cos(q[1], sb, cb);
      Mat3 E;
      E << cb * ca, cb * sa, -sb, -sa, ca, 0, sb * ca, sb * sa, cb;
      return Transform::rot(E);
    }
    case JointType::Spherical:
      return Transform::from_pose(quat_at(q).toRotationMatrix(), Vec3::Zero());
    case JointType::Planar: {
      const double c = std::cos(q[0]), s = std::sin(q[0]);
      return {rz(q[0]), Vec3(c * q[1] - s * q[2], s * q[1] + c * q[2], 0)};
    }
    case JointType::Free:
      return Transform::from_pose(quat_at(q + 3).toRotationMatrix(), Vec3(q[0], q[1], q[2]));
    case JointType::Fixed:
      return {};
  }
  return {};
}
}  // namespace

Transform joint_transform(const Joint& joint, const double* q) {
  const Transform X = forward_transform(joint, q);
  return joint.reversed ? X.inverse() : X;  // RBDA Table 4.2
}

void joint_coordinates(const Joint& joint, const Transform& X, double* q) {
  const Mat3& E = X.E;
  const Vec3& r = X.r;
  const double theta = std::atan2(E(0, 1), E(0, 0));  // E = rz(θ): E00 = cos θ, E01 = sin θ
  switch (joint.type) {
    case JointType::Revolute:
      q[0] = theta;
      break;
    case JointType::Prismatic:
      q[0] = r.z();
      break;
    case JointType::Helical: {
      q[0] = theta;  // pick the turn nearest to the sketched translation
      if (joint.pitch != 0.0) {
        const double turn = 2 * std::numbers::pi;
        q[0] += turn * std::round((r.z() / joint.pitch - theta) / turn);
      }
      break;
    }
    case JointType::Cylindrical:
      q[0] = theta;
      q[1] = r.z();
      break;
    case JointType::Universal:  // E = ry(β) rz(α)
      q[0] = std::atan2(-E(1, 0), E(1, 1));
      q[1] = std::atan2(-E(0, 2), E(2, 2));
      break;
    case JointType::Spherical:
      store_quat(Quat(E.transpose()), q);
      break;
    case JointType::Planar: {
      const double c = std::cos(theta), s = std::sin(theta);
      q[0] = theta;
      q[1] = c * r.x() + s * r.y();
      q[2] = -s * r.x() + c * r.y();
      break;
    }
    case JointType::Free:
      q[0] = r.x();
      q[1] = r.y();
      q[2] = r.z();
      store_quat(Quat(E.transpose()), q + 3);
      break;
    case JointType::Fixed:
      break;
  }
}

namespace {
// S and c_J = Ṡ q̇ in the joint's forward polarity (RBDA Table 4.1); out.XJ is already set and
// out.S, out.cJ are zero.
void subspace_and_bias(const Joint& joint, const double* q, const double* qd, JointCalc& out) {
  switch (joint.type) {
    case JointType::Revolute:
      out.S(2, 0) = 1;
      break;
    case JointType::Prismatic:
      out.S(5, 0) = 1;
      break;
    case JointType::Helical:
      out.S(2, 0) = 1;
      out.S(5, 0) = joint.pitch;
      break;
    case JointType::Cylindrical:
      out.S(2, 0) = 1;
      out.S(5, 1) = 1;
      break;
    case JointType::Universal: {
      const double c2 = out.XJ.E(2, 2), s2 = -out.XJ.E(0, 2);  // cos q1, sin q1 from X_J
      out.S(0, 0) = -s2;
      out.S(2, 0) = c2;
      out.S(1, 1) = 1;
      out.cJ(0) = -c2 * qd[1] * qd[0];  // Ṡ qd
      out.cJ(2) = -s2 * qd[1] * qd[0];
      break;
    }
    case JointType::Spherical:
      out.S.topRows<3>().setIdentity();
      break;
    case JointType::Planar:
      // Translations are expressed in successor coordinates (RBDA Example 4.5) while qd = dq/dt,
      // so the angular column carries the moment arm of the translation.
      out.S(2, 0) = 1;
      out.S(3, 0) = -q[2];
      out.S(4, 0) = q[1];
      out.S(3, 1) = 1;
      out.S(4, 2) = 1;
      out.cJ(3) = -qd[0] * qd[2];
      out.cJ(4) = qd[0] * qd[1];
      break;
    case JointType::Free:
      out.S.setIdentity();
      break;
    case JointType::Fixed:
      break;
  }
}
}  // namespace

void jcalc(const Joint& joint, const double* q, const double* qd, JointCalc& out) {  // Table 4.1
  const int nv = joint.nv();
  out.XJ = forward_transform(joint, q);
  out.S.setZero(6, nv);
  out.cJ.setZero();
  subspace_and_bias(joint, q, qd, out);
  for (int r = 0; r < 6; ++r) {  // v_J = S q̇, without a dynamic-size product
    double x = 0.0;
    for (int k = 0; k < nv; ++k) x += out.S(r, k) * qd[k];
    out.vJ[r] = x;
  }
  if (joint.reversed) {  // RBDA Table 4.2: S, v_J, c_J become -^pX_s times themselves
    out.XJ = out.XJ.inverse();
    for (int k = 0; k < nv; ++k) out.S.col(k) = -out.XJ.apply(Motion(out.S.col(k)));
    out.vJ = -out.XJ.apply(out.vJ);
    out.cJ = -out.XJ.apply(out.cJ);
  }
}

void joint_integrate(const Joint& joint, const double* q, const double* v, double dt,
                     double* q_out) {
  switch (joint.type) {
    case JointType::Spherical: {
      const Quat r = quat_at(q) * quat_exp(Vec3(v[0], v[1], v[2]) * dt);
      store_quat(r.normalized(), q_out);
      return;
    }
    case JointType::Free: {
      const Quat R0 = quat_at(q + 3);
      Quat dR;
      Vec3 dp;
      se3_exp(Vec3(v[0], v[1], v[2]) * dt, Vec3(v[3], v[4], v[5]) * dt, dR, dp);
      const Vec3 p = Vec3(q[0], q[1], q[2]) + R0 * dp;
      q_out[0] = p.x();
      q_out[1] = p.y();
      q_out[2] = p.z();
      store_quat((R0 * dR).normalized(), q_out + 3);
      return;
    }
    default:
      for (int i = 0; i < joint.nq(); ++i) q_out[i] = q[i] + v[i] * dt;
  }
}

void joint_difference(const Joint& joint, const double* q1, const double* q0, double* v) {
  switch (joint.type) {
    case JointType::Spherical: {
      const Vec3 w = quat_log(quat_at(q0).conjugate() * quat_at(q1));
      for (int i = 0; i < 3; ++i) v[i] = w[i];
      return;
    }
    case JointType::Free: {
      const Quat R0 = quat_at(q0 + 3);
      const Vec3 p = R0.conjugate() * (Vec3(q1[0], q1[1], q1[2]) - Vec3(q0[0], q0[1], q0[2]));
      Vec3 w, vl;
      se3_log(R0.conjugate() * quat_at(q1 + 3), p, w, vl);
      for (int i = 0; i < 3; ++i) {
        v[i] = w[i];
        v[i + 3] = vl[i];
      }
      return;
    }
    default:
      for (int i = 0; i < joint.nq(); ++i) v[i] = q1[i] - q0[i];
  }
}

void joint_q_dot(const Joint& joint, const double* q, const double* v, double* q_dot) {
  auto quat_rate = [](const double* qq, const double* w, double* out) {  // ½ q ⊗ (0, ω)
    out[0] = -0.5 * (qq[1] * w[0] + qq[2] * w[1] + qq[3] * w[2]);
    out[1] = 0.5 * (qq[0] * w[0] + qq[2] * w[2] - qq[3] * w[1]);
    out[2] = 0.5 * (qq[0] * w[1] + qq[3] * w[0] - qq[1] * w[2]);
    out[3] = 0.5 * (qq[0] * w[2] + qq[1] * w[1] - qq[2] * w[0]);
  };
  switch (joint.type) {
    case JointType::Spherical:
      quat_rate(q, v, q_dot);
      return;
    case JointType::Free: {
      const Vec3 pd = quat_at(q + 3) * Vec3(v[3], v[4], v[5]);
      q_dot[0] = pd.x();
      q_dot[1] = pd.y();
      q_dot[2] = pd.z();
      quat_rate(q + 3, v, q_dot + 3);
      return;
    }
    default:
      for (int i = 0; i < joint.nq(); ++i) q_dot[i] = v[i];
  }
}

void joint_neutral(const Joint& joint, double* q) {
  for (int i = 0; i < joint.nq(); ++i) q[i] = 0.0;
  if (joint.type == JointType::Spherical) q[0] = 1.0;
  if (joint.type == JointType::Free) q[3] = 1.0;
}

void joint_normalize(const Joint& joint, double* q) {
  if (!joint.has_quaternion()) return;
  double* w = joint.type == JointType::Free ? q + 3 : q;
  store_quat(quat_at(w), w);
}

namespace {
// Rotation error when no rotation is allowed (RBDA Table 8.1, zero-DoF column).
Vec3 rotation_error(const Mat3& E) {
  return 0.5 * Vec3(E(1, 2) - E(2, 1), E(2, 0) - E(0, 2), E(0, 1) - E(1, 0));
}
void set_columns(Mat6X& T, std::initializer_list<int> rows) {
  T.setZero(6, static_cast<int>(rows.size()));
  int c = 0;
  for (int r : rows) T(r, c++) = 1.0;
}
}  // namespace

void loop_jcalc(const Joint& joint, const Transform& X, VecN& delta, Mat6X& T) {
  const Mat3& E = X.E;
  const Vec3& r = X.r;
  // Translation error d_lin = E (r - r_J), r_J being the nearest translation the joint allows
  // (RBDA Eqs. 8.25-8.27: X_sp = X_err X_J, X_err ≈ 1 - d×).
  const Vec3 Er = E * r;
  const Vec3 Er_xy = E * Vec3(r.x(), r.y(), 0);
  delta.resize(joint.nc());
  switch (joint.type) {
    case JointType::Fixed:
      set_columns(T, {0, 1, 2, 3, 4, 5});
      delta << rotation_error(E), Er;
      break;
    case JointType::Revolute:
      set_columns(T, {0, 1, 3, 4, 5});
      delta << E(1, 2), -E(0, 2), Er;
      break;
    case JointType::Prismatic:
      set_columns(T, {0, 1, 2, 3, 4});
      delta << rotation_error(E), Er_xy.x(), Er_xy.y();
      break;
    case JointType::Cylindrical:
      set_columns(T, {0, 1, 3, 4});
      delta << E(1, 2), -E(0, 2), Er_xy.x(), Er_xy.y();
      break;
    case JointType::Helical: {
      set_columns(T, {0, 1, 3, 4, 5});
      T(2, 4) = -joint.pitch;  // T^T S = 0 with S = [0 0 1 0 0 h]
      const double theta = std::atan2(E(0, 1), E(0, 0));
      double e = r.z() - joint.pitch * theta;
      const double lead = 2 * std::numbers::pi * joint.pitch;  // the helix repeats every turn
      if (lead != 0.0) e -= lead * std::round(e / lead);
      delta << E(1, 2), -E(0, 2), Er_xy.x(), Er_xy.y(), e;
      break;
    }
    case JointType::Universal: {
      // The successor y axis must stay perpendicular to the predecessor z axis.
      set_columns(T, {0, 3, 4, 5});
      const Vec3 n = Vec3(E(2, 2), 0, -E(0, 2)).normalized();  // y_s × z_p
      T.col(0).head<3>() = n;
      delta << E(1, 2), Er;
      break;
    }
    case JointType::Spherical:
      set_columns(T, {3, 4, 5});
      delta << Er;
      break;
    case JointType::Planar:
      set_columns(T, {0, 1, 5});
      delta << E(1, 2), -E(0, 2), E(2, 2) * r.z();
      break;
    case JointType::Free:
      T.setZero(6, 0);
      break;
  }
}

}  // namespace articula
