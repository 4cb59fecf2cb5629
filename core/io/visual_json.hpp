#pragma once
// Body visuals in the project file (docs/format-extensions.md, bodies[i].visuals): boxes,
// cylinders and spheres in body coordinates, read with every problem named by JSON pointer.
//
// A body keeps them in BodySpec::extra["visuals"], in the checked form read_visuals gives, so
// that every copy, edit and save of the body carries them unchanged; body_visuals and
// set_body_visuals are the typed access.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/spec/visual_spec.hpp"

namespace articula {

// The "visuals" array at `ptr` (e.g. "/bodies/2/visuals"); throws ProjectError. A non-unit
// quaternion is normalised with a warning, as the loader does for joint frames.
std::vector<VisualSpec> read_visuals(const nlohmann::json& j, const std::string& ptr,
                                     std::vector<std::string>& warnings);
nlohmann::json visuals_json(const std::vector<VisualSpec>& visuals);

// The body's visuals (none when it has no "visuals"); throws ProjectError naming "/visuals/..."
// when extra["visuals"] was set to something else than set_body_visuals writes.
std::vector<VisualSpec> body_visuals(const BodySpec& body);
// Replaces the body's visuals; an empty list removes the field.
void set_body_visuals(BodySpec& body, const std::vector<VisualSpec>& visuals);

}  // namespace articula
