#pragma once
// A benchmark mechanism in plain data, the input of the peer-engine benchmarks (MuJoCo, Simbody).
// Plain arrays, no Eigen: the Simbody translation units are compiled without NDEBUG (Debian's
// Simbody is built with assertions on) and must not share inline Eigen code with the NDEBUG ones.
#include <array>
#include <string>
#include <vector>

namespace articula::bench {

// Planar: rotation about z, then x and y along the rotated axes (RBDA Table 4.1), q = [θ, x, y].
enum class PeerJoint { Revolute, Prismatic, Universal, Spherical, Fixed, Planar };

// A rigid placement: rotation matrix R (row-major, columns = the frame's axes in the outer frame)
// and origin p in the outer frame.
struct PeerPose {
  std::array<double, 9> R{1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::array<double, 3> p{0, 0, 0};
};

struct PeerBody {
  std::string name;
  int parent = 0;  // 0 = ground
  PeerJoint joint = PeerJoint::Fixed;
  bool reversed = false;  // revolute/prismatic only: the joint axis is -z
  PeerPose joint_frame;   // joint frame in the parent body frame; the body frame is the joint's
                          // successor frame (at q = 0 it coincides with the joint frame)
  double mass = 0;
  std::array<double, 3> com{0, 0, 0};
  std::array<double, 6> I_com{0, 0, 0, 0, 0, 0};     // xx yy zz xy xz yz about the COM
  std::array<double, 6> I_origin{0, 0, 0, 0, 0, 0};  // the same about the body origin
  int q_index = 0, v_index = 0;                      // Articula coordinates of the joint
};

// A loop joint: its frame on the predecessor and on the successor, which coincide when closed.
struct PeerLoop {
  PeerJoint joint = PeerJoint::Revolute;
  int predecessor = 0, successor = 0;
  PeerPose on_predecessor, on_successor;
};

// A joint coupling between two tree coordinates: q_b - q0_b = ratio (q_a - q0_a).
struct PeerCoupling {
  int q_a = 0, q_b = 0;  // Articula coordinates (1-DoF tree joints)
  double ratio = 1.0, q0_a = 0.0, q0_b = 0.0;
};

// A sphere fixed on a body (centre in the body frame) against the ground plane through the origin
// with normal `PeerModel::ground_normal` (world frame), with Coulomb friction μ.
struct PeerContact {
  int body = 0;
  std::array<double, 3> centre{0, 0, 0};
  double radius = 0, friction = 0;
};

struct PeerModel {
  std::string name;
  int size = 0;
  int nq = 0, nv = 0;
  std::array<double, 3> gravity{0, 0, 0};
  std::vector<PeerBody> bodies;  // entry 0 is ground
  std::vector<PeerLoop> loops;
  std::vector<PeerCoupling> couplings;
  // State of one benchmark call (Articula coordinates) and Articula's answers there, which the
  // peers must reproduce before they are timed.
  std::vector<double> q, qd, qdd, tau;
  std::vector<double> H;         // joint-space inertia matrix at q, row-major nv x nv
  std::vector<double> tau_rnea;  // inverse dynamics at (q, qd, qdd), gravity included
  bool simulate = false;         // sim1s benchmarks are registered for this model
  // Gate-only models (a geared mechanism) are checked, not timed: from (q, qd) the passive
  // mechanism moves for t_end seconds and must reach q_end (Articula, RK4 at 1e-4 s).
  bool gate_only = false;
  double t_end = 0.0;
  std::vector<double> q_end;
  // Contact models (sim1s_rk4 with contacts on, from the assembled state at rest): the feet or
  // rollers, and the motion-driven joint (a 1-DoF tree joint's coordinate q_motor, following
  // q0 + motor_speed t; MuJoCo holds it by a stiff position and velocity servo).
  std::vector<PeerContact> contacts;
  std::array<double, 3> ground_normal{0, 1, 0};
  int motor_q = -1;
  double motor_speed = 0.0;
  int forward_q = -1;  // the coordinate whose advance is reported as `walked` (m), or -1
};

// Registration of the peer benchmarks, names mujoco/<op>/<model>, simbody/<op>/<model> and
// pinocchio/<op>/<model>.
// Each checks every model against Articula's numbers first; returns false (after printing the
// mismatch) when a model does not match.
bool register_mujoco(const std::vector<PeerModel>& models);
// Contact models: mujoco/sim1s_rk4/<model> (soft contacts, the motor servoed), after the check.
bool register_mujoco_contacts(const std::vector<PeerModel>& models);
bool register_simbody(const std::vector<PeerModel>& models);
// Trees only: pinocchio/<op>/<model> for rnea, crba_world, crba_local, crba_ltdl, aba_world and
// aba_local (a build with ARTICULA_PINOCCHIO_INCLUDE set).
bool register_pinocchio(const std::vector<PeerModel>& models);

}  // namespace articula::bench
