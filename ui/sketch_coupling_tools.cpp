#include "ui/sketch_coupling_tools.hpp"

#include <QPainter>

#include "core/doc/coupling_edits.hpp"
#include "ui/sketch_editor.hpp"

namespace articula {

namespace {
// The joint a click means: a slider for a rack's second click, else a pivot (ground ones first,
// as motors sit there).
int pick(const MechanismSpec& spec, const std::vector<int>& joints, JointType type) {
  int best = -1;
  for (int j : joints)
    if (spec.joints[j].joint.type == type && (best < 0 || spec.joints[j].parent == "ground"))
      best = j;
  return best;
}

// Two pitch circles touching (gear), two pulleys and a belt, a pinion on a toothed rack.
QIcon couplingIcon(CouplingSpec::Type type) {
  return paintedIcon([type](QPainter& p) {
    p.setPen(QPen(QColor(120, 80, 20), 2));
    p.setBrush(Qt::NoBrush);
    if (type == CouplingSpec::Type::Gear) {
      p.drawEllipse(QPointF(11, 16), 8, 8), p.drawEllipse(QPointF(25, 16), 6, 6);
    } else if (type == CouplingSpec::Type::Belt) {
      p.drawEllipse(QPointF(8, 16), 6, 6), p.drawEllipse(QPointF(25, 16), 5, 5);
      p.drawLine(QPointF(8, 10), QPointF(25, 11)), p.drawLine(QPointF(8, 22), QPointF(25, 21));
    } else {
      p.drawEllipse(QPointF(16, 12), 8, 8);
      p.drawLine(2, 24, 30, 24);
      for (int x = 4; x < 30; x += 4) p.drawLine(x, 24, x, 28);
    }
    icon_parts::pin(p, type == CouplingSpec::Type::RackPinion ? QPointF(16, 12) : QPointF(11, 16));
  });
}
}  // namespace

CouplingTool::CouplingTool(SketchEditor* editor, SketchToolId id, CouplingSpec::Type type,
                           QString name, QString description, QKeySequence key)
    : SketchTool(editor, id, std::move(name), std::move(description), std::move(key)),
      type_(type) {}

QString CouplingTool::hint() const {
  if (first_ < 0) return description();
  return type_ == CouplingSpec::Type::RackPinion ? tr("Now click the slider (the rack)")
                                                 : tr("Now click the second pivot");
}

void CouplingTool::documentChanged() {
  first_ = -1;  // an undo may have removed or renumbered the joint clicked first
}

void CouplingTool::mousePress(const SketchMouse& m) {
  const std::vector<int> joints =
      m.snap.kind == SketchSnap::Point ? editor_->jointsAt(m.snap.p) : std::vector<int>{};
  const bool slider = type_ == CouplingSpec::Type::RackPinion && first_ >= 0;
  const int j = pick(editor_->document()->spec(), joints,
                     slider ? JointType::Prismatic : JointType::Revolute);
  if (j < 0)
    return editor_->say(slider ? tr("Click the slider the pinion drives (a sliding joint)")
                               : tr("Click on a pivot (a revolute joint)"));
  if (first_ < 0 || j == first_) {
    first_ = j;
    return;
  }
  finish(j);
  first_ = -1;
}

Edit CouplingTool::rackEdit(int second) const {
  Document* doc = editor_->document();
  const PivotView a = editor_->pivotView(first_), b = editor_->pivotView(second);
  // The pinion touches the rack's line; its contact point moves by ω ẑ × n along the axis.
  const Vec3 axis = b.axis.normalized();
  const Vec3 n = (b.at + axis * axis.dot(a.at - b.at)) - a.at;
  if (n.norm() < 1e-6)
    throw std::invalid_argument(
        tr("The pinion's pivot lies on the rack's line: move it off").toStdString());
  CouplingSpec c;
  c.type = type_;
  const MechanismSpec& spec = doc->spec();
  auto taken = [&](const std::string& n) {
    return spec.coupling_index(n) >= 0 || spec.joint_index(n) >= 0 || spec.body_index(n) >= 0;
  };
  for (int k = 1; c.name.empty() || taken(c.name); ++k)
    c.name = "R" + std::to_string(k);  // as add_coupling_from_radii names G1, B1
  c.joints = {spec.joints[first_].name, spec.joints[second].name};
  c.ratio = Vec3::UnitZ().cross(n).dot(axis);
  return add_coupling(doc->editable(), c);
}

void CouplingTool::finish(int second) {
  Document* doc = editor_->document();
  const double d = (editor_->pivotView(second).at - editor_->pivotView(first_).at).norm();
  try {
    Edit e;
    if (type_ == CouplingSpec::Type::RackPinion) {
      e = rackEdit(second);
    } else {
      if (d < 1e-6)
        return editor_->say(tr("The two pivots coincide: gears need a centre distance"));
      const double rA = type_ == CouplingSpec::Type::Gear ? d / 2 : d / 4;
      e = add_coupling_from_radii(doc->editable(), type_, first_, second, rA, rA);
    }
    if (!editor_->push(std::move(e), EditKind::Coupling)) return;
    Selection s;
    s.coupling = static_cast<int>(doc->spec().couplings.size()) - 1;
    doc->setSelection(s);
    editor_->say(tr("Added: set the ratio or the pitch radii in Properties"));
  } catch (const std::exception& ex) {
    editor_->say(QString::fromStdString(ex.what()));
  }
}

void CouplingTool::paintOverlay(QPainter& p) const {
  if (first_ < 0) return;  // the pivot clicked first, waiting for the second
  p.setPen(QPen(QColor(230, 120, 0), 2, Qt::DashLine));
  p.setBrush(Qt::NoBrush);
  p.drawEllipse(editor_->toScreen(editor_->pivotView(first_).at), 12, 12);
}

GearTool::GearTool(SketchEditor* editor)
    : CouplingTool(editor, SketchToolId::Gear, CouplingSpec::Type::Gear, tr("Gear pair"),
                   tr("Click two pivots: their links mesh as gears whose pitch circles touch "
                      "(ratio −rA/rB, edit it in Properties)"),
                   Qt::Key_W) {}

QIcon GearTool::icon() const {
  return couplingIcon(CouplingSpec::Type::Gear);
}

BeltTool::BeltTool(SketchEditor* editor)
    : CouplingTool(editor, SketchToolId::Belt, CouplingSpec::Type::Belt, tr("Belt"),
                   tr("Click two pivots: a belt turns both the same way (ratio rA/rB, edit it in "
                      "Properties)"),
                   Qt::Key_B) {}

QIcon BeltTool::icon() const {
  return couplingIcon(CouplingSpec::Type::Belt);
}

RackTool::RackTool(SketchEditor* editor)
    : CouplingTool(editor, SketchToolId::Rack, CouplingSpec::Type::RackPinion,
                   tr("Rack and pinion"),
                   tr("Click a pinion's pivot, then a slider: the slider moves rA per radian the "
                      "pinion turns"),
                   Qt::Key_K) {}

QIcon RackTool::icon() const {
  return couplingIcon(CouplingSpec::Type::RackPinion);
}

}  // namespace articula
