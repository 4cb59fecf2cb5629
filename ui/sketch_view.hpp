#pragma once
// A 2D line drawing of the mechanism (bars between joint points, pivots, ground symbols) with
// QPainter: the stand-in for the 3D viewport when Articula is built without OpenSceneGraph.
// Planar mechanisms are drawn in their x-y plane, spatial ones in a fixed oblique projection.
#include <QPointF>
#include <QWidget>
#include <vector>

#include "core/sim/snapshot.hpp"
#include "ui/document.hpp"

namespace articula {

class SketchView : public QWidget {
  Q_OBJECT

 public:
  explicit SketchView(QWidget* parent = nullptr);
  void setMechanism(const Mechanism* m);
  void showSnapshot(const Snapshot& s);
  void setSelection(const Selection& s);
  void fitToView();
  long framesDrawn() const { return frames_; }

 signals:
  void picked(int body, int joint);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  Vec3 jointPoint(int joint, const Snapshot& s) const;
  QPointF project(const Vec3& p) const;  // world to model plane
  QPointF toScreen(const QPointF& p) const;
  void drawGrid(QPainter& p);
  void drawGround(QPainter& p, const QPointF& at);

  const Mechanism* mech_ = nullptr;
  std::vector<Vec3> points_;                   // per user joint, world
  std::vector<std::vector<int>> body_joints_;  // per user body: its joints
  Selection selection_;
  QRectF bounds_;  // model-plane rectangle on screen
  long frames_ = 0;
  bool fitted_ = false;
};

}  // namespace articula
