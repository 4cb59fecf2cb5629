#include "core/spec/template_builder.hpp"

#include <charconv>
#include <cmath>

namespace articula::detail {

Iso make_iso(const Vec3& p, const Mat3& R) {
  Iso X = Iso::Identity();
  X.linear() = R;
  X.translation() = p;
  return X;
}

Mat3 rot(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

Mat3 frame_xz(const Vec3& x, const Vec3& z_hint) {
  Mat3 R;
  R.col(0) = x.normalized();
  R.col(2) = (z_hint - z_hint.dot(R.col(0)) * R.col(0)).normalized();
  R.col(1) = R.col(2).cross(R.col(0));
  return R;
}

PoseSpec to_pose(const Iso& X) {
  PoseSpec p;
  p.position = X.translation();
  p.orientation = Quat(X.rotation()).normalized();
  if (p.orientation.w() < 0) p.orientation.coeffs() *= -1.0;  // one canonical sign
  return p;
}

namespace {
// ^{frame}X_{outer} of a frame at pose X in the outer frame.
Transform plucker(const Iso& X) {
  return Transform::from_pose(X.linear(), X.translation());
}

Iso from_pose_spec(const PoseSpec& p) {
  return make_iso(p.position, p.orientation.toRotationMatrix());
}

// Shortest text that reads back as the same double.
std::string number(double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

// Round-off from deriving coordinates out of poses (1e-17 instead of 0) would only clutter files.
void snap_zeros(std::vector<double>& q) {
  for (double& v : q)
    if (std::abs(v) < 1e-14) v = 0.0;
}
}  // namespace

SpecBuilder::SpecBuilder(std::string name, const Vec3& gravity) {
  spec_.name = std::move(name);
  spec_.gravity = gravity;
  world_["ground"] = Iso::Identity();
}

BodySpec& SpecBuilder::body(const std::string& name, const Iso& world, const MassProperties& mp) {
  BodySpec b;
  b.name = name;
  mp.apply_to(b);
  b.pose = to_pose(world);
  spec_.bodies.push_back(b);
  // Keep the rounded pose, so q0 is computed from exactly what the file will say.
  world_[name] = from_pose_spec(*b.pose);
  return spec_.bodies.back();
}

const Iso& SpecBuilder::world(const std::string& body) const {
  return world_.at(body);
}

JointSpec& SpecBuilder::joint(const std::string& name, const Joint& type, const std::string& parent,
                              const std::string& child, const Iso& parent_frame,
                              const Iso& child_frame) {
  JointSpec j;
  j.name = name;
  j.joint = type;
  j.parent = parent;
  j.child = child;
  j.parent_frame = to_pose(parent_frame);
  j.child_frame = to_pose(child_frame);
  const Iso Fp = world(parent) * from_pose_spec(j.parent_frame);
  const Iso Fc = world(child) * from_pose_spec(j.child_frame);
  std::vector<double> q(type.nq(), 0.0);
  if (!q.empty()) {
    joint_coordinates(type, plucker(Fp.inverse() * Fc), q.data());
    snap_zeros(q);
    j.q0 = q;
  }
  spec_.joints.push_back(j);
  return spec_.joints.back();
}

JointSpec& SpecBuilder::joint_at(const std::string& name, const Joint& type,
                                 const std::string& parent, const std::string& child,
                                 const Iso& world_frame) {
  return joint(name, type, parent, child, world(parent).inverse() * world_frame,
               world(child).inverse() * world_frame);
}

double SpecBuilder::closure_error() const {
  double worst = 0.0;
  for (const JointSpec& j : spec_.joints) {
    const Iso Fp = world(j.parent) * from_pose_spec(j.parent_frame);
    const Iso Fc = world(j.child) * from_pose_spec(j.child_frame);
    const Transform X = plucker(Fp.inverse() * Fc);
    const std::vector<double> q = j.q0.value_or(std::vector<double>{});
    const Transform XJ = joint_transform(j.joint, q.data());
    worst =
        std::max({worst, (X.E - XJ.E).cwiseAbs().maxCoeff(), (X.r - XJ.r).cwiseAbs().maxCoeff()});
  }
  return worst;
}

MechanismSpec SpecBuilder::finish(double duration, const std::string& description) {
  spec_.extra["description"] = description;
  SimulationSpec sim;
  sim.duration = duration;
  sim.step = 0.001;
  sim.integrator = "rk4";
  spec_.simulation = sim;
  return spec_;
}

DriveSpec sine_drive(double q0, double amplitude, double frequency, double phase) {
  DriveSpec d;
  d.kind = DriveSpec::Kind::Motion;
  // The offset keeps the value at t = 0 equal to q0 when there is a phase.
  d.expression = number(q0 - amplitude * std::sin(phase)) + " + " + number(amplitude) + "*sin(" +
                 number(2.0 * frequency) + "*pi*t" +
                 (phase != 0.0 ? " + " + number(phase) : std::string()) + ")";
  return d;
}

DriveSpec ramp_drive(double q0, double speed) {
  DriveSpec d;
  d.kind = DriveSpec::Kind::Motion;
  d.expression = number(q0) + " + " + number(speed) + "*t";
  return d;
}

void check_positive(double value, const char* parameter) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw TemplateError(parameter, "must be a positive finite number");
}

void check_section(const BarSection& s, const char* parameter) {
  const std::string p(parameter);
  if (s.shape == BarSection::Shape::Rectangular) {
    if (!(s.width > 0.0) || !(s.thickness > 0.0) || !std::isfinite(s.width) ||
        !std::isfinite(s.thickness))
      throw TemplateError(p, "width and thickness must be positive");
  } else if (!(s.diameter > 0.0) || !std::isfinite(s.diameter) || !(s.inner_diameter >= 0.0) ||
             !(s.inner_diameter < s.diameter)) {
    throw TemplateError(p, "diameter must be positive and the inner diameter in [0, diameter)");
  }
}

void check_material(const Material& m, const char* parameter) {
  if (!(m.density > 0.0) || !std::isfinite(m.density))
    throw TemplateError(parameter, "density must be a positive finite number (kg/m^3)");
}

}  // namespace articula::detail
