// Writing project files, format v1: known fields in the contract's order, then the unknown fields
// kept from loading (sorted, as nlohmann::json stores them). Saving is atomic: temp file, fsync,
// rename, so that a crash never leaves a half-written project behind. The version it replaces is
// kept as `<name>.bak` (a hard link to the old file, so keeping it costs no copy).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/io/project.hpp"
#include "core/io/sensor_json.hpp"
#include "core/io/unilateral_json.hpp"

namespace articula {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;  // keeps insertion order, i.e. the contract's field order

ojson save_vec3(const Vec3& v) {
  return ojson::array({v.x(), v.y(), v.z()});
}

ojson save_numbers(const std::vector<double>& v) {
  ojson a = ojson::array();
  for (double x : v) a.push_back(x);
  return a;
}

// Unknown fields after the known ones; a known field wins over an extra of the same name.
void append_extra(ojson& out, const json& extra) {
  if (!extra.is_object()) return;
  for (const auto& [key, value] : extra.items())
    if (!out.contains(key)) out[key] = ojson(value);
}

bool is_identity(const PoseSpec& p) {
  return p.position == Vec3::Zero() && p.orientation.coeffs() == Quat::Identity().coeffs() &&
         (p.extra.is_null() || p.extra.empty());
}

ojson pose_json(const PoseSpec& p) {
  const Quat& q = p.orientation;
  ojson out;
  out["position"] = save_vec3(p.position);
  out["quaternion"] = ojson::array({q.w(), q.x(), q.y(), q.z()});
  append_extra(out, p.extra);
  return out;
}

ojson body_json(const BodySpec& b) {
  ojson out;
  out["name"] = b.name;
  out["mass"] = b.mass;
  out["com"] = save_vec3(b.com);
  out["inertia"] = ojson::array();
  for (double x : b.inertia) out["inertia"].push_back(x);
  if (b.pose) out["pose"] = pose_json(*b.pose);
  append_extra(out, b.extra);
  return out;
}

ojson drive_json(const DriveSpec& d) {
  ojson out;
  const bool motion = d.kind == DriveSpec::Kind::Motion;
  out["type"] = d.unknown ? "unknown" : motion ? "motion" : "force";
  if (d.unknown) {
  } else if (motion && !d.law.is_null())
    out["law"] = ojson::parse(d.law.dump());
  else
    out[motion ? "q" : "value"] = d.expression;
  append_extra(out, d.extra);
  return out;
}

ojson spring_json(const SpringSpec& s) {
  ojson out;
  out["stiffness"] = s.stiffness;
  out["rest"] = s.rest;
  out["damping"] = s.damping;
  append_extra(out, s.extra);
  return out;
}

ojson joint_json(const JointSpec& js) {
  ojson out;
  out["name"] = js.name;
  out["type"] = std::string(joint_type_name(js.joint.type));
  out["parent"] = js.parent;
  out["child"] = js.child;
  if (js.joint.type == JointType::Helical) out["pitch"] = js.joint.pitch;
  // Identity frames are the default: leaving them out keeps hand-written files as they were.
  if (!is_identity(js.parent_frame)) out["parent_frame"] = pose_json(js.parent_frame);
  if (!is_identity(js.child_frame)) out["child_frame"] = pose_json(js.child_frame);
  if (js.q0) out["q0"] = save_numbers(*js.q0);
  if (js.qd0) out["qd0"] = save_numbers(*js.qd0);
  if (js.drive) out["drive"] = drive_json(*js.drive);
  if (js.spring) out["spring"] = spring_json(*js.spring);
  if (js.limits) out["limits"] = limits_json(*js.limits);
  if (js.friction) out["friction"] = joint_friction_json(*js.friction);
  append_extra(out, js.extra);
  return out;
}

ojson force_json(const ForceSpec& f) {
  ojson out;
  out["name"] = f.name;
  out["type"] = f.type;
  out["body1"] = f.body1;
  out["point1"] = save_vec3(f.point1);
  out["body2"] = f.body2;
  out["point2"] = save_vec3(f.point2);
  out["stiffness"] = f.stiffness;
  out["rest_length"] = f.rest_length;
  out["damping"] = f.damping;
  append_extra(out, f.extra);
  return out;
}

ojson coupling_json(const CouplingSpec& c) {
  ojson out;
  out["name"] = c.name;
  out["type"] = std::string(coupling_type_name(c.type));
  out["joints"] = ojson::array({c.joints[0], c.joints[1]});
  out["ratio"] = c.ratio;
  if (c.radii) out["radii"] = ojson::array({(*c.radii)[0], (*c.radii)[1]});
  append_extra(out, c.extra);
  return out;
}

ojson simulation_json(const SimulationSpec& s) {
  ojson out;
  out["duration"] = s.duration;
  out["step"] = s.step;
  out["integrator"] = s.integrator;
  append_extra(out, s.extra);
  return out;
}

bool names_any(const std::vector<std::string>& floating, const std::string& a,
               const std::string& b) {
  return std::find(floating.begin(), floating.end(), a) != floating.end() ||
         std::find(floating.begin(), floating.end(), b) != floating.end();
}

// The bodies, joints, forces and couplings arrays of `out`: those connected to ground, or
// (floating) the sketched links not connected yet and the joints, forces and couplings on them.
void write_parts(ojson& out, const MechanismSpec& spec, bool floating_part) {
  const std::vector<bool> grounded = spec.grounded_bodies();
  std::vector<std::string> floating;
  for (std::size_t i = 0; i < grounded.size(); ++i)
    if (!grounded[i]) floating.push_back(spec.bodies[i].name);
  out["bodies"] = ojson::array();
  for (std::size_t i = 0; i < spec.bodies.size(); ++i)
    if (grounded[i] != floating_part) out["bodies"].push_back(body_json(spec.bodies[i]));
  out["joints"] = ojson::array();
  std::vector<std::string> floating_joints;
  for (const JointSpec& js : spec.joints) {
    const bool on_floating = names_any(floating, js.parent, js.child);
    if (on_floating) floating_joints.push_back(js.name);
    if (on_floating == floating_part) out["joints"].push_back(joint_json(js));
  }
  ojson forces = ojson::array();
  for (const ForceSpec& f : spec.forces)
    if (names_any(floating, f.body1, f.body2) == floating_part) forces.push_back(force_json(f));
  if (!forces.empty()) out["forces"] = forces;
  // A coupling goes with its joints: one on a floating link keeps it under /sketch/floating.
  ojson couplings = ojson::array();
  for (const CouplingSpec& c : spec.couplings)
    if (names_any(floating_joints, c.joints[0], c.joints[1]) == floating_part)
      couplings.push_back(coupling_json(c));
  if (!couplings.empty()) out["couplings"] = couplings;
  ojson contacts = ojson::array();
  for (const ContactSpec& c : spec.contacts)
    if (names_any(floating, c.body, c.surface_body) == floating_part)
      contacts.push_back(contact_json(c));
  if (!contacts.empty()) out["contacts"] = contacts;
}

ojson document(const MechanismSpec& spec) {
  ojson out;
  out["format"] = "articula";
  out["version"] = 1;
  out["name"] = spec.name;
  out["gravity"] = save_vec3(spec.gravity);
  write_parts(out, spec, false);
  if (!spec.sensors.empty()) {
    out["sensors"] = ojson::array();
    for (const SensorSpec& s : spec.sensors) out["sensors"].push_back(sensor_json(s));
  }
  if (spec.simulation) out["simulation"] = simulation_json(*spec.simulation);
  append_extra(out, spec.extra);
  if (spec.has_floating_bodies()) {  // format v1 requires every body to reach ground: see
                                     // LoadOptions
    if (!out.contains("sketch") || !out["sketch"].is_object()) out["sketch"] = ojson::object();
    ojson floating;
    write_parts(floating, spec, true);
    out["sketch"]["floating"] = floating;
  }
  return out;
}

bool is_scalar_array(const ojson& j) {
  for (const ojson& e : j)
    if (e.is_structured()) return false;
  return true;
}

// Objects one member per line; arrays of scalars on one line ("com": [0.05, 0.0, 0.0]) as in the
// contract's example, so that files stay short and diffs stay readable.
void write(std::string& out, const ojson& j, int indent, const std::string& ptr) {
  const bool object = j.is_object();
  if (!j.is_structured() || j.empty() || (!object && is_scalar_array(j))) {
    if (j.is_number_float() && !std::isfinite(j.get<double>()))
      throw std::runtime_error("cannot save: " + ptr + " is not a finite number");
    if (!j.is_array()) {
      out += j.dump();  // escaped string, or shortest round-trip form of a number
      return;
    }
    out += '[';
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (i) out += ", ";
      write(out, j[i], indent, ptr + "/" + std::to_string(i));
    }
    out += ']';
    return;
  }
  out += object ? "{\n" : "[\n";
  std::size_t i = 0;
  for (auto it = j.begin(); it != j.end(); ++it, ++i) {
    if (i) out += ",\n";
    out.append(indent + 2, ' ');
    if (object) out += ojson(it.key()).dump() + ": ";
    write(out, it.value(), indent + 2, ptr + "/" + (object ? it.key() : std::to_string(i)));
  }
  out += '\n';
  out.append(indent, ' ');
  out += object ? '}' : ']';
}

[[noreturn]] void io_failure(const std::string& what, const std::string& path, int err) {
  throw std::runtime_error("cannot save '" + path + "': " + what + ": " + std::strerror(err));
}

// A new file next to the target (same file system, so rename is atomic); O_EXCL so that two
// savers never share one, mode 0666 so that the umask applies as for any new file.
std::pair<int, std::string> create_temp(const std::filesystem::path& target) {
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path dir = target.parent_path();
  for (int attempt = 0;; ++attempt) {
    std::string name = ".";  // appended piecewise: GCC 12 warns (-Wrestrict) on a + chain here
    name.append(target.filename().string()).append(".tmp.").append(std::to_string(::getpid()));
    name.append(".").append(std::to_string(counter++));
    const std::string tmp = (dir / name).string();
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return {fd, tmp};
    if (errno != EEXIST || attempt >= 100)
      io_failure("creating a temporary file", target.string(), errno);
  }
}

void write_all(int fd, const std::string& text, const std::string& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) io_failure("writing", path, errno);
    done += static_cast<std::size_t>(n);
  }
}

// Makes the rename itself durable; failure here does not undo a completed save.
void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

// Makes the current target the backup: a hard link (same inode: the old document stays exactly as
// it was, and the rename of the new file over the target does not touch it), copied where the
// file system has no hard links. Best effort: a save never fails because the backup could not be
// made. A crash at any point leaves the target (old or new) and a complete backup.
void keep_backup(const std::filesystem::path& target) {
  const std::filesystem::path backup = backup_path(target.string());
  std::filesystem::path tmp = backup;
  tmp += ".tmp." + std::to_string(::getpid());
  ::unlink(tmp.c_str());
  if (::link(target.c_str(), tmp.c_str()) != 0) {
    std::error_code ec;
    if (!std::filesystem::copy_file(target, tmp, ec)) return;
    const int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) (void)::fsync(fd), ::close(fd);
  }
  if (::rename(tmp.c_str(), backup.c_str()) != 0) ::unlink(tmp.c_str());
}

}  // namespace

std::string backup_path(const std::string& path) {
  return path + ".bak";
}

nlohmann::json to_json(const MechanismSpec& spec) {
  return json(document(spec));
}

std::string to_text(const MechanismSpec& spec) {
  std::string out;
  try {
    write(out, document(spec), 0, "");
  } catch (const json::exception& e) {  // e.g. a name that is not valid UTF-8
    throw std::runtime_error(std::string("cannot save: ") + e.what());
  }
  out += '\n';
  return out;
}

void save_project(const MechanismSpec& spec, const std::string& path) {
  save_text(to_text(spec), path);  // serialised before touching the disk
}

void save_text(const std::string& text, const std::string& path) {
  std::filesystem::path target(path);
  std::error_code ec;
  // Replace what a symbolic link points at, not the link.
  if (std::filesystem::is_symlink(target, ec)) target = std::filesystem::weakly_canonical(target);
  auto [fd, tmp] = create_temp(target);
  try {
    write_all(fd, text, path);
    if (::fsync(fd) != 0) io_failure("flushing", path, errno);
    struct stat st;
    if (::stat(target.c_str(), &st) == 0) (void)::fchmod(fd, st.st_mode & 07777);  // keep mode
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0) io_failure("closing", path, errno);
    if (::access(target.c_str(), F_OK) == 0) keep_backup(target);
    if (::rename(tmp.c_str(), target.c_str()) != 0) io_failure("renaming", path, errno);
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  sync_directory(target.parent_path());
}

}  // namespace articula
