#pragma once
// The model tree: bodies, joints (spanning tree), loop joints and drives of the open mechanism.
// Selecting an item selects it in the document (and so in the viewport); the document's selection
// changes (e.g. picking in the viewport) select the item here. Right-click plots a channel.
#include <QDockWidget>

#include "ui/channel.hpp"

class QTreeWidget;
class QTreeWidgetItem;

namespace articula {

class Document;
struct Selection;
struct MechanismSpec;

class ModelTreeDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit ModelTreeDock(Document* document, QWidget* parent = nullptr);
  QTreeWidget* tree() const { return tree_; }

 signals:
  void plotRequested(const articula::Channel& channel, bool newPlot);
  void driveChangeRequested(int joint);

 private:
  void rebuild();
  void showSelection(const Selection& s);
  void onCurrentItemChanged(QTreeWidgetItem* item);
  void showContextMenu(const QPoint& pos);
  void onDoubleClicked(QTreeWidgetItem* item);
  QTreeWidgetItem* addGroup(const QString& title, int count);
  void addContacts(const MechanismSpec& spec);

  Document* document_;
  QTreeWidget* tree_;
  bool syncing_ = false;
};

}  // namespace articula
