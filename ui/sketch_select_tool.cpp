#include "ui/sketch_select_tool.hpp"

#include <QKeyEvent>
#include <QLineF>
#include <QPainter>
#include <QPainterPath>

#include "core/doc/contact_edits.hpp"
#include "core/doc/coupling_edits.hpp"
#include "core/doc/kinematic_drag.hpp"
#include "core/doc/sketch_edits.hpp"
#include "ui/sketch_editor.hpp"

namespace articula {

SelectTool::SelectTool(SketchEditor* editor)
    : SketchTool(editor, SketchToolId::Select, tr("Select / drag"),
                 tr("Click to select; drag a point to move the mechanism; Shift+drag to move the "
                    "point itself"),
                 Qt::Key_S) {}

QIcon SelectTool::icon() const {
  return paintedIcon([](QPainter& p) {
    QPainterPath arrow;
    arrow.moveTo(8, 4);
    arrow.lineTo(8, 26);
    arrow.lineTo(13, 21);
    arrow.lineTo(17, 29);
    arrow.lineTo(20, 27);
    arrow.lineTo(16, 19);
    arrow.lineTo(23, 19);
    arrow.closeSubpath();
    p.setPen(QPen(Qt::black, 1.5));
    p.setBrush(Qt::white);
    p.drawPath(arrow);
  });
}

void SelectTool::cancel() {
  if (drag_ == Drag::None) return;
  drag_ = Drag::None;
  editor_->setPreview(std::nullopt);
  editor_->setPreviewSpec(std::nullopt);
}

// Where a Shift+drag puts the point: under the pointer on a point or link, else on the grid.
Vec3 SelectTool::geometryTarget(const SketchMouse& m) const {
  const SketchSnap& s = m.snap;
  return s.kind == SketchSnap::Point || s.kind == SketchSnap::Line ? editor_->toWorld(m.screen)
                                                                   : s.p;
}

// The Shift+drag preview: the sketch with the point moved (lengths, joints and mass properties as
// the edit on release will make them), or the document's when the move is refused.
void SelectTool::previewGeometry(const SketchMouse& m) {
  try {
    EditableMechanism trial = editor_->document()->editable();  // a copy: the document is kept
    const Vec3 to = geometryTarget(m);
    trial.apply(move_point(trial, from_, to));
    editor_->setPreviewSpec(trial.spec(), to);
  } catch (const std::exception&) {
    editor_->setPreviewSpec(std::nullopt);
  }
}

void SelectTool::mousePress(const SketchMouse& m) {
  press_at_ = m.screen;
  drag_ = Drag::None;
  if (m.mods & Qt::ShiftModifier) {
    if (m.snap.kind == SketchSnap::Point)
      startGeometryDrag(m.snap.p);
    else
      editor_->say(
          tr("Shift+drag moves a point of the drawing: press on a point of the sketch "
             "as drawn (shown at t = 0)"));
    return;
  }
  select(m.snap, m.screen);
}

void SelectTool::startGeometryDrag(const Vec3& from) {
  drag_ = Drag::Geometry, from_ = from, moved_ = false;
}

void SelectTool::select(const SketchSnap& s, const QPointF& screen) {
  Document* doc = editor_->document();
  const int contact = editor_->contactPicked(screen, s);  // a foot before its leg
  if (contact >= 0) {
    Selection picked;
    picked.contact = contact;
    doc->setSelection(picked);
    return;
  }
  if (s.kind == SketchSnap::Point) {
    const std::vector<int> js = editor_->jointsAt(s.p);
    int body = -1;
    for (int o : s.owners) body = std::max(body, o);
    doc->setSelection({js.empty() ? body : -1, js.empty() ? -1 : js.front()});
    if (body < 0) return startGeometryDrag(s.p);  // ground points move as geometry
    startDrag(body, s.p);
  } else if (s.kind == SketchSnap::Line) {
    doc->setSelection({s.owners.front(), -1});
    startDrag(s.owners.front(), s.p);
  } else {
    Selection picked;
    picked.coupling = editor_->couplingAt(screen);
    doc->setSelection(picked);
  }
}

void SelectTool::startDrag(int body, const Vec3& at) {
  const Document* doc = editor_->document();
  const auto mech = doc->mechanism();
  if (!mech) return;  // nothing assembled to drag yet
  if (!mech->drives.empty() && doc->status().free_dof == 0) {
    editor_->say(
        tr("Fully driven: the motors set the positions. Remove a motor (Motor tool) to drag."));
    return;
  }
  const Transform& X = editor_->pose(body);
  body_ = body;
  local_ = X.E * (at - X.r);
  q_ = mech->q0;
  const auto& shown = editor_->snapshot();
  if (shown && shown->q.size() == q_.size()) q_ = shown->q;
  drag_ = Drag::Kinematic;
  moved_ = false;
  editor_->setPreview(q_);  // snapshots arriving meanwhile do not move what is dragged
}

void SelectTool::mouseMove(const SketchMouse& m) {
  if (drag_ == Drag::None) return;
  if (QLineF(m.screen, press_at_).length() > 3) moved_ = true;
  if (!moved_) return;
  if (drag_ == Drag::Geometry) return previewGeometry(m);
  const auto mech = editor_->document()->mechanism();
  if (!mech) return;
  // Motion-driven joints stay where their drive starts them (they would snap back otherwise).
  q_ = drag_point(*mech, q_, body_, local_, editor_->toWorld(m.screen), true, 30).q;
  editor_->setPreview(q_);
}

void SelectTool::mouseRelease(const SketchMouse& m) {
  if (drag_ == Drag::None) return;
  const Drag kind = drag_;
  drag_ = Drag::None;
  Document* doc = editor_->document();
  const auto mech = doc->mechanism();
  if (moved_ && kind == Drag::Kinematic && mech) {
    editor_->push(set_configuration(doc->editable(), *mech, q_), EditKind::Drag);
  } else if (moved_ && kind == Drag::Geometry) {
    editor_->setPreviewSpec(std::nullopt);
    editor_->push(move_point(doc->editable(), from_, geometryTarget(m)), EditKind::MovePoint);
  }
  editor_->setPreview(std::nullopt);
  editor_->setPreviewSpec(std::nullopt);
}

bool SelectTool::keyPress(QKeyEvent& event) {
  if (event.key() != Qt::Key_Delete) return false;
  Document* doc = editor_->document();
  const Selection sel = doc->selection();
  if (sel.contact >= 0)
    editor_->push(remove_contact(doc->editable(), sel.contact), EditKind::Delete);
  else if (sel.coupling >= 0)
    editor_->push(remove_coupling(doc->editable(), sel.coupling), EditKind::Delete);
  else if (sel.body >= 0)
    editor_->push(remove_body(doc->editable(), sel.body), EditKind::Delete);
  else if (sel.joint >= 0)
    editor_->push(remove_joint(doc->editable(), sel.joint), EditKind::Delete);
  return true;
}

}  // namespace articula
