#include "render/scene_pick.hpp"

#include <osg/ValueObject>

namespace articula {

namespace {
const char* const kBodyKey = "articula.body";
const char* const kJointKey = "articula.joint";
}  // namespace

void tag_body(osg::Node& node, int user_body) {
  node.setUserValue(kBodyKey, user_body);
}
void tag_joint(osg::Node& node, int user_joint) {
  node.setUserValue(kJointKey, user_joint);
}

ScenePick pick_from_path(const osg::NodePath& path) {
  ScenePick pick;
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    int value = -1;
    if (pick.joint < 0 && (*it)->getUserValue(kJointKey, value)) pick.joint = value;
    if (pick.body < 0 && (*it)->getUserValue(kBodyKey, value)) pick.body = value;
  }
  return pick;
}

}  // namespace articula
