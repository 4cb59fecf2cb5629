#pragma once
// The 3D view's building tools, one class per tool (as the sketch's, ui/sketch_tool.hpp). A tool
// takes picks, each a point on a body, on ground, or in empty space on the build plane (made by
// ui/build3d_controller), and pushes one undoable edit of core/doc/spatial_edits through the
// Document, the same kind of edit the sketch's Link and Pin tools push.
#include <QString>
#include <functional>
#include <optional>
#include <vector>

#include "core/doc/spatial_edits.hpp"
#include "ui/commands.hpp"
#include "ui/measure.hpp"

namespace articula {

class Document;

// The choices of the 3D build bar, read at every click.
struct BuildSettings {
  JointType joint = JointType::Revolute;  // revolute, spherical, universal or prismatic
  enum class Axis { Normal, X, Y, Z, Link };
  // A joint's z axis: the picked face's normal, a world axis, or along the link being drawn
  // (the Joint tool: along its first body's link)
  Axis axis = Axis::Z;
  // Where clicks in empty space land: the floor (perpendicular to gravity, through the ground
  // origin) or a world coordinate plane, moved by plane_offset along its normal.
  enum class Plane { Floor, XY, YZ, ZX };
  Plane plane = Plane::Floor;
  double plane_offset = 0.0;  // m, along the plane's normal (the floor's: up, against gravity)
  bool snap = false;          // clicks in space snap to the grid's crossings, Move by steps
  bool local_axes = false;    // the Move gizmo along the selected frame's axes, not the world's
  double grid = 0.01;         // m: the grid's step on the plane (drawn and snapped to)
  double diameter = 0.01;     // m: a new link's round bar
  static constexpr double kAngleStep = M_PI / 12;  // rad: the Move gizmo's turns with snap, 15°
};

// The build plane in world coordinates: n·p = offset, with u, v, n right-handed, the grid's
// lines along u and v through origin = offset n.
struct BuildPlane {
  Vec3 normal = Vec3::UnitZ(), u = Vec3::UnitX(), v = Vec3::UnitY();
  double offset = 0.0;  // m
  Vec3 origin() const { return offset * normal; }
  QString label;  // what the bar shows before the offset: "floor y =", "plane xy, z =", ...
};
// The plane the settings choose under `gravity` (world, m/s²). Without gravity the floor is xy.
BuildPlane build_plane(const BuildSettings& settings, const Vec3& gravity);
// `point` on the plane moved to the nearest grid crossing (steps of settings.grid along u, v).
Vec3 snap_to_grid(const BuildPlane& plane, double step, const Vec3& point);

// A point the user clicked or hovers, in world coordinates of the sketched poses.
struct BuildPick {
  bool valid = false;     // false: nothing there (the line of sight misses the plane)
  int body = -1;          // document body index, -1 = ground
  bool in_space = false;  // nothing was hit: the point is on the build plane
  bool snapped = false;   // an existing sketch point (a link end, a joint)
  bool on_first = false;  // on the active tool's first pending point (closes a plate)
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::Zero();  // unit surface normal where a body was hit, else zero
};

// The joint axis a click at `pick` gives: its face normal (the plane's z where there is none),
// the chosen world axis, or `along` (the link being drawn; the normal when it is zero).
Vec3 candidate_axis(const BuildSettings& settings, const BuildPick& pick,
                    const Vec3& along = Vec3::Zero());
bool joint_has_axis(JointType type);  // a spherical joint has none to choose

// Builds and pushes one edit through `document`; a builder's exception or a refused push is
// written to `message` (cleared on success). Shared by the build tools and the Move gizmo.
bool push_edit(Document* document, const std::function<Edit()>& build, EditKind kind,
               QString& message);

class BuildTool {
 public:
  BuildTool(Document* document, const BuildSettings* settings);
  virtual ~BuildTool() = default;
  virtual QString prompt() const = 0;  // what the next click does
  // One click. False when it is refused (message() says why; the tool keeps its state).
  virtual bool click(const BuildPick& pick) = 0;
  void cancel() { picks_.clear(); }
  // The points clicked so far while the tool waits for more.
  const std::vector<BuildPick>& pending() const { return picks_; }
  // The axis a joint placed now at `at` would take (for the overlay).
  virtual Vec3 axisAt(const BuildPick& at) const { return candidate_axis(*settings_, at); }
  const QString& message() const { return message_; }

 protected:
  // The joint a click at `pick` places on its body (or ground), as `settings` say.
  static SpatialJoint jointAt(const BuildSettings& settings, const BuildPick& pick,
                              const Vec3& along);
  // Builds and pushes one edit; a builder's exception or a refused push goes to message().
  bool push(const std::function<Edit()>& build, EditKind kind);

  Document* document_;
  const BuildSettings* settings_;
  std::vector<BuildPick> picks_;            // clicked so far
  std::vector<BuildSettings> settings_at_;  // the settings at each of those clicks
  QString message_;
};

// A link between two clicked points. Its first end is joined to what it was clicked on (a body,
// or ground, also for a click in space); its second end to the body it was clicked on, or free
// when clicked in space. The joints are of the kind chosen at each click.
class LinkTool3D : public BuildTool {
 public:
  using BuildTool::BuildTool;
  QString prompt() const override;
  bool click(const BuildPick& pick) override;
  Vec3 axisAt(const BuildPick& at) const override;
};

// A plate through three or more clicked points, finished by clicking its first point again.
// Each corner clicked on a body is joined to it (the joint chosen at that click); corners in
// space are free.
class PlateTool3D : public BuildTool {
 public:
  using BuildTool::BuildTool;
  QString prompt() const override;
  bool click(const BuildPick& pick) override;
};

// A joint at a clicked point of a body (or ground), joining it to the body clicked next; ground,
// when it is one of the two, becomes the parent.
class JointTool3D : public BuildTool {
 public:
  using BuildTool::BuildTool;
  QString prompt() const override;
  bool click(const BuildPick& pick) override;
  Vec3 axisAt(const BuildPick& at) const override;

 private:
  Vec3 linkDirection(int body) const;  // world x of the body's frame (along a link), or zero
};

// Measures without editing: two clicked points give their distance, a third the angle at the
// second (ui/measure); a fourth click starts again. Picks snap as the other tools' do (link
// ends and joints exactly, surfaces, the build plane and its grid).
class MeasureTool3D : public BuildTool {
 public:
  using BuildTool::BuildTool;
  QString prompt() const override;
  bool click(const BuildPick& pick) override;
  Measurement reading() const;
};

}  // namespace articula
