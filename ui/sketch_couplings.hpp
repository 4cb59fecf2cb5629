#pragma once
// Couplings in the sketch editor: the clicks of the Gear, Belt and Rack tools (two joints, then
// one undoable edit with pitch radii from the drawn geometry), how couplings are drawn (pitch
// circles turning with their links, a belt's tangents, a toothed rack) and picked.
#include <QPointF>
#include <QString>
#include <functional>
#include <vector>

#include "core/spec/mechanism_spec.hpp"

class QPainter;

namespace articula {

class Document;

// A 1-DoF joint as drawn now.
struct PivotView {
  Vec3 at = Vec3::Zero();     // where the joint is (world)
  Vec3 axis = Vec3::UnitX();  // a slider's direction (world)
  double angle = 0.0;         // the child link's world angle (rad): a gear turns with it
};
using PivotOf = std::function<PivotView(int joint)>;
using ToScreen = std::function<QPointF(const Vec3&)>;

class CouplingTool {
 public:
  explicit CouplingTool(Document* document) : document_(document) {}
  void reset() { first_ = -1; }
  int first() const { return first_; }  // the joint clicked first, or -1
  // A click on a point holding `joints` (user indices) with the tool for `type`. Returns what to
  // tell the user (the next step, or why nothing happened).
  QString press(CouplingSpec::Type type, const std::vector<int>& joints, const PivotOf& pivot);

 private:
  QString finish(CouplingSpec::Type type, int second, const PivotOf& pivot);
  Document* document_;
  int first_ = -1;
};

// Pitch circles (radii from the file, else split from the ratio and the centre distance).
void drawCouplings(QPainter& p, const MechanismSpec& spec, const PivotOf& pivot,
                   const ToScreen& to_screen, double scale, int selected);
// The coupling whose drawing passes within `px` pixels of `screen`, or -1.
int couplingAt(const MechanismSpec& spec, const PivotOf& pivot, const ToScreen& to_screen,
               double scale, const QPointF& screen, double px);

}  // namespace articula
