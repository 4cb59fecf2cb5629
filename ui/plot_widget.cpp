#include "ui/plot_widget.hpp"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFile>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QTextStream>
#include <QToolButton>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/sim/mechanism.hpp"
#include "core/sim/runner.hpp"
#include "core/sim/snapshot_history.hpp"
#include "ui/icons.hpp"
#include "ui/text_format.hpp"

namespace articula {

namespace {

constexpr int kBuckets = 300;                // min/max pairs drawn per series
constexpr std::size_t kMaxSamples = 200000;  // held per channel before halving

const QColor kPalette[] = {QColor(31, 119, 180),  QColor(214, 39, 40),   QColor(44, 160, 44),
                           QColor(255, 127, 14),  QColor(148, 103, 189), QColor(140, 86, 75),
                           QColor(227, 119, 194), QColor(127, 127, 127), QColor(23, 190, 207)};

// Min/max per bucket of equal time width, in time order: peaks survive any zoom level.
void decimate(const std::vector<double>& t, const std::vector<double>& v, QList<QPointF>& out) {
  out.clear();
  const std::size_t n = t.size();
  if (n <= 2 * kBuckets) {
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) out.append(QPointF(t[i], v[i]));
    return;
  }
  out.reserve(2 * kBuckets + 2);
  const double t0 = t.front(), width = (t.back() - t0) / kBuckets;
  std::size_t i = 0;
  for (int b = 0; b < kBuckets && i < n; ++b) {
    const double end =
        b == kBuckets - 1 ? std::numeric_limits<double>::infinity() : t0 + (b + 1) * width;
    std::size_t lo = i, hi = i;
    for (; i < n && t[i] < end; ++i) {
      if (v[i] < v[lo]) lo = i;
      if (v[i] > v[hi]) hi = i;
    }
    if (i == lo && lo == hi && (lo >= n || t[lo] >= end)) continue;  // empty bucket
    out.append(QPointF(t[std::min(lo, hi)], v[std::min(lo, hi)]));
    if (lo != hi) out.append(QPointF(t[std::max(lo, hi)], v[std::max(lo, hi)]));
  }
}

QToolButton* smallButton(const QString& icon, const QString& tip, QWidget* parent) {
  auto* b = new QToolButton(parent);
  b->setIcon(themedIcon(icon));
  b->setToolTip(tip);
  b->setAutoRaise(true);
  b->setIconSize(QSize(14, 14));
  return b;
}

}  // namespace

PlotWidget::PlotWidget(QWidget* parent)
    : QWidget(parent),
      chart_(new QChart),
      view_(new QChartView(chart_, this)),
      x_axis_(new QCategoryAxis(chart_)),
      readout_(new QLabel(this)),
      caption_(new QLabel(this)),
      cursor_t_(std::numeric_limits<double>::quiet_NaN()) {
  for (YAxis& a : axes_) {
    a.axis = new QCategoryAxis(chart_);
    a.clearRange();
  }
  chart_->setMargins(QMargins(4, 2, 16, 2));  // room for the last time label
  chart_->setBackgroundRoundness(0);
  chart_->setAnimationOptions(QChart::NoAnimation);
  chart_->legend()->setAlignment(Qt::AlignTop);
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  chart_->legend()->setFont(small);
  for (QCategoryAxis* a : {x_axis_, axes_[0].axis, axes_[1].axis}) {
    a->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    a->setLabelsFont(small);
    a->setTitleFont(small);
    a->setGridLineColor(QColor(225, 225, 225));
    // QtCharts replaces a label by "..." when the axis length per label is below a text line;
    // fitAxes() instead chooses fewer ticks on a short axis, so every label is whole.
    a->setTruncateLabels(false);
  }
  x_axis_->setTitleText("t (s)");
  chart_->addAxis(x_axis_, Qt::AlignBottom);
  chart_->addAxis(axes_[0].axis, Qt::AlignLeft);
  chart_->addAxis(axes_[1].axis, Qt::AlignRight);
  axes_[1].axis->setGridLineVisible(false);  // the left axis's grid; two would not line up
  axes_[1].axis->setVisible(false);
  connect(&displayUnitsNotifier(), &DisplayUnitsNotifier::changed, this, [this] {
    rebuildSeries();  // the shown units, the axes' titles and the legend's units
    recomputeRange();
    refreshIfDirty();
  });
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumSize(220, 160);
  view_->viewport()->installEventFilter(this);
  view_->viewport()->setMouseTracking(true);
  hover_line_ = new QGraphicsLineItem(chart_);
  hover_line_->setPen(QPen(QColor(90, 90, 90), 1, Qt::DotLine));
  hover_line_->hide();
  cursor_line_ = new QGraphicsLineItem(chart_);
  cursor_line_->setPen(QPen(QColor(230, 120, 0), 1.5, Qt::DashLine));
  cursor_line_->hide();
  marks_ = std::make_unique<ChartEventMarks>(chart_);
  connect(chart_, &QChart::plotAreaChanged, this, [this] {
    updateCursorLine();
    // A taller or wider plot: another number of ticks (only then, or the relayout would loop).
    if (!t_.empty() && tickCounts() != std::pair{axes_[0].ticks, x_ticks_}) fitAxes();
  });

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(makeHeader());
  layout->addWidget(view_, 1);
  setActive(false);
}

QWidget* PlotWidget::makeHeader() {
  auto* header = new QWidget(this);
  header->setObjectName("plotHeader");
  auto* row = new QHBoxLayout(header);
  row->setContentsMargins(6, 2, 2, 2);
  row->setSpacing(4);
  QFont bold = caption_->font();
  bold.setBold(true);
  caption_->setFont(bold);
  readout_->setTextFormat(Qt::RichText);
  readout_->setStyleSheet("color: #555;");
  readout_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  row->addWidget(caption_);
  row->addSpacing(8);
  row->addWidget(readout_, 1);
  auto* csv = smallButton("export-csv", tr("Export this plot's data as CSV…"), header);
  auto* png = smallButton("export-image", tr("Export this plot as PNG…"), header);
  auto* close = smallButton("remove", tr("Remove this plot"), header);
  connect(csv, &QToolButton::clicked, this, [this] { emit exportCsvRequested(this); });
  connect(png, &QToolButton::clicked, this, [this] { emit exportPngRequested(this); });
  connect(close, &QToolButton::clicked, this, [this] { emit removeRequested(this); });
  row->addWidget(csv);
  row->addWidget(png);
  row->addWidget(close);
  return header;
}

void PlotWidget::setActive(bool active) {
  findChild<QWidget*>("plotHeader")
      ->setStyleSheet(active ? "#plotHeader { border-bottom: 2px solid #2a82da; }"
                             : "#plotHeader { border-bottom: 2px solid transparent; }");
}

void PlotWidget::setMechanism(const Mechanism* m) {
  mech_ = m;
  channels_.clear();
  rebuildSeries();
}

void PlotWidget::renameMechanism(const Mechanism* m) {
  if (!m || !mech_) return setMechanism(m);
  mech_ = m;  // the same channels by index, under their new names
  for (std::size_t i = 0; i < series_.size() && i < channels_.size(); ++i)
    series_[i]->setName(seriesName(i));
  caption_->setText(title());
}

void PlotWidget::addChannel(const Channel& c, const SnapshotHistory& history) {
  if (!mech_ || std::find(channels_.begin(), channels_.end(), c) != channels_.end()) return;
  if (!accepts(c)) return;
  channels_.push_back(c);
  rebuildSeries();
  refill(history);
}

void PlotWidget::removeChannel(int i) {
  if (i < 0 || i >= static_cast<int>(channels_.size())) return;
  channels_.erase(channels_.begin() + i);
  values_.erase(values_.begin() + i);
  rebuildSeries();
  recomputeRange();
  refresh();
}

void PlotWidget::setTitle(const QString& title) {
  title_ = title;
  caption_->setText(this->title());
}

QString PlotWidget::title() const {
  if (!mech_ || channels_.empty()) return title_;
  // One curve and no legend: the caption names it ("Joint reaction forces: J1.|F|").
  if (!title_.isEmpty() && channels_.size() == 1)
    return title_ + ": " + channelName(channels_.front(), *mech_);
  if (!title_.isEmpty()) return title_;
  QStringList names;
  for (const Channel& c : channels_) names << channelName(c, *mech_);
  return names.join(", ");
}

QString PlotWidget::yAxisTitle(int side) const {
  return axes_[side].used ? axes_[side].axis->titleText() : QString();
}

bool PlotWidget::accepts(const Channel& c) const {
  if (!mech_) return false;
  const QString unit = channelUnit(c, *mech_);
  return !axes_[1].used || unit == axes_[0].unit || unit == axes_[1].unit;
}

void PlotWidget::assignAxes() {
  for (YAxis& a : axes_) a.used = false, a.unit.clear();
  side_.clear();
  for (const Channel& c : channels_) {
    const QString unit = mech_ ? channelUnit(c, *mech_) : QString();
    const int side = !axes_[0].used || axes_[0].unit == unit ? 0 : 1;
    axes_[side].used = true;
    axes_[side].unit = unit;
    side_.push_back(side);
  }
  for (YAxis& a : axes_) {
    a.shown = displayScale(a.unit);
    a.y0 = a.y1 = 0;  // refit
    a.axis->setTitleText(a.title());
  }
  axes_[1].axis->setVisible(axes_[1].used);
}

// With two axes the legend says which one a curve is read on: "A0.q (°)".
QString PlotWidget::seriesName(std::size_t i) const {
  QString name = mech_ ? channelName(channels_[i], *mech_) : QString();
  const QString unit = axes_[side_[i]].title();  // with the axis's prefix: "mN·m"
  if (axes_[1].used && !unit.isEmpty()) name += " (" + unit + ")";
  return name;
}

void PlotWidget::rebuildSeries() {
  for (QLineSeries* s : series_) {
    chart_->removeSeries(s);
    delete s;
  }
  series_.clear();
  values_.resize(channels_.size(), std::vector<double>(t_.size(), 0.0));
  assignAxes();
  for (std::size_t i = 0; i < channels_.size(); ++i) {
    auto* s = new QLineSeries(chart_);
    const YAxis& axis = axes_[side_[i]];
    s->setName(seriesName(i));
    s->setPen(QPen(kPalette[i % std::size(kPalette)], 1.6));
    chart_->addSeries(s);
    s->attachAxis(x_axis_);
    s->attachAxis(axis.axis);
    series_.push_back(s);
  }
  chart_->legend()->setVisible(channels_.size() > 1);
  caption_->setText(title());
  dirty_ = true;
}

void PlotWidget::clearData() {
  zoomed_ = false;
  t_.clear();
  for (auto& v : values_) v.clear();
  recomputeRange();
  hover_line_->hide();
  readout_->clear();
  refresh();
}

void PlotWidget::refill(const SnapshotHistory& history) {
  t_.clear();
  for (auto& v : values_) v.clear();
  recomputeRange();
  history.forEach([this](const Snapshot& s) { appendOne(s); });
  dirty_ = true;
}

void PlotWidget::append(const std::vector<Snapshot>& snapshots) {
  if (!mech_ || channels_.empty()) return;
  for (const Snapshot& s : snapshots) appendOne(s);
  if (t_.size() > kMaxSamples) thinOut();
  dirty_ = true;
}

void PlotWidget::appendOne(const Snapshot& s) {
  if (!t_.empty() && s.t <= t_.back()) return;  // a record we already hold
  t_.push_back(s.t);
  for (std::size_t i = 0; i < channels_.size(); ++i) {
    values_[i].push_back(channelValue(channels_[i], s, *mech_));
    axes_[side_[i]].track(values_[i].back());
  }
}

void PlotWidget::thinOut() {
  const auto halve = [](std::vector<double>& v) {
    std::size_t j = 0;
    for (std::size_t i = 0; i < v.size(); i += 2) v[j++] = v[i];
    v.resize(j);
  };
  halve(t_);
  for (auto& v : values_) halve(v);
}

void PlotWidget::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (dirty_) refresh();
}

void PlotWidget::refreshIfDirty() {
  if (dirty_ && isVisible()) refresh();
}

void PlotWidget::refresh() {
  dirty_ = false;
  fitAxes();  // before the points: one geometry update per series, not two
  QList<QPointF> points;
  for (std::size_t i = 0; i < series_.size(); ++i) {
    decimate(t_, values_[i], points);
    if (const double f = axes_[side_[i]].shown.factor; f != 1.0)  // mm, °
      for (QPointF& p : points) p.setY(p.y() * f);
    series_[i]->replace(points);
  }
  updateCursorLine();
}

void PlotWidget::recomputeRange() {
  for (YAxis& a : axes_) a.clearRange();
  for (std::size_t i = 0; i < values_.size() && i < side_.size(); ++i)
    for (double x : values_[i]) axes_[side_[i]].track(x);
}

// Tick intervals that fit: y, a blank line between labels; t, room for labels such as "0.125"
// (2 to 5 each). From the plot's height (which the labels do not change) and the view's width
// (the plot area's width changes with the y labels' width: that would feed back).
std::pair<int, int> PlotWidget::tickCounts() const {
  const double line = QFontMetricsF(axes_[0].axis->labelsFont()).height();
  const int y = std::clamp(static_cast<int>(chart_->plotArea().height() / (2.2 * line)), 2, 5);
  const double label = QFontMetricsF(x_axis_->labelsFont()).horizontalAdvance("0.0000") + 12;
  const int right = axes_[1].used ? 60 : 0;  // the right axis's labels and title
  const int x = std::clamp(static_cast<int>((view_->width() - 90 - right) / label), 2, 5);
  return {y, x};
}

void PlotWidget::fitAxes() {
  const auto [ticks, xt] = tickCounts();
  const bool left = axes_[0].fit(ticks), right = axes_[1].used && axes_[1].fit(ticks);
  if ((left || right) && axes_[1].used)  // the legend's units follow the axes' prefixes
    for (std::size_t i = 0; i < series_.size(); ++i) series_[i]->setName(seriesName(i));
  // t: from the first sample to a round time at or after the last; or the zoomed window.
  double t0 = t_.empty() ? 0.0 : t_.front();
  double t1 = t0 + niceCeil(t_.empty() ? 1.0 : std::max(t_.back() - t0, 1e-3));
  if (zoomed_) t0 = zoom_t0_, t1 = zoom_t1_;
  if (t1 != t_end_ || x_axis_->min() != t0 || xt != x_ticks_) {
    t_end_ = t1;
    x_ticks_ = xt;
    setTicks(x_axis_, t0, t1, niceStep((t1 - t0) / xt));
  }
}

// Wheel: zoom the time axis about the pointer; drag: pan it; double-click: fit to the data.
bool PlotWidget::zoomPan(QEvent* event) {
  const auto timeAt = [this](const QPointF& widget_pos) {
    const QPointF p = chart_->mapFromScene(view_->mapToScene(widget_pos.toPoint()));
    return series_.empty() ? 0.0 : chart_->mapToValue(p, series_[0]).x();
  };
  switch (event->type()) {
    case QEvent::Wheel: {
      auto* w = static_cast<QWheelEvent*>(event);
      if (series_.empty() || w->angleDelta().y() == 0) return false;
      const double at = timeAt(w->position()), factor = std::pow(0.8, w->angleDelta().y() / 120.0);
      const double t0 = x_axis_->min(), t1 = x_axis_->max();
      zoom_t0_ = at - (at - t0) * factor, zoom_t1_ = at + (t1 - at) * factor;
      zoomed_ = zoom_t1_ - zoom_t0_ > 1e-9;
      break;
    }
    case QEvent::MouseButtonPress:
      pan_from_ = timeAt(static_cast<QMouseEvent*>(event)->position());
      panning_ = static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton;
      return false;
    case QEvent::MouseButtonRelease:
      panning_ = false;
      return false;
    case QEvent::MouseMove: {
      if (!panning_ || series_.empty()) return false;
      const double by = pan_from_ - timeAt(static_cast<QMouseEvent*>(event)->position());
      if (by == 0) return false;
      zoom_t0_ = x_axis_->min() + by, zoom_t1_ = x_axis_->max() + by;
      zoomed_ = true;
      break;
    }
    case QEvent::MouseButtonDblClick:
      zoomed_ = false;
      break;
    default:
      return false;
  }
  fitAxes();
  updateCursorLine();
  return true;
}

void PlotWidget::setCursorTime(double t) {
  cursor_t_ = t;
  updateCursorLine();
}

void PlotWidget::setEvents(const ContactEvents* events) {
  events_ = events;
  eventsChanged();
}

void PlotWidget::eventsChanged() {
  dirty_ = true;
}

void PlotWidget::updateCursorLine() {
  const QRectF area = chart_->plotArea();
  if (!series_.empty())
    marks_->update(events_, area, x_axis_->min(), x_axis_->max(),
                   [&](double t) { return chart_->mapToPosition(QPointF(t, 0), series_[0]).x(); });
  else
    marks_->update(nullptr, area, 0, 0, {});
  if (!std::isfinite(cursor_t_) || series_.empty() || cursor_t_ < x_axis_->min() ||
      cursor_t_ > x_axis_->max()) {
    cursor_line_->hide();
    return;
  }
  const double x = chart_->mapToPosition(QPointF(cursor_t_, 0), series_[0]).x();
  cursor_line_->setLine(x, area.top(), x, area.bottom());
  cursor_line_->show();
}

bool PlotWidget::eventFilter(QObject* watched, QEvent* event) {
  if (watched == view_->viewport()) {
    if (zoomPan(event) && event->type() != QEvent::MouseMove) return true;
    if (event->type() == QEvent::MouseMove)
      showReadout(view_->mapToScene(static_cast<QMouseEvent*>(event)->position().toPoint()));
    else if (event->type() == QEvent::Leave) {
      hover_line_->hide();
      readout_->clear();
    } else if (event->type() == QEvent::MouseButtonPress) {
      emit activated(this);
    }
  }
  return QWidget::eventFilter(watched, event);
}

void PlotWidget::showReadout(const QPointF& scene_pos) {
  const QPointF p = chart_->mapFromScene(scene_pos);
  const QRectF area = chart_->plotArea();
  if (t_.empty() || series_.empty() || !area.contains(p)) {
    hover_line_->hide();
    readout_->clear();
    return;
  }
  const double t = chart_->mapToValue(p, series_[0]).x();
  auto it = std::lower_bound(t_.begin(), t_.end(), t);
  if (it == t_.end()) --it;
  if (it != t_.begin() && t - *std::prev(it) < *it - t) --it;
  const std::size_t k = it - t_.begin();
  const double x = chart_->mapToPosition(QPointF(t_[k], 0), series_[0]).x();
  hover_line_->setLine(x, area.top(), x, area.bottom());
  hover_line_->show();
  QString text = QStringLiteral("t = %1 s").arg(t_[k], 0, 'f', 4);
  for (std::size_t i = 0; i < channels_.size(); ++i)
    text += QStringLiteral("&nbsp;&nbsp;<span style='color:%1'>■</span> %2 = %3")
                .arg(kPalette[i % std::size(kPalette)].name(),
                     channelName(channels_[i], *mech_).toHtmlEscaped())
                .arg(axes_[side_[i]].valueText(values_[i][k]));
  const double per_pixel = (x_axis_->max() - x_axis_->min()) / std::max(1.0, area.width());
  if (events_)
    if (const Simulation::ContactEvent* e = eventNear(*events_, t, 3 * per_pixel))
      text += QStringLiteral("&nbsp;&nbsp;<span style='color:%1'>|</span> %2")
                  .arg(eventColor(e->kind).name(), eventText(*e).toHtmlEscaped());
  readout_->setText(text);
}

bool PlotWidget::exportCsv(const QString& path) const {
  QFile file(path);
  if (!mech_ || !file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
    return false;
  QTextStream out(&file);
  out << "t";
  for (const Channel& c : channels_) {
    const QString unit = channelUnit(c, *mech_);
    out << ',' << channelKey(c, *mech_) << (unit.isEmpty() ? QString() : " (" + unit + ")");
  }
  out << '\n';
  for (std::size_t k = 0; k < t_.size(); ++k) {
    out << QString::fromStdString(format_number(t_[k]));
    for (const auto& v : values_) out << ',' << QString::fromStdString(format_number(v[k]));
    out << '\n';
  }
  return file.error() == QFile::NoError;
}

bool PlotWidget::exportPng(const QString& path) const {
  return view_->grab().save(path, "PNG");
}

}  // namespace articula
