#pragma once
// Status while sketching: degrees of freedom (by rank and by Grübler), loops, redundant
// constraints, joints that are unconstrained (move with every drive held), locked or
// over-constrained, links not connected to ground, and why a sketch cannot be assembled.
// Updated from Document::statusChanged (never polled). Long lists show 8 names and "… and N more",
// a link to a dialog with all of them (also in the tooltip).
#include <QDockWidget>
#include <string>
#include <vector>

class QLabel;

namespace articula {

class Document;

class SketchStatusDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit SketchStatusDock(Document* document, QWidget* parent = nullptr);
  QString text() const;         // plain text of what is shown (tests)
  QString toolTipText() const;  // the full lists behind the capped ones

 private:
  void refresh();
  std::vector<std::string> fullList(const QString& what) const;
  void showList(const QString& what);

  Document* document_;
  QLabel* label_;
};

}  // namespace articula
