#include "core/sim/embedding/stage_cache.hpp"

namespace articula {

void EmbeddedStageCache::reset(const Model& model, const std::vector<int>& independent) {
  iv_ = independent;
  iq_.clear();
  for (int v : independent) {
    const int b = model.v_body[v];
    const Joint& j = model.joints[b];
    if (j.nq() == j.nv()) {  // q̇ = d/dt q coordinate by coordinate
      iq_.push_back(model.q_index[b] + (v - model.v_index[b]));
    } else if (v == model.v_index[b]) {  // a spherical or free joint, independent as a whole
      for (int k = 0; k < j.nq(); ++k) iq_.push_back(model.q_index[b] + k);
    }
  }
  clear();
}

bool EmbeddedStageCache::same_key(double t, const VecX& q, const VecX& qd) const {
  if (!closed_ || t != t_ || q.size() != q_.size() || qd.size() != qd_.size()) return false;
  for (int i : iq_)
    if (q[i] != q_[i]) return false;
  for (int v : iv_)
    if (qd[v] != qd_[v]) return false;
  return true;
}

bool EmbeddedStageCache::find_closed(double t, VecX& q, VecX& qd) const {
  if (!same_key(t, q, qd)) return false;
  q = q_;
  qd = qd_;
  return true;
}

void EmbeddedStageCache::remember_closed(double t, const VecX& q, const VecX& qd) {
  t_ = t;
  q_ = q;
  qd_ = qd;
  closed_ = true;
  accelerations_ = false;
}

const EmbeddedStageCache::Result* EmbeddedStageCache::find_accelerations(double t, const VecX& q,
                                                                         const VecX& qd) const {
  return accelerations_ && same_key(t, q, qd) ? &result_ : nullptr;
}

EmbeddedStageCache::Result& EmbeddedStageCache::remember_accelerations() {
  accelerations_ = closed_;
  result_.has_power = false;
  return result_;
}

}  // namespace articula
