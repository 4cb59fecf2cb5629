#pragma once
// Joint markers, drawn on the bodies the joint connects: revolute pins, ground symbols (triangle
// and hatching) at fixed pivots, slider rails and cylinder glands, universal-joint forks, ball
// joints; and the joint-axis arrows (an overlay).
#include <osg/Group>
#include <vector>

#include "render/scene_layout.hpp"
#include "render/scene_style.hpp"

namespace articula {

// Adds the markers of user joint `joint` to markers[model body] (body coordinates; ground = world).
void add_joint_markers(const Mechanism& mech, const SceneLayout& layout, const style::Sizes& size,
                       int joint, std::vector<osg::ref_ptr<osg::Group>>& markers);
// Adds arrows along the joint's motion axes to axes[model body].
void add_joint_axes(const Mechanism& mech, const SceneLayout& layout, const style::Sizes& size,
                    int joint, std::vector<osg::ref_ptr<osg::Group>>& axes);

}  // namespace articula
