#include "core/sim/integrators.hpp"

#include <cmath>

#include "core/model/configuration.hpp"

namespace articula {

IntegratorWorkspace::IntegratorWorkspace(const Model& model) : qs(model.nq), vs(model.nv) {
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

namespace articula {

const double kDopri5Weights[7] = {35.0 / 384,     0.0,       500.0 / 1113, 125.0 / 192,
                                  -2187.0 / 6784, 11.0 / 84, 0.0};

AdaptiveWorkspace::AdaptiveWorkspace(const Model& model) : qs(model.nq), vs(model.nv) {
  for (int k = 0; k < 7; ++k) {
    kq[k].resize(model.nq);
    kv[k].resize(model.nv);
  }
}

double dopri5_attempt(const Model& model, const AccelerationFn& f, double t, double h,
                      const VecX& q, const VecX& v, double rtol, double atol, VecX& q_new,
                      VecX& v_new, AdaptiveWorkspace& ws) {
  // Dormand & Prince (1980), the pair of MATLAB's ode45.
  static constexpr double c[7] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
  static constexpr double a[7][6] = {
      {},
      {1.0 / 5},
      {3.0 / 40, 9.0 / 40},
      {44.0 / 45, -56.0 / 15, 32.0 / 9},
      {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
      {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
      {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
  static constexpr double e[7] = {71.0 / 57600,      0,          -71.0 / 16695, 71.0 / 1920,
                                  -17253.0 / 339200, 22.0 / 525, -1.0 / 40};  // b5 - b4
  for (int s = 0; s < 7; ++s) {
    ws.qs = q;
    ws.vs = v;
    for (int j = 0; j < s; ++j) {
      ws.qs += (h * a[s][j]) * ws.kq[j];
      ws.vs += (h * a[s][j]) * ws.kv[j];
    }
    q_rate(model, ws.qs, ws.vs, ws.kq[s]);
    f(t + c[s] * h, ws.qs, ws.vs, ws.kv[s]);
  }
  q_new = ws.qs;  // stage 7 is evaluated at the fifth-order solution (FSAL)
  v_new = ws.vs;
  double sum = 0.0;
  auto accumulate = [&](const VecX& y0, const VecX& y1, const VecX* k) {
    for (int i = 0; i < y0.size(); ++i) {
      double err = 0.0;
      for (int s = 0; s < 7; ++s) err += e[s] * k[s][i];
      const double scale = atol + rtol * std::max(std::abs(y0[i]), std::abs(y1[i]));
      sum += (h * err / scale) * (h * err / scale);
    }
  };
  accumulate(q, q_new, ws.kq);
  accumulate(v, v_new, ws.kv);
  normalize(model, q_new);
  const double n = static_cast<double>(q.size() + v.size());
  return n > 0 ? std::sqrt(sum / n) : 0.0;
}

}  // namespace articula
