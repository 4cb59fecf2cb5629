#include "ui/sketch_draw_tools.hpp"

#include <QKeyEvent>
#include <QPainter>
#include <cmath>

#include "core/doc/sketch_edits.hpp"
#include "ui/sketch_colors.hpp"
#include "ui/sketch_editor.hpp"

namespace articula {

namespace {
const QString kTypedChars = QStringLiteral("0123456789.,-");

// Where a drawn point attaches: the newest body there (a slider block over its ground rail),
// else ground; none off points and links.
std::optional<Attachment> attachmentOf(const SketchSnap& s) {
  if ((s.kind != SketchSnap::Point && s.kind != SketchSnap::Line) || s.owners.empty())
    return std::nullopt;
  int body = -1;
  for (int o : s.owners) body = std::max(body, o);
  return Attachment{body};
}
}  // namespace

QString PointsTool::hint() const {
  if (pending_.empty()) return description();
  return tr(
      "Click the next point, or type length in mm [, angle in °] and press Enter; Esc cancels");
}

void PointsTool::cancel() {
  pending_.clear();
  typed_.clear();
}

void PointsTool::mousePress(const SketchMouse& m) {
  SketchSnap free = m.snap;  // Alt: place the point without pinning it to what is there
  if (m.mods & Qt::AltModifier) free.owners.clear();
  commit(free);
}

void PointsTool::commit(const SketchSnap& s) {
  if (!pending_.empty() && (s.p - pending_.back().p).norm() < kSketchSameM) return;  // dbl click
  pending_.push_back(s);
  typed_.clear();
  if (pending_.size() < needed()) return;
  std::vector<SketchSnap> points;
  points.swap(pending_);
  try {
    finish(points);
  } catch (const std::exception& e) {
    editor_->say(QString::fromStdString(e.what()));
  }
}

std::optional<Vec3> PointsTool::typedPoint() const {
  if (pending_.empty() || typed_.isEmpty()) return std::nullopt;
  const QStringList parts = typed_.split(',');
  bool ok = false;
  const double length = parts[0].toDouble(&ok) / 1000.0;  // typed in millimetres
  if (!ok || length <= 0) return std::nullopt;
  const Vec3 from = pending_.back().p;
  const Vec3 d = editor_->hover().p - from;
  double angle = d.norm() > 0 ? std::atan2(d.y(), d.x()) : 0.0;
  if (parts.size() > 1) {
    angle = parts[1].toDouble(&ok) * M_PI / 180.0;
    if (!ok) return std::nullopt;
  }
  return from + length * Vec3(std::cos(angle), std::sin(angle), 0);
}

bool PointsTool::wantsKey(const QKeyEvent& key) const {
  if (pending_.empty()) return false;
  return (!key.text().isEmpty() && kTypedChars.contains(key.text())) ||
         key.key() == Qt::Key_Backspace || key.key() == Qt::Key_Return ||
         key.key() == Qt::Key_Enter || key.key() == Qt::Key_Escape;
}

bool PointsTool::keyPress(QKeyEvent& event) {
  if (pending_.empty()) return false;
  const QString text = event.text();
  if (event.key() == Qt::Key_Return || event.key() == Qt::Key_Enter) {
    if (const auto p = typedPoint()) commit(editor_->pointAt(*p));  // on a point: attached there
    return true;
  }
  if (event.key() == Qt::Key_Backspace) {
    typed_.chop(1);
    return true;
  }
  if (!text.isEmpty() && kTypedChars.contains(text)) {
    typed_ += text;
    return true;
  }
  return false;
}

void PointsTool::paintOverlay(QPainter& p) const {
  if (pending_.empty()) return;
  const auto typed = typedPoint();
  const Vec3 end = typed ? *typed : editor_->hover().p;
  auto s = [this](const Vec3& w) { return editor_->toScreen(w); };
  p.setPen(QPen(kSketchRubber, 3, Qt::DashLine, Qt::RoundCap));
  p.setBrush(Qt::NoBrush);
  for (std::size_t i = 0; i + 1 < pending_.size(); ++i)
    p.drawLine(s(pending_[i].p), s(pending_[i + 1].p));
  p.drawLine(s(pending_.back().p), s(end));
  for (const SketchSnap& q : pending_) p.drawEllipse(s(q.p), 5, 5);
  const Vec3 d = end - pending_.back().p;
  const QString label = tr("L = %1 mm   θ = %2°")
                            .arg(d.norm() * 1000, 0, 'f', 1)
                            .arg(std::atan2(d.y(), d.x()) * 180 / M_PI, 0, 'f', 1);
  const QPointF at = s(pending_.back().p + 0.5 * d) + QPointF(12, -12);
  QFont f = p.font();
  f.setBold(true);
  p.setFont(f);
  p.setPen(kSketchRubber.darker(130));
  p.drawText(at, label);
  const QString box =
      typed_.isEmpty() ? tr("type length [mm], angle [°], Enter") : tr("⌨ %1▏").arg(typed_);
  p.setPen(typed_.isEmpty() ? QColor(140, 140, 140) : QColor(0, 0, 0));
  p.drawText(at + QPointF(0, 18), box);
}

LinkTool::LinkTool(SketchEditor* editor)
    : LinkTool(editor, SketchToolId::Link, tr("Link"),
               tr("Click the two ends of a new link; ends on existing points are pinned there "
                  "(hold Alt not to pin)"),
               Qt::Key_L) {}

QIcon LinkTool::icon() const {
  return paintedIcon([](QPainter& p) {
    icon_parts::bar(p, {6, 24}, {26, 8});
    icon_parts::pin(p, {6, 24}), icon_parts::pin(p, {26, 8});
  });
}

void LinkTool::finish(const std::vector<SketchSnap>& points) {
  std::vector<Vec3> world;
  std::vector<std::optional<Attachment>> attach;
  for (const SketchSnap& s : points) world.push_back(s.p), attach.push_back(attachmentOf(s));
  Document* doc = editor_->document();
  editor_->push(add_link(doc->editable(), world, attach), EditKind::DrawLink);
}

TernaryTool::TernaryTool(SketchEditor* editor)
    : LinkTool(editor, SketchToolId::Ternary, tr("Ternary link"),
               tr("Click the three corners of a new ternary link"), Qt::Key_T) {}

QIcon TernaryTool::icon() const {
  return paintedIcon([](QPainter& p) {
    QPolygonF tri({QPointF(5, 26), QPointF(27, 26), QPointF(16, 6)});
    p.setPen(QPen(QColor(60, 90, 140), 4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.setBrush(QColor(160, 180, 210));
    p.drawPolygon(tri);
    for (const QPointF& q : tri) icon_parts::pin(p, q);
  });
}

GroundSliderTool::GroundSliderTool(SketchEditor* editor)
    : PointsTool(editor, SketchToolId::GroundSlider, tr("Ground slider"),
                 tr("Click where the slider sits, then a second point giving the direction it "
                    "slides"),
                 Qt::Key_R) {}

QIcon GroundSliderTool::icon() const {
  return paintedIcon([](QPainter& p) {
    p.setPen(QPen(QColor(80, 80, 80), 2));
    p.drawLine(2, 22, 30, 22);
    for (int x = 4; x < 30; x += 5) p.drawLine(x, 27, x + 4, 22);
    p.setPen(QPen(QColor(30, 30, 30), 1.5));
    p.setBrush(QColor(150, 175, 215));
    p.drawRect(QRectF(9, 12, 14, 10));
  });
}

void GroundSliderTool::finish(const std::vector<SketchSnap>& points) {
  Document* doc = editor_->document();
  editor_->push(add_slider(doc->editable(), -1, points[0].p, points[1].p - points[0].p),
                EditKind::Slider);
}

}  // namespace articula
