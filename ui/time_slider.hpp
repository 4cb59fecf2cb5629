#pragma once
// The time slider of the simulation bar, with the run's contact events marked along it (a short
// tick per event in its kind's colour; the tooltip over a tick names the event).
#include <QSlider>

#include "ui/event_marks.hpp"

namespace articula {

class TimeSlider : public QSlider {
  Q_OBJECT

 public:
  explicit TimeSlider(QWidget* parent = nullptr);
  // The events to mark (owned by the caller, who calls update() when they change) and the time
  // at the slider's right end.
  void setEvents(const ContactEvents* events);
  void setSpan(double end);
  double span() const { return end_; }
  int xOfTime(double t) const;  // widget x of time t (tests)

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

 private:
  QRect groove() const;
  int handleLength() const;

  const ContactEvents* events_ = nullptr;
  double end_ = 0.0;
};

}  // namespace articula
