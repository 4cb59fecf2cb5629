#include "core/estimation/smoother_problem.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace articula::smoother {

using Loss = EstimatorOptions::Loss;

void knot_values(Problem& p, int k, const VecX& xu, VecX& h, VecX& f, bool next) {
  const Simulation& sim = p.space().place(p.log.t[k], xu, p.q[k]);
  p.space().sensors().read(sim, h);
  if (next) f = p.space().advance(p.log.t[k + 1]);
}

int Rows::add(double residual, double weight, double cost_term) {
  r.push_back(residual);
  w.push_back(weight);
  cost += cost_term;
  return static_cast<int>(r.size()) - 1;
}

namespace {

// The cache's value-only evaluation of knot k if it was made at exactly xu (and reached the
// next row when that is needed): its h and f, with p.q[k] still the full coordinates it found.
bool evaluated_at(const Problem& p, int k, const VecX& xu, bool next, KnotModel& km) {
  const auto i = static_cast<std::size_t>(k);
  if (!p.cache || i >= p.cache->value_at.size() || p.cache->value_at[i].size() != xu.size() ||
      p.cache->value_at[i] != xu || p.q[i].size() == 0)
    return false;
  const KnotModel& v = p.cache->value[i];
  if (next && v.f.size() == 0) return false;
  km.h = v.h;
  km.f = next ? v.f : VecX();
  return true;
}

void remember_value(Problem& p, int k, const VecX& xu, const KnotModel& km) {
  if (!p.cache || p.params) return;  // identification evaluates at moved parameters too
  const auto i = static_cast<std::size_t>(k);
  if (p.cache->value_at.size() <= i) {
    p.cache->value_at.resize(i + 1);
    p.cache->value.resize(i + 1);
  }
  p.cache->value_at[i] = xu;
  p.cache->value[i].h = km.h;
  p.cache->value[i].f = km.f;
}

// With a cache, the newest knot's step to the next row is linearised too (unless the log ends
// there): the next row's predict and solve then reuse it.
KnotModel linearise_here(Problem& p, int k, const VecX& xu, bool jacobians) {
  KnotModel km;
  const bool next = p.continues(k) || (p.cache && jacobians && k + 1 < p.log.t.size());
  if (!jacobians || !evaluated_at(p, k, xu, next, km)) knot_values(p, k, xu, km.h, km.f, next);
  if (!jacobians) {
    remember_value(p, k, xu, km);
    return km;
  }
  ++p.linearised;
  const int nb = p.space().nb();
  km.Jh = MatX::Zero(km.h.size(), nb);
  km.Jf = MatX::Zero(km.f.size(), nb);
  VecX hp, fp;
  const VecX q_here = p.q[k];
  // θ̇ and u columns first: they all place the knot's θ from q_here, one position solve
  // (StateSpace::full_state keeps it), before the θ columns move θ.
  for (int jj = 0; jj < nb; ++jj) {
    const int j = (jj + p.space().m()) % nb;
    // Forward differences for every column (one placement and step each): θ̇ and u enter
    // through velocity products and forces over one row nearly linearly, and θ's bending by the
    // position solve leaves a truncation error d/2 f'' of ~1e-5 of the derivative (central
    // differences cost six more placements per Stewart knot; the estimates moved by < 1e-7 and
    // the sigmas by < 5e-6 relative on the bench's logs, est27).
    const double d = 1e-5 * (1.0 + std::abs(xu[j]));
    VecX x = xu;
    x[j] = xu[j] + d;
    knot_values(p, k, x, hp, fp, next);
    p.q[k] = q_here;
    km.Jh.col(j) = (hp - km.h) / d;
    if (km.f.size() > 0) km.Jf.col(j) = (fp - km.f) / d;
  }
  return km;
}

// How far xu moved from where knot k was linearised (d = xu - there; c its model there): the
// largest change of θ, of θ̇ times the row interval (the position change it makes over the row),
// and of the next knot's state that u's change makes through c (position, and velocity times the
// interval). The model is nearly linear in θ̇ and exactly affine in u at a fixed state (forces
// enter the accelerations linearly), so these may move more than θ. u is measured by its effect,
// not in its own units: a Stewart leg's force moves by newtons from row to row while its effect
// over a 1 ms row is micrometres (times dt, as θ̇ is, it relinearised 19 of 20 knots per row).
double moved(const Problem& p, int k, const VecX& d, const KnotModel& c) {
  const int m = p.space().m(), nu = p.space().nu();
  const auto last = p.log.t.size() - 1;
  const double dt = k < last ? p.log.t[k + 1] - p.log.t[k] : p.log.t[k] - p.log.t[k - 1];
  double a = std::max(d.head(m).cwiseAbs().maxCoeff(), dt * d.segment(m, m).cwiseAbs().maxCoeff());
  if (nu == 0) return a;
  if (c.Jf.rows() == 0) return std::max(a, dt * d.tail(nu).cwiseAbs().maxCoeff());  // log's end
  const VecX e = c.Jf.rightCols(nu) * d.tail(nu);
  return std::max({a, e.head(m).cwiseAbs().maxCoeff(), dt * e.tail(m).cwiseAbs().maxCoeff()});
}

// The cached linearisation of knot k if xu is near enough to where it was made (and it has the
// next knot's part when that is needed): the model first-order from there. Else null.
const KnotModel* cached(const Problem& p, int k, const VecX& xu) {
  if (!p.cache || p.cache->threshold <= 0.0) return nullptr;
  const auto i = static_cast<std::size_t>(k);
  if (i >= p.cache->at.size() || p.cache->at[i].size() != xu.size()) return nullptr;
  const KnotModel& c = p.cache->model[i];
  if (p.continues(k) && c.f.size() == 0) return nullptr;
  if (moved(p, k, xu - p.cache->at[i], c) > p.cache->threshold) return nullptr;
  return &c;
}

}  // namespace

KnotModel linearise(Problem& p, int k, const VecX& xu, bool jacobians) {
  if (const KnotModel* c = cached(p, k, xu)) {
    const VecX d = xu - p.cache->at[static_cast<std::size_t>(k)];
    KnotModel km;
    km.h.noalias() = c->h + c->Jh * d;
    if (p.continues(k)) km.f.noalias() = c->f + c->Jf * d;
    if (jacobians) km.reused = c;  // a cost evaluation needs none
    return km;
  }
  const bool store = p.cache && p.cache->threshold > 0.0 && jacobians;
  KnotModel km = linearise_here(p, k, xu, jacobians);
  if (store) {
    const auto i = static_cast<std::size_t>(k);
    if (p.cache->at.size() <= i) {
      p.cache->at.resize(i + 1);
      p.cache->model.resize(i + 1);
    }
    p.cache->at[i] = xu;
    p.cache->model[i] = km;
  }
  return km;
}

namespace {

// ρ(s²)/2 and the IRLS weight of a normalised residual s.
double robust_weight(const EstimatorOptions& o, double s, double& cost) {
  const double a = std::abs(s), c = o.loss_scale;
  if (o.loss == Loss::Huber && a > c) {
    cost = c * (a - 0.5 * c);
    return c / a;
  }
  if (o.loss == Loss::Cauchy) {
    cost = 0.5 * c * c * std::log1p((a / c) * (a / c));
    return 1.0 / (1.0 + (a / c) * (a / c));
  }
  cost = 0.5 * s * s;
  return 1.0;
}

// R (xu_k - prior) on knot k (s, or the first row of another log): R upper triangular (a
// Cholesky factor) or diagonal.
void prior_rows(const Problem& p, int k, const VecX& xu, Rows& rows) {
  const VecX e = p.prior_root * (xu - p.prior);
  const int col = (k - p.s) * static_cast<int>(xu.size());
  for (int i = 0; i < e.size(); ++i) {
    const int r = rows.add(e[i]);
    for (int j = 0; j < e.size(); ++j)
      if (p.prior_root(i, j) != 0.0) rows.J.emplace_back(r, col + j, p.prior_root(i, j));
  }
}

void sensor_rows(const Problem& p, int k, const VecX& xu, const KnotModel& km, Rows& rows) {
  const VecX& sigma = p.space().sensors().sigma();
  for (int c = 0; c < static_cast<int>(sigma.size()); ++c) {
    if (p.log.present(k, c) == 0.0) continue;
    const double s = (km.h[c] - p.log.values(k, c)) / sigma[c];
    double cost = 0.0;
    const double w = robust_weight(p.opt, s, cost);
    const int r = rows.add(s, w, cost);
    const MatX& Jh = km.jh();
    for (int j = 0; Jh.size() && j < xu.size(); ++j)  // an encoder's row has one entry
      if (Jh(c, j) != 0.0)
        rows.J.emplace_back(r, (k - p.s) * static_cast<int>(xu.size()) + j, Jh(c, j) / sigma[c]);
  }
}

// x_{k+1} - f: per independent coordinate i the pair (θ_i, θ̇_i) whitened by L⁻¹, where
// L Lᵀ = Q = σ_a² Δt [Δt²/3, Δt/2; Δt/2, 1]: L⁻¹ = [√3/Δt, 0; -3/Δt, 2] / (σ_a √Δt).
void dynamics_rows(const Problem& p, int k, const VecX& here, const VecX& next, const KnotModel& km,
                   Rows& rows) {
  const StateSpace& s = p.space();
  const int nb = s.nb(), m = s.m(), col = (k - p.s) * nb;  // knot k's first variable
  const double dt = p.log.t[k + 1] - p.log.t[k], g = 1.0 / (p.opt.accel_sigma * std::sqrt(dt));
  const double Li[2][2] = {{std::sqrt(3.0) / dt * g, 0.0}, {-3.0 / dt * g, 2.0 * g}};
  const VecX e = next.head(s.nx()) - km.f;
  const MatX& Jf = km.jf();
  for (int i = 0; i < m; ++i)
    for (int a = 0; a < 2; ++a) {
      const int r = rows.add(Li[a][0] * e[i] + Li[a][1] * e[m + i]);
      for (int b = 0; b < 2; ++b) {
        if (Li[a][b] == 0.0) continue;
        const int row_f = b == 0 ? i : m + i;
        rows.J.emplace_back(r, col + nb + row_f, Li[a][b]);
        for (int j = 0; Jf.size() && j < nb; ++j)
          rows.J.emplace_back(r, col + j, -Li[a][b] * Jf(row_f, j));
      }
    }
  const double gu = 1.0 / (p.opt.force_sigma * std::sqrt(dt));
  for (int u = 0; u < s.nu(); ++u) {
    const int c = s.nx() + u;
    const int r = rows.add(gu * (next[c] - here[c]));
    rows.J.emplace_back(r, col + nb + c, gu);
    rows.J.emplace_back(r, col + c, -gu);
  }
}

}  // namespace

// Jacobians only when asked: a cost evaluation needs none.
Rows build(Problem& p, const std::vector<VecX>& xu, bool jacobians, bool first_only) {
  Rows rows;
  for (int k = p.s; k < (first_only ? p.s + 1 : p.e); ++k) {
    if (k == p.s || p.starts_log(k)) prior_rows(p, k, xu[k], rows);
    const KnotModel km = linearise(p, k, xu[k], jacobians);
    rows.fresh += jacobians && !km.reused;
    sensor_rows(p, k, xu[k], km, rows);
    if (p.continues(k)) dynamics_rows(p, k, xu[k], xu[k + 1], km, rows);
  }
  return rows;
}

namespace {
// The rows' entries grouped by row (a counting sort: parameter columns are appended after all
// the knots' rows), as (column, value) pairs; `start` indexes each row's first entry.
void entries_by_row(const Rows& rows, std::vector<int>& start, std::vector<Entry>& entries) {
  start.assign(rows.r.size() + 1, 0);
  for (const Triplet& t : rows.J) ++start[static_cast<std::size_t>(t.row()) + 1];
  for (std::size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
  std::vector<int> fill(start.begin(), start.end() - 1);
  entries.resize(rows.J.size());
  for (const Triplet& t : rows.J)
    entries[static_cast<std::size_t>(fill[static_cast<std::size_t>(t.row())]++)] = {t.col(),
                                                                                    t.value()};
}

// One row's entries sorted by column with repeated columns summed (a dynamics row names each
// column of its knot twice, once per whitened component); returns the new end.
Entry* merge_columns(Entry* first, Entry* last) {
  std::sort(first, last, [](const Entry& a, const Entry& b) { return a.first < b.first; });
  Entry* out = first;
  for (Entry* e = first; e != last; ++e) {
    if (out != first && (out - 1)->first == e->first)
      (out - 1)->second += e->second;
    else
      *out++ = *e;
  }
  return out;
}
}  // namespace

namespace {
// H's lower triangle by blocks, as the factors make it: every factor touches one knot, a knot
// and the next, and the parameters (identify). Per knot its nb x nb diagonal block and the
// block below it (knot k + 1's rows, knot k's columns); the parameters' rows (np x n).
// Summing into these dense blocks and emitting only their nonzero entries replaces one triplet
// per pair of entries of every row (100 000 per iteration on the Stewart platform's window,
// sorted by setFromTriplets: half of its fixed-lag run).
struct BlockInformation {
  int nb, n0;  // block size; the knots' variables (parameters after them)
  std::vector<MatX> diag, below;
  MatX params;
  BlockInformation(int n, int nb_, int n0_)
      : nb(nb_),
        n0(n0_),
        diag(static_cast<std::size_t>(n0_ / nb_), MatX::Zero(nb_, nb_)),
        below(static_cast<std::size_t>(std::max(0, n0_ / nb_ - 1)), MatX::Zero(nb_, nb_)),
        params(MatX::Zero(n - n0_, n)) {}
  // w Jᵣᵀ Jᵣ of one row's entries (sorted by column, each once): each entry's knot and place in
  // it found once, not again for every pair.
  void add_row(const Entry* first, const Entry* last, double w) {
    const auto count = static_cast<std::size_t>(last - first);
    at.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      const int c = first[i].first;
      at[i] = c >= n0 ? Place{-1, c} : Place{c / nb, c % nb};
    }
    if (count > 0 && at[0].knot >= 0) {
      int high = at[0].knot;
      for (const Place& e : at) high = std::max(high, e.knot);
      if (high > at[0].knot + 1)
        throw std::logic_error("estimation: a factor spans knots that are not neighbours");
    }
    for (std::size_t a = 0; a < count; ++a) {
      const double wa = w * first[a].second;
      for (std::size_t b = 0; b <= a; ++b) {
        const double v = wa * first[b].second;
        const Place &pa = at[a], &pb = at[b];
        if (pa.knot < 0)
          params(pa.at - n0, first[b].first) += v;
        else if (pa.knot == pb.knot)
          diag[static_cast<std::size_t>(pa.knot)](pa.at, pb.at) += v;
        else
          below[static_cast<std::size_t>(pb.knot)](pa.at, pb.at) += v;
      }
    }
  }
  struct Place {
    int knot, at;  // knot (-1: a parameter) and the index in it (a parameter's: its column)
  };
  std::vector<Place> at;
  void to_triplets(std::vector<Triplet>& h) const {
    auto put = [&h](int r, int c, double v) {
      if (v != 0.0) h.emplace_back(r, c, v);
    };
    for (std::size_t j = 0; j < diag.size(); ++j) {
      const int o = static_cast<int>(j) * nb;
      for (int c = 0; c < nb; ++c)
        for (int r = c; r < nb; ++r) put(o + r, o + c, diag[j](r, c));
      if (j < below.size())
        for (int c = 0; c < nb; ++c)
          for (int r = 0; r < nb; ++r) put(o + nb + r, o + c, below[j](r, c));
    }
    for (int i = 0; i < params.rows(); ++i)
      for (int c = 0; c <= n0 + i; ++c) put(n0 + i, c, params(i, c));
  }
};
}  // namespace

namespace {
// Row by row: each row adds w Jᵣᵀ Jᵣ (its few entries pairwise, lower triangle) and w Jᵣᵀ r.
// With a handful of entries per row this is far cheaper than forming J and the sparse product
// Jᵀ W J, which took 17 % of the fixed-lag run.
void accumulate(const Rows& rows, int n, BlockInformation& blocks, VecX& g) {
  std::vector<int> start;
  std::vector<Entry> entries;
  entries_by_row(rows, start, entries);
  g = VecX::Zero(n);
  for (std::size_t r = 0; r + 1 < start.size(); ++r) {
    Entry* first = entries.data() + start[r];
    Entry* last = merge_columns(first, entries.data() + start[r + 1]);
    const double w = rows.w[r];
    for (Entry* a = first; a != last; ++a) {
      g[a->first] += w * a->second * rows.r[r];
    }
    blocks.add_row(first, last, w);
  }
}
}  // namespace

void normal_equations(const Rows& rows, int n, int nb, int n0, Sparse& H, VecX& g) {
  BlockInformation blocks(n, nb, n0);
  accumulate(rows, n, blocks, g);
  std::vector<Triplet> h;
  blocks.to_triplets(h);
  H.resize(n, n);
  H.setFromTriplets(h.begin(), h.end());
}

void normal_equations(const Rows& rows, int nb, int n0, KnotBlocks& H, VecX& g) {
  BlockInformation blocks(n0, nb, n0);
  accumulate(rows, n0, blocks, g);
  H.diag = std::move(blocks.diag);
  H.below = std::move(blocks.below);
}

void gradient(const Rows& rows, int n, VecX& g) {
  g = VecX::Zero(n);
  for (const Triplet& t : rows.J) {
    const auto r = static_cast<std::size_t>(t.row());
    g[t.col()] += rows.w[r] * t.value() * rows.r[r];
  }
}

}  // namespace articula::smoother
