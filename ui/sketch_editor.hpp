#pragma once
// The 2D sketch editor (x-y plane, orthographic, QPainter): place ground pivots, draw links and
// ternary links, pin links together, add sliders on links or on ground, drive a joint with a
// motor, delete, select and drag. Points snap to existing points, to links and to a grid, with
// visual feedback; while drawing, the length and angle are shown and can be typed
// ("120" = 120 mm, "120,30" = 120 mm at 30°, Enter). Dragging a point of an assembled mechanism
// moves it through the assembly solver (core/doc/kinematic_drag); Shift+drag moves the point
// itself (changes the geometry). Every action is one undo command on the document; the view
// redraws from the document's signals and from simulation snapshots.
#include <QPointF>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/doc/sketch_edits.hpp"
#include "core/sim/snapshot.hpp"
#include "ui/document.hpp"
#include "ui/sketch_couplings.hpp"

namespace articula {

class SketchEditor : public QWidget {
  Q_OBJECT

 public:
  enum class Tool {
    Select,
    GroundPivot,
    Link,
    Ternary,
    Pin,
    Slider,
    GroundSlider,
    Motor,
    Gear,
    Belt,
    Rack,
    Delete
  };

  explicit SketchEditor(Document* document, QWidget* parent = nullptr);

  Tool tool() const { return tool_; }
  void setTool(Tool tool);
  static QString toolName(Tool tool);
  static QString toolHint(Tool tool);  // what to do with it (status bar, tooltip)
  QString hint() const;                // the hint for the current step of the current tool

  // Widget <-> world (metres, z = 0). Tests click at toScreen(point).
  QPointF toScreen(const Vec3& p) const;
  Vec3 toWorld(const QPointF& p) const;
  double gridStep() const { return grid_; }  // metres
  void setGridSnap(bool on) { grid_snap_ = on; }
  void fitToView();

  void showSnapshot(const Snapshot& s);

 signals:
  void toolChanged(articula::SketchEditor::Tool tool);
  void hintChanged(const QString& hint);
  void editingStarted();  // a drawing action begins: show the sketch at t = 0

 protected:
  bool event(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  // A drawn point: on ground (body -1) or on a body (local coordinates), where it is shown now.
  struct DrawnPoint {
    int body = -1;
    Vec3 local, world;
  };
  struct Snap {
    enum Kind { Free, Grid, Point, Line } kind = Free;
    Vec3 p = Vec3::Zero();
    std::vector<int> owners;   // bodies with a point here (-1 = ground), or the link (Line)
    Vec3 dir = Vec3::UnitX();  // along the link (Line)
  };

  void onDocumentChanged();
  void refreshGeometry();  // poses and points from the snapshot / drag preview / spec
  Vec3 bodyToWorld(int body, const Vec3& local) const;
  Snap snapAt(const QPointF& screen) const;
  std::optional<Attachment> attachmentOf(const Snap& s) const;
  void press(const Snap& s, Qt::KeyboardModifiers mods);
  void commitPoint(const Snap& s);
  void finishShape();
  void pinAt(const Snap& s);
  void motorAt(const Snap& s);
  void deleteAt(const Snap& s);
  void couplingAt(CouplingSpec::Type type, const Snap& s);
  PivotView pivotView(int joint) const;
  PivotOf pivots() const;
  void drawCouplings(QPainter& p) const;
  void selectAt(const Snap& s, const QPointF& screen);
  bool push(Edit edit, EditKind kind);
  void cancel();
  std::vector<int> jointsAt(const Vec3& p) const;
  std::optional<Vec3> typedPoint() const;
  void setHint();

  void drawGrid(QPainter& p) const;
  void drawBodies(QPainter& p) const;
  void drawJoints(QPainter& p) const;
  void drawGroundSymbol(QPainter& p, const QPointF& at) const;
  void drawFeedback(QPainter& p) const;

  Document* document_;
  Tool tool_ = Tool::Select;
  // View: pixels per metre and the widget position of the world origin.
  double scale_ = 1500.0;
  QPointF origin_;
  bool placed_ = false;
  double grid_ = 0.01;
  bool grid_snap_ = true;
  // Geometry as shown.
  std::vector<Transform> poses_;  // per body: ^{body}X_0
  std::vector<DrawnPoint> points_;
  std::optional<Snapshot> snapshot_;
  // Interaction.
  Snap hover_;
  QPointF mouse_;
  std::vector<Snap> pending_;  // points placed so far by the current tool
  QString typed_;              // length[,angle] being typed
  CouplingTool coupling_tool_{document_};
  // Dragging with the select tool.
  enum class Drag { None, Kinematic, Geometry } drag_ = Drag::None;
  int drag_body_ = -1;
  Vec3 drag_local_, drag_from_;
  QPointF press_at_;
  VecX drag_q_;
  bool drag_moved_ = false;
};

}  // namespace articula
