#include "core/sim/integrators.hpp"

#include "core/model/configuration.hpp"

namespace articula {

IntegratorWorkspace::IntegratorWorkspace(const Model& model)
    : qs(model.nq), vs(model.nv) {
  for (int k = 0; k < 4; ++k) {
    kq[k].resize(model.nq);
    kv[k].resize(model.nv);
  }
}

namespace {
void q_rate(const Model& model, const VecX& q, const VecX& v, VecX& out) {
  for (int i = 1; i <= model.nb; ++i)
    joint_q_dot(model.joints[i], q.data() + model.q_index[i], v.data() + model.v_index[i],
                out.data() + model.q_index[i]);
}
}  // namespace

void rk4_step(const Model& model, const AccelerationFn& f, double t, double h, VecX& q, VecX& v,
              IntegratorWorkspace& ws) {
  static constexpr double kC[4] = {0.0, 0.5, 0.5, 1.0};
  for (int k = 0; k < 4; ++k) {
    if (k == 0) {
      ws.qs = q;
      ws.vs = v;
    } else {
      ws.qs = q + (kC[k] * h) * ws.kq[k - 1];
      ws.vs = v + (kC[k] * h) * ws.kv[k - 1];
    }
    q_rate(model, ws.qs, ws.vs, ws.kq[k]);
    f(t + kC[k] * h, ws.qs, ws.vs, ws.kv[k]);
  }
  q += (h / 6.0) * (ws.kq[0] + 2.0 * ws.kq[1] + 2.0 * ws.kq[2] + ws.kq[3]);
  v += (h / 6.0) * (ws.kv[0] + 2.0 * ws.kv[1] + 2.0 * ws.kv[2] + ws.kv[3]);
  normalize(model, q);
}

void euler_step(const Model& model, const AccelerationFn& f, double t, double h, VecX& q, VecX& v,
                IntegratorWorkspace& ws) {
  f(t, q, v, ws.kv[0]);
  v += h * ws.kv[0];
  integrate_in_place(model, q, v, h);
}

}  // namespace articula
