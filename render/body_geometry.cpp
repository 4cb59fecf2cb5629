#include "render/body_geometry.hpp"

#include <Eigen/SVD>
#include <algorithm>

#include "core/io/project.hpp"
#include "core/io/visual_json.hpp"
#include "render/osg_convert.hpp"
#include "render/primitives.hpp"

namespace articula {

namespace {

struct BodyPainter {
  const Mechanism& mech;
  const SceneLayout& layout;
  const style::Sizes& size;
  int body;
  osg::Vec4 color;
  osg::Geode& geode;
  std::vector<std::pair<Vec3, Vec3>> bars;  // what has been drawn, for the centre-of-mass test

  void bar(const Vec3& a, const Vec3& b) {
    geode.addDrawable(prim::capsule(to_osg(a), to_osg(b), bar_radius(a, b), color));
    bars.emplace_back(a, b);
  }
  // A bar along a prismatic axis ending on this body is a cylinder barrel: drawn thicker.
  double bar_radius(const Vec3& a, const Vec3& b) const {
    const Vec3 d = (b - a).normalized();
    for (int k : layout.body_anchors[body]) {
      const Anchor& an = layout.anchors[k];
      if (mech.spec.joints[an.joint].joint.type != JointType::Prismatic) continue;
      const bool at_end =
          (an.origin() - a).norm() < size.bar || (an.origin() - b).norm() < size.bar;
      if (at_end && std::abs(an.axis(2).dot(d)) > 0.999) return 1.8 * size.bar;
    }
    return size.bar;
  }
  double distance_to_bars(const Vec3& p) const {
    double best = std::numeric_limits<double>::infinity();
    for (const auto& [a, b] : bars) {
      const Vec3 d = b - a;
      const double t =
          d.squaredNorm() > 0 ? std::clamp((p - a).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
      best = std::min(best, (a + t * d - p).norm());
    }
    return best;
  }

  void slider_block(int joint) {
    for (int k : layout.body_anchors[body]) {
      const Anchor& a = layout.anchors[k];
      if (a.joint != joint) continue;
      const double w = 2.6 * size.bar;
      geode.addDrawable(prim::box(pose_matrix(a.X), {w, w, 1.9 * w}, color));
      return;
    }
  }

  void inertia_solid() {
    const InertiaSolid& s = layout.solids[body];
    const double min_half = size.bar;  // keep thin rods and plates visible
    Vec3 half = s.half.cwiseMax(min_half);
    if (s.sphere) {  // equal moments usually mean a lumped or assumed mass: keep it modest
      half.setConstant(std::min(half.x(), 0.1 * size.length));
      geode.addDrawable(prim::sphere(to_osg(s.center), half.x(), color));
    } else if (s.cylinder) {
      const Vec3 axis = s.axes.col(2) * half.z();
      geode.addDrawable(
          prim::cylinder(to_osg(s.center - axis), to_osg(s.center + axis), half.x(), color));
    } else {
      osg::Matrixd frame = pose_matrix(Transform::from_pose(s.axes, s.center));
      geode.addDrawable(prim::box(frame, to_osg(half), color));
    }
    // A single joint point away from the solid (a pendulum pivot), or a contact sphere or roller
    // (a pawl's tip), is joined to it by a bar.
    for (const auto* pts : {&layout.points[body], &layout.contact_points[body]})
      for (const Vec3& p : *pts) {
        const Vec3 local = s.axes.transpose() * (p - s.center);
        if ((local.cwiseAbs() - half).maxCoeff() > size.bar) bar(p, s.center);
      }
  }

  void chain(std::vector<Vec3> pts, const Vec3& dir) {
    std::sort(pts.begin(), pts.end(),
              [&](const Vec3& a, const Vec3& b) { return a.dot(dir) < b.dot(dir); });
    for (std::size_t i = 0; i + 1 < pts.size(); ++i) bar(pts[i], pts[i + 1]);
  }

  // The body's visuals (from URDF/SDFormat or the file's "visuals"), in the body's colour.
  void visuals(const std::vector<VisualSpec>& shapes) {
    const Transform X_body_model = mech.compiled.X_body[body].inverse();
    for (const VisualSpec& v : shapes) {
      const Transform X = v.frame.transform() * X_body_model;  // ^{visual} X_{model body}
      const Vec3 centre = X.translation();
      if (v.shape == VisualSpec::Shape::Box) {
        geode.addDrawable(prim::box(pose_matrix(X), to_osg(Vec3(0.5 * v.size)), color));
      } else if (v.shape == VisualSpec::Shape::Sphere) {
        geode.addDrawable(prim::sphere(to_osg(centre), v.radius, color));
      } else {
        const Vec3 half = 0.5 * v.length * X.rotation().col(2);
        geode.addDrawable(
            prim::cylinder(to_osg(centre - half), to_osg(centre + half), v.radius, color));
      }
    }
  }

  bool on_plate = false;  // a plate covers the centre of mass when it lies on it
  void many_points(const std::vector<Vec3>& pts);
  void plate(const std::vector<Vec3>& pts, const Vec3& centroid, const Mat3& basis);
  void centre_of_mass_arm();
};

// Convex hull (Andrew's monotone chain) of 2-D points; returns indices, counter-clockwise.
std::vector<int> hull_2d(const std::vector<Eigen::Vector2d>& p) {
  std::vector<int> idx(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) idx[i] = static_cast<int>(i);
  std::sort(idx.begin(), idx.end(), [&](int a, int b) {
    return p[a].x() < p[b].x() || (p[a].x() == p[b].x() && p[a].y() < p[b].y());
  });
  auto cross = [&](int o, int a, int b) {
    const Eigen::Vector2d u = p[a] - p[o], v = p[b] - p[o];
    return u.x() * v.y() - u.y() * v.x();
  };
  std::vector<int> h(2 * idx.size());
  int k = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const int start = k;
    for (int i : idx) {
      while (k >= start + 2 && cross(h[k - 2], h[k - 1], i) <= 0) --k;
      h[k++] = i;
    }
    --k;  // the last point starts the other chain
    std::reverse(idx.begin(), idx.end());
  }
  h.resize(std::max(k, 0));
  return h;
}

// Whether q lies inside the counter-clockwise convex polygon p[hull].
bool inside(const std::vector<Eigen::Vector2d>& p, const std::vector<int>& hull,
            const Eigen::Vector2d& q) {
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const Eigen::Vector2d a = p[hull[i]], b = p[hull[(i + 1) % hull.size()]];
    const Eigen::Vector2d u = b - a, v = q - a;
    if (u.x() * v.y() - u.y() * v.x() < 0) return false;
  }
  return true;
}

void BodyPainter::plate(const std::vector<Vec3>& pts, const Vec3& centroid, const Mat3& basis) {
  std::vector<Eigen::Vector2d> uv;
  for (const Vec3& p : pts)
    uv.emplace_back((p - centroid).dot(basis.col(0)), (p - centroid).dot(basis.col(1)));
  const std::vector<int> hull = hull_2d(uv);
  std::vector<osg::Vec3d> polygon;
  for (int i : hull)
    polygon.push_back(to_osg(centroid + basis.col(0) * uv[i].x() + basis.col(1) * uv[i].y()));
  geode.addDrawable(
      prim::prism(polygon, to_osg(basis.col(2)), size.plate, style::lighter(color, 0.2f)));
  const Vec3 c = layout.solids[body].center - centroid;
  on_plate = std::abs(c.dot(basis.col(2))) < 4 * size.bar &&
             inside(uv, hull, {c.dot(basis.col(0)), c.dot(basis.col(1))});
  for (std::size_t i = 0; i < hull.size(); ++i) bar(pts[hull[i]], pts[hull[(i + 1) % hull.size()]]);
  // Points off the plate's plane (a pin on a bracket) get a bar to the nearest hull corner.
  for (const Vec3& p : pts) {
    if (std::abs((p - centroid).dot(basis.col(2))) < size.plate) continue;
    const Vec3* nearest = &pts[hull[0]];
    for (int i : hull)
      if ((pts[i] - p).norm() < (*nearest - p).norm()) nearest = &pts[i];
    bar(p, *nearest);
  }
}

void BodyPainter::many_points(const std::vector<Vec3>& pts) {
  Vec3 centroid = Vec3::Zero();
  for (const Vec3& p : pts) centroid += p / static_cast<double>(pts.size());
  Eigen::MatrixXd A(pts.size(), 3);
  for (std::size_t i = 0; i < pts.size(); ++i) A.row(i) = (pts[i] - centroid).transpose();
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(A, Eigen::ComputeFullV);
  const Vec3 s = svd.singularValues();
  Mat3 basis = svd.matrixV();
  if (basis.determinant() < 0) basis.col(2) *= -1;
  if (s[1] < 0.05 * s[0]) return chain(pts, basis.col(0));  // collinear: a bar with several pins
  if (s[2] / std::sqrt(double(pts.size())) < size.plate) return plate(pts, centroid, basis);
  for (const Vec3& p : pts) bar(centroid, p);  // a spatial bracket: a spider from its centre
}

void BodyPainter::centre_of_mass_arm() {
  // A centre of mass well outside the joint skeleton (a boom with a lumped tip mass) shows mass
  // the joints do not: extend the body to it from the nearest joint point.
  const Vec3 c = layout.solids[body].center;
  if (bars.empty() || on_plate || distance_to_bars(c) < 4 * size.bar) return;
  const auto& pts = layout.points[body];
  const Vec3* nearest = &pts[0];
  for (const Vec3& p : pts)
    if ((p - c).norm() < (*nearest - c).norm()) nearest = &p;
  bar(*nearest, c);
}

}  // namespace

osg::ref_ptr<osg::Geode> build_body_geometry(const Mechanism& mech, const SceneLayout& layout,
                                             const style::Sizes& size, int body) {
  auto geode = make_ref<osg::Geode>();
  if (body == 0) return geode;
  BodyPainter paint{mech,   layout, size, body, style::body_color(mech.compiled.user_body[body]),
                    *geode, {}};
  const std::vector<Vec3>& pts = layout.points[body];
  std::vector<VisualSpec> shapes;
  try {
    shapes = body_visuals(mech.spec.bodies[mech.compiled.user_body[body]]);
  } catch (const ProjectError&) {  // not the loader's form: the skeleton is drawn instead
  }
  if (!shapes.empty()) {
    paint.visuals(shapes);  // the shapes the file gives replace the skeleton drawn from the joints
  } else if (layout.slider_joint[body] >= 0) {
    paint.slider_block(layout.slider_joint[body]);
  } else if (pts.size() <= 1) {
    paint.inertia_solid();
  } else {
    if (pts.size() == 2)
      paint.bar(pts[0], pts[1]);
    else
      paint.many_points(pts);
    paint.centre_of_mass_arm();
  }
  return geode;
}

}  // namespace articula
