#include "ui/identification_dock.hpp"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/doc/parameter_edit.hpp"
#include "core/io/project.hpp"
#include "ui/dock_scroll.hpp"
#include "ui/document.hpp"
#include "ui/estimation_dock.hpp"
#include "ui/estimation_run.hpp"

namespace articula {

namespace {
enum ParameterColumn { kPointer, kInProject, kIdentified, kSigma, kParameterColumns };

QTableWidgetItem* readOnly(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(item->flags() & ~Qt::ItemIsEditable);
  return item;
}

QToolButton* button(QAction* action) {
  auto* b = new QToolButton;
  b->setDefaultAction(action);
  return b;
}
}  // namespace

IdentificationDock::IdentificationDock(Document* document, EstimationDock* estimation,
                                       QWidget* parent)
    : QDockWidget(tr("Identification"), parent),
      document_(document),
      estimation_(estimation),
      logs_(new QListWidget),
      table_(new QTableWidget(0, kParameterColumns)),
      status_(new QLabel) {
  setObjectName("identification_dock");
  identify_action_ = new QAction(tr("&Identify Parameters"), this);
  identify_action_->setObjectName("action_identify");
  apply_action_ = new QAction(tr("&Apply Identified Parameters"), this);
  apply_action_->setObjectName("action_apply_identified");
  add_action_ = new QAction(tr("Add Parameter"), this);
  add_action_->setObjectName("action_add_identified_parameter");
  add_action_->setToolTip(tr("Add a row: a number of the project by JSON pointer"));
  remove_action_ = new QAction(tr("Remove Parameter"), this);
  remove_action_->setObjectName("action_remove_identified_parameter");
  connect(identify_action_, &QAction::triggered, this, &IdentificationDock::identify);
  connect(apply_action_, &QAction::triggered, this, &IdentificationDock::apply);
  connect(add_action_, &QAction::triggered, this,
          [this] { setParameters(parameters() << QStringLiteral("/bodies/0/mass")); });
  connect(remove_action_, &QAction::triggered, this, [this] {
    if (table_->currentRow() >= 0) table_->removeRow(table_->currentRow());
    clearResult();
  });
  table_->setHorizontalHeaderLabels(
      {tr("Parameter (JSON pointer)"), tr("In project"), tr("Identified"), tr("σ")});
  table_->horizontalHeader()->setSectionResizeMode(kPointer, QHeaderView::Stretch);
  table_->verticalHeader()->hide();
  connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
    if (item->column() == kPointer && !run_) showValues();
  });
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* row = new QHBoxLayout;
  for (QAction* a : {add_action_, remove_action_, identify_action_, apply_action_})
    row->addWidget(button(a));
  row->addWidget(status_, 1);
  layout->addLayout(row);
  layout->addWidget(table_, 1);
  layout->addWidget(makeLogs());
  setWidget(shrinkable(body));
  connect(document_, &Document::documentChanged, this, [this] {
    readLogsAgain();
    onProjectChanged();
  });
  connect(estimation_, &EstimationDock::logChanged, this, &IdentificationDock::onProjectChanged);
  updateActions();
}

// The logs identify reads, headed by what they are: the log imported for estimation (File >
// Import Sensor Log…), then any added here (Add Another Log…, Remove Selected Log).
QWidget* IdentificationDock::makeLogs() {
  add_log_action_ = new QAction(tr("Add Another Log…"), this);
  add_log_action_->setObjectName("action_add_identification_log");
  add_log_action_->setToolTip(tr("Identify from a further log of the same mechanism too"));
  remove_log_action_ = new QAction(tr("Remove Selected Log"), this);
  remove_log_action_->setToolTip(tr("Identify without the selected added log"));
  remove_log_action_->setObjectName("action_remove_identification_log");
  connect(add_log_action_, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Add a sensor log"), QString(),
                                                      tr("Sensor logs (*.csv);;All files (*)"));
    if (!path.isEmpty() && !addLog(path)) emit problem(tr("Cannot add the log: %1").arg(error_));
  });
  connect(remove_log_action_, &QAction::triggered, this,
          [this] { removeLog(logs_->currentRow() - 1); });
  logs_->setObjectName("identification_logs");
  logs_->setMaximumHeight(logs_->fontMetrics().height() * 5);
  connect(logs_, &QListWidget::currentRowChanged, this, &IdentificationDock::updateActions);
  auto* box = new QWidget;
  auto* column = new QVBoxLayout(box);
  column->setContentsMargins(0, 0, 0, 0);
  auto* heading =
      new QLabel(tr("Logs identified together (parameters shared, each its own motion):"));
  heading->setObjectName("identification_logs_heading");
  heading->setWordWrap(true);
  column->addWidget(heading);
  auto* row = new QHBoxLayout;
  column->addLayout(row);
  auto* buttons = new QVBoxLayout;
  buttons->addWidget(button(add_log_action_));
  buttons->addWidget(button(remove_log_action_));
  buttons->addStretch(1);
  row->addWidget(logs_, 1);
  row->addLayout(buttons);
  showLogs();
  return box;
}

bool IdentificationDock::addLog(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    error_ = tr("cannot read %1: %2").arg(path, file.errorString());
    return false;
  }
  AddedLog added{QFileInfo(path).fileName(), file.readAll().toStdString(), {}};
  const std::unique_ptr<MeasurementLog> log = estimation_->read(added.text, added.name, error_);
  if (!log) return false;
  added.log = *log;
  added_.push_back(std::move(added));
  error_.clear();
  emit info(tr("Identification log %1 added: %2 rows").arg(path).arg(added_.back().log.t.size()));
  clearResult();
  showLogs();
  return true;
}

void IdentificationDock::removeLog(int index) {
  if (run_ || index < 0 || index >= static_cast<int>(added_.size())) return;
  added_.erase(added_.begin() + index);
  clearResult();
  showLogs();
}

int IdentificationDock::logCount() const {
  return (estimation_->log() ? 1 : 0) + static_cast<int>(added_.size());
}

void IdentificationDock::showLogs() {
  const int current = logs_->currentRow();
  logs_->clear();
  const MeasurementLog* first = estimation_->log();
  logs_->addItem(first ? tr("%1: %2 rows (the imported sensor log, also estimated)")
                             .arg(estimation_->logName())
                             .arg(first->t.size())
                       : tr("No sensor log imported yet: File > Import Sensor Log…"));
  for (const AddedLog& a : added_)
    logs_->addItem(tr("%1: %2 rows").arg(a.name).arg(a.log.t.size()));
  logs_->setCurrentRow(std::min(current, logs_->count() - 1));
}

// The added logs against the changed project; one that no longer fits is dropped and said.
void IdentificationDock::readLogsAgain() {
  for (std::size_t i = 0; i < added_.size();) {
    QString error;
    const std::unique_ptr<MeasurementLog> log =
        estimation_->read(added_[i].text, added_[i].name, error);
    if (log) {
      added_[i++].log = *log;
      continue;
    }
    emit problem(
        tr("Identification log %1 no longer fits the project: %2").arg(added_[i].name, error));
    added_.erase(added_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

IdentificationDock::~IdentificationDock() = default;  // a running EstimationRun stops and waits

QStringList IdentificationDock::parameters() const {
  QStringList out;
  for (int r = 0; r < table_->rowCount(); ++r)
    out << (table_->item(r, kPointer) ? table_->item(r, kPointer)->text().trimmed() : QString());
  return out;
}

void IdentificationDock::setParameters(const QStringList& pointers) {
  const QSignalBlocker block(table_);
  table_->setRowCount(static_cast<int>(pointers.size()));
  for (int r = 0; r < table_->rowCount(); ++r)
    table_->setItem(r, kPointer, new QTableWidgetItem(pointers[r]));
  clearResult();
}

// Column "In project": the number each pointer names now (or why there is none).
void IdentificationDock::showValues() {
  const QSignalBlocker block(table_);
  const nlohmann::json doc = to_json(document_->spec());
  const QStringList pointers = parameters();
  for (int r = 0; r < table_->rowCount(); ++r) {
    QString text = tr("(no number here)");
    try {
      const nlohmann::json::json_pointer p(pointers[r].toStdString());
      if (doc.contains(p) && doc.at(p).is_number())
        text = QString::number(doc.at(p).get<double>(), 'g', 6);
    } catch (const nlohmann::json::exception&) {
      text = tr("(not a JSON pointer)");
    }
    table_->setItem(r, kInProject, readOnly(text));
    table_->setItem(r, kIdentified,
                    readOnly(hasResult() ? QString::number(values_[r], 'g', 6) : QString()));
    table_->setItem(r, kSigma,
                    readOnly(hasResult() ? QString::number(sigmas_[r], 'g', 3) : QString()));
  }
}

void IdentificationDock::identify() {
  const MeasurementLog* log = estimation_->log();
  if (run_ || !log || !document_->mechanism() || table_->rowCount() == 0) return;
  clearResult();
  std::vector<std::string> pointers;
  for (const QString& p : parameters()) pointers.push_back(p.toStdString());
  run_ = new EstimationRun(document_->mechanism(), *log, estimation_->options(), 0, this,
                           std::move(pointers));
  std::vector<MeasurementLog> more;
  for (const AddedLog& a : added_) more.push_back(a.log);
  run_->setMoreLogs(std::move(more));
  connect(run_, &EstimationRun::finished, this, &IdentificationDock::onFinished);
  run_->start();
  status_->setText(tr("identifying from %n log(s)…", nullptr, logCount()));
  updateActions();
}

void IdentificationDock::onFinished() {
  EstimationRun* run = run_;
  run_ = nullptr;
  const bool ok = run->error().isEmpty();
  if (ok) {
    values_ = run->result().parameters;
    sigmas_ = run->result().parameter_sigma;
    status_->setText(tr("%1 logs, %2 iterations, %3 s")
                         .arg(logCount())
                         .arg(run->result().iterations)
                         .arg(run->result().seconds, 0, 'f', 2));
    emit info(tr("Identified %1 parameters: %2").arg(values_.size()).arg(status_->text()));
  } else {
    status_->setText(tr("failed: see Diagnostics"));
    emit problem(tr("Identification failed: %1").arg(run->error()));
  }
  run->deleteLater();
  showValues();
  updateActions();
  emit identifyFinished(ok);
}

bool IdentificationDock::apply() {
  if (!hasResult()) return false;
  std::vector<std::string> pointers;
  for (const QString& p : parameters()) pointers.push_back(p.toStdString());
  try {
    Edit edit = set_numbers(document_->editable(), pointers, values_,
                            tr("Apply identified parameters").toStdString());
    // A property edit of the mechanism; the commands never merge, so each Apply is one step.
    if (!document_->push(std::move(edit), EditKind::MechanismProperties)) {
      error_ = document_->error();
      return false;
    }
  } catch (const std::exception& e) {
    error_ = QString::fromStdString(e.what());
    emit problem(tr("Cannot apply the identified parameters: %1").arg(error_));
    return false;
  }
  emit info(tr("Applied %1 identified parameters (Edit > Undo reverts them)").arg(pointers.size()));
  return true;
}

// Identified values belong to the old project (or log): dropped; a running identification is
// abandoned (it stops at its next iteration and deletes itself).
void IdentificationDock::onProjectChanged() {
  if (run_) {
    disconnect(run_, nullptr, this, nullptr);
    run_->cancel();
    connect(run_, &EstimationRun::finished, run_, &QObject::deleteLater);
    run_ = nullptr;
    status_->setText(tr("the project changed: identify again"));
  }
  clearResult();
}

void IdentificationDock::clearResult() {
  values_.clear();
  sigmas_.clear();
  showValues();
  showLogs();
  updateActions();
}

void IdentificationDock::updateActions() {
  const bool ready = estimation_->log() && document_->mechanism() && !run_;
  identify_action_->setEnabled(ready && table_->rowCount() > 0);
  apply_action_->setEnabled(hasResult() && !run_);
  add_action_->setEnabled(!run_);
  remove_action_->setEnabled(!run_);
  add_log_action_->setEnabled(!run_ && document_->mechanism());
  remove_log_action_->setEnabled(!run_ && logs_->currentRow() >= 1);  // not the Estimation dock's
}

}  // namespace articula
