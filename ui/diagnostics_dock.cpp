#include "ui/diagnostics_dock.hpp"

#include <QApplication>
#include <QHeaderView>
#include <QStyle>
#include <QTime>
#include <QTreeWidget>

#include "core/sim/mechanism.hpp"
#include "ui/document.hpp"
#include "ui/text_format.hpp"

namespace articula {

namespace {

QIcon severityIcon(DiagnosticsDock::Severity s) {
  using S = DiagnosticsDock::Severity;
  const QStyle::StandardPixmap p = s == S::Error     ? QStyle::SP_MessageBoxCritical
                                   : s == S::Warning ? QStyle::SP_MessageBoxWarning
                                                     : QStyle::SP_MessageBoxInformation;
  return QApplication::style()->standardIcon(p);
}

}  // namespace

DiagnosticsDock::DiagnosticsDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Diagnostics"), parent), document_(document), tree_(new QTreeWidget(this)) {
  setObjectName("DiagnosticsDock");
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Item"), tr("Value")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->setUniformRowHeights(true);
  tree_->setRootIsDecorated(false);
  tree_->setWordWrap(false);
  setWidget(tree_);
  connect(document_, &Document::documentChanged, this, &DiagnosticsDock::rebuild);
  connect(document_, &Document::namesChanged, this, &DiagnosticsDock::rebuild);
  rebuild();
}

QTreeWidgetItem* DiagnosticsDock::section(const QString& title) {
  auto* item = new QTreeWidgetItem(tree_, {title});
  QFont f = item->font(0);
  f.setBold(true);
  item->setFont(0, f);
  item->setFirstColumnSpanned(true);
  return item;
}

QTreeWidgetItem* DiagnosticsDock::row(QTreeWidgetItem* parent, const QString& name,
                                      const QString& value, Severity severity) {
  auto* item = new QTreeWidgetItem(parent, {name, value});
  if (severity != Severity::Info) item->setIcon(0, severityIcon(severity));
  item->setToolTip(0, name);
  item->setToolTip(1, value);
  return item;
}

void DiagnosticsDock::rebuild() {
  tree_->clear();
  const Mechanism* m = document_->mechanism().get();
  if (!m) whyNotSimulated();
  if (m) {
    const MobilityReport& r = m->mobility;
    QTreeWidgetItem* mob = section(tr("Mobility"));
    row(mob, tr("Degrees of freedom"), QString::number(r.mobility));
    row(mob, tr("Drives"),
        tr("%1 (leaving %2 free)")
            .arg(m->drives.size())
            .arg(r.mobility - static_cast<int>(m->drives.size())));
    row(mob, m->planar ? tr("Grübler (planar)") : tr("Kutzbach (spatial)"),
        QString::number(m->gruebler));
    row(mob, tr("Tree coordinates"), QString::number(r.coordinates));
    row(mob, tr("Constraint rows / rank"),
        QStringLiteral("%1 / %2").arg(r.constraint_rows).arg(r.rank));
    const auto redundant = m->redundant_joints();
    row(mob, tr("Redundant constraints"), QString::number(r.redundant),
        r.redundant > 0 && !m->planar ? Severity::Warning : Severity::Info);
    for (const auto& [joint, rows] : redundant)
      row(mob, tr("    at joint %1").arg(QString::fromStdString(joint)),
          tr("%n row(s)", nullptr, rows));
    QTreeWidgetItem* as = section(tr("Assembly"));
    const AssemblyResult& a = m->assembly;
    row(as, tr("Converged"), a.converged ? tr("yes") : tr("no"),
        a.converged ? Severity::Info : Severity::Error);
    row(as, tr("Residual (max |δ|)"), QString::number(a.residual, 'g', 3),
        a.residual > 1e-9 ? Severity::Warning : Severity::Info);
    row(as, tr("Iterations"), QString::number(a.iterations));
  }
  if (!document_->warnings().isEmpty()) {
    QTreeWidgetItem* load = section(tr("File"));
    for (const QString& w : document_->warnings()) row(load, w, QString(), Severity::Warning);
  }
  messages_ = section(tr("Messages"));
  tree_->expandAll();
}

// Without a whole mechanism: why, persistently (the status bar forgets), and what runs instead.
void DiagnosticsDock::whyNotSimulated() {
  const SketchStatus& st = document_->status();
  if (st.bodies == 0) return;
  QTreeWidgetItem* s = section(tr("Mechanism"));
  if (!st.problem.empty())
    row(s, tr("Cannot be simulated"), QString::fromStdString(st.problem), Severity::Error);
  if (!st.disconnected.empty()) {
    QTreeWidgetItem* r =
        row(s, tr("Not connected to ground"), cappedList(st.disconnected), Severity::Warning);
    r->setToolTip(1, cappedList(st.disconnected, int(st.disconnected.size())));
  }
  if (const auto sim = document_->simulated())
    row(s, tr("Simulated"),
        tr("the part connected to ground: %n bodies", nullptr,
           static_cast<int>(sim->spec.bodies.size())));
}

void DiagnosticsDock::addMessage(Severity severity, const QString& text) {
  auto* item = row(messages_, QTime::currentTime().toString("HH:mm:ss"), text, severity);
  messages_->setExpanded(true);
  tree_->scrollToItem(item);
  if (severity == Severity::Error) {
    show();
    raise();
  }
}

int DiagnosticsDock::messageCount() const {
  return messages_->childCount();
}

QString DiagnosticsDock::messageText(int i) const {
  return messages_->child(i)->text(1);
}

}  // namespace articula
