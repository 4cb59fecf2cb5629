#pragma once
// The Gear, Belt and Rack-and-pinion tools: click a pivot, then a second pivot (or, for a rack,
// a slider); one undoable edit adds the coupling with pitch radii from the drawn geometry (gears
// touching halfway, a belt's pulleys a quarter of the distance, the pinion touching the rack's
// line). The ratio and radii are then edited in Properties.
#include "core/doc/editable_mechanism.hpp"
#include "ui/sketch_tool.hpp"

namespace articula {

class CouplingTool : public SketchTool {
 public:
  CouplingTool(SketchEditor* editor, SketchToolId id, CouplingSpec::Type type, QString name,
               QString description, QKeySequence key);
  QString hint() const override;
  void cancel() override { first_ = -1; }
  void documentChanged() override;
  void mousePress(const SketchMouse& m) override;
  void paintOverlay(QPainter& p) const override;
  int first() const { return first_; }  // the joint clicked first, or -1

 private:
  void finish(int second);
  Edit rackEdit(int second) const;  // throws when the pinion sits on the rack's line

  CouplingSpec::Type type_;
  int first_ = -1;
};

class GearTool : public CouplingTool {
 public:
  explicit GearTool(SketchEditor* editor);
  QIcon icon() const override;
};

class BeltTool : public CouplingTool {
 public:
  explicit BeltTool(SketchEditor* editor);
  QIcon icon() const override;
};

class RackTool : public CouplingTool {
 public:
  explicit RackTool(SketchEditor* editor);
  QIcon icon() const override;
};

}  // namespace articula
