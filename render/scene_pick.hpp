#pragma once
// Node masks and pick tags shared by the mechanism scene and the viewport. Bodies and joint
// markers carry their user index (spec order) as an OSG user value, so a viewport can map a hit
// to a selection without knowing the scene object.
#include <osg/Node>

namespace articula {

// Solid mechanism geometry: picked and fitted to the view.
constexpr osg::Node::NodeMask kMechanismMask = 0x1;
// Grid, traces, force arrows, frames: drawn, never picked nor fitted.
constexpr osg::Node::NodeMask kDecorationMask = 0x2;
// Solid mechanism geometry that a merged list draws instead (render/merged_bodies): picked and
// fitted like kMechanismMask, not drawn (the viewport's camera culls it).
constexpr osg::Node::NodeMask kPickOnlyMask = 0x4;

// What a click hit: user body and user joint indices (spec order), -1 when none. Ground is not
// a body here: a click on ground geometry gives body -1 (its joint markers still give the joint).
struct ScenePick {
  int body = -1;
  int joint = -1;
  bool operator==(const ScenePick&) const = default;
};

void tag_body(osg::Node& node, int user_body);
void tag_joint(osg::Node& node, int user_joint);
// The innermost joint tag and the innermost body tag on the path (root first, as OSG gives it).
ScenePick pick_from_path(const osg::NodePath& path);

}  // namespace articula
