#pragma once
// What an applied (or reverted) Edit changed, as Tiled's ChangeEvent says it to its views: each
// item touched (kind, id, inserted / removed / renamed / edited) and the widest scope, so that a
// rename refreshes labels without rebuilding the 3D scene or restarting the simulation, while a
// new link or a changed mass does both.
#include <vector>

#include "core/doc/editable_mechanism.hpp"

namespace articula {

struct EditEffect {
  // Ordered by reach: Names (labels only: the dynamics and every index stay the same), Dynamics
  // (the same items with other properties: recompile, restart), Structure (items added or
  // removed: indices move, views rebuild).
  enum class Scope { Names, Dynamics, Structure };
  enum class What { Inserted, Removed, Renamed, Edited };
  struct Item {
    Change::Kind kind = Change::Kind::Body;
    EntityId id = 0;
    What what = What::Edited;
  };
  Scope scope = Scope::Names;
  std::vector<Item> items;
};

// The effect of applying `edit` (reverted = false) or of reverting it (inserts become removals).
EditEffect describe_edit(const Edit& edit, bool reverted = false);

// Whether two items differ only in their own name and the names they refer to (a joint's parent
// and child, a force's bodies, a coupling's joints, the mechanism's name).
bool differs_only_in_names(const Change::Item& before, const Change::Item& after);

}  // namespace articula
