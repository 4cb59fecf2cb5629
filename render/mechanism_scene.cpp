#include "render/mechanism_scene.hpp"

#include <osg/LightModel>
#include <osg/LightSource>

#include "core/sim/mechanism.hpp"
#include "core/sim/snapshot.hpp"
#include "render/body_geometry.hpp"
#include "render/contact_overlay.hpp"
#include "render/joint_geometry.hpp"
#include "render/merged_bodies.hpp"
#include "render/osg_convert.hpp"
#include "render/overlays.hpp"
#include "render/primitives.hpp"
#include "render/scene_layout.hpp"

namespace articula {

namespace {

constexpr std::size_t kTraceCapacity = 4000;

osg::ref_ptr<osg::Material> make_material() {
  // Vertex colours drive ambient and diffuse; a soft highlight gives the bars their roundness.
  auto m = make_ref<osg::Material>();
  m->setColorMode(osg::Material::AMBIENT_AND_DIFFUSE);
  m->setSpecular(osg::Material::FRONT_AND_BACK, osg::Vec4(0.35f, 0.35f, 0.35f, 1.f));
  m->setShininess(osg::Material::FRONT_AND_BACK, 48.f);
  return m;
}

void show(osg::Node* node, bool on) {
  if (node) node->setNodeMask(on ? kDecorationMask : 0u);
}

// A horizontal direction toward the default viewer: +z for y-up worlds, -y for z-up ones.
osg::Vec3d toward_viewer(const osg::Vec3d& up) {
  osg::Vec3d h = std::abs(up.z()) < 0.9 ? osg::Vec3d(0, 0, 1) : osg::Vec3d(0, -1, 0);
  h = h - up * (h * up);
  h.normalize();
  return h;
}

}  // namespace

MechanismScene::MechanismScene(const Mechanism& mech, int merge_above)
    : mech_(mech), root_(new osg::Group), merge_above_(merge_above) {
  const SceneLayout layout = make_layout(mech);
  length_ = layout.length;
  planar_ = mech.planar;
  up_ = to_osg(layout.up);
  build(mech, layout);
  const osg::Vec3d h1 = toward_viewer(up_), h2 = up_ ^ h1;
  build_lights(up_ * 1.0 + h1 * 0.7 - h2 * 0.5);
}

MechanismScene::~MechanismScene() = default;

void MechanismScene::build(const Mechanism& mech, const SceneLayout& layout) {
  const style::Sizes size(layout.length);
  const prim::DetailScope detail(prim::detail_ratio_for(mech.model().nb));
  grid_ = build_grid(layout, size);
  grid_->setNodeMask(kDecorationMask);
  root_->addChild(grid_);
  for (int i = 0; i <= mech.model().nb; ++i) build_body(mech, layout, size, i);
  for (std::size_t j = 0; j < mech.spec.joints.size(); ++j)
    build_joint(mech, layout, size, static_cast<int>(j));
  for (const Anchor& a : layout.anchors)
    anchors_.push_back({a.joint, a.body, a.child, pose_matrix(a.X)});
  forces_ = std::make_unique<ForceArrows>(static_cast<int>(mech.spec.joints.size()), size);
  trace_ = std::make_unique<PointTrace>(kTraceCapacity, 2.5f);
  root_->addChild(forces_->node());
  root_->addChild(trace_->node());
  contacts_ = std::make_unique<ContactOverlay>(mech, layout, size, bodies_);
  root_->addChild(contacts_->markers());
  root_->addChild(contacts_->arrows());
  if (mech.model().nb > merge_above_) merge_bodies();
  set_joint_axes_visible(false);
  set_body_frames_visible(false);
  set_forces_visible(false);
  show(trace_->node(), false);
}

// Body i: its transform (tagged for picking), solid geometry with its own material (for the
// selection colour), and empty groups for joint markers and axes, filled per joint.
void MechanismScene::build_body(const Mechanism& mech, const SceneLayout& layout,
                                const style::Sizes& size, int i) {
  auto xf = make_ref<osg::MatrixTransform>(i == 0 ? osg::Matrixd() : pose_matrix(layout.X0[i]));
  xf->setDataVariance(osg::Object::DYNAMIC);
  if (i > 0) tag_body(*xf, mech.compiled.user_body[i]);
  osg::ref_ptr<osg::Geode> shape = build_body_geometry(mech, layout, size, i);
  shape->setNodeMask(kMechanismMask);
  body_materials_.push_back(make_material());
  shape->getOrCreateStateSet()->setAttribute(body_materials_.back());
  xf->addChild(shape);
  shapes_.push_back(shape);
  markers_.push_back(new osg::Group);
  markers_.back()->setNodeMask(kMechanismMask);
  axes_.push_back(new osg::Group);
  // The user's body frame, which the model frame may not be.
  frames_.push_back(build_frame_axes(pose_matrix(mech.compiled.X_body[i].inverse()), size.frame));
  xf->addChild(markers_.back());
  xf->addChild(axes_.back());
  xf->addChild(frames_.back());
  root_->addChild(xf);
  bodies_.push_back(xf);
}

// Joint j's markers and axes on its two bodies; each new marker gets a material of its own.
void MechanismScene::build_joint(const Mechanism& mech, const SceneLayout& layout,
                                 const style::Sizes& size, int j) {
  const int pb = layout.anchors[2 * j].body, cb = layout.anchors[2 * j + 1].body;
  const unsigned before_p = markers_[pb]->getNumChildren();
  const unsigned before_c = markers_[cb]->getNumChildren();
  add_joint_markers(mech, layout, size, j, markers_);
  add_joint_axes(mech, layout, size, j, axes_);
  joint_materials_.emplace_back();
  auto own_material = [&](int body, unsigned from) {
    for (unsigned k = from; k < markers_[body]->getNumChildren(); ++k) {
      joint_materials_.back().push_back(make_material());
      markers_[body]->getChild(k)->getOrCreateStateSet()->setAttribute(
          joint_materials_.back().back());
    }
  };
  own_material(pb, before_p);
  if (cb != pb) own_material(cb, before_c);
}

void MechanismScene::build_lights(const osg::Vec3d& key_direction) {
  osg::StateSet* ss = root_->getOrCreateStateSet();
  ss->setMode(GL_LIGHTING, osg::StateAttribute::ON);
  ss->setMode(GL_NORMALIZE, osg::StateAttribute::ON);  // force arrows are scaled
  // Every solid is closed and wound outward: back faces are never seen, and a software
  // rasteriser spends a third of a frame on them (Stewart platform: 6.3 -> 4.4 ms per frame).
  ss->setMode(GL_CULL_FACE, osg::StateAttribute::ON);
  ss->setAttribute(make_material());
  auto model = make_ref<osg::LightModel>();
  model->setAmbientIntensity(osg::Vec4(0.22f, 0.22f, 0.24f, 1.f));
  model->setTwoSided(true);  // plates are seen from both sides
  ss->setAttributeAndModes(model);
  // A key light fixed in the world (from above, in front); the viewer adds a headlight (LIGHT0).
  auto key = make_ref<osg::Light>(1);
  osg::Vec3d d = key_direction;
  d.normalize();
  key->setPosition(osg::Vec4(d, 0.0));
  key->setDiffuse(osg::Vec4(0.55f, 0.55f, 0.52f, 1.f));
  key->setSpecular(osg::Vec4(0.5f, 0.5f, 0.5f, 1.f));
  key->setAmbient(osg::Vec4(0, 0, 0, 1));
  auto source = make_ref<osg::LightSource>();
  source->setLight(key);
  source->setReferenceFrame(osg::LightSource::RELATIVE_RF);
  source->setStateSetModes(*ss, osg::StateAttribute::ON);
  root_->addChild(source);
}

// Every moving body whose solids can be merged is drawn by the merged list; its own nodes stay
// for picking and bounds (kPickOnlyMask: the viewport does not draw them).
void MechanismScene::merge_bodies() {
  merged_ = std::make_unique<MergedBodies>();
  for (int i = 1; i < static_cast<int>(bodies_.size()); ++i)
    if (merged_->add(i, {shapes_[i].get(), markers_[i].get()})) {
      shapes_[i]->setNodeMask(kPickOnlyMask);
      markers_[i]->setNodeMask(kPickOnlyMask);
    }
  if (merged_->empty()) return merged_.reset();
  merged_->finish();
  auto geode = make_ref<osg::Geode>();
  geode->addDrawable(merged_->node());
  geode->setNodeMask(kDecorationMask);  // drawn, never picked: the bodies' own nodes are
  root_->addChild(geode);
  update_merged();
}

void MechanismScene::update_merged() {
  poses_.resize(bodies_.size());
  for (std::size_t i = 0; i < bodies_.size(); ++i) poses_[i] = bodies_[i]->getMatrix();
  merged_->update(poses_);
}

void MechanismScene::draw_own(int model_body, bool on) {
  if (!merged_ || !merged_->has(model_body)) return;
  merged_->set_hidden(model_body, on);
  shapes_[model_body]->setNodeMask(on ? kMechanismMask : kPickOnlyMask);
  markers_[model_body]->setNodeMask(on ? kMechanismMask : kPickOnlyMask);
}

void MechanismScene::update(const Snapshot& snapshot) {
  const std::size_t n = std::min(snapshot.X0.size(), bodies_.size());
  for (std::size_t i = 1; i < n; ++i) bodies_[i]->setMatrix(pose_matrix(snapshot.X0[i]));
  if (merged_) update_merged();
  if (forces_on_) update_forces(snapshot);
  if (contacts_on_) contacts_->update(snapshot);
}

void MechanismScene::update_forces(const Snapshot& snapshot) {
  // The wrench is what the parent exerts on the child, in child joint-frame coordinates: the
  // arrow starts at the joint and points along the force on the child.
  const std::size_t joints = std::min(snapshot.wrench.size(), mech_.spec.joints.size());
  std::vector<osg::Vec3d> origins(joints), forces(joints);
  for (std::size_t j = 0; j < joints; ++j) {
    const JointAnchor& a = anchors_[2 * j + 1];
    const osg::Matrixd world = a.frame * bodies_[a.body]->getMatrix();
    const Vec3 f = linear(snapshot.wrench[j]);
    origins[j] = world.getTrans();
    forces[j] = osg::Matrixd::transform3x3(to_osg(f), world);
  }
  forces_->update(origins, forces);
}

osg::Vec3d MechanismScene::anchor_world(int anchor) const {
  const JointAnchor& a = anchors_[anchor];
  return a.frame.getTrans() * bodies_[a.body]->getMatrix();
}

void MechanismScene::set_grid_visible(bool on) {
  show(grid_.get(), on);
}
void MechanismScene::set_joint_axes_visible(bool on) {
  for (auto& g : axes_) show(g.get(), on);
}
void MechanismScene::set_body_frames_visible(bool on) {
  for (auto& f : frames_) show(f.get(), on);
}
void MechanismScene::set_forces_visible(bool on) {
  forces_on_ = on;
  show(forces_->node(), on);
}
void MechanismScene::set_contacts_visible(bool on) {
  contacts_on_ = on;
  show(contacts_->markers(), on);
  show(contacts_->arrows(), on);
}
void MechanismScene::set_force_scale(double metres_per_newton) {
  forces_->set_scale(metres_per_newton);
  contacts_->set_force_scale(metres_per_newton);
}
double MechanismScene::force_scale() const {
  return forces_->scale();
}

void MechanismScene::set_trace(int user_body, const osg::Vec3d& point) {
  trace_->clear();
  trace_body_ = -1;
  if (user_body < 0 || user_body >= static_cast<int>(mech_.compiled.model_body.size())) return;
  trace_body_ = mech_.compiled.model_body[user_body];
  // The point in model body coordinates: ^{model}X_{user} applied to a point.
  trace_point_ = to_osg(point_in(mech_.compiled.X_body[trace_body_], from_osg(point)));
  show(trace_->node(), trace_on_);
}
void MechanismScene::extend_trace(const std::vector<Snapshot>& records) {
  if (trace_body_ < 0) return;
  const double min_step = 1e-3 * length_;  // a thousandth of the mechanism: smooth and long
  for (const Snapshot& s : records)
    if (trace_body_ < static_cast<int>(s.X0.size()))
      trace_->add(trace_point_ * pose_matrix(s.X0[trace_body_]), min_step);
  trace_->commit();
}

void MechanismScene::set_trace_joint(int joint) {
  if (joint < 0 || 2 * joint + 1 >= static_cast<int>(anchors_.size())) return;
  const JointAnchor& a =
      anchors_[2 * joint + 1].body != 0 ? anchors_[2 * joint + 1] : anchors_[2 * joint];
  trace_->clear();
  trace_body_ = a.body != 0 ? a.body : -1;  // a joint between ground and ground does not move
  trace_point_ = a.frame.getTrans();
  show(trace_->node(), trace_on_ && trace_body_ >= 0);
}

void MechanismScene::set_trace_at(int user_body, const osg::Vec3d& world) {
  osg::Vec3d local;
  if (body_point(user_body, world, local)) set_trace_on_body(user_body, local);
}

bool MechanismScene::body_point(int user_body, const osg::Vec3d& world, osg::Vec3d& local) const {
  const auto& map = mech_.compiled.model_body;
  if (user_body < 0 || user_body >= static_cast<int>(map.size()) || map[user_body] <= 0)
    return false;
  local = world * osg::Matrixd::inverse(bodies_[map[user_body]]->getMatrix());
  return true;
}

void MechanismScene::set_trace_on_body(int user_body, const osg::Vec3d& local) {
  const auto& map = mech_.compiled.model_body;
  if (user_body < 0 || user_body >= static_cast<int>(map.size()) || map[user_body] <= 0) return;
  trace_->clear();
  trace_body_ = map[user_body];
  trace_point_ = local;
  show(trace_->node(), trace_on_);
}

osg::Vec3d MechanismScene::trace_point(std::size_t i) const {
  return trace_->point(i);
}

void MechanismScene::clear_trace() {
  trace_->clear();
}
void MechanismScene::set_trace_visible(bool on) {
  trace_on_ = on;
  show(trace_->node(), on && trace_body_ >= 0);
}
std::size_t MechanismScene::trace_size() const {
  return trace_->size();
}

void MechanismScene::highlight(osg::Material* material, bool on) {
  // Selected parts take one bright selection colour (as in CAD tools) instead of their own;
  // a glow alone washed out the light palette colours.
  const osg::Vec4 selected(0.20f, 0.72f, 1.00f, 1.f), glow(0.04f, 0.16f, 0.26f, 1.f);
  material->setColorMode(on ? osg::Material::OFF : osg::Material::AMBIENT_AND_DIFFUSE);
  material->setDiffuse(osg::Material::FRONT_AND_BACK, selected);
  material->setAmbient(osg::Material::FRONT_AND_BACK, selected);
  material->setEmission(osg::Material::FRONT_AND_BACK, on ? glow : osg::Vec4(0, 0, 0, 1));
}

void MechanismScene::set_selection(const ScenePick& selection) {
  auto body_of = [&](int user) {
    const auto& map = mech_.compiled.model_body;
    return user >= 0 && user < static_cast<int>(map.size()) ? map[user] : -1;
  };
  auto joint_ok = [&](int j) { return j >= 0 && j < static_cast<int>(joint_materials_.size()); };
  // Merged bodies: the selected body and the bodies of the selected joint's markers are drawn by
  // their own nodes, in the selection colour, and left out of the merged list.
  auto own = [&](const ScenePick& s, bool on) {
    if (body_of(s.body) > 0) draw_own(body_of(s.body), on);
    if (joint_ok(s.joint))
      for (int side = 0; side < 2; ++side) draw_own(anchors_[2 * s.joint + side].body, on);
  };
  own(selection_, false);
  if (body_of(selection_.body) > 0)
    highlight(body_materials_[body_of(selection_.body)].get(), false);
  if (joint_ok(selection_.joint))
    for (auto& m : joint_materials_[selection_.joint]) highlight(m.get(), false);
  selection_ = selection;
  own(selection_, true);
  if (body_of(selection_.body) > 0)
    highlight(body_materials_[body_of(selection_.body)].get(), true);
  if (joint_ok(selection_.joint))
    for (auto& m : joint_materials_[selection_.joint]) highlight(m.get(), true);
  if (merged_) update_merged();
}

}  // namespace articula
