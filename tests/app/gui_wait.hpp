#pragma once
// Waiting in GUI tests: run the event loop until a condition holds (shared by every GUI test
// executable; gui_support.hpp adds what needs the source and build folders).
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

namespace articula::gui_test {

// Runs the event loop until pred() holds or timeout_ms passes.
template <class Pred>
bool waitFor(Pred pred, int timeout_ms) {
  QElapsedTimer t;
  t.start();
  while (!pred()) {
    if (t.elapsed() > timeout_ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return true;
}

inline void settle(int ms) {
  waitFor([] { return false; }, ms);
}

}  // namespace articula::gui_test
