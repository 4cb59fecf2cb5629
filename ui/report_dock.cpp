#include "ui/report_dock.hpp"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QLineSeries>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/io/run_setup.hpp"
#include "core/sim/design_report.hpp"
#include "core/sim/mechanism.hpp"
#include "ui/display_units.hpp"
#include "ui/dock_scroll.hpp"
#include "ui/document.hpp"

namespace articula {

// One report on its own thread. The thread writes result / error; the GUI reads them after
// `thread` finished. Cancelling makes the progress callback throw, which ends the run.
struct ReportJob {
  struct Cancelled {};
  std::shared_ptr<const Mechanism> mech;
  RunOptions options;
  std::vector<ReportPoint> points;
  QThread* thread = nullptr;
  std::atomic<bool> cancel{false};
  nlohmann::json result;
  QString error;

  void work() {
    try {
      result = design_report(*mech, options, points, [this](double) {
        if (cancel) throw Cancelled{};
      });
    } catch (const Cancelled&) {
      error = QObject::tr("cancelled");
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
  }
};

namespace {
using nlohmann::json;

enum DriveColumn { kDrive, kPeakForce, kRmsForce, kPeakPower, kPositive, kNegative, kDriveColumns };

// A read-only cell showing `text`, holding `si` (the report's number) under Qt::UserRole.
QTableWidgetItem* cell(const QString& text, double si = std::numeric_limits<double>::quiet_NaN()) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(item->flags() & ~Qt::ItemIsEditable);
  item->setData(Qt::UserRole, si);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QString number(double v) {
  return QString::number(v, 'g', 5);
}

bool prismatic(const Mechanism& m, const std::string& joint) {
  for (const JointSpec& j : m.spec.joints)
    if (j.name == joint) return j.joint.type == JointType::Prismatic;
  return false;
}

QChartView* makeChart(const QString& title) {
  auto* chart = new QChart;
  chart->setTitle(title);
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(2, 2, 2, 2));
  auto* view = new QChartView(chart);
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumSize(240, 180);
  return view;
}

// Replaces the chart's series by one per (name, values) against t, values multiplied by `scale`;
// null (infinite) values are left out.
void plot(QChartView* view, const json& t, const std::vector<std::pair<QString, const json*>>& rows,
          double scale, const QString& y_title) {
  QChart* chart = view->chart();
  chart->removeAllSeries();
  for (QAbstractAxis* a : chart->axes()) chart->removeAxis(a), delete a;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  const std::size_t stride = std::max<std::size_t>(1, t.size() / 1500);  // ~1500 points a curve
  for (const auto& [name, values] : rows) {
    auto* s = new QLineSeries;
    s->setName(name);
    for (std::size_t k = 0; k < t.size(); k += stride) {
      if (!(*values)[k].is_number()) continue;
      const double y = (*values)[k].get<double>() * scale;
      s->append(t[k].get<double>(), y);
      lo = std::min(lo, y), hi = std::max(hi, y);
    }
    chart->addSeries(s);
  }
  if (rows.empty() || t.empty()) return;
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  const double pad = std::max(0.05 * (hi - lo), 1e-9 * (1 + std::abs(hi)));
  auto* x = new QValueAxis;
  x->setTitleText(QObject::tr("t (s)"));
  x->setRange(t.front().get<double>(), t.back().get<double>());
  auto* y = new QValueAxis;
  y->setTitleText(y_title);
  y->setRange(lo - pad, hi + pad);
  y->applyNiceNumbers();
  y->setLabelFormat("%.4g");
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* s : chart->series()) s->attachAxis(x), s->attachAxis(y);
}
// The dock's point as the CLI's --point P=BODY@x,y,z (coordinates typed in the display length
// unit, converted to m); throws std::invalid_argument naming the field when they are not three
// numbers.
ReportPoint reportPoint(const QString& body, const QString& coords) {
  const QStringList xyz = coords.split(',');
  std::vector<double> v;
  for (const QString& s : xyz) {
    bool ok = false;
    const double x = s.trimmed().toDouble(&ok);
    if (!ok) break;
    v.push_back(x / displayScale("m").factor);
  }
  if (xyz.size() != 3 || v.size() != 3 ||
      !std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }))
    throw std::invalid_argument("Report point '" + coords.toStdString() +
                                "': expected three numbers x, y, z");
  std::string text = "P=" + body.toStdString() + "@";
  for (int i = 0; i < 3; ++i) text += (i ? "," : "") + QString::number(v[i], 'g', 17).toStdString();
  return parse_report_point(text);
}
}  // namespace

ReportDock::ReportDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Report"), parent),
      document_(document),
      duration_(new QDoubleSpinBox),
      body_(new QComboBox),
      coords_(new QLineEdit),
      status_(new QLabel),
      mass_caption_(new QLabel),
      drives_(new QTableWidget(0, kDriveColumns)),
      mass_(new QTableWidget(3, 3)),
      inertia_chart_(makeChart(tr("Reflected inertia at the drives"))),
      angle_chart_(makeChart(tr("Transmission angle"))) {
  setObjectName("report_dock");
  run_action_ = new QAction(tr("Run Design &Report"), this);
  run_action_->setObjectName("action_run_report");
  connect(run_action_, &QAction::triggered, this, &ReportDock::run);
  duration_->setRange(0, 1e6);
  duration_->setDecimals(3);
  duration_->setSpecialValueText(tr("file's"));
  duration_->setSuffix(tr(" s"));
  duration_->setToolTip(tr("Simulated time of the report (file's: the project's duration)"));
  coords_->setToolTip(tr("The point in the body's frame, x, y, z in the display length unit"));
  coords_->setText("0, 0, 0");
  coords_->setObjectName("report_point");
  drives_->setHorizontalHeaderLabels({tr("Drive"), tr("Peak force"), tr("RMS force"),
                                      tr("Peak power"), tr("Positive work"), tr("Negative work")});
  drives_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  drives_->verticalHeader()->hide();
  mass_->setHorizontalHeaderLabels({"x", "y", "z"});
  mass_->setVerticalHeaderLabels({"x", "y", "z"});
  mass_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  mass_->setMaximumHeight(mass_->verticalHeader()->length() + mass_->horizontalHeader()->height() +
                          4 * mass_->frameWidth());
  auto* controls = new QHBoxLayout;
  auto* run_button = new QToolButton;
  run_button->setDefaultAction(run_action_);
  controls->addWidget(new QLabel(tr("Duration")));
  controls->addWidget(duration_);
  controls->addWidget(new QLabel(tr("Point on")));
  controls->addWidget(body_);
  controls->addWidget(new QLabel(tr("at")));
  controls->addWidget(coords_, 1);
  controls->addWidget(run_button);
  controls->addWidget(status_, 1);
  auto* left = new QWidget;
  auto* left_layout = new QVBoxLayout(left);
  left_layout->setContentsMargins(0, 0, 0, 0);
  left_layout->addWidget(drives_, 1);
  left_layout->addWidget(mass_caption_);
  left_layout->addWidget(mass_);
  auto* split = new QSplitter;
  split->addWidget(left);
  split->addWidget(inertia_chart_);
  split->addWidget(angle_chart_);
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(controls);
  layout->addWidget(split, 1);
  setWidget(shrinkable(body));
  connect(document_, &Document::documentChanged, this, &ReportDock::onProjectChanged);
  connect(document_, &Document::selectionChanged, this, [this](const Selection& s) {
    if (s.body >= 0 && s.body < static_cast<int>(document_->spec().bodies.size()))
      body_->setCurrentText(QString::fromStdString(document_->spec().bodies[s.body].name));
  });
  connect(&displayUnitsNotifier(), &DisplayUnitsNotifier::changed, this, [this] {
    if (!result_.is_null()) show_result();
  });
  onProjectChanged();
}

ReportDock::~ReportDock() {
  dropJob();
}

void ReportDock::setDuration(double seconds) {
  duration_->setValue(std::max(0.0, seconds));
}

double ReportDock::duration() const {
  return duration_->value();
}

void ReportDock::setPoint(const QString& body, const Vec3& point) {
  body_->setCurrentIndex(std::max(0, body_->findText(body)));
  const double f = displayScale("m").factor;
  coords_->setText(QStringLiteral("%1, %2, %3")
                       .arg(number(point.x() * f), number(point.y() * f), number(point.z() * f)));
}

void ReportDock::run() {
  const std::shared_ptr<const Mechanism> mech = document_->mechanism();
  if (job_ || !mech) return;
  clearResult();
  auto job = std::make_unique<ReportJob>();
  job->mech = mech;
  try {
    RunOverrides over;
    if (duration() > 0) over.duration = duration();
    job->options = resolve_run_options(*mech, over);
    if (body_->currentIndex() > 0)  // entry 0: no point
      job->points.push_back(reportPoint(body_->currentText(), coords_->text()));
  } catch (const std::exception& e) {
    error_ = QString::fromStdString(e.what());
    status_->setText(tr("cannot run: %1").arg(error_));
    emit problem(tr("Design report: %1").arg(error_));
    emit finished(false);
    return;
  }
  job_ = job.release();
  job_->thread = QThread::create([j = job_] { j->work(); });
  connect(job_->thread, &QThread::finished, this, &ReportDock::onFinished);  // queued: GUI thread
  job_->thread->start();
  status_->setText(tr("running…"));
  run_action_->setEnabled(false);
}

void ReportDock::onFinished() {
  std::unique_ptr<ReportJob> job(job_);
  job_ = nullptr;
  job->thread->wait();
  delete job->thread;
  run_action_->setEnabled(document_->mechanism() != nullptr);
  const bool ok = job->error.isEmpty();
  if (ok) {
    result_ = std::move(job->result);
    const double T = result_["t"].empty() ? 0.0 : result_["t"].back().get<double>();
    status_->setText(tr("%1 samples over %2 s").arg(result_["t"].size()).arg(number(T)));
    emit info(tr("Design report: %1").arg(status_->text()));
    show_result();
  } else {
    error_ = job->error;
    status_->setText(tr("failed: see Diagnostics"));
    emit problem(tr("Design report failed: %1").arg(error_));
  }
  emit finished(ok);
}

// A running report belongs to the old project: cancelled, and its result never shown.
void ReportDock::onProjectChanged() {
  dropJob();
  clearResult();
  fillBodies();
  run_action_->setEnabled(document_->mechanism() != nullptr);
}

void ReportDock::dropJob() {
  if (!job_) return;
  disconnect(job_->thread, nullptr, this, nullptr);
  job_->cancel = true;
  job_->thread->wait();
  delete job_->thread;
  delete job_;
  job_ = nullptr;
  status_->setText(tr("the project changed: run again"));
}

void ReportDock::fillBodies() {
  const QString was = body_->currentText();
  body_->clear();
  body_->addItem(tr("(no point)"));
  body_->addItem(QStringLiteral("ground"));
  for (const BodySpec& b : document_->spec().bodies) body_->addItem(QString::fromStdString(b.name));
  body_->setCurrentIndex(std::max(0, body_->findText(was)));
}

void ReportDock::clearResult() {
  result_ = json();
  error_.clear();
  drives_->setRowCount(0);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) mass_->setItem(r, c, cell(QString()));
  mass_caption_->setText(tr("Apparent mass at t = 0 (kg, world axes): choose a point"));
  plot(inertia_chart_, json::array(), {}, 1.0, QString());
  plot(angle_chart_, json::array(), {}, 1.0, QString());
}

void ReportDock::show_result() {
  fillDrives();
  fillMass();
  fillCharts();
}

void ReportDock::fillDrives() {
  const json& drives = result_["drives"];
  drives_->setRowCount(static_cast<int>(drives.size()));
  int r = 0;
  for (const auto& [name, d] : drives.items()) {
    const bool linear = prismatic(*document_->mechanism(), name);
    const QString force = linear ? QStringLiteral("N") : QStringLiteral("N·m");
    auto item = [&](const char* key, const QString& unit) {
      const double v = d[key].get<double>();
      return cell(with_unit(number(v), unit), v);
    };
    auto* label = cell(QString::fromStdString(name) + " (" +
                       QString::fromStdString(d["type"].get<std::string>()) + ")");
    label->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    drives_->setItem(r, kDrive, label);
    drives_->setItem(r, kPeakForce, item("peak_force", force));
    drives_->setItem(r, kRmsForce, item("rms_force", force));
    drives_->setItem(r, kPeakPower, item("peak_power", "W"));
    drives_->setItem(r, kPositive, item("positive_work", "J"));
    drives_->setItem(r, kNegative, item("negative_work", "J"));
    ++r;
  }
}

void ReportDock::fillMass() {
  const json& points = result_["points"];
  if (points.empty()) return;
  const json& p = points.begin().value();
  const json& m = p["apparent_mass"];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      const double v = m[3 * r + c].get<double>();
      mass_->setItem(r, c, cell(number(v), v));
    }
  const double f = displayScale("m").factor;
  const json& x = p["point"];
  mass_caption_->setText(
      tr("Apparent mass at t = 0 of (%1, %2, %3) %4 on %5 (kg, world axes; %6 constrained "
         "directions)")
          .arg(number(x[0].get<double>() * f), number(x[1].get<double>() * f),
               number(x[2].get<double>() * f), displayScale("m").unit,
               QString::fromStdString(p["body"].get<std::string>()))
          .arg(p["constrained_directions"].size()));
}

void ReportDock::fillCharts() {
  std::vector<std::pair<QString, const json*>> inertia, angle;
  bool linear = false, rotary = false;
  for (const auto& [name, d] : result_["drives"].items()) {
    const bool p = prismatic(*document_->mechanism(), name);
    (p ? linear : rotary) = true;
    inertia.push_back({QString::fromStdString(name) + (p ? " (kg)" : " (kg·m²)"),
                       &d["reflected_inertia"]["value"]});
  }
  for (const auto& [name, l] : result_["loops"].items())
    angle.push_back({QString::fromStdString(name), &l["transmission_angle"]["value"]});
  // The axes carry units only (the chart's title names the quantity): a narrow chart keeps them.
  const QString unit = linear && rotary ? tr("kg, kg·m²") : linear ? "kg" : "kg·m²";
  plot(inertia_chart_, result_["t"], inertia, 1.0, unit);
  const DisplayScale a = displayScale("rad");
  plot(angle_chart_, result_["t"], angle, a.factor, a.unit);
  angle_chart_->chart()->setTitle(angle.empty() ? tr("No four-bar-like loop")
                                                : tr("Transmission angle"));
}

}  // namespace articula
