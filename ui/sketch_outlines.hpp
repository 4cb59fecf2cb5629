#pragma once
// Every body's drawn points and outline at once, in O(bodies + joints + contacts): the same
// points in the same order as body_points (core/doc/sketch_geometry) and the sketch's outline
// rule give body by body, each of which walks every joint (O(N^2) per frame on a 1,000-body
// ladder, issue 17 item 4).
#include <string>
#include <unordered_map>
#include <vector>

#include "core/doc/sketch_geometry.hpp"

namespace articula {

struct SketchOutlines {
  std::vector<std::vector<Vec3>> points;   // per body: body_points(spec, b)
  std::vector<std::vector<Vec3>> outline;  // per body: what it is drawn as (SketchEditor::outline)
  std::unordered_map<std::string, int> index;  // body name -> first body of that name
  int body(const std::string& name) const {    // spec.body_index(name)
    const auto it = index.find(name);
    return it == index.end() ? -1 : it->second;
  }
};

SketchOutlines sketch_outlines(const MechanismSpec& spec);
// sketch_points(spec) from the outlines' points: the same list.
std::vector<SketchPoint> sketch_points_of(const MechanismSpec& spec, const SketchOutlines& o);

}  // namespace articula
