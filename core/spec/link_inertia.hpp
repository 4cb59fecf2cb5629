#pragma once
// Mass properties of links from their geometry and a material: the mass, centre of mass and
// inertia about the centre of mass in body axes, in the project format's order
// [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (products are the off-diagonal entries of the inertia matrix).
// Shapes are placed by points given in body coordinates, so a link drawn between two pins gets
// inertia in the body frame the sketch uses. Closed forms for solids: box m(b²+c²)/12, solid
// cylinder m(3r²+h²)/12 and mr²/2, sphere 2mr²/5; parts are combined by the parallel-axis theorem.
#include <array>
#include <string>
#include <vector>

#include "core/spec/mechanism_spec.hpp"

namespace articula {

struct Material {
  std::string name;
  double density = 0.0;  // kg/m³

  static Material steel() { return {"steel", 7850.0}; }
  static Material aluminium() { return {"aluminium", 2700.0}; }
  static Material custom(double density) { return {"custom", density}; }
  static std::vector<Material> presets() { return {steel(), aluminium()}; }
};

struct MassProperties {
  double mass = 0.0;
  Vec3 com = Vec3::Zero();      // body coordinates
  Mat3 inertia = Mat3::Zero();  // about the centre of mass, body axes

  // [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] as in BodySpec::inertia.
  std::array<double, 6> inertia_array() const;
  // Writes mass, com and inertia into a body (its name and pose are kept).
  void apply_to(BodySpec& body) const;
};

// Cross-section of a bar. A rectangular section has `width` in the plane of the bar axis and the
// section normal's perpendicular, and `thickness` along the normal (for a planar link drawn in
// x-y with normal z: width in the plane, thickness out of it). A round section uses `diameter`;
// `inner_diameter` > 0 makes it a tube.
struct BarSection {
  enum class Shape { Rectangular, Round };
  Shape shape = Shape::Rectangular;
  double width = 0.02, thickness = 0.02;         // rectangular (m)
  double diameter = 0.02, inner_diameter = 0.0;  // round (m)

  static BarSection rectangular(double width, double thickness) {
    return {Shape::Rectangular, width, thickness, 0.0, 0.0};
  }
  static BarSection round(double diameter, double inner_diameter = 0.0) {
    return {Shape::Round, 0.0, 0.0, diameter, inner_diameter};
  }
  double area() const;
};

// All functions throw std::invalid_argument naming the parameter when a dimension or the density
// is not positive and finite, or the points coincide / are collinear.

// A straight bar from a to b (body coordinates), length |b - a|. `normal` orients a rectangular
// section (its component perpendicular to the bar is used; it must not be parallel to the bar).
MassProperties bar(const Vec3& a, const Vec3& b, const BarSection& section,
                   const Material& material, const Vec3& normal = Vec3::UnitZ());

// A ternary link through three points: a triangular plate of the given thickness (along the
// triangle's normal).
MassProperties plate(const Vec3& a, const Vec3& b, const Vec3& c, double thickness,
                     const Material& material);
// The same link built as three bars along the triangle's edges (a frame of bars); the section's
// normal is the triangle's normal. The overlapping corners are counted twice, as in most sketches.
MassProperties triangle_of_bars(const Vec3& a, const Vec3& b, const Vec3& c,
                                const BarSection& section, const Material& material);

// A rectangular block with edge lengths `size` along the axes `orientation` (columns, body
// coordinates), centred at `centre`.
MassProperties block(const Vec3& size, const Material& material, const Vec3& centre = Vec3::Zero(),
                     const Mat3& orientation = Mat3::Identity());
// A solid (or hollow, inner_radius > 0) circular cylinder whose axis runs from a to b.
MassProperties cylinder(const Vec3& a, const Vec3& b, double radius, const Material& material,
                        double inner_radius = 0.0);
// A solid sphere.
MassProperties sphere(const Vec3& centre, double radius, const Material& material);
// A point mass (e.g. a payload) is not a valid body on its own; use it inside combine().
MassProperties point_mass(const Vec3& position, double mass);

// The union of parts (parallel-axis theorem: I_O = I_C + m (|c|² 1 - c cᵀ)).
MassProperties combine(const std::vector<MassProperties>& parts);

// Inertia about a parallel axis through `point`: I_point = I_C + m (|d|² 1 - d dᵀ), d = com -
// point.
Mat3 inertia_about(const MassProperties& p, const Vec3& point);

}  // namespace articula
