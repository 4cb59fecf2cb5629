#pragma once
// The 2D sketch editor (x-y plane, orthographic, QPainter): the view of the sketch (transform,
// snapping to points, links and a grid with visual feedback, selection, drawing of links,
// joints and couplings) and the sketch tools (ui/sketch_tool.hpp), one active at a time, that
// the editor forwards mouse, key and paint events to. Every action is one undo command on the
// document; the view redraws from the document's signals and from simulation snapshots.
#include <Eigen/Geometry>
#include <QPixmap>
#include <QPointF>
#include <QRgb>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "core/doc/sketch_edits.hpp"
#include "core/sim/snapshot.hpp"
#include "ui/document.hpp"
#include "ui/sketch_couplings.hpp"
#include "ui/sketch_labels.hpp"
#include "ui/sketch_outlines.hpp"
#include "ui/sketch_stamps.hpp"
#include "ui/sketch_tool.hpp"

namespace articula {

class SketchEditor : public QWidget {
  Q_OBJECT

 public:
  using Tool = SketchToolId;

  explicit SketchEditor(Document* document, QWidget* parent = nullptr);
  ~SketchEditor() override;

  // The tools in tool-bar order, and the active one.
  const std::vector<SketchTool*>& tools() const { return tool_list_; }
  SketchTool* toolById(Tool id) const;
  Tool tool() const { return active_->id(); }
  void setTool(Tool tool);
  QString hint() const { return active_->hint(); }  // the current step of the current tool

  // Widget <-> world (metres, z = 0). Tests click at toScreen(point).
  QPointF toScreen(const Vec3& p) const;
  Vec3 toWorld(const QPointF& p) const;
  double scale() const { return scale_; }    // pixels per metre
  double gridStep() const { return grid_; }  // metres
  void setGridSnap(bool on) { grid_snap_ = on; }
  void fitToView();

  void showSnapshot(const Snapshot& s);

  // For the tools: the sketch as shown, what is where, and edits.
  Document* document() const { return document_; }
  const std::optional<Snapshot>& snapshot() const { return snapshot_; }
  const SketchSnap& hover() const { return hover_; }
  Vec3 bodyToWorld(int body, const Vec3& local) const;
  // What a body is drawn as, in its own frame: its drawn points (two: a bar, more: a plate).
  // Its contacts' sphere centres (a walker's foot, a pawl's tip, a crank's pin) are points of it
  // too, put into the outline where they lengthen it least. A body with a single point that is
  // no slider block (a pendulum's rod, pivoted at one end) is
  // a bar from that point through its centre of mass to the end of the uniform rod of the same
  // inertia (half length sqrt(3 Izz / m)), as the 3D view draws its inertia-equivalent solid.
  const std::vector<Vec3>& outline(int body) const { return outlines().outline[body]; }
  // Every body's points and outline and the body names' index, for the spec shown (kept until
  // the geometry is refreshed or another spec is shown).
  const SketchOutlines& outlines() const;
  const Transform& pose(int body) const { return poses_[body]; }  // ^{body}X_0 as shown
  SketchSnap snapAt(const QPointF& screen) const;
  // The joint names as they are drawn now: placed clear of each other, inside the view. With
  // more joints than this, only the names of the points in view while there are no more than
  // this many of them (zoomed in), else the selected joint's name alone.
  static constexpr std::size_t kSketchManyNames = 150;
  std::vector<SketchLabel> jointLabels() const;
  SketchSnap pointAt(const Vec3& world) const;  // a typed point, on a drawn point if one is there
  std::vector<int> jointsAt(const Vec3& p) const;
  PivotView pivotView(int joint) const;
  PivotOf pivots() const;
  int couplingAt(const QPointF& screen) const;  // the coupling drawn there, or -1
  // The contact drawn there (spec.contacts index), or -1: its sphere's circle, or with `surfaces`
  // its surface's line (ui/sketch_contacts contactAt).
  int contactAt(const QPointF& screen, bool surfaces) const;
  // The contact a Select click there picks, or -1: its circle unless a point is under the pointer
  // (a foot at a leg's corner is picked, not the leg), its surface's line unless a point or link
  // is (a ground line runs under the whole mechanism).
  int contactPicked(const QPointF& screen, const SketchSnap& snap) const;
  double contactReach() const { return (width() + height()) / scale_; }  // m: a plane's half line
  bool push(Edit edit, EditKind kind);  // false: refused, the reason is said
  void say(const QString& message);     // in the status bar until the next action
  // Poses from model coordinates while the select tool drags (none: the snapshot or the spec).
  void setPreview(std::optional<VecX> q);
  // The sketch as a Shift+drag would leave it, shown until the drag ends (none: the document's),
  // with the dragged point at `moved` (world), which the pointer then does not snap to.
  void setPreviewSpec(std::optional<MechanismSpec> spec, const Vec3& moved = Vec3::Zero());
  const MechanismSpec& shownSpec() const {
    return preview_spec_ ? *preview_spec_ : document_->spec();
  }

 signals:
  void toolChanged(articula::SketchToolId tool);
  void hintChanged(const QString& hint);
  void editingStarted();  // a drawing action begins: show the sketch at t = 0
  // The point under the cursor as a click would take it (snapped; world, m, z = 0), and the
  // cursor leaving the sketch: the status bar shows the coordinates.
  void cursorMoved(const articula::Vec3& world);
  void cursorLeft();

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

  void onDocumentChanged();
  void refreshGeometry();              // poses and points from the drag preview / snapshot / spec
  Eigen::AlignedBox2d extent() const;  // world x-y box of what is drawn
  void keepInView();
  void setHint();
  void cancel();

  void drawGrid(QPainter& p) const;
  void drawRails(QPainter& p) const;
  void drawBlock(QPainter& p, int body, const QPointF& at, const QColor& c) const;
  void drawBodies(QPainter& p) const;
  void drawJoints(QPainter& p) const;
  void drawGroundSymbol(QPainter& p, const QPointF& at) const;
  void drawHover(QPainter& p) const;
  // Many joints: a circle drawn once and stamped at each point (a drawEllipse per joint cost a
  // 1,000-body ladder a third of its frame). Kept per pen width, radius and fill.
  void stampCircle(QPainter& p, const QPointF& at, double radius, const QPen& pen,
                   const QColor& fill) const;
  int labelCost(const QRectF& r) const;

  Document* document_;
  std::vector<std::unique_ptr<SketchTool>> tools_;
  std::vector<SketchTool*> tool_list_;
  SketchTool* active_ = nullptr;
  // View: pixels per metre and the widget position of the world origin.
  double scale_ = 1500.0;
  QPointF origin_;
  bool placed_ = false;
  bool fitted_ = false;         // as fitToView left it (no zoom since): refitted on resizes
  Eigen::AlignedBox2d motion_;  // world x-y: what snapshots showed since the last edit
  double grid_ = 0.01;
  bool grid_snap_ = true;
  // Geometry as shown.
  std::vector<Transform> poses_;  // per body: ^{body}X_0
  std::vector<DrawnPoint> points_;
  std::optional<Snapshot> snapshot_;
  std::optional<VecX> preview_;
  std::optional<MechanismSpec> preview_spec_;
  Vec3 preview_moved_ = Vec3::Zero();
  // Interaction.
  SketchSnap hover_;
  QPointF hover_at_;                 // the pointer (widget pixels) hover_ was found at
  std::vector<SketchLabel> labels_;  // placed at the start of each paint
  mutable std::optional<SketchOutlines> outlines_;
  mutable CircleStamps stamps_;  // stampCircle's and the short links' (ui/sketch_stamps)
  mutable const MechanismSpec* outlines_spec_ = nullptr;
  QString said_;  // what a tool said during the current event (kept over its hint)
};

}  // namespace articula
