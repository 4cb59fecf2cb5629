#include "interchange/xml_text.hpp"

#include <charconv>
#include <cmath>

namespace articula {

std::string num(double x) {
  if (x == 0.0) return "0";  // also -0
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

std::string nums(const Vec3& v) {
  return num(v.x()) + " " + num(v.y()) + " " + num(v.z());
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

Vec3 rpy_of(const Mat3& R) {
  const double pitch = std::asin(std::clamp(-R(2, 0), -1.0, 1.0));
  if (std::abs(R(2, 0)) > 1 - 1e-12) {  // gimbal lock: put the whole z-x rotation in yaw
    return {0.0, pitch, std::atan2(-R(0, 1), R(1, 1))};
  }
  return {std::atan2(R(2, 1), R(2, 2)), pitch, std::atan2(R(1, 0), R(0, 0))};
}

Mat3 rotation_of_rpy(const Vec3& rpy) {
  using Eigen::AngleAxisd;
  return (AngleAxisd(rpy.z(), Vec3::UnitZ()) * AngleAxisd(rpy.y(), Vec3::UnitY()) *
          AngleAxisd(rpy.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

Mat3 rotation_z_to(const Vec3& axis) {
  return Quat::FromTwoVectors(Vec3::UnitZ(), axis.normalized()).toRotationMatrix();
}

std::string quat_text(const Mat3& R) {
  Quat q(R);
  if (q.w() < 0) q.coeffs() = -q.coeffs();
  return num(q.w()) + " " + num(q.x()) + " " + num(q.y()) + " " + num(q.z());
}

PoseSpec pose_spec(const Pose& p) {
  PoseSpec s;
  s.position = p.p;
  s.orientation = Quat(p.R);
  return s;
}

}  // namespace articula
