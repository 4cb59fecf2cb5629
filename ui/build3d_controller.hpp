#pragma once
// Building in the 3D view: while a tool of ui/build3d_tools is active, this takes the mouse of
// the ViewportWidget (ViewportInteractor), turns each pointer position into a BuildPick and keeps
// the overlay (render/build_overlay) showing the plane, the point a click would take and the
// candidate joint axis. A pick is, in this order: an existing sketch point within kSnapPixels of
// the pointer (exact: joints land on link ends), the mechanism surface under the pointer, or the
// build plane (plane(): the floor or a world plane, settings().plane) in empty space (ground),
// on its grid's nearest crossing when settings().snap. The Move tool instead selects a joint or a
// body and hands drags on its handles to the FrameGizmo.
#include <QLabel>
#include <QObject>
#include <QPointF>
#include <QPointer>
#include <functional>
#include <memory>

#include "render/build_overlay.hpp"
#include "ui/build3d_gizmo.hpp"
#include "ui/build3d_tools.hpp"
#include "ui/viewport_widget.hpp"

namespace articula {

class Document;

class Build3DController : public QObject, public ViewportInteractor {
  Q_OBJECT

 public:
  enum class Tool { None, Link, Joint, Plate, Move, Measure };
  static constexpr double kSnapPixels = 10.0;
  // A ray hit on the simulated mechanism as a document body (-1 ground) with the point and
  // normal in world coordinates of the sketched poses; false when it cannot be mapped.
  using HitMapper = std::function<bool(const RayHit&, int& body, Vec3& point, Vec3& normal)>;

  Build3DController(ViewportWidget* view, Document* document, HitMapper mapper,
                    QObject* parent = nullptr);
  ~Build3DController() override;

  void setTool(Tool tool);
  Tool tool() const { return tool_; }
  BuildSettings& settings() { return settings_; }
  void settingsChanged();    // after changing settings(): redraw the plane and the axis
  BuildPlane plane() const;  // the build plane now (the floor follows the document's gravity)
  BuildPick pickAt(const QPointF& pos);
  const BuildOverlay& overlay() const { return overlay_; }
  QString prompt() const;  // the active tool's, with its last refusal first

  void hover(const QPointF& pos) override;
  void click(const QPointF& pos) override;
  void cancel() override;
  bool press(const QPointF& pos) override;  // the Move tool: on a gizmo handle
  void drag(const QPointF& pos) override;
  void release(const QPointF& pos) override;
  FrameGizmo& gizmo() { return gizmo_; }
  // The Measure tool's reading (none with another tool), shown in measureLabel() over the view.
  Measurement measurement() const;
  QLabel* measureLabel() const { return measure_label_; }

 signals:
  void promptChanged(const QString& text);
  void planeChanged(const QString& label);  // settings or the document's gravity moved it

 private:
  void showMarks();
  void showMeasurement();
  void documentEdited();
  void selectAt(const QPointF& pos);   // the Move tool's click: a joint, else a body, else none
  void dragGizmo(const QPointF& pos);  // by grid steps and 15° turns when snapping
  bool snap(const QPointF& pos, const RayHit& hit, BuildPick& out) const;

  QPointer<ViewportWidget> view_;  // its sibling in the panel may be destroyed first
  Document* document_;
  HitMapper mapper_;
  Tool tool_ = Tool::None;
  BuildSettings settings_;
  std::unique_ptr<BuildTool> active_;
  BuildOverlay overlay_;
  BuildPick hover_;
  FrameGizmo gizmo_;       // the Move tool's
  QLabel* measure_label_;  // over the view, beside the measured points (owned by the view)
};

}  // namespace articula
