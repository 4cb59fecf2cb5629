#pragma once
// One live chart: a set of channels plotted against time. Samples arrive from the simulation
// controller; the chart redraws when its dock asks (~10 times a second), draws at most ~600
// points per series (min/max decimation per bucket, so peaks survive), keeps its axes fitted to
// the data with nice round limits that only change when the data outgrows them (QtCharts
// recomputes every series' geometry on each range change, the dominant cost of a live chart),
// shows a readout of t and every value under the mouse, and exports its data (CSV) and image (PNG).
// The wheel zooms the time axis about the pointer, a drag pans it, a double-click fits it again.
// Tick labels stay short: values are divided by an SI prefix shown with the unit in the y title.
// Channels of a second unit (a joint angle and a torque) get the right-hand y axis, in its own
// unit; a third unit goes to another plot (accepts()). Lengths and angles are drawn in the
// display units (Edit > Preferences: mm, °); the data and the CSV stay SI.
#include <QWidget>
#include <memory>
#include <utility>
#include <vector>

#include "ui/channel.hpp"
#include "ui/event_marks.hpp"
#include "ui/plot_axis.hpp"
#include "ui/text_format.hpp"

class QChart;
class QChartView;
class QGraphicsLineItem;
class QLabel;
class QLineSeries;
class QToolButton;
class QCategoryAxis;

namespace articula {

struct Mechanism;
struct Snapshot;
class SnapshotHistory;

class PlotWidget : public QWidget {
  Q_OBJECT

 public:
  explicit PlotWidget(QWidget* parent = nullptr);

  // Forgets the channels and data; `m` must outlive the plot's use of it (or be reset).
  void setMechanism(const Mechanism* m);
  const Mechanism* mechanism() const { return mech_; }  // not owned: the plot dock holds it
  // The same mechanism renamed (same channels by index): labels follow, data stays.
  void renameMechanism(const Mechanism* m);
  // Adds a channel (ignored if present or not accepted) and refills every channel from `history`.
  void addChannel(const Channel& c, const SnapshotHistory& history);
  // Whether c fits this plot: its unit is one the plot has, or the plot has fewer than two.
  bool accepts(const Channel& c) const;
  void removeChannel(int i);
  const std::vector<Channel>& channels() const { return channels_; }
  void setTitle(const QString& title);  // empty: derived from the channels
  // The caption: the title set (with the channel's name when it is the only one), else the
  // channels' names.
  QString title() const;
  const QString& customTitle() const { return title_; }  // empty when derived from the channels

  void clearData();
  void append(const std::vector<Snapshot>& snapshots);
  void refill(const SnapshotHistory& history);
  void setCursorTime(double t);  // the scrubbed instant; NaN hides the marker
  // Contact events to mark (owned by the caller; null: none); eventsChanged() when they change.
  void setEvents(const ContactEvents* events);
  void eventsChanged();
  int eventMarksDrawn() const { return marks_ ? marks_->drawn() : 0; }
  std::size_t sampleCount() const { return t_.size(); }
  const std::vector<double>& values(int channel) const { return values_[channel]; }

  QChart* chart() const { return chart_; }  // tests read its labels
  QString yAxisTitle(int side = 0) const;   // 0: left, 1: right (empty while unused)
  // The y axis's range, in the display units (mm, °) or, for other units, the channel's.
  std::pair<double, double> yRange(int side = 0) const { return {axes_[side].y0, axes_[side].y1}; }

  bool exportCsv(const QString& path) const;
  bool exportPng(const QString& path) const;
  void setActive(bool active);
  // Redraws if samples arrived since the last redraw (and the plot is visible).
  void refreshIfDirty();

 signals:
  void activated(articula::PlotWidget* plot);
  void removeRequested(articula::PlotWidget* plot);
  void exportCsvRequested(articula::PlotWidget* plot);
  void exportPngRequested(articula::PlotWidget* plot);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  QWidget* makeHeader();
  void rebuildSeries();
  void appendOne(const Snapshot& s);
  void refresh();
  void fitAxes();
  bool zoomPan(QEvent* event);
  std::pair<int, int> tickCounts()
      const;  // y and time tick intervals that fit  // true when the event changed the time window
  void updateCursorLine();  // and the event marks: both follow the time axis
  void showReadout(const QPointF& scene_pos);
  void thinOut();
  void recomputeRange();
  void assignAxes();
  QString seriesName(std::size_t channel)
      const;  // the channels' units to the left and right axes, in the display units

  const Mechanism* mech_ = nullptr;
  std::vector<Channel> channels_;
  std::vector<double> t_;
  std::vector<std::vector<double>> values_;  // per channel, aligned with t_
  std::vector<QLineSeries*> series_;
  QString title_;
  QChart* chart_;
  QChartView* view_;
  QCategoryAxis* x_axis_;  // category axes: labels at exact round values, no "-1.4e-17"
  QGraphicsLineItem* hover_line_ = nullptr;
  QGraphicsLineItem* cursor_line_ = nullptr;
  std::unique_ptr<ChartEventMarks> marks_;
  const ContactEvents* events_ = nullptr;
  QLabel* readout_;
  QLabel* caption_;
  bool dirty_ = false;
  double cursor_t_;
  YAxis axes_[2];          // left: the first channel's unit; right: a second unit
  std::vector<int> side_;  // per channel: the axis it is drawn against
  int x_ticks_ = 0;        // tick intervals the time axis was laid out for
  double t_end_ = 0;       // current time axis end
  bool zoomed_ = false;    // the time window is the user's (wheel, drag) until a double-click
  double zoom_t0_ = 0, zoom_t1_ = 1;
  bool panning_ = false;
  double pan_from_ = 0;  // the time under the pointer when the drag started
};

}  // namespace articula
