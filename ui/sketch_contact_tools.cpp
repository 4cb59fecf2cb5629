#include "ui/sketch_contact_tools.hpp"

#include <QLineF>
#include <QPainter>
#include <cmath>

#include "core/doc/contact_edits.hpp"
#include "ui/sketch_colors.hpp"
#include "ui/sketch_editor.hpp"

namespace articula {

namespace {
constexpr double kDragPx = 5.0;  // a press moved less than this is a click

// The moving body a snapped point belongs to (the newest, as a slider block over its rail), or
// -1 when it is on ground only or off points and links.
int movingBody(const SketchSnap& s, int except) {
  if (s.kind != SketchSnap::Point && s.kind != SketchSnap::Line) return -1;
  int body = -1;
  for (int o : s.owners)
    if (o != except) body = std::max(body, o);
  return body;
}
}  // namespace

double ContactPress::radius(double fallback) const {
  if (QLineF(screen, now).length() < kDragPx) return fallback;
  return (pointer - centre).norm();
}

void ContactTool::mouseMove(const SketchMouse& m) {
  if (!press_) return;
  press_->pointer = m.snap.p;  // snapped: a radius of whole grid steps when the grid snaps
  press_->now = m.screen;
}

void ContactTool::mouseRelease(const SketchMouse& m) {
  if (!press_) return;
  mouseMove(m);
  const ContactPress press = *press_;
  press_.reset();
  try {
    release(press);
  } catch (const std::exception& e) {
    editor_->say(QString::fromStdString(e.what()));
  }
}

bool ContactTool::pressBody(const SketchMouse& m, int except) {
  const int body = movingBody(m.snap, except);
  if (body < 0) {
    editor_->say(tr("Press on a point of a moving body (a link's end or a slider block)"));
    return false;
  }
  press_ = ContactPress{body, m.snap.p, m.snap.p, m.screen, m.screen};
  return true;
}

Vec3 ContactTool::toLocal(int body, const Vec3& world) const {
  const Transform& X = editor_->pose(body);
  return X.E * (world - X.r);
}

void ContactTool::addContact(const ContactSpec& c) {
  Document* doc = editor_->document();
  Edit e = add_contact(doc->editable(), c);
  const QString name = QString::fromStdString(std::get<ContactSpec>(e.changes[0].after).name);
  if (!editor_->push(std::move(e), EditKind::Contact)) return;
  Selection s;
  s.contact = static_cast<int>(doc->spec().contacts.size()) - 1;
  doc->setSelection(s);
  editor_->say(
      tr("Added contact %1: set its radius, restitution and friction in Properties").arg(name));
}

void ContactTool::paintPress(QPainter& p, double fallback) const {
  if (!press_) return;
  const double r = press_->radius(fallback) * editor_->scale();
  p.setPen(QPen(kSketchRubber, 1.5, Qt::DashLine));
  p.setBrush(Qt::NoBrush);
  p.drawEllipse(editor_->toScreen(press_->centre), r, r);
}

// --- Ground line ---

GroundLineTool::GroundLineTool(SketchEditor* editor)
    : ContactTool(editor, SketchToolId::GroundLine, tr("Ground line"),
                  tr("Click two points of a line on the ground, then press on a body's point "
                     "that touches it (drag out a radius for a ball)"),
                  Qt::Key_N) {}

QIcon GroundLineTool::icon() const {
  return paintedIcon([](QPainter& p) {
    p.setPen(QPen(QColor(90, 90, 90), 2));
    p.drawLine(2, 24, 30, 24);
    for (int x = 4; x < 30; x += 5) p.drawLine(x, 25, x - 3, 29);
    p.setPen(QPen(QColor(40, 120, 70), 2));
    p.setBrush(QColor(200, 230, 205));
    p.drawEllipse(QPointF(16, 15), 8, 8);
  });
}

QString GroundLineTool::hint() const {
  if (!a_) return description();
  if (!b_) return tr("Click the line's second point");
  return tr(
      "Press on a body's point that touches the line, drag out a radius for a ball; Esc "
      "starts a new line");
}

void GroundLineTool::cancel() {
  if (press_) return press_.reset();
  a_.reset(), b_.reset();
}

void GroundLineTool::mousePress(const SketchMouse& m) {
  if (!a_) {
    a_ = m.snap.p;
  } else if (!b_) {
    if ((m.snap.p - *a_).norm() < kSketchSameM) return;  // a double click
    b_ = m.snap.p;
  } else {
    pressBody(m, -1);
  }
}

void GroundLineTool::release(const ContactPress& press) {
  const MechanismSpec& spec = editor_->document()->spec();
  addContact(ground_line_contact(spec, press.body, toLocal(press.body, press.centre),
                                 press.radius(0.0), *a_, *b_, press.centre));
}

void GroundLineTool::paintOverlay(QPainter& p) const {
  if (!a_) return;
  p.setPen(QPen(kSketchRubber, 2, Qt::DashLine));
  const Vec3 b = b_ ? *b_ : editor_->hover().p;
  p.drawLine(editor_->toScreen(*a_), editor_->toScreen(b));
  p.setBrush(kSketchRubber);
  p.drawEllipse(editor_->toScreen(*a_), 3, 3);
  paintPress(p, 0.0);
}

// --- Cam ---

CamTool::CamTool(SketchEditor* editor)
    : ContactTool(editor, SketchToolId::Cam, tr("Cam"),
                  tr("Click the cam's pivot, then press on the follower's roller centre (drag "
                     "out the roller's radius)"),
                  Qt::Key_C) {}

QIcon CamTool::icon() const {
  return paintedIcon([](QPainter& p) {
    p.setPen(QPen(QColor(60, 90, 140), 2));
    p.setBrush(QColor(205, 215, 235));
    p.drawEllipse(QPointF(13, 19), 10, 8);
    p.setPen(QPen(QColor(40, 120, 70), 2));
    p.setBrush(Qt::white);
    p.drawEllipse(QPointF(25, 7), 4, 4);
    icon_parts::pin(p, QPointF(10, 19));
  });
}

QString CamTool::hint() const {
  if (pivot_ < 0) return description();
  return tr("Press on the follower's roller centre, drag out the roller's radius");
}

void CamTool::cancel() {
  if (press_) return press_.reset();
  pivot_ = cam_ = -1;
}

void CamTool::documentChanged() {
  press_.reset();
  pivot_ = cam_ = -1;  // an undo may have removed or renumbered the pivot
}

void CamTool::mousePress(const SketchMouse& m) {
  const MechanismSpec& spec = editor_->document()->spec();
  if (pivot_ >= 0) {
    pressBody(m, cam_);
    return;
  }
  const std::vector<int> joints =
      m.snap.kind == SketchSnap::Point ? editor_->jointsAt(m.snap.p) : std::vector<int>{};
  for (int j : joints) {
    if (spec.joints[j].joint.type != JointType::Revolute) continue;
    const int child = spec.body_index(spec.joints[j].child);
    const int parent = spec.body_index(spec.joints[j].parent);
    pivot_ = j, cam_ = child >= 0 ? child : parent;
    if (spec.joints[j].parent == "ground") break;  // the driven cam turns on a ground pivot
  }
  if (pivot_ < 0) editor_->say(tr("Click on a pivot (a revolute joint): the cam turns about it"));
}

void CamTool::release(const ContactPress& press) {
  const MechanismSpec& spec = editor_->document()->spec();
  const Vec3 centre = editor_->pivotView(pivot_).at;
  const double d = (press.centre - centre).norm();
  const ContactSpec c =
      cam_contact(spec, cam_, toLocal(cam_, centre), press.body, toLocal(press.body, press.centre),
                  press.radius(d / 5), toLocal(cam_, press.centre));
  pivot_ = cam_ = -1;
  addContact(c);
}

void CamTool::paintOverlay(QPainter& p) const {
  if (pivot_ < 0) return;
  const Vec3 centre = editor_->pivotView(pivot_).at;
  p.setPen(QPen(QColor(230, 120, 0), 2, Qt::DashLine));
  p.setBrush(Qt::NoBrush);
  p.drawEllipse(editor_->toScreen(centre), 12, 12);
  if (press_) paintPress(p, (press_->centre - centre).norm() / 5);
}

}  // namespace articula
