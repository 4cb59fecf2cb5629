#include "ui/estimation_dock.hpp"

#include <QAction>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/estimation/state_space.hpp"
#include "ui/dock_scroll.hpp"
#include "ui/document.hpp"
#include "ui/estimate_chart.hpp"
#include "ui/estimation_run.hpp"

namespace articula {

namespace {
constexpr int kChartColumns = 3;  // charts per row
}  // namespace

EstimationDock::EstimationDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Estimation"), parent), document_(document), poll_(new QTimer(this)) {
  setObjectName("estimation_dock");
  estimate_action_ = new QAction(tr("&Estimate from Sensor Log"), this);
  estimate_action_->setObjectName("action_estimate");
  estimate_action_->setToolTip(tr("Smooth the imported log: motion and unknown drive forces"));
  cancel_action_ = new QAction(tr("Cancel Estimate"), this);
  cancel_action_->setObjectName("action_cancel_estimate");
  connect(estimate_action_, &QAction::triggered, this, &EstimationDock::estimate);
  connect(cancel_action_, &QAction::triggered, this, &EstimationDock::cancel);
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(makeHeader());
  layout->addWidget(makeOptions());
  key_ = new QLabel(estimateChartKey());
  key_->setObjectName("estimate_key");
  key_->setVisible(false);  // with results only
  layout->addWidget(key_);
  auto* charts = new QWidget;
  grid_ = new QGridLayout(charts);
  grid_->setContentsMargins(0, 0, 0, 0);
  for (int c = 0; c < kChartColumns; ++c) grid_->setColumnStretch(c, 1);
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setWidget(charts);
  layout->addWidget(scroll, 1);
  setWidget(shrinkable(body));
  poll_->setInterval(100);
  connect(poll_, &QTimer::timeout, this, &EstimationDock::showProgress);
  connect(document_, &Document::documentChanged, this, &EstimationDock::onProjectChanged);
  connect(document_, &Document::namesChanged, this, &EstimationDock::onProjectChanged);
  updateActions();
}

EstimationDock::~EstimationDock() = default;  // a running EstimationRun (a child) stops and waits

QWidget* EstimationDock::makeHeader() {
  auto* w = new QWidget;
  auto* row = new QHBoxLayout(w);
  row->setContentsMargins(0, 0, 0, 0);
  log_label_ = new QLabel(tr("No sensor log: File > Import Sensor Log…"));
  auto* run = new QToolButton;
  run->setDefaultAction(estimate_action_);
  run->setText(tr("Estimate"));
  auto* stop = new QToolButton;
  stop->setDefaultAction(cancel_action_);
  stop->setText(tr("Cancel"));
  progress_ = new QProgressBar;
  progress_->setMaximumWidth(160);
  progress_->setVisible(false);
  status_ = new QLabel;
  status_->setObjectName("estimation_status");
  row->addWidget(log_label_);
  row->addWidget(run);
  row->addWidget(stop);
  row->addWidget(progress_);
  row->addWidget(status_, 1);
  return w;
}

QWidget* EstimationDock::makeOptions() {
  auto* w = new QWidget;
  auto* row = new QHBoxLayout(w);
  row->setContentsMargins(0, 0, 0, 0);
  method_ = new QComboBox;
  method_->addItems({tr("Batch (whole log)"), tr("Fixed-lag window")});
  window_ = new QSpinBox;
  window_->setRange(2, 100000);
  window_->setValue(50);
  window_->setSuffix(tr(" rows"));
  window_->setEnabled(false);
  connect(method_, &QComboBox::currentIndexChanged, this,
          [this](int i) { window_->setEnabled(i == 1); });
  accel_ = new QDoubleSpinBox;
  accel_->setDecimals(4);
  accel_->setRange(1e-4, 1e4);
  accel_->setValue(EstimatorOptions().accel_sigma);
  accel_->setToolTip(tr("Process noise: white generalized acceleration density per coordinate"));
  force_ = new QDoubleSpinBox;
  force_->setDecimals(4);
  force_->setRange(1e-4, 1e6);
  force_->setValue(EstimatorOptions().force_sigma);
  force_->setToolTip(tr("Random-walk density of the unknown drive forces, N·m or N per √s"));
  loss_ = new QComboBox;
  loss_->addItems({tr("squared"), tr("Huber"), tr("Cauchy")});
  loss_->setToolTip(tr("Robust loss on the sensor residuals (against outliers)"));
  for (auto [label, field] :
       std::initializer_list<std::pair<QString, QWidget*>>{{tr("Method"), method_},
                                                           {{}, window_},
                                                           {tr("σ accel"), accel_},
                                                           {tr("σ force"), force_},
                                                           {tr("Loss"), loss_}}) {
    if (!label.isEmpty()) row->addWidget(new QLabel(label));
    row->addWidget(field);
  }
  row->addStretch(1);
  return w;
}

void EstimationDock::setWindow(int rows) {
  method_->setCurrentIndex(rows > 0 ? 1 : 0);
  if (rows > 0) window_->setValue(rows);
}

void EstimationDock::setNoise(double accel_sigma, double force_sigma) {
  accel_->setValue(accel_sigma);
  force_->setValue(force_sigma);
}

EstimatorOptions EstimationDock::options() const {
  EstimatorOptions opt;
  opt.accel_sigma = accel_->value();
  opt.force_sigma = force_->value();
  opt.loss = static_cast<EstimatorOptions::Loss>(loss_->currentIndex());
  return opt;
}

int EstimationDock::logRows() const {
  return log_ ? static_cast<int>(log_->t.size()) : 0;
}

// The log against the open project's sensors; the state space is built too, so that a
// mechanism the estimator cannot handle is said at import, not after Estimate.
std::unique_ptr<MeasurementLog> EstimationDock::read(const std::string& text, const QString& name,
                                                     QString& error) const {
  const auto mech = document_->mechanism();
  if (!mech) {
    error = tr("%1: the project cannot be simulated, so nothing can be estimated").arg(name);
    return nullptr;
  }
  if (mech->spec.sensors.empty()) {
    error = tr("%1: the project has no sensors (/sensors): add the sensors that made the log")
                .arg(name);
    return nullptr;
  }
  try {
    StateSpace space(*mech);
    return std::make_unique<MeasurementLog>(
        parse_measurements(text, name.toStdString(), space.sensors()));
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
    return nullptr;
  }
}

bool EstimationDock::parse(const std::string& text, const QString& name, QString& error) {
  log_ = read(text, name, error);
  return log_ != nullptr;
}

bool EstimationDock::importLog(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    error_ = tr("cannot read %1: %2").arg(path, file.errorString());
    return false;
  }
  const std::string text = file.readAll().toStdString();
  const QString name = QFileInfo(path).fileName();
  std::unique_ptr<MeasurementLog> previous = std::move(log_);
  if (!parse(text, name, error_)) {
    log_ = std::move(previous);
    return false;
  }
  log_text_ = text;
  log_name_ = name;
  error_.clear();
  clearResult();
  log_label_->setText(
      tr("Log: %1 (%2 rows, %3 samples)").arg(name).arg(logRows()).arg(log_->samples()));
  emit logChanged();
  emit info(tr("Imported sensor log %1: %2 rows, %3 samples")
                .arg(path)
                .arg(logRows())
                .arg(log_->samples()));
  updateActions();
  return true;
}

void EstimationDock::estimate() {
  if (!log_ || run_ || !document_->mechanism()) return;
  clearResult();
  const int window = method_->currentIndex() == 1 ? window_->value() : 0;
  run_ = new EstimationRun(document_->mechanism(), *log_, options(), window, this);
  connect(run_, &EstimationRun::finished, this, &EstimationDock::onFinished);
  run_->start();
  progress_->setRange(0, window > 0 ? 100 : 0);  // batch: no fraction to show, a busy bar
  progress_->setValue(0);
  progress_->setVisible(true);
  status_->setText(tr("estimating…"));
  poll_->start();
  updateActions();
}

void EstimationDock::cancel() {
  if (!run_) return;
  run_->cancel();
  status_->setText(tr("cancelling…"));
}

void EstimationDock::showProgress() {
  if (!run_) return;
  if (progress_->maximum() > 0) progress_->setValue(static_cast<int>(100 * run_->rowsDone()));
  status_->setText(tr("estimating… %1 iterations").arg(run_->iterations()));
}

void EstimationDock::onFinished() {
  EstimationRun* run = run_;
  run_ = nullptr;
  poll_->stop();
  progress_->setVisible(false);
  const bool ok = run->error().isEmpty();
  if (ok) {
    result_ = std::make_unique<EstimateResult>(run->result());
    showResult();
    QString text = tr("%1 iterations, %2 s, cost %3")
                       .arg(result_->iterations)
                       .arg(result_->seconds, 0, 'f', 2)
                       .arg(result_->cost, 0, 'g', 4);
    // The batch stops at max_iterations without converging: say so, the fit may be poor.
    if (method_->currentIndex() == 0 && result_->iterations >= EstimatorOptions().max_iterations)
      text += tr(" (not converged: try a smaller σ accel or a robust loss)");
    status_->setText(text);
    emit info(tr("Estimate of %1: %2").arg(log_name_, status_->text()));
  } else {
    status_->setText(run->cancelled() ? tr("cancelled") : tr("failed: see Diagnostics"));
    if (!run->cancelled()) emit problem(tr("Estimate failed: %1").arg(run->error()));
  }
  run->deleteLater();
  updateActions();
  emit estimateFinished(ok);
}

void EstimationDock::clearResult() {
  result_.reset();
  for (QChartView* c : charts_) c->deleteLater();
  charts_.clear();
  key_->setVisible(false);
}

void EstimationDock::showResult() {
  int i = 0;
  const auto add = [&](const EstimateSeries& s) {
    QChartView* view = makeEstimateChart(s);
    grid_->addWidget(view, i / kChartColumns, i % kChartColumns);
    charts_.push_back(view);
    ++i;
  };
  for (const EstimateSeries& s : result_->drives) add(s);
  for (const EstimateSeries& s : result_->sensors) add(s);
  key_->setVisible(i > 0);
}

// The result belongs to the old mechanism: dropped. A running estimate is abandoned (it stops
// at its next iteration and deletes itself). The log is read again against the new sensors.
void EstimationDock::onProjectChanged() {
  if (run_) {
    disconnect(run_, nullptr, this, nullptr);
    run_->cancel();
    connect(run_, &EstimationRun::finished, run_, &QObject::deleteLater);
    run_ = nullptr;
    poll_->stop();
    progress_->setVisible(false);
    status_->setText(tr("the project changed: estimate again"));
  } else if (result_) {
    status_->setText(tr("the project changed: estimate again"));
  }
  clearResult();
  if (log_) {
    QString error;
    if (!parse(log_text_, log_name_, error)) {
      log_.reset();
      log_label_->setText(tr("No sensor log: File > Import Sensor Log…"));
      emit problem(tr("Sensor log %1 no longer fits the project: %2").arg(log_name_, error));
      emit logChanged();
    }
  }
  updateActions();
}

void EstimationDock::updateActions() {
  estimate_action_->setEnabled(log_ && !run_ && document_->mechanism());
  cancel_action_->setEnabled(run_ != nullptr);
}

}  // namespace articula
