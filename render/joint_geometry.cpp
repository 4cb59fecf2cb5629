#include "render/joint_geometry.hpp"

#include <osg/Geode>

#include "render/osg_convert.hpp"
#include "render/primitives.hpp"
#include "render/scene_pick.hpp"

namespace articula {

namespace {

struct JointPainter {
  const Mechanism& mech;
  const SceneLayout& layout;
  const style::Sizes& size;
  int joint;
  std::vector<osg::ref_ptr<osg::Group>>& groups;

  const Anchor& parent() const { return layout.anchors[2 * joint]; }
  const Anchor& child() const { return layout.anchors[2 * joint + 1]; }
  JointType type() const { return mech.spec.joints[joint].joint.type; }

  // A geode on the anchor's body, tagged with the joint for picking.
  osg::Geode& on(const Anchor& a) {
    auto geode = make_ref<osg::Geode>();
    tag_joint(*geode, joint);
    groups[a.body]->addChild(geode);
    return *geode;
  }

  void pin(const Anchor& a, double half_length) {
    const Vec3 o = a.origin(), z = a.axis(2) * half_length;
    osg::Geode& g = on(a);
    g.addDrawable(prim::cylinder(to_osg(o - z), to_osg(o + z), size.pin, style::kPin));
    const Vec3 z_hole = z * 1.06;  // a dark bore reads as a pin hole in the 2-D view
    g.addDrawable(
        prim::cylinder(to_osg(o - z_hole), to_osg(o + z_hole), 0.42 * size.pin, style::kPinDark));
  }
  void ground_symbol(const Anchor& a);
  void hatching(osg::Geode& g, const Vec3& left, const Vec3& right, const Vec3& down);
  void prismatic();
  void rail(const Anchor& guide, const Anchor& slider);
  void universal() {
    const double r = 0.5 * size.pin, h = 2.3 * size.pin;  // out of a leg's tube
    const Vec3 zp = parent().axis(2) * h, yc = child().axis(1) * h;
    on(parent()).addDrawable(prim::cylinder(to_osg(parent().origin() - zp),
                                            to_osg(parent().origin() + zp), r, style::kPin));
    osg::Geode& g = on(child());
    g.addDrawable(prim::cylinder(to_osg(child().origin() - yc), to_osg(child().origin() + yc), r,
                                 style::kPin));
    g.addDrawable(prim::sphere(to_osg(child().origin()), 0.85 * size.pin, style::kPinDark));
  }
  void draw();
};

void JointPainter::hatching(osg::Geode& g, const Vec3& left, const Vec3& right, const Vec3& down) {
  const int strokes = std::max(4, static_cast<int>((right - left).norm() / (0.22 * size.symbol)));
  const Vec3 along = (right - left) / strokes;
  const Vec3 stroke = down * (0.4 * size.symbol) - along.normalized() * (0.4 * size.symbol);
  std::vector<osg::Vec3d> pairs;
  for (int i = 0; i <= strokes; ++i) {
    const Vec3 p = left + along * i;
    pairs.push_back(to_osg(p));
    pairs.push_back(to_osg(p + stroke));
  }
  g.addDrawable(prim::lines(pairs, style::kGroundHatch, 0.75f * size.line_width));
}

// Triangle under a fixed pivot with a base slab and hatching (the textbook ground symbol), in the
// plane spanned by "up" and the direction across the joint axis.
void JointPainter::ground_symbol(const Anchor& a) {
  const Vec3 up = layout.up, o = a.origin(), axis = a.axis(2);
  Vec3 side = up.cross(axis);
  side = side.norm() > 1e-6 ? side.normalized() : from_osg(prim::perpendicular(to_osg(up)));
  const Vec3 normal = side.cross(up);
  const double h = size.symbol, w = 0.62 * size.symbol, t = 1.2 * size.bar;
  const Vec3 back = -normal * (size.bar + 0.5 * t);  // behind the bars in the 2-D view
  osg::Geode& g = on(a);
  g.addDrawable(prim::prism({to_osg(o + back), to_osg(o + back - up * h - side * w),
                             to_osg(o + back - up * h + side * w)},
                            to_osg(normal), t, style::kGround));
  osg::Matrixd slab = pose_matrix(Transform::from_pose((Mat3() << side, up, normal).finished(),
                                                       o + back - up * (h + 0.09 * h)));
  g.addDrawable(prim::box(slab, {1.45 * w, 0.09 * h, 0.5 * t}, style::kGround));
  hatching(g, o + back - up * (1.18 * h) - side * 1.45 * w,
           o + back - up * (1.18 * h) + side * 1.45 * w, -up);
}

// A rail along the guide's axis through the slider's initial position; on ground it is hatched.
void JointPainter::rail(const Anchor& guide, const Anchor& slider) {
  const Vec3 o = guide.origin(), z = guide.axis(2);
  const Vec3 p = point_in(layout.X0[guide.body], slider.world0);  // slider, guide body coordinates
  const Vec3 c = o + z * z.dot(p - o);
  const Vec3 half = z * (0.35 * size.length);
  osg::Geode& g = on(guide);
  const osg::Vec4 color = guide.body == 0 ? style::kGround : style::kPinDark;
  g.addDrawable(prim::cylinder(to_osg(c - half), to_osg(c + half), 0.6 * size.bar, color));
  const Vec3 across = z.cross(layout.up).cross(z);  // "up" made perpendicular to the rail
  if (guide.body != 0 || across.norm() < 0.5) return;
  const Vec3 down = -across.normalized() * (2.6 * size.bar);
  const Vec3 back = -z.cross(across.normalized()) * (size.bar);
  hatching(g, c - half + down + back, c + half + down + back, -across.normalized());
}

void JointPainter::prismatic() {
  // A block, or a ball (scene_layout.hpp), runs on the other side's rail.
  const bool child_slides = layout.slider_joint[child().body] == joint || layout.ball[child().body];
  const bool parent_slides =
      layout.slider_joint[parent().body] == joint || layout.ball[parent().body];
  if (child_slides) return rail(parent(), child());
  if (parent_slides) return rail(child(), parent());
  // Cylinder and rod: a gland where the rod leaves the barrel, unless another joint sits there.
  const Anchor& barrel = parent();
  for (const Vec3& p : layout.points[barrel.body])
    if ((p - barrel.origin()).norm() > 1e-9 && (p - barrel.origin()).norm() < 3 * size.bar) return;
  if (barrel.body == 0 || layout.points[barrel.body].size() < 2) return;
  const Vec3 o = barrel.origin(), z = barrel.axis(2) * (1.2 * size.bar);
  on(barrel).addDrawable(
      prim::cylinder(to_osg(o - z * 1.5), to_osg(o), 2.3 * size.bar, style::kPin));
}

void JointPainter::draw() {
  switch (type()) {
    case JointType::Revolute:
      pin(child(), size.pin_half_length + size.bar);
      break;
    case JointType::Helical:
    case JointType::Cylindrical: {
      pin(child(), size.pin_half_length + size.bar);
      const Vec3 o = parent().origin(), z = parent().axis(2) * (0.15 * size.length);
      on(parent()).addDrawable(
          prim::cylinder(to_osg(o - z), to_osg(o + z), 0.45 * size.pin, style::kPinDark));
      break;
    }
    case JointType::Prismatic:
      prismatic();
      break;
    case JointType::Universal:
      universal();
      break;
    case JointType::Spherical:
      on(child()).addDrawable(prim::sphere(to_osg(child().origin()), 1.25 * size.pin, style::kPin));
      break;
    default:  // fixed, planar, free: nothing physical to show
      break;
  }
  const bool pivot = type() == JointType::Revolute || type() == JointType::Helical ||
                     type() == JointType::Cylindrical || type() == JointType::Universal ||
                     type() == JointType::Spherical;
  if (pivot && parent().body == 0) ground_symbol(parent());
  if (pivot && child().body == 0) ground_symbol(child());
}

}  // namespace

void add_joint_markers(const Mechanism& mech, const SceneLayout& layout, const style::Sizes& size,
                       int joint, std::vector<osg::ref_ptr<osg::Group>>& markers) {
  JointPainter{mech, layout, size, joint, markers}.draw();
}

void add_joint_axes(const Mechanism& mech, const SceneLayout& layout, const style::Sizes& size,
                    int joint, std::vector<osg::ref_ptr<osg::Group>>& axes) {
  const JointType type = mech.spec.joints[joint].joint.type;
  if (type == JointType::Fixed || type == JointType::Free || type == JointType::Planar ||
      type == JointType::Spherical)
    return;  // no single motion axis
  auto arrow = [&](const Anchor& a, int k) {
    auto geode = make_ref<osg::Geode>();
    const Vec3 from = a.origin() - a.axis(k) * (0.35 * size.axis);
    prim::add_arrow(*geode, to_osg(from), to_osg(a.axis(k) * size.axis * 1.35), 0.18 * size.pin,
                    style::kJointAxis);
    axes[a.body]->addChild(geode);
  };
  arrow(layout.anchors[2 * joint], 2);  // the first axis is fixed in the parent
  if (type == JointType::Universal) arrow(layout.anchors[2 * joint + 1], 1);
}

}  // namespace articula
