#include "ui/sketch_status_dock.hpp"

#include <QLabel>
#include <QScrollArea>
#include <QTextDocument>

#include "ui/document.hpp"

namespace articula {

namespace {
QString names(const std::vector<std::string>& v) {
  QStringList out;
  for (const std::string& s : v) out << QString::fromStdString(s).toHtmlEscaped();
  return out.join(", ");
}

QString row(const QString& name, const QString& value, const QString& color = {}) {
  const QString v = color.isEmpty()
                        ? value
                        : QStringLiteral("<span style='color:%1'>%2</span>").arg(color, value);
  return QStringLiteral("<tr><td style='padding-right:10px'>%1</td><td><b>%2</b></td></tr>")
      .arg(name, v);
}
}  // namespace

SketchStatusDock::SketchStatusDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Sketch status"), parent), document_(document), label_(new QLabel(this)) {
  setObjectName("SketchStatusDock");
  label_->setTextFormat(Qt::RichText);
  label_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  label_->setWordWrap(true);
  label_->setMargin(6);
  label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(label_);
  scroll->setWidgetResizable(true);
  setWidget(scroll);
  connect(document_, &Document::statusChanged, this, &SketchStatusDock::refresh);
  refresh();
}

QString SketchStatusDock::text() const {
  QTextDocument doc;
  doc.setHtml(label_->text());
  return doc.toPlainText();
}

void SketchStatusDock::refresh() {
  const SketchStatus& s = document_->status();
  QString html = "<table>";
  html += row(tr("Bodies / joints / drives"),
              tr("%1 / %2 / %3").arg(s.bodies).arg(s.joints).arg(s.drives));
  if (s.bodies > 0 && s.problem.empty()) {
    const QString dof_color = s.dof == 0 ? "#b00000" : QString();
    html += row(tr("Degrees of freedom"), tr("%1 DOF (by rank)").arg(s.dof), dof_color);
    html += row(tr("Grübler count"),
                QString::number(s.gruebler) + (s.planar ? tr(" (planar)") : tr(" (spatial)")));
    html += row(tr("Loops"), QString::number(s.loops));
    html +=
        row(tr("Redundant constraints"),
            s.planar ? tr("%1 in the plane").arg(s.planar_redundant) : QString::number(s.redundant),
            s.planar_redundant > 0 ? "#b35900" : QString());
    html += row(tr("Free with drives held"),
                s.free_dof == 0 ? tr("none: fully driven") : tr("%1 DOF").arg(s.free_dof),
                s.drives > 0 && s.free_dof > 0 ? "#b35900" : QString());
    if (!s.unconstrained.empty()) html += row(tr("Unconstrained joints"), names(s.unconstrained));
    if (!s.locked.empty()) html += row(tr("Locked joints"), names(s.locked), "#b00000");
    QStringList over;
    for (const auto& [n, rows] : s.redundant_joints)
      over << tr("%1 (%2 rows)").arg(QString::fromStdString(n)).arg(rows);
    if (!over.isEmpty()) html += row(tr("Over-constrained joints"), over.join(", "), "#b35900");
  }
  if (!s.disconnected.empty())
    html += row(tr("Not connected to ground"), names(s.disconnected), "#b00000");
  if (!s.problem.empty())
    html +=
        row(tr("Cannot assemble"), QString::fromStdString(s.problem).toHtmlEscaped(), "#b00000");
  html += "</table>";
  html += "<p>" + QString::fromStdString(s.summary()).toHtmlEscaped() + "</p>";
  label_->setText(html);
}

}  // namespace articula
