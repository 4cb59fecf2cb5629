#include "core/spec/link_inertia.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace articula {

namespace {

void require_positive(double value, const char* what) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw std::invalid_argument(std::string(what) + ": must be a positive finite number (got " +
                                std::to_string(value) + ")");
}

void require_density(const Material& material) {
  require_positive(material.density, "density");
}

// Inertia of a body whose second moment about its centre of mass is S = ∫ρ x xᵀ dV:
// I = tr(S) 1 - S.
Mat3 inertia_from_second_moment(const Mat3& S) {
  return S.trace() * Mat3::Identity() - S;
}

// Principal moments `d` along the axes R (columns) rotated into body axes.
Mat3 rotate_principal(const Mat3& R, const Vec3& d) {
  return R * d.asDiagonal() * R.transpose();
}

// A unit vector perpendicular to u (u unit), preferring `hint`'s perpendicular part.
Vec3 perpendicular(const Vec3& u, const Vec3& hint) {
  Vec3 n = hint - hint.dot(u) * u;
  if (n.norm() > 1e-9 * std::max(1.0, hint.norm())) return n.normalized();
  // hint parallel to u: take the body axis least aligned with u.
  Vec3 e = Vec3::Zero();
  Eigen::Index k;
  u.cwiseAbs().minCoeff(&k);
  e(k) = 1.0;
  return (e - e.dot(u) * u).normalized();
}

}  // namespace

std::array<double, 6> MassProperties::inertia_array() const {
  return {inertia(0, 0), inertia(1, 1), inertia(2, 2), inertia(0, 1), inertia(0, 2), inertia(1, 2)};
}

void MassProperties::apply_to(BodySpec& body) const {
  body.mass = mass;
  body.com = com;
  body.inertia = inertia_array();
}

double BarSection::area() const {
  if (shape == Shape::Rectangular) return width * thickness;
  return std::numbers::pi / 4.0 * (diameter * diameter - inner_diameter * inner_diameter);
}

MassProperties bar(const Vec3& a, const Vec3& b, const BarSection& section,
                   const Material& material, const Vec3& normal) {
  require_density(material);
  const double L = (b - a).norm();
  require_positive(L, "bar length (distance between the end points)");
  Mat3 R;  // columns: bar axis, width direction, thickness direction
  R.col(0) = (b - a) / L;
  double axial, transverse_w, transverse_t;  // moments over mass
  if (section.shape == BarSection::Shape::Rectangular) {
    require_positive(section.width, "width");
    require_positive(section.thickness, "thickness");
    const Vec3 n = normal - normal.dot(R.col(0)) * R.col(0);
    if (!(n.norm() > 1e-9 * std::max(1.0, normal.norm())))
      throw std::invalid_argument("normal: must not be parallel to the bar");
    R.col(2) = n.normalized();
    const double w = section.width, t = section.thickness;
    axial = (w * w + t * t) / 12.0;
    transverse_w = (L * L + t * t) / 12.0;  // about the width direction
    transverse_t = (L * L + w * w) / 12.0;  // about the thickness direction
  } else {
    require_positive(section.diameter, "diameter");
    if (!(section.inner_diameter >= 0.0 && section.inner_diameter < section.diameter))
      throw std::invalid_argument("inner diameter: must be at least 0 and less than the diameter");
    R.col(2) = perpendicular(R.col(0), normal);
    const double r2 =
        (section.diameter * section.diameter + section.inner_diameter * section.inner_diameter) /
        4.0;  // ro² + ri²
    axial = r2 / 2.0;
    transverse_w = transverse_t = (3.0 * r2 + L * L) / 12.0;
  }
  R.col(1) = R.col(2).cross(R.col(0));
  MassProperties p;
  p.mass = material.density * section.area() * L;
  p.com = 0.5 * (a + b);
  p.inertia = rotate_principal(R, p.mass * Vec3(axial, transverse_w, transverse_t));
  return p;
}

MassProperties plate(const Vec3& a, const Vec3& b, const Vec3& c, double thickness,
                     const Material& material) {
  require_density(material);
  require_positive(thickness, "thickness");
  const Vec3 cross = (b - a).cross(c - a);
  const double area = 0.5 * cross.norm();
  const double scale = std::max({(b - a).squaredNorm(), (c - a).squaredNorm(), 1e-300});
  if (!(area > 1e-9 * scale))
    throw std::invalid_argument("points: the three points are collinear (no plate area)");
  const Vec3 n = cross.normalized();
  const Vec3 g = (a + b + c) / 3.0;
  MassProperties p;
  p.mass = material.density * area * thickness;
  p.com = g;
  // ∫ x xᵀ dA over a triangle, about its centroid: (A/12) Σ vᵢ vᵢᵀ with vᵢ = vertex - centroid.
  Mat3 C = Mat3::Zero();
  for (const Vec3* vertex : {&a, &b, &c}) {
    const Vec3 v = *vertex - g;
    C += v * v.transpose();
  }
  C *= area / 12.0;
  const Mat3 S =
      material.density * thickness * C + p.mass * thickness * thickness / 12.0 * n * n.transpose();
  p.inertia = inertia_from_second_moment(S);
  return p;
}

MassProperties triangle_of_bars(const Vec3& a, const Vec3& b, const Vec3& c,
                                const BarSection& section, const Material& material) {
  const Vec3 cross = (b - a).cross(c - a);
  const double scale = std::max({(b - a).squaredNorm(), (c - a).squaredNorm(), 1e-300});
  if (!(cross.norm() > 2e-9 * scale))
    throw std::invalid_argument("points: the three points are collinear");
  const Vec3 n = cross.normalized();
  return combine({bar(a, b, section, material, n), bar(b, c, section, material, n),
                  bar(c, a, section, material, n)});
}

MassProperties block(const Vec3& size, const Material& material, const Vec3& centre,
                     const Mat3& orientation) {
  require_density(material);
  require_positive(size.x(), "size x");
  require_positive(size.y(), "size y");
  require_positive(size.z(), "size z");
  MassProperties p;
  p.mass = material.density * size.prod();
  p.com = centre;
  const Vec3 s2 = size.cwiseProduct(size);
  p.inertia = rotate_principal(
      orientation, p.mass / 12.0 * Vec3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()));
  return p;
}

MassProperties cylinder(const Vec3& a, const Vec3& b, double radius, const Material& material,
                        double inner_radius) {
  return bar(a, b, BarSection::round(2.0 * radius, 2.0 * inner_radius), material);
}

MassProperties sphere(const Vec3& centre, double radius, const Material& material) {
  require_density(material);
  require_positive(radius, "radius");
  MassProperties p;
  p.mass = material.density * 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  p.com = centre;
  p.inertia = 0.4 * p.mass * radius * radius * Mat3::Identity();
  return p;
}

MassProperties point_mass(const Vec3& position, double mass) {
  require_positive(mass, "mass");
  MassProperties p;
  p.mass = mass;
  p.com = position;
  return p;
}

Mat3 inertia_about(const MassProperties& p, const Vec3& point) {
  const Vec3 d = p.com - point;
  return p.inertia + p.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
}

MassProperties combine(const std::vector<MassProperties>& parts) {
  MassProperties total;
  for (const MassProperties& p : parts) {
    total.mass += p.mass;
    total.com += p.mass * p.com;
  }
  require_positive(total.mass, "total mass");
  total.com /= total.mass;
  for (const MassProperties& p : parts) total.inertia += inertia_about(p, total.com);
  return total;
}

}  // namespace articula
