// The embedded articulated-body algorithm (issue 18 item 3, Jain Part II §6-7): q̈ and the
// constraint forces G^T μ against the dense embedded form (Xᵀ H X from CRBA, kept for this) and
// against RBDA 8.5 Method 2, at the assembled state and along a simulated motion, with random
// velocities and forces, on every sample it applies to and on chains of four-bar modules.
#include <filesystem>
#include <random>

#include "core/io/project.hpp"
#include "core/sim/simulation.hpp"
#include "core/sim/solvers/embedding_solver.hpp"
#include "core/spec/templates.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
struct Named {
  std::string name;
  MechanismSpec spec;
};
std::vector<Named> specs() {
  std::vector<Named> out;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(ARTICULA_SOURCE_DIR) + "/samples"))
    if (e.path().extension() == ".json") {
      MechanismSpec spec = load_project(e.path().string()).spec;
      spec.contacts.clear();  // the embedding takes none yet: the walker is compared without feet
      out.push_back({e.path().filename().string(), spec});
      MechanismSpec passive = spec;  // no motion drives: more independent coordinates
      for (JointSpec& j : passive.joints)
        if (j.drive && j.drive->kind == DriveSpec::Kind::Motion) j.drive.reset();
      out.push_back({e.path().filename().string() + " (passive)", passive});
    }
  out.push_back({"fourbar_chain3", make_fourbar_chain(3)});
  out.push_back({"fourbar_chain20", make_fourbar_chain(20)});
  return out;
}

// States: the assembled one, and where an embedding simulation has taken it after 0.05 s.
std::vector<std::pair<VecX, VecX>> states(const Mechanism& m) {
  std::vector<std::pair<VecX, VecX>> out{{m.q0, m.qd0}};
  SimulationOptions o;
  o.solver = SolverChoice::Embedding;
  Simulation sim(m, o);
  for (int k = 0; k < 50; ++k) sim.step(1e-3, Integrator::RK4);
  out.emplace_back(sim.q(), sim.qd());
  return out;
}
}  // namespace

TEST_CASE("The embedded ABA equals the dense embedding and Method 2", "[sim][embedding]") {
  std::mt19937 rng(1807);
  int compared = 0, articulated = 0;
  for (const Named& s : specs()) {
    INFO(s.name);
    const Mechanism m = prepare(s.spec);
    if (!m.has_loops() && m.couplings.empty()) continue;
    ConstraintSet cs(m, m.drives);
    Data d(m.model());
    const SolverEnv env{m, d, cs, m.drives, 0.0};  // no Baumgarte terms: the same rows
    std::unique_ptr<EmbeddingSolver> aba, dense;
    try {
      aba = std::make_unique<EmbeddingSolver>(env, EmbeddingForm::Articulated);
      dense = std::make_unique<EmbeddingSolver>(env, EmbeddingForm::Dense);
    } catch (const SetupError& e) {  // rssr: the coupler's spin lives in a quaternion
      CHECK(std::string(e.what()).find("spherical") != std::string::npos);
      continue;
    }
    articulated += aba->articulated();
    auto m2 = make_solver(env, SolverChoice::Method2, false, false);
    for (const auto& [q, v0] : states(m)) {
      for (int k = 0; k < 3; ++k) {  // any velocity and force: all solve the same G q̈ = g
        const VecX v = k == 0 ? v0 : test::random_vector(m.model().nv, rng);
        const VecX tau = test::random_vector(m.model().nv, rng);
        const SolverInput in{0.05 * k, q, v, tau};
        const VecX a = aba->accelerations(in);
        const VecX force_a = cs.G().transpose() * aba->multipliers();
        const VecX b = dense->accelerations(in);
        const VecX force_b = cs.G().transpose() * dense->multipliers();
        const VecX c = m2->accelerations(in);
        const VecX force_c = cs.G().transpose() * m2->multipliers();
        // Three factorisations of the same linear system (per node, of Xᵀ H X, of Method 2's
        // K H⁻¹ Kᵀ): they differ by round-off, amplified by the conditioning of the nodes' Y₁.
        CHECK_CLOSE(a, b, 1e-9);
        CHECK_CLOSE(a, c, 1e-9);
        CHECK_CLOSE(force_a, force_b, 1e-9);  // G^T μ: unique even with redundant rows
        CHECK_CLOSE(force_a, force_c, 1e-9);
        ++compared;
      }
    }
  }
  CHECK(compared >= 6 * 20);
  CHECK(articulated >= 20);  // the dense fallback (a node hanging from two bodies) is rare
}
