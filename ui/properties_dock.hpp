#pragma once
// Read-only properties of the selection (the mechanism when nothing is selected): inertial data
// of a body; type, bodies, frames, initial values, drive and spring of a joint, plus its live
// values at the displayed instant. Editing arrives with sketching.
#include <QDockWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace articula {

class Document;
class SimulationController;
struct Snapshot;

class PropertiesDock : public QDockWidget {
  Q_OBJECT

 public:
  PropertiesDock(Document* document, SimulationController* controller, QWidget* parent = nullptr);

 private:
  void rebuild();
  void showMechanism();
  void showBody(int body);
  void showJoint(int joint);
  void updateLive(const Snapshot& s);
  QTreeWidgetItem* section(const QString& title);
  QTreeWidgetItem* row(QTreeWidgetItem* parent, const QString& name, const QString& value);

  Document* document_;
  SimulationController* controller_;
  QTreeWidget* tree_;
  QTreeWidgetItem* live_ = nullptr;  // the joint's "At t = …" section
  qint64 last_live_ms_ = 0;
};

}  // namespace articula
