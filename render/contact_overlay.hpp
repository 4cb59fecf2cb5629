#pragma once
// Contacts in the 3-D scene (RBDA 11 unilaterals of the file's "contacts"): the shapes built once
// on their bodies (each contact's sphere, a patch of its plane, a cam's profile, a slot's rails)
// and, per frame, a marker where each sphere meets its surface (green while touching, grey while
// apart) and an arrow for the contact force on the sphere's body (normal and friction together).
// OSG only in this header, like the scene's.
#include <memory>
#include <osg/Group>
#include <osg/MatrixTransform>
#include <vector>

namespace articula {

struct Mechanism;
struct Snapshot;
struct SceneLayout;
namespace style {
struct Sizes;
}
class ForceArrows;

class ContactOverlay {
 public:
  // `bodies`: the scene's transform per model body (the static shapes go under them). `mech`
  // must outlive the overlay.
  ContactOverlay(const Mechanism& mech, const SceneLayout& layout, const style::Sizes& size,
                 const std::vector<osg::ref_ptr<osg::MatrixTransform>>& bodies);
  ~ContactOverlay();
  ContactOverlay(const ContactOverlay&) = delete;
  ContactOverlay& operator=(const ContactOverlay&) = delete;

  osg::Group* markers() const { return markers_.get(); }  // world coordinates, per frame
  osg::Group* arrows() const;                             // contact force arrows
  void update(const Snapshot& snapshot);
  void set_force_scale(double metres_per_newton);  // 0: automatic

  // Per contact (file order), at the last update: the touching point (world), whether the
  // sphere touches its surface (a slot: whether the pin is held) and the force on its body (N).
  int count() const { return static_cast<int>(shown_.size()); }
  osg::Vec3d touching_point(int contact) const { return shown_[contact].point; }
  bool touching(int contact) const { return shown_[contact].touching; }
  osg::Vec3d force(int contact) const { return shown_[contact].force; }

 private:
  struct Shown {
    osg::Vec3d point, normal, force;
    bool touching = false;
  };
  struct Bound;  // the unilaterals and a kinematics workspace (core types: not in this header)
  void build_markers(const style::Sizes& size);
  void place_marker(int contact);

  const Mechanism& mech_;
  std::unique_ptr<Bound> bound_;
  std::unique_ptr<ForceArrows> arrows_;
  osg::ref_ptr<osg::Group> markers_;
  std::vector<osg::ref_ptr<osg::MatrixTransform>> marker_xf_;  // per contact
  std::vector<Shown> shown_;                                   // per contact
  double marker_size_ = 0.0;                                   // dot radius (m)
  double touch_ = 0.0;                                         // a gap below this (m) is touching
};

}  // namespace articula
