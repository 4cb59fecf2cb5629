#include "ui/sketch_joint_tools.hpp"

#include <QPainter>
#include <algorithm>

#include "core/doc/coupling_edits.hpp"
#include "core/doc/sketch_edits.hpp"
#include "core/sim/mechanism.hpp"
#include "ui/sketch_editor.hpp"

namespace articula {

GroundPivotTool::GroundPivotTool(SketchEditor* editor)
    : SketchTool(editor, SketchToolId::GroundPivot, tr("Ground pivot"),
                 tr("Click to place a fixed pivot on the ground"), Qt::Key_G) {}

QIcon GroundPivotTool::icon() const {
  return paintedIcon([](QPainter& p) {
    icon_parts::ground(p, {16, 14}), icon_parts::pin(p, {16, 14});
  });
}

void GroundPivotTool::mousePress(const SketchMouse& m) {
  Document* doc = editor_->document();
  editor_->push(add_ground_point(doc->editable(), m.snap.p), EditKind::GroundPivot);
}

PinTool::PinTool(SketchEditor* editor)
    : SketchTool(editor, SketchToolId::Pin, tr("Pin"),
                 tr("Click a point where two links meet to pin them together"), Qt::Key_P) {}

QIcon PinTool::icon() const {
  return paintedIcon([](QPainter& p) {
    icon_parts::bar(p, {4, 26}, {16, 16});
    icon_parts::bar(p, {16, 16}, {28, 24}, QColor(90, 130, 70));
    icon_parts::pin(p, {16, 16});
  });
}

// The bodies with a point at s, and the links passing through it (they can be pinned there too).
std::vector<int> PinTool::bodiesThrough(const SketchSnap& s) const {
  std::vector<int> owners = s.owners;
  const MechanismSpec& spec = editor_->document()->spec();
  const QPointF at = editor_->toScreen(s.p);
  for (int b = 0; b < static_cast<int>(spec.bodies.size()); ++b) {
    if (std::find(owners.begin(), owners.end(), b) != owners.end()) continue;
    const std::vector<Vec3> pts = body_points(spec, b);
    for (std::size_t i = 0; i + 1 < pts.size(); ++i)
      if (distanceToSegment(at, editor_->toScreen(editor_->bodyToWorld(b, pts[i])),
                            editor_->toScreen(editor_->bodyToWorld(b, pts[i + 1])), nullptr) < 2)
        owners.push_back(b);
  }
  return owners;
}

void PinTool::mousePress(const SketchMouse& m) {
  const SketchSnap& s = m.snap;
  if (s.kind != SketchSnap::Point) return editor_->say(tr("Click on a point shared by two links"));
  const std::vector<int> owners = bodiesThrough(s);
  Document* doc = editor_->document();
  const MechanismSpec& spec = doc->spec();
  const std::vector<int> here = editor_->jointsAt(s.p);
  auto name = [&](int b) { return b < 0 ? std::string("ground") : spec.bodies[b].name; };
  auto joined = [&](int a, int b) {
    for (int j : here)
      if ((spec.joints[j].parent == name(a) && spec.joints[j].child == name(b)) ||
          (spec.joints[j].parent == name(b) && spec.joints[j].child == name(a)))
        return true;
    return false;
  };
  // Pin the first pair not yet joined at this point.
  for (std::size_t i = 0; i < owners.size(); ++i)
    for (std::size_t k = i + 1; k < owners.size(); ++k)
      if (!joined(owners[i], owners[k])) {
        editor_->push(add_pin(doc->editable(), owners[i], owners[k], s.p), EditKind::Pin);
        return;
      }
  editor_->say(tr("Nothing to pin here: two links (or a link and ground) must meet at the point"));
}

SliderTool::SliderTool(SketchEditor* editor)
    : SketchTool(editor, SketchToolId::Slider, tr("Slider on link"),
                 tr("Click on a link to put a slider on it (moves along the link)"), Qt::Key_D) {}

QIcon SliderTool::icon() const {
  return paintedIcon([](QPainter& p) {
    icon_parts::bar(p, {3, 22}, {29, 10});
    p.setPen(QPen(QColor(30, 30, 30), 1.5));
    p.setBrush(QColor(150, 175, 215));
    p.save(), p.translate(16, 16), p.rotate(-25), p.drawRect(QRectF(-7, -5, 14, 10)), p.restore();
  });
}

void SliderTool::mousePress(const SketchMouse& m) {
  const SketchSnap& s = m.snap;
  if (s.kind == SketchSnap::Point) return editor_->say(tr("Click on a link between its points"));
  if (s.kind != SketchSnap::Line) return;
  try {
    Document* doc = editor_->document();
    editor_->push(add_slider(doc->editable(), s.owners.front(), s.p, s.dir), EditKind::Slider);
  } catch (const std::exception& e) {
    editor_->say(QString::fromStdString(e.what()));
  }
}

MotorTool::MotorTool(SketchEditor* editor)
    : SketchTool(editor, SketchToolId::Motor, tr("Motor"),
                 tr("Click a pivot to drive it at one turn per second (click again to remove)"),
                 Qt::Key_M) {}

QIcon MotorTool::icon() const {
  return paintedIcon([](QPainter& p) {
    p.setPen(QPen(QColor(200, 120, 0), 2.5));
    p.drawArc(QRectF(5, 5, 22, 22), 30 * 16, 270 * 16);
    p.setBrush(QColor(245, 190, 40));
    p.setPen(QPen(QColor(30, 30, 30), 1.5));
    p.drawEllipse(QPointF(16, 16), 5, 5);
  });
}

void MotorTool::mousePress(const SketchMouse& m) {
  const SketchSnap& s = m.snap;
  const std::vector<int> js =
      s.kind == SketchSnap::Point ? editor_->jointsAt(s.p) : std::vector<int>{};
  Document* doc = editor_->document();
  const MechanismSpec& spec = doc->spec();
  int pick = -1;
  for (int j : js)  // prefer a joint on ground: that is where motors sit
    if (spec.joints[j].joint.nv() == 1 && (pick < 0 || spec.joints[j].parent == "ground")) pick = j;
  if (pick < 0) return editor_->say(tr("Click on a pivot (a revolute or sliding joint)"));
  try {
    Edit e = toggle_motor(doc->editable(), doc->mechanism().get(), pick);
    if (editor_->push(std::move(e), EditKind::Drive)) doc->setSelection({-1, pick});
  } catch (const std::exception& e) {
    editor_->say(QString::fromStdString(e.what()));
  }
}

DeleteTool::DeleteTool(SketchEditor* editor)
    : SketchTool(editor, SketchToolId::Delete, tr("Delete"),
                 tr("Click a link, a joint, a gear or a ground pivot to delete it"), Qt::Key_X) {}

QIcon DeleteTool::icon() const {
  return paintedIcon([](QPainter& p) {
    p.setPen(QPen(QColor(200, 40, 40), 4, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(8, 8, 24, 24);
    p.drawLine(24, 8, 8, 24);
  });
}

// Every joint at p, in one edit: back to front so that indices stay valid.
bool DeleteTool::deleteJointsAt(const Vec3& p) {
  std::vector<int> js = editor_->jointsAt(p);
  if (js.empty()) return false;
  const EditableMechanism& doc = editor_->document()->editable();
  std::sort(js.rbegin(), js.rend());
  Edit e{js.size() == 1 ? "Delete joint " + doc.spec().joints[js[0]].name : "Delete joints", {}};
  for (int j : js) e.changes.push_back(remove_joint(doc, j).changes.front());
  editor_->push(std::move(e), EditKind::Delete);
  return true;
}

void DeleteTool::mousePress(const SketchMouse& m) {
  const SketchSnap& s = m.snap;
  const EditableMechanism& doc = editor_->document()->editable();
  const int coupling = editor_->couplingAt(m.screen);
  if (coupling >= 0 && s.kind != SketchSnap::Point)
    return void(editor_->push(remove_coupling(doc, coupling), EditKind::Delete));
  if (s.kind == SketchSnap::Line)
    return void(editor_->push(remove_body(doc, s.owners.front()), EditKind::Delete));
  if (s.kind != SketchSnap::Point || deleteJointsAt(s.p)) return;
  for (const Vec3& g : ground_points(doc.spec()))
    if ((g - s.p).norm() < kSketchSameM)
      return void(editor_->push(remove_ground_point(doc, g), EditKind::Delete));
  // A free end of a link: delete the link.
  for (int o : s.owners)
    if (o >= 0) return void(editor_->push(remove_body(doc, o), EditKind::Delete));
}

}  // namespace articula
