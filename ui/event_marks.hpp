#pragma once
// Contact events (impacts, lift-offs, stick, slip, engage, release) as marks on a time axis: one
// colour per kind, a line of text naming each, and the marks a chart draws over its plot area.
#include <QColor>
#include <QRectF>
#include <QString>
#include <functional>
#include <string>
#include <vector>

#include "core/sim/simulation.hpp"

class QGraphicsItem;
class QGraphicsPathItem;

namespace articula {

using ContactEvents = std::vector<Simulation::ContactEvent>;

QColor eventColor(const std::string& kind);
// "impact of floor at t = 0.451 s, impulse 0.31 N·s" (the impulse only where one was applied).
QString eventText(const Simulation::ContactEvent& e);
// The event closest to t within `tolerance` seconds, or null (events in time order).
const Simulation::ContactEvent* eventNear(const ContactEvents& events, double t, double tolerance);

// Thin vertical lines at the events between t0 and t1 over a chart's plot area; one path per
// kind, so a run with thousands of events stays a handful of items.
class ChartEventMarks {
 public:
  explicit ChartEventMarks(QGraphicsItem* parent);
  // x_of maps a time to the chart's x (scene) coordinate.
  void update(const ContactEvents* events, const QRectF& area, double t0, double t1,
              const std::function<double(double)>& x_of);
  int drawn() const { return drawn_; }  // events drawn at the last update (tests)

 private:
  QGraphicsItem* parent_;
  // What the paths were built for: a scrubbed cursor redraws the chart without new events or a
  // new time window, and the paths then stand as they are.
  struct Key {
    const ContactEvents* events = nullptr;
    std::size_t count = 0;
    QRectF area;
    double t0 = 0, t1 = 0;
    bool operator==(const Key&) const = default;
  } built_;
  std::vector<std::pair<std::string, QGraphicsPathItem*>> paths_;  // per kind met so far
  int drawn_ = 0;
};

}  // namespace articula
