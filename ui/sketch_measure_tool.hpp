#pragma once
// The sketch's Measure tool: click two points for their distance, a third for the angle at the
// second (ui/measure); the clicks snap as drawing does (points, links, grid) and edit nothing.
// The reading is drawn as a label next to the points and said in the status bar; a fourth
// click starts a new measurement, Escape clears it.
#include "ui/measure.hpp"
#include "ui/sketch_tool.hpp"

namespace articula {

class MeasureTool : public SketchTool {
 public:
  explicit MeasureTool(SketchEditor* editor);
  QIcon icon() const override;
  QString hint() const override;
  bool editsSketch(Qt::KeyboardModifiers) const override { return false; }
  void cancel() override { points_.clear(); }
  void mousePress(const SketchMouse& m) override;
  void paintOverlay(QPainter& p) const override;

  const std::vector<Vec3>& points() const { return points_; }  // clicked, world (m)
  Measurement reading() const { return measure(points_); }

 private:
  std::vector<Vec3> points_;
};

}  // namespace articula
