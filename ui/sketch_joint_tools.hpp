#pragma once
// The one-click tools: Ground pivot, Pin (two links meeting at a point), Slider on a link, Motor
// (a drive on a pivot, click again to remove) and Delete (a link, joint, coupling or ground
// pivot).
#include "ui/sketch_tool.hpp"

namespace articula {

class GroundPivotTool : public SketchTool {
 public:
  explicit GroundPivotTool(SketchEditor* editor);
  QIcon icon() const override;
  void mousePress(const SketchMouse& m) override;
};

class PinTool : public SketchTool {
 public:
  explicit PinTool(SketchEditor* editor);
  QIcon icon() const override;
  void mousePress(const SketchMouse& m) override;

 private:
  std::vector<int> bodiesThrough(const SketchSnap& s) const;
};

class SliderTool : public SketchTool {
 public:
  explicit SliderTool(SketchEditor* editor);
  QIcon icon() const override;
  void mousePress(const SketchMouse& m) override;
};

class MotorTool : public SketchTool {
 public:
  explicit MotorTool(SketchEditor* editor);
  QIcon icon() const override;
  void mousePress(const SketchMouse& m) override;
};

class DeleteTool : public SketchTool {
 public:
  explicit DeleteTool(SketchEditor* editor);
  QIcon icon() const override;
  // Picks what is on screen, in the pose at the shown time (the deletion restarts the run).
  bool editsSketch(Qt::KeyboardModifiers) const override { return false; }
  void mousePress(const SketchMouse& m) override;

 private:
  bool deleteJointsAt(const Vec3& p);
};

}  // namespace articula
