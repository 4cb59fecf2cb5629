// MJCF export: the files load in MuJoCo 2.2 (Debian) and reproduce Articula's mass matrix and
// inverse dynamics to 1e-9 (the bench's gate), the keyframe "assembled" closes every loop and
// coupling, and loops keep their joint type (auxiliary bodies welded to the successor).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/model/data.hpp"
#include "interchange/convert.hpp"
#include "interchange/mjcf_export.hpp"
#include "tests/interchange/visual_fixture.hpp"
#include "tests/support/fixtures.hpp"
#ifdef ARTICULA_TEST_MUJOCO
#include <mujoco/mujoco.h>
#endif

using namespace articula;
using namespace articula::test;

TEST_CASE("MJCF export writes loops as welded auxiliary bodies and couplings as equalities",
          "[mjcf]") {
  const Mechanism m = prepare(load_project(sample_path("geared_crank_rocker.json")).spec);
  std::vector<std::string> warnings;
  const std::string xml = to_mjcf(m, warnings);
  CHECK(xml.find("<body name='" + m.compiled.loops[0].name + "/loop'") != std::string::npos);
  CHECK(xml.find("<weld name='" + m.compiled.loops[0].name + "'") != std::string::npos);
  CHECK(xml.find("<joint name='" + m.spec.couplings[0].name + "' joint1=") != std::string::npos);
  CHECK(xml.find("<key name='assembled'") != std::string::npos);
  REQUIRE(!warnings.empty());  // the drive is not exported
  CHECK(warnings[0].find("drive") != std::string::npos);
}

#ifdef ARTICULA_TEST_MUJOCO
namespace {
struct MjModel {
  mjModel* m = nullptr;
  explicit MjModel(const std::string& xml) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("articula_mjcf_" + std::to_string(::getpid()) + ".xml");
    std::ofstream(path) << xml;
    char error[1000] = "";
    m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
    std::filesystem::remove(path);
    INFO(error);
    REQUIRE(m);
  }
  ~MjModel() { mj_deleteModel(m); }
};

struct Check {
  double H = 0, tau = 0, loops = 0;
};

// H and inverse dynamics at a random tree state, compared dof by dof through the joint names.
Check compare(const Mechanism& mech, const mjModel* m) {
  const Model& model = mech.model();
  std::mt19937 rng(3);
  const VecX q = random_configuration(model, rng);
  const VecX qd = random_vector(model.nv, rng), qdd = random_vector(model.nv, rng);
  mjData* d = mj_makeData(m);
  std::vector<int> dof(model.nv, -1);
  for (int i = 1; i <= model.nb; ++i) {
    const int id = mj_name2id(m, mjOBJ_JOINT, model.joint_names[i].c_str());
    if (model.joints[i].nv() == 0) continue;
    REQUIRE(id >= 0);
    const Joint& j = model.joints[i];
    for (int k = 0; k < j.nq(); ++k) d->qpos[m->jnt_qposadr[id] + k] = q[model.q_index[i] + k];
    for (int k = 0; k < j.nv(); ++k) dof[model.v_index[i] + k] = m->jnt_dofadr[id] + k;
  }
  for (int k = 0; k < model.nv; ++k) d->qvel[dof[k]] = qd[k], d->qacc[dof[k]] = qdd[k];
  mj_forward(m, d);
  // forward dynamics filled qacc, the auxiliary loop bodies' with the weld forces on 1e-12 kg
  for (int k = 0; k < m->nv; ++k) d->qacc[k] = 0;
  for (int k = 0; k < model.nv; ++k) d->qacc[dof[k]] = qdd[k];
  std::vector<double> M(m->nv * m->nv), rne(m->nv);
  mj_fullM(m, M.data(), d->qM);
  mj_rne(m, d, 1, rne.data());
  Data data(model);
  const MatX H = crba(model, data, q);
  const VecX tau = rnea(model, data, q, qd, qdd);
  Check c;
  const double hs = H.cwiseAbs().maxCoeff(), ts = std::max(1.0, tau.cwiseAbs().maxCoeff());
  for (int r = 0; r < model.nv; ++r) {
    c.tau = std::max(c.tau, std::abs(rne[dof[r]] - tau[r]) / ts);
    for (int k = 0; k < model.nv; ++k)
      c.H = std::max(c.H, std::abs(M[dof[r] * m->nv + dof[k]] - H(r, k)) / hs);
  }
  // the keyframe: loops and couplings closed
  mj_resetDataKeyframe(m, d, 0);
  mj_forward(m, d);
  for (int r = 0; r < d->nefc; ++r)
    if (d->efc_type[r] == mjCNSTR_EQUALITY) c.loops = std::max(c.loops, std::abs(d->efc_pos[r]));
  mj_deleteData(d);
  return c;
}
}  // namespace

TEST_CASE("exported MJCF reproduces H and inverse dynamics in MuJoCo 2.2", "[mjcf]") {
  std::vector<MechanismSpec> specs;
  for (const char* name :
       {"fourbar", "slider_crank", "stewart_platform", "bennett", "rssr", "delta_robot",
        "geared_crank_rocker", "puma560", "jansen_leg", "rack_pinion_steering"})
    specs.push_back(load_project(sample_path(std::string(name) + ".json")).spec);
  specs.push_back(
      import_mechanism(std::string(ARTICULA_SOURCE_DIR) + "/tests/data/interchange/iiwa14.urdf")
          .spec);
  for (const MechanismSpec& spec : specs) {
    INFO(spec.name);
    const Mechanism mech = prepare(spec);
    std::vector<std::string> warnings;
    const MjModel mj(to_mjcf(mech, warnings));
    const Check c = compare(mech, mj.m);
    CHECK(c.H <= 1e-9);
    CHECK(c.tau <= 1e-9);
    CHECK(c.loops <= 1e-12);
  }
}

TEST_CASE("visuals go to MJCF as geoms where the body frames put them", "[mjcf]") {
  const Mechanism mech = prepare(dressed_pendulum());
  std::vector<std::string> warnings;
  const MjModel mj(to_mjcf(mech, warnings));
  REQUIRE(mj.m->ngeom == 4);
  CHECK(mj.m->body_mass[1] == mech.spec.bodies[0].mass);  // geoms weigh nothing
  mjData* d = mj_makeData(mj.m);
  for (int i = 1; i <= mech.model().nb; ++i) {
    const int id = mj_name2id(mj.m, mjOBJ_JOINT, mech.model().joint_names[i].c_str());
    d->qpos[mj.m->jnt_qposadr[id]] = mech.q0[mech.model().q_index[i]];
  }
  mj_kinematics(mj.m, d);
  const std::vector<Transform> expected = visual_poses(mech, mech.q0);
  double err = 0;
  for (int g = 0; g < 4; ++g) {  // geom_xmat: row-major, columns the geom's axes in the world
    const Mat3 R =
        Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(d->geom_xmat + 9 * g);
    const Vec3 p(d->geom_xpos[3 * g], d->geom_xpos[3 * g + 1], d->geom_xpos[3 * g + 2]);
    err = std::max({err, (R - expected[g].rotation()).cwiseAbs().maxCoeff(),
                    (p - expected[g].translation()).norm()});
  }
  // 1e-12: quaternions and positions written to 17 digits, MuJoCo's products on ~1 m lengths
  CHECK(err <= 1e-12);
  CHECK(mj.m->geom_size[0] == 0.15);  // half the box's 0.3 m
  CHECK(mj.m->geom_contype[0] == 0);
  mj_deleteData(d);
}
#endif
