// The sketch's outlines of every body at once (ui/sketch_outlines, O(bodies + joints)) against
// the per-body forms they replace: core's body_points and sketch_points, and the outline rule
// as SketchEditor::outline wrote it before (kept here as the reference), point for point, on
// every sample and on a 300-body ladder with contacts. Exact equality: the same arithmetic.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <limits>

#include "core/io/project.hpp"
#include "ui/sketch_outlines.hpp"

using namespace articula;

namespace {

// SketchEditor::outline before ui/sketch_outlines (sketch_editor.cpp at bfa1ef6).
void reference_insert(std::vector<Vec3>& pts, const Vec3& p) {
  for (const Vec3& q : pts)
    if ((q - p).norm() < 1e-9) return;
  std::size_t at = pts.size();
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; pts.size() >= 3 && i < pts.size(); ++i) {
    const Vec3 &a = pts[i], &c = pts[(i + 1) % pts.size()];
    const double added = (p - a).norm() + (c - p).norm() - (c - a).norm();
    if (added < least) least = added, at = i + 1;
  }
  pts.insert(pts.begin() + static_cast<std::ptrdiff_t>(at), p);
}

std::vector<Vec3> reference_outline(const MechanismSpec& spec, int body) {
  std::vector<Vec3> pts = body_points(spec, body);
  const BodySpec& b = spec.bodies[body];
  for (const JointSpec& j : spec.joints)
    if (pts.size() == 1 && (j.child == b.name || j.parent == b.name) &&
        j.joint.type == JointType::Prismatic)
      return pts;
  for (const ContactSpec& c : spec.contacts)
    if (c.body == b.name) reference_insert(pts, c.point);
  if (pts.size() != 1) return pts;
  Vec3 along = b.com - pts[0];
  along.z() = 0;
  if (b.mass <= 0 || !std::isfinite(b.mass) || along.norm() < 1e-9) return pts;
  const double half = std::sqrt(std::max(0.0, 3 * b.inertia[2] / b.mass));
  Vec3 end = b.com + half * along.normalized();
  end.z() = pts[0].z();
  if (!end.allFinite()) return pts;
  pts.push_back(end);
  return pts;
}

void check_spec(const MechanismSpec& spec) {
  const SketchOutlines o = sketch_outlines(spec);
  REQUIRE(o.points.size() == spec.bodies.size());
  REQUIRE(o.outline.size() == spec.bodies.size());
  for (int b = 0; b < static_cast<int>(spec.bodies.size()); ++b) {
    INFO("body " << spec.bodies[b].name);
    CHECK(o.body(spec.bodies[b].name) == spec.body_index(spec.bodies[b].name));
    CHECK(o.points[b] == body_points(spec, b));         // exact: the same arithmetic
    CHECK(o.outline[b] == reference_outline(spec, b));  // exact
  }
  CHECK(o.body("ground") == spec.body_index("ground"));
  CHECK(o.body("no such body") == -1);
  const std::vector<SketchPoint> fast = sketch_points_of(spec, o), slow = sketch_points(spec);
  REQUIRE(fast.size() == slow.size());
  for (std::size_t i = 0; i < fast.size(); ++i) {
    CHECK(fast[i].body == slow[i].body);
    CHECK(fast[i].local == slow[i].local);
    CHECK(fast[i].world == slow[i].world);
  }
}

// Two hanging rails of bars joined by a rung every fifth link, a contact ball on every tenth
// bar and a slider block on the last: every branch of the outline rule, at 300 bodies.
MechanismSpec ladder_with_contacts(int links) {
  MechanismSpec spec;
  auto bar = [&](const std::string& name, double x, double y) {
    BodySpec b;
    b.name = name;
    b.mass = 0.3;
    b.com = Vec3(0.05, 0, 0);
    b.inertia = {1e-4, 3e-4, 3e-4, 0, 0, 0};
    PoseSpec pose;
    pose.position = Vec3(x, y, 0);
    b.pose = pose;
    spec.bodies.push_back(b);
  };
  auto revolute = [&](const std::string& name, const std::string& parent, const Vec3& at_parent,
                      const std::string& child, const Vec3& at_child) {
    JointSpec j;
    j.name = name;
    j.joint.type = JointType::Revolute;
    j.parent = parent, j.child = child;
    j.parent_frame.position = at_parent, j.child_frame.position = at_child;
    spec.joints.push_back(j);
  };
  for (int side = 0; side < 2; ++side)
    for (int k = 0; k < links; ++k) {
      const std::string s = side ? "r" : "l", name = s + std::to_string(k + 1);
      bar(name, side * 0.3, -0.1 * k);
      revolute("j" + name, k ? s + std::to_string(k) : "ground",
               k ? Vec3(0.1, 0, 0) : Vec3(side * 0.3, 0, 0), name, Vec3::Zero());
      if (k % 10 == 9) {
        ContactSpec c;
        c.name = "c" + name;
        c.body = name;
        c.point = Vec3(0.05, 0.02, 0);
        spec.contacts.push_back(c);
      }
    }
  for (int k = 5; k <= links; k += 5)
    revolute("rung" + std::to_string(k), "l" + std::to_string(k), Vec3(0.1, 0, 0),
             "r" + std::to_string(k), Vec3(0.1, 0, 0));
  bar("pendulum", 1, 0);  // one point, off its centre of mass: a bar to the rod's end
  revolute("jp", "ground", Vec3(1, 0, 0), "pendulum", Vec3::Zero());
  bar("block", 2, 0);  // one point on a prismatic joint: a slider block
  JointSpec slide;
  slide.name = "slide";
  slide.joint.type = JointType::Prismatic;
  slide.parent = "ground", slide.child = "block";
  spec.joints.push_back(slide);
  return spec;
}

}  // namespace

TEST_CASE("sketch outlines: every body at once, as body by body", "[ui][outlines]") {
  int samples = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(ARTICULA_SOURCE_DIR) + "/samples")) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().filename().string());
    check_spec(load_project(entry.path().string()).spec);
    ++samples;
  }
  CHECK(samples >= 20);
  const MechanismSpec ladder = ladder_with_contacts(150);
  REQUIRE(ladder.bodies.size() == 302);
  check_spec(ladder);
  const SketchOutlines o = sketch_outlines(ladder);
  CHECK(o.outline[ladder.body_index("l10")].size() == 3);  // a bar and its contact ball
  CHECK(o.outline[ladder.body_index("pendulum")].size() == 2);
  CHECK(o.outline[ladder.body_index("block")].size() == 1);
}
