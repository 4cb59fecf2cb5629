#pragma once
// The Select tool: click to select a link, joint, coupling or contact (its circle or surface); drag
// a point of an assembled mechanism to move it through the assembly solver
// (core/doc/kinematic_drag); Shift+drag (or a drag of a ground point) moves the point itself,
// changing the geometry; Delete removes the selection.
#include "ui/sketch_tool.hpp"

namespace articula {

class SelectTool : public SketchTool {
 public:
  explicit SelectTool(SketchEditor* editor);
  QIcon icon() const override;
  // Shift+drag moves a drawn point: that is an edit of the drawing, made at t = 0 like the
  // drawing tools' (at a later time the point shown is not where the drawing has it).
  bool editsSketch(Qt::KeyboardModifiers mods) const override {
    return mods.testFlag(Qt::ShiftModifier);
  }
  void cancel() override;
  void documentChanged() override { drag_ = Drag::None; }
  void mousePress(const SketchMouse& m) override;
  void mouseMove(const SketchMouse& m) override;
  void mouseRelease(const SketchMouse& m) override;
  bool keyPress(QKeyEvent& event) override;

 private:
  void select(const SketchSnap& s, const QPointF& screen);
  void startDrag(int body, const Vec3& at);
  void startGeometryDrag(const Vec3& from);
  Vec3 geometryTarget(const SketchMouse& m) const;
  void previewGeometry(const SketchMouse& m);

  enum class Drag { None, Kinematic, Geometry } drag_ = Drag::None;
  int body_ = -1;
  Vec3 local_ = Vec3::Zero(), from_ = Vec3::Zero();  // grabbed point: on the body, in the world
  QPointF press_at_;
  VecX q_;  // the dragged configuration
  bool moved_ = false;
};

}  // namespace articula
