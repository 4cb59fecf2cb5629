#include "ui/time_slider.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QStyleOptionSlider>
#include <QToolTip>
#include <cmath>

namespace articula {

TimeSlider::TimeSlider(QWidget* parent) : QSlider(Qt::Horizontal, parent) {
  setMinimumHeight(22);  // room for the marks above and below the groove
}

void TimeSlider::setEvents(const ContactEvents* events) {
  events_ = events;
  update();
}

void TimeSlider::setSpan(double end) {
  // Repaint when the marks would move by a pixel or more (the span grows while running).
  if (events_ && !events_->empty() && std::abs(end - end_) * width() > 0.5 * std::max(end, 1e-12))
    update();
  end_ = end;
}

QRect TimeSlider::groove() const {
  QStyleOptionSlider opt;
  initStyleOption(&opt);
  return style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, this);
}

int TimeSlider::handleLength() const {
  QStyleOptionSlider opt;
  initStyleOption(&opt);
  return style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, this).width();
}

// The handle's centre runs over the groove less half a handle at each end.
int TimeSlider::xOfTime(double t) const {
  const QRect g = groove();
  const int h = handleLength();
  const double f = end_ > 0 ? std::clamp(t / end_, 0.0, 1.0) : 0.0;
  return g.left() + h / 2 + static_cast<int>(std::lround(f * (g.width() - h)));
}

void TimeSlider::paintEvent(QPaintEvent* event) {
  QSlider::paintEvent(event);
  if (!events_ || events_->empty() || end_ <= 0) return;
  QPainter p(this);
  const int tick = std::max(3, height() / 5);
  int last_x = -1;
  std::string last_kind;
  for (const Simulation::ContactEvent& e : *events_) {
    const int x = xOfTime(e.t);
    if (x == last_x && e.kind == last_kind) continue;  // thousands of events: one line per pixel
    last_x = x, last_kind = e.kind;
    p.setPen(QPen(eventColor(e.kind), 2));
    p.drawLine(x, 0, x, tick);
    p.drawLine(x, height() - tick, x, height());
  }
}

bool TimeSlider::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip && events_ && end_ > 0) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QRect g = groove();
    const double per_pixel = end_ / std::max(1, g.width() - handleLength());
    const double t = (help->pos().x() - g.left() - handleLength() / 2) * per_pixel;
    if (const Simulation::ContactEvent* e = eventNear(*events_, t, 3 * per_pixel)) {
      QToolTip::showText(help->globalPos(), eventText(*e), this);
      return true;
    }
  }
  return QSlider::event(event);
}

}  // namespace articula
