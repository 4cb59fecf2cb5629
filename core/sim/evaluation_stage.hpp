#pragma once
// How far Simulation::restore evaluates a state, in MuJoCo's order (mj_forward's stages).
// Motion: every user joint's coordinates and rates (Simulation::joint_states q, q̇; loop joints
// included). Acceleration: and q̈ by the stepping solver (qdd(), joint_states q̈). Full:
// Simulation::evaluate (the reporter's q̈ and joint forces, wrenches, loop error, gaps, energy).
// What a stage leaves out keeps its last value. Its own header: SensorModel declares the stage
// it needs without the whole simulation.

namespace articula {

enum class EvaluationStage { Motion, Acceleration, Full };

}  // namespace articula
