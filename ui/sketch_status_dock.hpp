#pragma once
// Status while sketching: degrees of freedom (by rank and by Grübler), loops, redundant
// constraints, joints that are unconstrained (move with every drive held), locked or
// over-constrained, links not connected to ground, and why a sketch cannot be assembled.
// Updated from Document::statusChanged (never polled).
#include <QDockWidget>

class QLabel;

namespace articula {

class Document;

class SketchStatusDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit SketchStatusDock(Document* document, QWidget* parent = nullptr);
  QString text() const;  // plain text of what is shown (tests)

 private:
  void refresh();

  Document* document_;
  QLabel* label_;
};

}  // namespace articula
