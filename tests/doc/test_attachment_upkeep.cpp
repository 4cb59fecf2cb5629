// The upkeep body and joint edits owe contacts and sensors, which name bodies and joints: a
// rename renames them there, a delete deletes them, and undo restores both exactly. Before, a
// renamed cam left the follower's contact naming a body that no longer existed, and the
// mechanism no longer compiled.
#include <catch2/catch.hpp>

#include "core/doc/sketch_edits.hpp"
#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"

using namespace articula;

namespace {

MechanismSpec cam_follower_with_sensors() {
  MechanismSpec spec = load_project(ARTICULA_SOURCE_DIR "/samples/cam_follower.json").spec;
  SensorSpec enc;
  enc.name = "shaft_enc";
  enc.type = SensorSpec::Type::Encoder;
  enc.joint = "shaft";
  enc.sigma = 1e-3;
  SensorSpec gyro;
  gyro.name = "cam_gyro";
  gyro.type = SensorSpec::Type::Gyro;
  gyro.body = "cam";
  gyro.sigma = 1e-3;
  SensorSpec pos;
  pos.name = "follower_pos";
  pos.type = SensorSpec::Type::Position;
  pos.body = "follower";
  pos.sigma = 1e-4;
  spec.sensors = {enc, gyro, pos};
  return spec;
}

}  // namespace

TEST_CASE("renaming a body renames it in contacts and sensors; undo restores all",
          "[doc][upkeep]") {
  EditableMechanism doc(cam_follower_with_sensors());
  const MechanismSpec before = doc.spec();
  const int cam = doc.spec().body_index("cam");
  BodySpec renamed = doc.spec().bodies[cam];
  renamed.name = "disc";
  const Edit e = set_body(doc, cam, renamed);
  doc.apply(e);
  CHECK(doc.spec().contacts[0].surface_body == "disc");  // the roller runs on the renamed cam
  CHECK(doc.spec().contacts[0].body == "follower");
  CHECK(doc.spec().sensors[1].body == "disc");
  CHECK(doc.spec().sensors[2].body == "follower");
  CHECK_NOTHROW(prepare(doc.spec()));  // it still compiles and assembles
  doc.revert(e);
  CHECK(doc.spec() == before);

  const int follower = doc.spec().body_index("follower");
  renamed = doc.spec().bodies[follower];
  renamed.name = "tappet";
  doc.apply(set_body(doc, follower, renamed));
  CHECK(doc.spec().contacts[0].body == "tappet");
  CHECK(doc.spec().sensors[2].body == "tappet");
}

TEST_CASE("renaming a joint renames it in sensors", "[doc][upkeep]") {
  EditableMechanism doc(cam_follower_with_sensors());
  const int shaft = doc.spec().joint_index("shaft");
  JointSpec j = doc.spec().joints[shaft];
  j.name = "camshaft";
  doc.apply(set_joint(doc, shaft, j));
  CHECK(doc.spec().sensors[0].joint == "camshaft");
  CHECK(doc.spec().sensors[1].body == "cam");  // a body sensor is left alone
}

TEST_CASE("deleting a body or joint deletes its contacts and sensors; undo restores their order",
          "[doc][upkeep]") {
  EditableMechanism doc(cam_follower_with_sensors());
  const MechanismSpec before = doc.spec();
  // The cam carries the contact's surface, the gyro, and (through its joint) the encoder.
  const Edit del = remove_body(doc, doc.spec().body_index("cam"));
  doc.apply(del);
  CHECK(doc.spec().contacts.empty());
  REQUIRE(doc.spec().sensors.size() == 1);
  CHECK(doc.spec().sensors[0].name == "follower_pos");
  CHECK_NOTHROW(prepare(doc.spec()));
  doc.revert(del);
  CHECK(doc.spec() == before);

  const Edit del_joint = remove_joint(doc, doc.spec().joint_index("shaft"));
  doc.apply(del_joint);
  CHECK(doc.spec().contacts.size() == 1);  // the cam body stays, with its contact
  REQUIRE(doc.spec().sensors.size() == 2);
  CHECK(doc.spec().sensors[0].name == "cam_gyro");
  doc.revert(del_joint);
  CHECK(doc.spec() == before);
}
