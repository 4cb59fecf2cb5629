#pragma once
// The central view, as the main window sees it: the OpenSceneGraph viewport with the mechanism
// scene when articula_render is built (ARTICULA_HAVE_RENDER), else the 2D SketchView. Both take
// the mechanism once and then one snapshot per displayed frame, report picks, fit to view and
// count the frames they draw.
#include <QWidget>
#include <cstddef>
#include <memory>
#include <vector>

#include "core/sim/snapshot.hpp"
#include "ui/document.hpp"

#ifdef ARTICULA_HAVE_RENDER
#include "ui/viewport_widget.hpp"  // RayHit
#endif

class QTimer;

namespace articula {

struct Mechanism;
struct Snapshot;
class SketchView;
class ViewportWidget;
class MechanismScene;
class Build3DController;

class ViewportPanel : public QWidget {
  Q_OBJECT

 public:
  // Must run before the QApplication exists (OpenGL surface format for OSG).
  static void prepareSurfaceFormat();
  // Multisampling of the 3D view: -1 (default) picks 4 on a GPU and 0 under a software
  // rasterizer (llvmpipe: 4x costs about half the frame rate). ARTICULA_MSAA=N overrides both.
  static void setMultisampling(int samples);
  static int multisampling();
  static bool softwareOpenGL();  // needs the QApplication

  explicit ViewportPanel(QWidget* parent = nullptr);
  ~ViewportPanel() override;

  // The document the 3D build tools edit (ui/build3d_*); adds the build bar above the 3D view.
  void setDocument(Document* document);
  // Null without the renderer or before setDocument.
  Build3DController* build3D() const { return build_; }
  bool isBuilding() const;  // a 3D build tool is active: edits keep the camera where it is
  // Fits to view, unless a build tool is active (after an edit: building keeps the camera).
  void fitToViewUnlessBuilding();

  void setMechanism(const Mechanism* m);
  void showSnapshot(const Snapshot& s);
  void setSelection(const Selection& s);
  void fitToView();
  void setOrthographic2D(bool on);
  // Optional 3D overlays (ignored by the 2D stand-in).
  struct Overlays {
    bool grid = true, axes = false, frames = false, forces = false;
    bool contacts = true;  // contact points and contact forces
  };
  void setOverlays(const Overlays& o);
  // The trace (coupler curve) of a point: the selected joint's, else the point clicked on the
  // selected body. Returns false when nothing traceable is selected.
  bool traceSelection(const Selection& s);
  void clearTrace();
  void extendTrace(const std::vector<Snapshot>& records);
  bool isTracing() const;
  std::size_t traceSize() const;         // points on the trace
  Vec3 tracePoint(std::size_t i) const;  // world, oldest first (NaN when there is none)
  // The widget the 3D view draws in (null without the renderer): tests click on it.
  ViewportWidget* viewportWidget() const { return viewport_; }
  // What the view draws in, without the build bar above it: the 3D view, or the 2D stand-in.
  // Videos grab it (the bar's height changes with the width: it wraps).
  QWidget* pictureWidget() const;
  const Overlays& overlays() const { return overlays_; }
  bool isOrthographic2D() const { return ortho_; }
  long framesDrawn() const;
  bool has3D() const;

 signals:
  void picked(int body, int joint);

 private:
#ifdef ARTICULA_HAVE_RENDER
  // A ray hit on the shown (simulated) mechanism as a document body and sketched world point.
  bool sketchedHit(const RayHit& hit, int& body, Vec3& point, Vec3& normal) const;
#endif

  SketchView* sketch_ = nullptr;
  Document* document_ = nullptr;
  const Mechanism* mech_ = nullptr;  // shown in 3D (the document's simulated part)
  Build3DController* build_ = nullptr;
  ViewportWidget* viewport_ = nullptr;
  std::unique_ptr<MechanismScene> scene_;
  bool ortho_ = false;
  Overlays overlays_;
  Snapshot shown_;  // the snapshot on display
  bool has_shown_ = false;
  QTimer* keep_in_view_ = nullptr;  // at most every 100 ms: a bounds pass walks every body
  int pick_body_ = -1;  // the user body last clicked on in the 3D view, and the point clicked
  Vec3 pick_local_ = Vec3::Zero();  // in its model body coordinates
  static int samples_;
};

}  // namespace articula
