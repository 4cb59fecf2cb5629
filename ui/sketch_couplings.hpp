#pragma once
// Couplings in the sketch: how they are drawn (pitch circles turning with their links, a belt's
// tangents, a toothed rack) and picked. The tools adding them are in ui/sketch_coupling_tools.
#include <QPointF>
#include <QRectF>
#include <functional>
#include <vector>

#include "core/spec/mechanism_spec.hpp"

class QPainter;

namespace articula {

// A 1-DoF joint as drawn now.
struct PivotView {
  Vec3 at = Vec3::Zero();     // where the joint is (world)
  Vec3 axis = Vec3::UnitX();  // a slider's direction (world)
  double angle = 0.0;         // the child link's world angle (rad): a gear turns with it
};
using PivotOf = std::function<PivotView(int joint)>;
using ToScreen = std::function<QPointF(const Vec3&)>;

// What a label in a widget rectangle would cover of the sketch (0: nothing).
using LabelCost = std::function<int(const QRectF&)>;

// Pitch circles (radii from the file, else split from the ratio and the centre distance), each
// coupling's name and ratio beside them.
void drawCouplings(QPainter& p, const MechanismSpec& spec, const PivotOf& pivot,
                   const ToScreen& to_screen, double scale, int selected, const LabelCost& cost);
// The corners of the boxes around the couplings' pitch circles (world): what a view must show.
std::vector<Vec3> couplingExtent(const MechanismSpec& spec, const PivotOf& pivot);
// The coupling whose drawing passes within `px` pixels of `screen`, or -1.
int couplingAt(const MechanismSpec& spec, const PivotOf& pivot, const ToScreen& to_screen,
               double scale, const QPointF& screen, double px);

}  // namespace articula
