#pragma once
// The 3D view's building tools, one class per tool (as the sketch's, ui/sketch_tool.hpp). A tool
// takes picks, each a point on a body, on ground, or in empty space on the build plane (made by
// ui/build3d_controller), and pushes one undoable edit of core/doc/spatial_edits through the
// Document, the same kind of edit the sketch's Link and Pin tools push.
#include <QString>
#include <functional>
#include <optional>

#include "core/doc/spatial_edits.hpp"
#include "ui/commands.hpp"

namespace articula {

class Document;

// The choices of the 3D build bar, read at every click.
struct BuildSettings {
  JointType joint = JointType::Revolute;  // revolute, spherical, universal or prismatic
  enum class Axis { Normal, X, Y, Z };
  Axis axis = Axis::Z;     // a joint's z axis: the picked face's normal, or a world axis
  double plane_z = 0.0;    // m: clicks in empty space land on the plane z = plane_z
  double diameter = 0.01;  // m: a new link's round bar
};

// A point the user clicked or hovers, in world coordinates of the sketched poses.
struct BuildPick {
  bool valid = false;     // false: nothing there (the line of sight misses the plane)
  int body = -1;          // document body index, -1 = ground
  bool in_space = false;  // nothing was hit: the point is on the build plane
  bool snapped = false;   // an existing sketch point (a link end, a joint)
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::Zero();  // unit surface normal where a body was hit, else zero
};

// The joint axis a click at `pick` gives: its face normal (the plane's z where there is none) or
// the chosen world axis.
Vec3 candidate_axis(const BuildSettings& settings, const BuildPick& pick);
bool joint_has_axis(JointType type);  // a spherical joint has none to choose

class BuildTool {
 public:
  BuildTool(Document* document, const BuildSettings* settings);
  virtual ~BuildTool() = default;
  virtual QString prompt() const = 0;  // what the next click does
  // One click. False when it is refused (message() says why; the tool keeps its state).
  virtual bool click(const BuildPick& pick) = 0;
  void cancel() { first_.reset(); }
  // The first pick while the tool waits for the second one.
  const std::optional<BuildPick>& first() const { return first_; }
  const QString& message() const { return message_; }

 protected:
  // The joint a click at `pick` places on its body (or ground), as the settings say now.
  SpatialJoint jointAt(const BuildPick& pick, const Vec3& across) const;
  // Builds and pushes one edit; a builder's exception or a refused push goes to message().
  bool push(const std::function<Edit()>& build, EditKind kind);

  Document* document_;
  const BuildSettings* settings_;
  std::optional<BuildPick> first_;
  std::optional<SpatialJoint> first_joint_;
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
};

// A joint at a clicked point of a body (or ground), joining it to the body clicked next; ground,
// when it is one of the two, becomes the parent.
class JointTool3D : public BuildTool {
 public:
  using BuildTool::BuildTool;
  QString prompt() const override;
  bool click(const BuildPick& pick) override;
};

}  // namespace articula
