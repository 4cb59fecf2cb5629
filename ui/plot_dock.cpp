#include "ui/plot_dock.hpp"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QMenu>
#include <QMessageBox>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/sim/contact/unilateral.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/snapshot_history.hpp"
#include "ui/channel_menu.hpp"
#include "ui/icons.hpp"
#include "ui/plot_widget.hpp"
#include "ui/simulation_controller.hpp"

namespace articula {

PlotDock::PlotDock(SimulationController* controller, QWidget* parent)
    : QDockWidget(tr("Plots"), parent),
      controller_(controller),
      splitter_(new QSplitter(Qt::Horizontal)),
      channels_(new QToolButton),
      trailing_(new QTimer(this)) {
  trailing_->setSingleShot(true);
  connect(trailing_, &QTimer::timeout, this, [this] { refreshPlots(true); });
  setObjectName("PlotDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(2, 0, 2, 2);
  layout->setSpacing(2);
  layout->addWidget(makeToolBar());
  splitter_->setChildrenCollapsible(false);
  layout->addWidget(splitter_, 1);
  setWidget(body);

  connect(controller_, &SimulationController::snapshotsAdded, this,
          [this](const std::vector<Snapshot>& s) {
            for (PlotWidget* p : plots_) p->append(s);
            refreshPlots();
          });
  connect(controller_, &SimulationController::historyReset, this, [this] {
    for (PlotWidget* p : plots_) p->clearData();
  });
  connect(controller_, &SimulationController::eventsChanged, this, [this] {
    for (PlotWidget* p : plots_) p->eventsChanged();
    refreshPlots();
  });
  connect(controller_, &SimulationController::frameChanged, this, [this](const Snapshot& s) {
    const double t = controller_->isFollowing() ? std::nan("") : s.t;
    for (PlotWidget* p : plots_) p->setCursorTime(t);
  });
}

QWidget* PlotDock::makeToolBar() {
  auto* bar = new QWidget(this);
  auto* row = new QHBoxLayout(bar);
  row->setContentsMargins(0, 0, 0, 0);
  row->setSpacing(2);
  auto* add = new QToolButton(bar);
  add->setIcon(themedIcon("plot-add"));
  add->setText(tr("New plot"));
  add->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  add->setAutoRaise(true);
  connect(add, &QToolButton::clicked, this, [this] {
    customised_ = true;
    setCurrentPlot(addPlot());
  });
  channels_->setText(tr("Add channel"));
  channels_->setToolTip(
      tr("Add a channel to the selected plot (or right-click a joint in the "
         "model tree)"));
  channels_->setPopupMode(QToolButton::InstantPopup);
  channels_->setAutoRaise(true);
  channels_->setMenu(new QMenu(channels_));
  connect(channels_->menu(), &QMenu::aboutToShow, this, [this] {
    QMenu* menu = channels_->menu();
    // clear() leaves submenus (each owns its menu action): without this every opening leaked
    // a set of joint submenus whose actions still named the channels of older mechanisms.
    for (QMenu* sub : menu->findChildren<QMenu*>(Qt::FindDirectChildrenOnly)) delete sub;
    menu->clear();
    if (mech_) addAllChannels(menu, *mech_, [this](const Channel& c) { plotChannel(c); });
  });
  row->addWidget(add);
  row->addWidget(channels_);
  row->addStretch(1);
  return bar;
}

void PlotDock::refreshPlots(bool now) {
  constexpr int kIntervalMs = 100;
  const qint64 elapsed = since_refresh_.isValid() ? since_refresh_.elapsed() : kIntervalMs;
  if (!now && elapsed < kIntervalMs) {
    if (!trailing_->isActive()) trailing_->start(static_cast<int>(kIntervalMs - elapsed));
    return;
  }
  since_refresh_.restart();
  trailing_->stop();
  for (PlotWidget* p : plots_) p->refreshIfDirty();
}

void PlotDock::setMechanism(std::shared_ptr<const Mechanism> m) {
  for (PlotWidget* p : std::vector<PlotWidget*>(plots_)) removePlot(p);
  mech_ = std::move(m);
  channels_->setEnabled(mech_ != nullptr);
}

std::vector<PlotDock::SavedPlot> PlotDock::savedPlots() const {
  std::vector<SavedPlot> out;
  if (!mech_ || !customised_) return out;
  for (const PlotWidget* p : plots_) {
    SavedPlot saved{p->customTitle(), {}};
    for (const Channel& c : p->channels()) saved.keys << channelKey(c, *mech_);
    out.push_back(saved);
  }
  return out;
}

int PlotDock::restorePlots(const std::vector<SavedPlot>& saved) {
  if (!mech_) return 0;
  std::vector<Channel> offered = mechanismChannels(*mech_);
  for (int j = 0; j < static_cast<int>(mech_->spec.joints.size()); ++j)
    for (const Channel& c : jointChannels(*mech_, j)) offered.push_back(c);
  int restored = 0;
  for (const SavedPlot& s : saved) {
    std::vector<Channel> channels;
    for (const QString& key : s.keys)
      for (const Channel& c : offered)
        if (channelKey(c, *mech_) == key) channels.push_back(c);
    if (channels.empty()) continue;  // every channel's joint is gone
    PlotWidget* plot = addPlot(s.title);
    for (const Channel& c : channels) plot->addChannel(c, controller_->history());
    ++restored;
  }
  if (!plots_.empty()) setCurrentPlot(plots_.front());
  refreshPlots(true);
  customised_ = restored > 0;
  return restored;
}

void PlotDock::renameMechanism(std::shared_ptr<const Mechanism> m) {
  mech_ = std::move(m);
  for (PlotWidget* p : plots_) p->renameMechanism(mech_.get());
}

PlotWidget* PlotDock::addPlot(const QString& title) {
  auto* plot = new PlotWidget(splitter_);
  plot->setMechanism(mech_.get());
  plot->setEvents(&controller_->events());
  plot->setTitle(title);
  splitter_->addWidget(plot);
  plots_.push_back(plot);
  connect(plot, &PlotWidget::activated, this, &PlotDock::setCurrentPlot);
  connect(plot, &PlotWidget::removeRequested, this, [this](PlotWidget* p) {
    customised_ = true;
    removePlot(p);
  });
  connect(plot, &PlotWidget::exportCsvRequested, this, &PlotDock::exportCsv);
  connect(plot, &PlotWidget::exportPngRequested, this, &PlotDock::exportPng);
  QList<int> sizes;
  for (std::size_t i = 0; i < plots_.size(); ++i) sizes << 1000;
  splitter_->setSizes(sizes);
  if (!current_) setCurrentPlot(plot);
  return plot;
}

void PlotDock::removePlot(PlotWidget* plot) {
  auto it = std::find(plots_.begin(), plots_.end(), plot);
  if (it == plots_.end()) return;
  plots_.erase(it);
  if (current_ == plot) current_ = nullptr;
  // Deleted later, so it may still lay out (QtCharts' plotAreaChanged names its curves) after
  // the mechanism it points to is gone: it lets go of it now (a GUI monkey crash).
  plot->setMechanism(nullptr);
  plot->deleteLater();
  plot->hide();
  if (!current_ && !plots_.empty()) setCurrentPlot(plots_.back());
}

void PlotDock::setCurrentPlot(PlotWidget* plot) {
  current_ = plot;
  for (PlotWidget* p : plots_) p->setActive(p == plot && plots_.size() > 1);
}

void PlotDock::plotChannel(const Channel& c, bool newPlot) {
  if (!mech_) return;
  // Only channels of this mechanism (a request made for an older one names other joints).
  const std::vector<Channel> offered =
      c.perJoint() ? (c.joint >= 0 && c.joint < static_cast<int>(mech_->spec.joints.size())
                          ? jointChannels(*mech_, c.joint)
                          : std::vector<Channel>{})
                   : mechanismChannels(*mech_);
  if (std::find(offered.begin(), offered.end(), c) == offered.end()) return;
  // A third unit in the current plot (which has its left and right axes): a plot of its own.
  if (newPlot || !current_ || !current_->accepts(c)) setCurrentPlot(addPlot());
  current_->addChannel(c, controller_->history());
  current_->refreshIfDirty();
  customised_ = true;
  show();
  raise();
}

namespace {
// The normal force of each contact (the first four): what a sample with contacts is about.
std::vector<Channel> contactForceChannels(const Mechanism& m) {
  std::vector<Channel> out;
  const std::vector<Unilateral> items = bind_unilaterals(m);
  for (std::size_t k = 0; k < items.size() && out.size() < 4; ++k)
    if (items[k].kind == Unilateral::Kind::Contact)
      out.push_back({Channel::Quantity::StopForce, -1, static_cast<int>(k)});
  return out;
}
}  // namespace

void PlotDock::showDefaultPlots() {
  if (!mech_) return;
  using Q = Channel::Quantity;
  PlotWidget* effort = addPlot();
  std::vector<Channel> efforts;
  for (const DriveBinding& d : mech_->drives) {
    Channel c{Q::Tau, d.user_joint, 0};
    if (efforts.empty() || channelUnit(c, *mech_) == channelUnit(efforts[0], *mech_))
      efforts.push_back(c);
  }
  if (efforts.empty() && !mech_->spec.joints.empty()) efforts.push_back({Q::Q, 0, 0});
  for (const Channel& c : efforts) effort->addChannel(c, controller_->history());
  const bool one = efforts.size() == 1,
             force = !efforts.empty() && channelUnit(efforts[0], *mech_) == "N";
  if (efforts.empty() || efforts[0].quantity == Q::Q)
    effort->setTitle(tr("Joint position"));
  else if (force)
    effort->setTitle(one ? tr("Drive force") : tr("Drive forces"));
  else
    effort->setTitle(one ? tr("Drive torque") : tr("Drive torques"));
  if (const std::vector<Channel> contacts = contactForceChannels(*mech_); !contacts.empty()) {
    PlotWidget* plot = addPlot(contacts.size() == 1 ? tr("Contact force") : tr("Contact forces"));
    for (const Channel& c : contacts) plot->addChannel(c, controller_->history());
    setCurrentPlot(effort);
    refreshPlots(true);
    customised_ = false;
    return;
  }
  PlotWidget* reaction = addPlot(tr("Joint reaction forces"));
  const int driven = mech_->drives.empty() ? -1 : mech_->drives[0].user_joint;
  const int n = static_cast<int>(mech_->spec.joints.size());
  int loop = -1;
  for (int j = 0; j < n && loop < 0; ++j)
    if (mech_->compiled.joint_map[j].loop) loop = j;
  for (int j : {driven >= 0 ? driven : 0, loop})
    if (j >= 0 && j < n) reaction->addChannel({Q::ForceMagnitude, j, 0}, controller_->history());
  setCurrentPlot(effort);
  refreshPlots(true);
  customised_ = false;
}

void PlotDock::exportCsv(PlotWidget* plot) {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export plot data"), "plot.csv",
                                                    tr("CSV files (*.csv)"));
  if (!path.isEmpty() && !plot->exportCsv(path))
    QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1.").arg(path));
}

void PlotDock::exportPng(PlotWidget* plot) {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export plot image"), "plot.png",
                                                    tr("PNG images (*.png)"));
  if (!path.isEmpty() && !plot->exportPng(path))
    QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1.").arg(path));
}

}  // namespace articula
