#include "ui/event_marks.hpp"

#include <QGraphicsPathItem>
#include <QPainterPath>
#include <QPen>
#include <algorithm>
#include <cmath>

#include "ui/text_format.hpp"

namespace articula {

QColor eventColor(const std::string& kind) {
  if (kind == "impact") return {200, 40, 40};
  if (kind == "lift_off") return {40, 110, 200};
  if (kind == "stick") return {30, 150, 70};
  if (kind == "slip") return {220, 140, 20};
  return {140, 70, 170};  // engage, release
}

QString eventText(const Simulation::ContactEvent& e) {
  QString kind = QString::fromStdString(e.kind);
  kind.replace('_', '-');
  QString text = QStringLiteral("%1 of %2 at t = %3 s")
                     .arg(kind, QString::fromStdString(e.name))
                     .arg(e.t, 0, 'f', 6);
  if (e.impulse != 0.0)
    text += QStringLiteral(", impulse %1").arg(engineering(e.impulse, "N·s", 3));
  return text;
}

const Simulation::ContactEvent* eventNear(const ContactEvents& events, double t, double tolerance) {
  auto it = std::lower_bound(events.begin(), events.end(), t,
                             [](const Simulation::ContactEvent& e, double t) { return e.t < t; });
  const Simulation::ContactEvent* best = nullptr;
  for (auto c : {it, it == events.begin() ? it : std::prev(it)}) {
    if (c == events.end() || std::abs(c->t - t) > tolerance) continue;
    if (!best || std::abs(c->t - t) < std::abs(best->t - t)) best = &*c;
  }
  return best;
}

ChartEventMarks::ChartEventMarks(QGraphicsItem* parent) : parent_(parent) {}

void ChartEventMarks::update(const ContactEvents* events, const QRectF& area, double t0, double t1,
                             const std::function<double(double)>& x_of) {
  const Key key{events, events ? events->size() : 0, area, t0, t1};
  if (key == built_ && !paths_.empty()) return;
  built_ = key;
  std::vector<QPainterPath> paths(paths_.size());
  drawn_ = 0;
  if (events && t1 > t0) {
    for (const Simulation::ContactEvent& e : *events) {
      if (e.t < t0 || e.t > t1) continue;
      auto k =
          std::find_if(paths_.begin(), paths_.end(), [&](auto& p) { return p.first == e.kind; });
      if (k == paths_.end()) {  // a kind not met before: its own pen
        auto* item = new QGraphicsPathItem(parent_);
        QColor c = eventColor(e.kind);
        c.setAlpha(150);
        item->setPen(QPen(c, 1.0));
        item->setZValue(-1);  // under the curves
        paths_.emplace_back(e.kind, item);
        paths.emplace_back();
        k = std::prev(paths_.end());
      }
      const double x = x_of(e.t);
      QPainterPath& p = paths[k - paths_.begin()];
      p.moveTo(x, area.top());
      p.lineTo(x, area.bottom());
      ++drawn_;
    }
  }
  for (std::size_t i = 0; i < paths_.size(); ++i) paths_[i].second->setPath(paths[i]);
}

}  // namespace articula
