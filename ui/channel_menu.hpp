#pragma once
// Menus that offer plot channels: one joint's quantities, or every joint's plus the mechanism's.
#include <functional>

#include "ui/channel.hpp"

class QMenu;

namespace articula {

using ChannelCallback = std::function<void(const Channel&)>;

// Adds one action per channel of user joint `joint`, grouped by kind.
void addJointChannels(QMenu* menu, const Mechanism& m, int joint, const ChannelCallback& chosen);
// Adds the mechanism-wide channels (energies, power, loop error).
void addMechanismChannels(QMenu* menu, const Mechanism& m, const ChannelCallback& chosen);
// One submenu per joint, then the mechanism-wide channels.
void addAllChannels(QMenu* menu, const Mechanism& m, const ChannelCallback& chosen);

}  // namespace articula
