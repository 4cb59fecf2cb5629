#include "ui/estimate_chart.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/estimation_run.hpp"

namespace articula {

namespace {
constexpr std::size_t kMaxPoints = 2000;

QValueAxis* axis(const QString& title, double lo, double hi) {
  auto* a = new QValueAxis;
  a->setTitleText(title);
  a->setRange(lo, hi);
  a->applyNiceNumbers();
  a->setLabelFormat("%.4g");
  return a;
}

// The y range of everything drawn, with a margin so that the band's edges show.
std::pair<double, double> yRange(const EstimateSeries& s) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t k = 0; k < s.t.size(); ++k) {
    lo = std::min(lo, s.estimate[k] - 2 * s.sigma[k]);
    hi = std::max(hi, s.estimate[k] + 2 * s.sigma[k]);
    if (!s.measured.empty() && std::isfinite(s.measured[k])) {
      lo = std::min(lo, s.measured[k]);
      hi = std::max(hi, s.measured[k]);
    }
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {-1.0, 1.0};
  const double pad = std::max(0.05 * (hi - lo), 1e-12 * (1.0 + std::abs(hi)));
  return {lo - pad, hi + pad};
}
}  // namespace

SeriesSummary summarize(const EstimateSeries& s) {
  SeriesSummary out;
  double ss = 0.0, sigma = 0.0;
  for (std::size_t k = 0; k < s.t.size(); ++k) {
    sigma += s.sigma[k];
    if (s.measured.empty() || !std::isfinite(s.measured[k])) continue;
    ss += (s.measured[k] - s.estimate[k]) * (s.measured[k] - s.estimate[k]);
    ++out.measured;
  }
  out.rms_residual =
      out.measured > 0 ? std::sqrt(ss / out.measured) : std::numeric_limits<double>::quiet_NaN();
  out.mean_sigma = s.t.empty() ? 0.0 : sigma / static_cast<double>(s.t.size());
  return out;
}

QString estimateChartKey() {
  return QObject::tr(
      "<span style='color:#dc5a1e'>&#9679;</span> measured &nbsp;&nbsp; "
      "<span style='color:#1446b4'>&#9473;&#9473;</span> estimate &nbsp;&nbsp; "
      "<span style='background-color:#a8c5f0'>&nbsp;&nbsp;&nbsp;&nbsp;</span> ±2σ band "
      "(first-order, from the knot's posterior covariance)");
}

QChartView* makeEstimateChart(const EstimateSeries& s, QWidget* parent) {
  auto* chart = new QChart;
  const std::size_t stride = std::max<std::size_t>(1, (s.t.size() + kMaxPoints - 1) / kMaxPoints);
  auto* upper = new QLineSeries;
  auto* lower = new QLineSeries;
  auto* line = new QLineSeries;
  auto* dots = new QScatterSeries;
  for (std::size_t k = 0; k < s.t.size(); k += stride) {
    upper->append(s.t[k], s.estimate[k] + 2 * s.sigma[k]);
    lower->append(s.t[k], s.estimate[k] - 2 * s.sigma[k]);
    line->append(s.t[k], s.estimate[k]);
    if (!s.measured.empty() && std::isfinite(s.measured[k])) dots->append(s.t[k], s.measured[k]);
  }
  auto* band = new QAreaSeries(upper, lower);
  band->setName(QObject::tr("estimate ±2σ"));
  band->setColor(QColor(80, 140, 230, 90));
  band->setBorderColor(QColor(80, 140, 230, 160));
  line->setName(QObject::tr("estimate"));
  line->setPen(QPen(QColor(20, 70, 180), 1.6));
  dots->setName(QObject::tr("measured"));
  dots->setMarkerSize(4.5);
  dots->setColor(QColor(220, 90, 30));
  dots->setBorderColor(Qt::transparent);
  chart->addSeries(band);
  if (dots->count() > 0)
    chart->addSeries(dots);
  else
    delete dots;
  chart->addSeries(line);
  const auto [lo, hi] = yRange(s);
  const double t0 = s.t.empty() ? 0.0 : s.t.front(), t1 = s.t.empty() ? 1.0 : s.t.back();
  QValueAxis* x = axis(QObject::tr("t (s)"), t0, t1 > t0 ? t1 : t0 + 1.0);
  QValueAxis* y = axis(s.unit, lo, hi);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* a : chart->series()) {
    a->attachAxis(x);
    a->attachAxis(y);
  }
  // Name on the first line, the fit on the second (the charts sit three in a row).
  const SeriesSummary sum = summarize(s);
  QString title = QStringLiteral("<b>%1</b><br>").arg(s.name.toHtmlEscaped());
  if (sum.measured > 0)
    title += QObject::tr("residual RMS %1, mean σ %2 %3")
                 .arg(sum.rms_residual, 0, 'g', 3)
                 .arg(sum.mean_sigma, 0, 'g', 3)
                 .arg(s.unit);
  else
    title += QObject::tr("unknown drive, mean σ %1 %2").arg(sum.mean_sigma, 0, 'g', 3).arg(s.unit);
  chart->setTitle(title);
  // One key for all charts (estimateChartKey): a legend in each, three to a row, was elided.
  chart->legend()->hide();
  chart->setMargins(QMargins(4, 2, 4, 2));
  auto* view = new QChartView(chart, parent);
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumHeight(230);
  return view;
}

}  // namespace articula
