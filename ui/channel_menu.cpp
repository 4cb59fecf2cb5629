#include "ui/channel_menu.hpp"

#include <QMenu>

#include "core/sim/mechanism.hpp"

namespace articula {

namespace {

void addChannel(QMenu* menu, const Mechanism& m, const Channel& c, const ChannelCallback& cb) {
  const QString unit = channelUnit(c, m);
  const QString label =
      unit.isEmpty() ? channelName(c, m) : QStringLiteral("%1  (%2)").arg(channelName(c, m), unit);
  QObject::connect(menu->addAction(label), &QAction::triggered, menu, [cb, c] { cb(c); });
}

}  // namespace

void addJointChannels(QMenu* menu, const Mechanism& m, int joint, const ChannelCallback& chosen) {
  using Q = Channel::Quantity;
  Q last = Q::Q;
  for (const Channel& c : jointChannels(m, joint)) {
    const bool group_change =
        (c.quantity == Q::ForceMagnitude || c.quantity == Q::MomentMagnitude ||
         (c.quantity <= Q::Tau && c.quantity != last));
    if (group_change && !menu->isEmpty()) menu->addSeparator();
    last = c.quantity;
    addChannel(menu, m, c, chosen);
  }
}

void addMechanismChannels(QMenu* menu, const Mechanism& m, const ChannelCallback& chosen) {
  for (const Channel& c : mechanismChannels(m)) {
    if (c.quantity == Channel::Quantity::CouplingTau && c.index == 0) menu->addSeparator();
    addChannel(menu, m, c, chosen);
  }
}

void addAllChannels(QMenu* menu, const Mechanism& m, const ChannelCallback& chosen) {
  for (std::size_t j = 0; j < m.spec.joints.size(); ++j) {
    QMenu* sub = menu->addMenu(QString::fromStdString(m.spec.joints[j].name));
    addJointChannels(sub, m, static_cast<int>(j), chosen);
  }
  menu->addSeparator();
  addMechanismChannels(menu, m, chosen);
}

}  // namespace articula
