#pragma once
// The solid geometry of one model body: the boxes, cylinders and spheres of its "visuals" when the
// file gives some (URDF/SDFormat imports), else drawn from its joints: bars between its joint
// points, a plate for ternary and higher links, its inertia-equivalent solid when it has a single
// joint point, a block when it is a prismatic slider.
#include <osg/Geode>

#include "render/scene_layout.hpp"
#include "render/scene_style.hpp"

namespace articula {

// Geometry in model body coordinates. Ground (body 0) gets none: it is drawn by its joint symbols.
osg::ref_ptr<osg::Geode> build_body_geometry(const Mechanism& mech, const SceneLayout& layout,
                                             const style::Sizes& size, int body);

}  // namespace articula
