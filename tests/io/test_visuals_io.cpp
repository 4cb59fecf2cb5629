// Body visuals in the project file (docs/format-extensions.md, bodies[i].visuals): reading every
// shape, the errors with their JSON pointers, and save/load round trips with unknown fields kept.
#include <catch2/catch.hpp>

#include "core/io/project.hpp"
#include "core/io/visual_json.hpp"
#include "tests/support/json_docs.hpp"

namespace articula {
namespace {

using nlohmann::json;
using test::check_error;
using test::with;

json arm() {
  return json::parse(R"json({
  "format": "articula", "version": 1, "name": "arm",
  "bodies": [
    { "name": "link", "mass": 1.0, "com": [0.2, 0, 0], "inertia": [0.01, 0.01, 0.01, 0, 0, 0],
      "visuals": [
        { "shape": "box", "size": [0.4, 0.05, 0.03],
          "frame": { "position": [0.2, 0, 0], "quaternion": [1, 0, 0, 0] }, "material": "red" },
        { "shape": "cylinder", "radius": 0.03, "length": 0.06 },
        { "shape": "sphere", "radius": 0.04, "frame": { "position": [0.4, 0, 0] } }
      ] }
  ],
  "joints": [ { "name": "J", "type": "revolute", "parent": "ground", "child": "link" } ]
})json");
}

}  // namespace

TEST_CASE("body visuals load with every shape", "[io][visuals]") {
  const MechanismSpec spec = parse_project(arm().dump()).spec;
  const std::vector<VisualSpec> v = body_visuals(spec.bodies[0]);
  REQUIRE(v.size() == 3);
  CHECK(v[0].shape == VisualSpec::Shape::Box);
  CHECK(v[0].size == Vec3(0.4, 0.05, 0.03));
  CHECK(v[0].frame.position == Vec3(0.2, 0, 0));
  CHECK(v[0].extra == json{{"material", "red"}});
  CHECK(v[1].shape == VisualSpec::Shape::Cylinder);
  CHECK(v[1].radius == 0.03);
  CHECK(v[1].length == 0.06);
  CHECK(v[1].frame == PoseSpec{});
  CHECK(v[2].shape == VisualSpec::Shape::Sphere);
  CHECK(v[2].radius == 0.04);
}

TEST_CASE("body visuals survive save and load unchanged", "[io][visuals]") {
  const MechanismSpec spec = parse_project(arm().dump()).spec;
  const std::string text = to_text(spec);
  CHECK(parse_project(text).spec == spec);
  const json saved = json::parse(text);
  const json& v = saved.at("bodies").at(0).at("visuals");
  CHECK(v.at(0).at("material") == "red");
  CHECK(!v.at(1).contains("frame"));  // an identity frame is left out
  CHECK(!v.at(2).contains("size"));
  // A body without visuals gets no empty array.
  CHECK(!json::parse(
             to_text(parse_project(with(arm(), "/bodies/0/visuals", json::array()).dump()).spec))
             .at("bodies")
             .at(0)
             .contains("visuals"));
}

TEST_CASE("bad body visuals are named by JSON pointer", "[io][visuals]") {
  check_error(with(arm(), "/bodies/0/visuals", json::object()), "/bodies/0/visuals",
              "expected an array of visuals");
  check_error(with(arm(), "/bodies/0/visuals/0/shape", "mesh"), "/bodies/0/visuals/0/shape",
              "unknown shape 'mesh'; expected box, cylinder or sphere");
  check_error(with(arm(), "/bodies/0/visuals/0/size", json{0.1, 0.2}), "/bodies/0/visuals/0/size",
              "3");
  check_error(with(arm(), "/bodies/0/visuals/0/size/1", 0.0), "/bodies/0/visuals/0/size/1",
              "must be > 0");
  check_error(with(arm(), "/bodies/0/visuals/1/radius", -0.03), "/bodies/0/visuals/1/radius", "");
  json no_length = arm();
  no_length["bodies"][0]["visuals"][1].erase("length");
  check_error(no_length, "/bodies/0/visuals/1/length", "required field is missing");
  check_error(with(arm(), "/bodies/0/visuals/2/frame/quaternion", json{0, 0, 0, 0}),
              "/bodies/0/visuals/2/frame/quaternion", "zero-length quaternion");
  check_error(with(arm(), "/bodies/0/visuals/2", 3), "/bodies/0/visuals/2", "object");
}

}  // namespace articula
