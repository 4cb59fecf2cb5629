#pragma once
// The 3D view's move/rotate gizmo (the build bar's Move tool, ui/build3d_controller): on a
// selected joint (its frames) or body (its sketched pose), three arrows along the world axes or
// the frame's own (local axes) translate it and three rings about them rotate it about its point. A
// drag is previewed live in the overlay (the frame where it would go) and committed on release as
// one undoable edit (core/doc/spatial_edits: move_joint_frames, move_body_pose) through the
// Document.
#include <QPointF>
#include <QString>

#include "core/doc/spatial_edits.hpp"
#include "render/build_overlay.hpp"

namespace articula {

class Document;
class ViewportWidget;

class FrameGizmo {
 public:
  enum class Target { None, Joint, Body };
  enum class Mode { Translate, Rotate };
  struct Handle {
    bool valid = false;
    Mode mode = Mode::Translate;
    int axis = 0;  // x, y, z of axes()
  };
  static constexpr double kHandlePixels = 8.0;  // how near the pointer must be to a handle
  static constexpr double kArrow = 0.18;        // arrow length / camera distance
  static constexpr double kRing = 0.12;         // ring radius / camera distance

  FrameGizmo(ViewportWidget* view, Document* document);

  void select(Target kind, int index);  // None (or an index out of range) clears it
  Target target() const { return target_; }
  int index() const { return index_; }
  void refresh();      // after an edit: drops a target that no longer exists
  Vec3 pivot() const;  // world: the joint's point or the body frame's origin, before the drag
  Mat3 frame() const;  // world orientation of the joint's parent frame or of the body
  // The handles' directions (world, columns x, y, z): the world's, or frame() with local axes.
  void setLocalAxes(bool on) { local_ = on; }
  bool localAxes() const { return local_; }
  Mat3 axes() const { return local_ ? frame() : Mat3::Identity(); }

  Handle handleAt(const QPointF& pos) const;
  // A press on a handle starts a drag (true); dragTo() follows the pointer (snapped to steps of
  // `snap` m when translating and `angle_snap` rad when turning, where positive); release()
  // pushes the edit (false when refused: message() says why) and ends the drag.
  bool press(const QPointF& pos);
  void dragTo(const QPointF& pos, double snap = 0.0, double angle_snap = 0.0);
  bool release();
  bool dragging() const { return drag_.valid; }
  const RigidMove& move() const { return move_; }  // the drag's motion so far
  const QString& message() const { return message_; }
  QString prompt() const;

  void addMarks(BuildMarks& marks) const;  // handles and the preview

 private:
  // Where the pointer's line of sight passes nearest the axis line through the pivot: the
  // distance along the axis (m); false when looking along the axis.
  bool axisParameter(const QPointF& pos, int axis, double& s) const;
  // The pointer's angle about the axis, on the plane through the pivot normal to it.
  bool ringAngle(const QPointF& pos, int axis, double& angle) const;

  ViewportWidget* view_;
  Document* document_;
  Target target_ = Target::None;
  int index_ = -1;
  bool local_ = false;  // handles along the frame's own axes
  Handle drag_;         // the handle being dragged
  double start_ = 0.0;  // the axis parameter or ring angle at the press
  RigidMove move_;
  QString message_;
};

}  // namespace articula
