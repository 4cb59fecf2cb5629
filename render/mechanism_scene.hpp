#pragma once
// The 3-D scene of a prepared mechanism, built once: one transform per model body, geometry drawn
// from the joints, lights, a ground grid and toggleable overlays (joint axes, body frames, force
// arrows, the trace of a point). update() moves bodies and overlays to a Snapshot; nothing is
// rebuilt per frame. OSG only: no Qt, and no Eigen in this header.
#include <memory>
#include <osg/Group>
#include <osg/Material>
#include <osg/MatrixTransform>
#include <vector>

#include "render/scene_pick.hpp"

namespace articula {

struct Mechanism;
struct Snapshot;
struct SceneLayout;
namespace style {
struct Sizes;
}
class ContactOverlay;
class ForceArrows;
class PointTrace;
class MergedBodies;

// A joint frame fixed on a model body: where a joint attaches to it.
struct JointAnchor {
  int joint = 0;       // user joint index
  int body = 0;        // model body index (0 = ground)
  bool child = true;   // the joint's child side (else its parent side)
  osg::Matrixd frame;  // pose of the joint frame in model body coordinates
};

class MechanismScene {
 public:
  // Above this many moving bodies, their solids are drawn as one merged list (merged_bodies.hpp).
  static constexpr int kMergeAbove = 150;
  // `mech` must outlive the scene. `merge_above`: the body count above which solids are merged.
  explicit MechanismScene(const Mechanism& mech, int merge_above = kMergeAbove);
  ~MechanismScene();
  MechanismScene(const MechanismScene&) = delete;
  MechanismScene& operator=(const MechanismScene&) = delete;

  osg::Group* root() const { return root_.get(); }
  // Bodies to the snapshot's poses (X0), force arrows from its wrenches, the trace extended.
  // Call on the thread that renders (between frames), like every other member.
  void update(const Snapshot& snapshot);

  void set_grid_visible(bool on);
  void set_joint_axes_visible(bool on);
  void set_body_frames_visible(bool on);
  void set_forces_visible(bool on);
  // Contact points (touching or not) and contact forces: on by default.
  void set_contacts_visible(bool on);
  const ContactOverlay& contacts() const { return *contacts_; }
  void set_force_scale(double metres_per_newton);  // 0 (the default): automatic
  double force_scale() const;                      // in use at the last update
  // Trace a point of a user body, given in that body's frame (a coupler curve). Starts afresh.
  void set_trace(int user_body, const osg::Vec3d& point);
  // Traces joint j's point (on its child body; on its parent when the child is ground).
  void set_trace_joint(int joint);
  // Traces the point of user body `user_body` that is at `world` in the current pose (a click).
  void set_trace_at(int user_body, const osg::Vec3d& world);
  // The point on a user body at `world` in the pose on display, in model body coordinates: the
  // point clicked stays the same point of the body when the trace starts later (after a run).
  bool body_point(int user_body, const osg::Vec3d& world, osg::Vec3d& local) const;
  void set_trace_on_body(int user_body, const osg::Vec3d& local);
  osg::Vec3d trace_point(std::size_t i) const;  // world, oldest first
  bool tracing() const { return trace_body_ >= 0; }
  // Extends the trace through recorded states (every step, so the curve does not depend on the
  // frame rate; displayed frames, which may be scrubbed ones, do not add to it).
  void extend_trace(const std::vector<Snapshot>& records);
  void clear_trace();
  void set_trace_visible(bool on);
  std::size_t trace_size() const;
  // Highlights a user body and a user joint's markers; -1 for none.
  void set_selection(const ScenePick& selection);

  ScenePick pick(const osg::NodePath& path) const { return pick_from_path(path); }
  double characteristic_length() const { return length_; }
  bool planar() const { return planar_; }  // the UI may switch the view to 2-D
  osg::Vec3d up() const { return up_; }    // opposite to gravity
  int body_count() const { return static_cast<int>(bodies_.size()); }  // model bodies, ground too
  osg::MatrixTransform* body_transform(int model_body) const { return bodies_[model_body].get(); }
  const std::vector<JointAnchor>& anchors() const { return anchors_; }
  // World position of an anchor at the last update.
  osg::Vec3d anchor_world(int anchor) const;
  // The merged list of solids, null when each body draws its own (few bodies).
  const MergedBodies* merged() const { return merged_.get(); }

 private:
  void build(const Mechanism& mech, const SceneLayout& layout);
  void build_body(const Mechanism& mech, const SceneLayout& layout, const style::Sizes& size,
                  int body);
  void build_joint(const Mechanism& mech, const SceneLayout& layout, const style::Sizes& size,
                   int joint);
  void build_lights(const osg::Vec3d& key_direction);
  void update_forces(const Snapshot& snapshot);
  void highlight(osg::Material* material, bool on);
  void merge_bodies();
  void update_merged();
  void draw_own(int model_body, bool on);  // a merged body drawn by its own nodes (selected)

  const Mechanism& mech_;
  double length_ = 1.0;
  bool planar_ = false;
  osg::Vec3d up_{0, 1, 0};
  osg::ref_ptr<osg::Group> root_;
  osg::ref_ptr<osg::Node> grid_;
  std::vector<osg::ref_ptr<osg::MatrixTransform>> bodies_;                 // per model body
  std::vector<osg::ref_ptr<osg::Group>> markers_, axes_;                   // per model body
  std::vector<osg::ref_ptr<osg::Node>> frames_;                            // per model body
  std::vector<osg::ref_ptr<osg::Node>> shapes_;                            // per model body
  std::vector<osg::ref_ptr<osg::Material>> body_materials_;                // per model body
  std::vector<std::vector<osg::ref_ptr<osg::Material>>> joint_materials_;  // per user joint
  std::vector<JointAnchor> anchors_;
  std::unique_ptr<ForceArrows> forces_;
  std::unique_ptr<PointTrace> trace_;
  std::unique_ptr<ContactOverlay> contacts_;
  std::unique_ptr<MergedBodies> merged_;
  std::vector<osg::Matrixd> poses_;  // per model body, for the merged list
  int merge_above_ = kMergeAbove;
  bool forces_on_ = false, trace_on_ = true, contacts_on_ = true;
  int trace_body_ = -1;     // model body
  osg::Vec3d trace_point_;  // model body coordinates
  ScenePick selection_;
};

}  // namespace articula
