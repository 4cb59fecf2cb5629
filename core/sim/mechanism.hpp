#pragma once
// A mechanism ready to analyse or simulate: the spec compiled (spanning tree + loop joints),
// drives and springs bound to coordinates, loops assembled, mobility computed.
#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/algorithms/assembly.hpp"
#include "core/algorithms/mobility.hpp"
#include "core/sim/expression.hpp"
#include "core/sim/motion_law.hpp"
#include "core/spec/compile.hpp"

namespace articula {

// The mechanism cannot be assembled or simulated (CLI exit status 3).
struct SetupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct DriveBinding {
  int user_joint = 0;
  DriveSpec::Kind kind = DriveSpec::Kind::Motion;
  Expression expression;
  std::optional<MotionLaw> law;  // replaces the expression when given
  int q = -1, v = -1;            // coordinates of a tree joint (-1 for a loop joint)

  TimeJet eval(double t) const { return law ? law->eval(t) : expression.eval(t); }
  double value(double t) const { return law ? law->eval(t).value : expression.value(t); }
};

struct SpringBinding {
  int user_joint = 0;
  double stiffness = 0, rest = 0, damping = 0;
  int q = -1, v = -1;
};

// A point-to-point spring-damper bound to model bodies, points in model body frames.
struct ForceBinding {
  int index = 0;  // into spec.forces
  int body1 = 0, body2 = 0;
  Vec3 point1 = Vec3::Zero(), point2 = Vec3::Zero();
  double stiffness = 0, rest_length = 0, damping = 0;
};

// A joint coupling bound to coordinates (spec.couplings[index]): each side is a tree joint's
// coordinate (q, v) or a 1-DoF loop joint (loop), with its value q0 in the assembled state.
struct CouplingBinding {
  int index = 0;
  struct Side {
    int user_joint = 0;
    int q = -1, v = -1;  // tree joint coordinates, or -1
    int loop = -1;       // loop joint index, or -1
    double q0 = 0.0;
  } a, b;
  double ratio = 1.0;
};

struct SparseDynamicsModel;
struct PlanarModel;

// Shared ownership is the model's identity for caches of derived data (the GUI's bound limits and
// contacts, ui/channel.cpp): weak_from_this() is empty for a model not owned by a shared_ptr, and
// a copy is a new identity.
struct Mechanism : std::enable_shared_from_this<Mechanism> {
  MechanismSpec spec;
  CompiledMechanism compiled;
  std::vector<DriveBinding> drives;
  std::vector<SpringBinding> springs;
  std::vector<ForceBinding> forces;
  std::vector<CouplingBinding> couplings;
  std::vector<bool> locked_v;  // coordinates held by motion drives
  VecX q0, qd0;                // assembled initial state
  AssemblyResult assembly;
  MobilityReport mobility;  // of the loops and the couplings together
  bool planar = false;      // every joint moves in the world x-y plane
  int gruebler = 0;  // Grübler-Kutzbach count (planar form when planar), less one per coupling
  double length_scale = 1.0;  // characteristic size, for scaling translation rows
  // Distance of the farthest body frame from the world origin: loop errors, computed from world
  // placements, carry round-off of about eps times this (RBDA 10.1), so tolerances grow with it.
  double position_scale = 0.0;
  // Loops solved by RBDA 8.13's sparse-matrix method when it is predicted cheaper than Method 2
  // (core/sim/loop_method.hpp); null: Method 2.
  std::shared_ptr<const SparseDynamicsModel> sparse;
  // Planar mechanisms with loops whose joints planar_dynamics supports: Method 2 runs on planar
  // vectors (RBDA 2.16), a third of the spatial arithmetic. Null otherwise.
  std::shared_ptr<const PlanarModel> planar_dynamics;
  double closure_tolerance(double tolerance) const {
    return std::max(tolerance, 64 * 2.2e-16 * position_scale);
  }

  const Model& model() const { return compiled.model; }
  bool has_loops() const { return !compiled.loops.empty(); }
  // Names of the loop joints owning redundant constraint rows, with the row counts.
  std::vector<std::pair<std::string, int>> redundant_joints() const;
};

// The loop Jacobian K with one row per coupling below it (their position-level Jacobian), at
// the positions in data: the constraints whose null space is the mechanism's motion.
MatX loop_and_coupling_jacobian(const Mechanism& m, Data& data, const MatX& K);

// Compile, bind drives and springs, assemble (position and velocity) and analyse mobility.
// Throws std::invalid_argument for graph problems and SetupError when loops cannot be closed.
Mechanism prepare(const MechanismSpec& spec);

}  // namespace articula
