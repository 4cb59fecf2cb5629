#pragma once
// The 3D building tools' marks over the view (ui/build3d_*): the plane where clicks in empty
// space land (a grid of lines), the point under the cursor, the points a tool has so far joined
// by lines on to the cursor, and the candidate joint axis. Unlit lines drawn over the
// scene (no depth test), so that a point inside a body stays visible. World coordinates, metres.
#include <optional>
#include <osg/Geode>
#include <osg/Group>
#include <osg/Vec3d>
#include <vector>

namespace articula {

struct BuildMarks {
  bool plane = false;                             // the grid of the build plane
  osg::Vec3d plane_origin{0, 0, 0};               // m: the grid's centre, on the plane
  osg::Vec3d plane_u{1, 0, 0}, plane_v{0, 1, 0};  // unit, in the plane: the lines' directions
  double plane_half = 0.5;            // half width of the drawn grid about plane_origin (m)
  double plane_step = 0.05;           // m between lines
  std::optional<osg::Vec3d> hover;    // the point a click would take
  bool snapped = false;               // hover is an existing sketch point
  std::vector<osg::Vec3d> chain;      // a tool's points so far, joined in order and on to hover
  std::optional<osg::Vec3d> axis;     // candidate joint axis (unit), drawn through axis_at
  std::optional<osg::Vec3d> axis_at;  // the joint's point
  double size = 0.01;                 // marker half size (m); the axis is 8 times as long
  // The move/rotate gizmo (ui/build3d_gizmo): line pairs of the handles of world axis x, y, z
  // (drawn red, green, blue; the dragged axis's brighter), and the dragged frame's preview.
  std::vector<osg::Vec3d> gizmo[3];
  int gizmo_active = -1;            // the axis whose handle is dragged, or -1
  std::vector<osg::Vec3d> preview;  // line pairs: the frame's axes where the drag puts it
};

class BuildOverlay {
 public:
  BuildOverlay();
  osg::Group* node() const { return root_.get(); }
  void show(const BuildMarks& marks);
  const BuildMarks& marks() const { return marks_; }

 private:
  osg::ref_ptr<osg::Group> root_;
  osg::ref_ptr<osg::Geode> plane_, points_;
  BuildMarks marks_;
};

}  // namespace articula
