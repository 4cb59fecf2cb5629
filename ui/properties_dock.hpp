#pragma once
// Properties of the selection (the mechanism when nothing is selected): an editor on top
// (ui/edit_panel.hpp: every change is one undo command), and below it the read-only summary with
// the joint's live values at the displayed instant.
#include <QDockWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace articula {

class Document;
class EditPanel;
class SimulationController;
struct Snapshot;

class PropertiesDock : public QDockWidget {
  Q_OBJECT

 public:
  PropertiesDock(Document* document, SimulationController* controller, QWidget* parent = nullptr);
  EditPanel* editor() const { return editor_; }

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
  EditPanel* editor_ = nullptr;
  QTreeWidgetItem* live_ = nullptr;  // the joint's "At t = …" section
  qint64 last_live_ms_ = 0;
};

}  // namespace articula
