#pragma once
// Diagnostics of the open mechanism: mobility (by rank and by the Grübler-Kutzbach count),
// redundant constraints by joint, the assembly residual, loader warnings, and the messages of the
// simulation (errors stop the run and appear here with their time).
#include <QDockWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace articula {

class Document;

class DiagnosticsDock : public QDockWidget {
  Q_OBJECT

 public:
  enum class Severity { Info, Warning, Error };

  explicit DiagnosticsDock(Document* document, QWidget* parent = nullptr);

  void addMessage(Severity severity, const QString& text);
  int messageCount() const;
  QString messageText(int i) const;

 private:
  void rebuild();
  void whyNotSimulated();
  QTreeWidgetItem* section(const QString& title);
  QTreeWidgetItem* row(QTreeWidgetItem* parent, const QString& name, const QString& value,
                       Severity severity = Severity::Info);

  Document* document_;
  QTreeWidget* tree_;
  QTreeWidgetItem* messages_ = nullptr;
};

}  // namespace articula
