#include "ui/sketch_status_dock.hpp"

#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QTextDocument>

#include "ui/document.hpp"
#include "ui/text_format.hpp"

namespace articula {

namespace {
// At most 8 names (a 220-body mechanism has 180 unconstrained joints); "… and N more" is a
// link to the whole list.
QString names(const std::vector<std::string>& v, const QString& what) {
  QStringList out;
  for (const std::string& s : v) out << QString::fromStdString(s).toHtmlEscaped();
  const QString capped = cappedList(out);
  if (capped.size() == out.join(", ").size()) return capped;
  const qsizetype more = capped.lastIndexOf(QStringLiteral("… "));
  return capped.left(more) + QStringLiteral("<a href='%1'>%2</a>")
                                 .arg(what.toHtmlEscaped(), capped.mid(more).toHtmlEscaped());
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
  connect(label_, &QLabel::linkActivated, this, &SketchStatusDock::showList);
  refresh();
}

QString SketchStatusDock::text() const {
  QTextDocument doc;
  doc.setHtml(label_->text());
  return doc.toPlainText();
}

std::vector<std::string> SketchStatusDock::fullList(const QString& what) const {
  const SketchStatus& s = document_->status();
  if (what == tr("Unconstrained joints")) return s.unconstrained;
  if (what == tr("Locked joints")) return s.locked;
  if (what == tr("Not connected to ground")) return s.disconnected;
  return {};
}

void SketchStatusDock::showList(const QString& what) {
  QStringList all;
  for (const std::string& n : fullList(what)) all << QString::fromStdString(n);
  auto* box = new QMessageBox(QMessageBox::Information, what,
                              tr("%1 (%2):").arg(what).arg(all.size()), QMessageBox::Close, this);
  box->setDetailedText(all.join("\n"));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

QString SketchStatusDock::toolTipText() const {
  return label_->toolTip();
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
    if (s.details_pending)  // a large mechanism's joint lists come from a worker thread
      html += row(tr("Free with drives held"), tr("analysing the joints…"));
    else
      html += row(tr("Free with drives held"),
                  s.free_dof == 0 ? tr("none: fully driven") : tr("%1 DOF").arg(s.free_dof),
                  s.drives > 0 && s.free_dof > 0 ? "#b35900" : QString());
    if (!s.unconstrained.empty())
      html += row(tr("Unconstrained joints"), names(s.unconstrained, tr("Unconstrained joints")));
    if (!s.locked.empty())
      html += row(tr("Locked joints"), names(s.locked, tr("Locked joints")), "#b00000");
    QStringList over;
    for (const auto& [n, rows] : s.redundant_joints)
      over << tr("%1 (%2 rows)").arg(QString::fromStdString(n)).arg(rows);
    if (!over.isEmpty())
      html += row(tr("Over-constrained joints"), cappedList(over).toHtmlEscaped(), "#b35900");
  }
  if (!s.disconnected.empty())
    html += row(tr("Not connected to ground"), names(s.disconnected, tr("Not connected to ground")),
                "#b00000");
  if (!s.problem.empty())
    html +=
        row(tr("Cannot assemble"), QString::fromStdString(s.problem).toHtmlEscaped(), "#b00000");
  html += "</table>";
  html += "<p>" + QString::fromStdString(s.summary()).toHtmlEscaped() + "</p>";
  label_->setText(html);
  QStringList full;  // every name of the capped lists, in the tooltip
  for (const QString& what :
       {tr("Unconstrained joints"), tr("Locked joints"), tr("Not connected to ground")}) {
    const std::vector<std::string> v = fullList(what);
    if (v.size() <= 9) continue;
    QStringList n;
    for (const std::string& x : v) n << QString::fromStdString(x);
    full << what + ": " + n.join(", ");
  }
  label_->setToolTip(full.join("\n\n"));
}

}  // namespace articula
