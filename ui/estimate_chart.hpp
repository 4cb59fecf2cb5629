#pragma once
// One chart of the estimation dock: a quantity's measured samples (dots), its estimate (line)
// and the estimate's ±2σ band (filled), against time. Thinned to at most ~2000 points per series
// (every k-th row: the band and the estimate are smooth at that scale).
#include <QString>

class QChartView;
class QWidget;

namespace articula {

struct EstimateSeries;

// The chart has no legend of its own: the dock shows this key (rich text) once above them all.
QChartView* makeEstimateChart(const EstimateSeries& s, QWidget* parent = nullptr);
QString estimateChartKey();

// "0.0123 rad" style summary of a series: RMS of (measured - estimate) over the present cells,
// and the mean σ of the estimate (for the chart's title and the tests).
struct SeriesSummary {
  double rms_residual = 0.0;  // NaN when nothing was measured (drives)
  double mean_sigma = 0.0;
  int measured = 0;  // present cells
};
SeriesSummary summarize(const EstimateSeries& s);

}  // namespace articula
