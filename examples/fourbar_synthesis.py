#!/usr/bin/env python3
"""Path synthesis: a four-bar whose coupler point passes through given points.

A candidate is drawn as the editor draws it: ground pivots A0 and B0, the crank A0-A, a ternary
coupler A-B-P (P is the tracing point) and the rocker B-B0, with the Motor tool on A0 (one turn
per second). Its coupler curve is P's path over a 1 s simulation. The error of a candidate is,
for each target point, the vector to the nearest point of the curve; a candidate whose crank
cannot turn fully (non-Grashof, dead points) is a failed design.

1. A global stage: --candidates random designs in a box around a rough guess, evaluated on the
   Dask cluster by articula.study; the best --starts of them go on.
2. A local stage: scipy.optimize.least_squares from each of those starts, one start per design
   of a second study, so the refinements run side by side on the workers.

The best design must pass every target within --tolerance (default 1 mm). The target points
are given in the script (they come from a known crank-rocker, so that a solution exists; the
search starts from random designs, not from it).

    PYTHONPATH=build/python python3 examples/fourbar_synthesis.py [--plot synthesis.png]
"""

import argparse
import functools
import math
import sys

import numpy as np

import articula
from articula import study

NAMES = ["a0x", "a0y", "b0x", "b0y", "ax", "ay", "bx", "by", "px", "py"]
# Points the coupler must pass through (m), in no prescribed order or timing.
TARGETS = np.array([
    [0.1895, 0.3048], [0.0993, 0.2856], [0.0204, 0.2188],
    [-0.0022, 0.1659], [0.0411, 0.1808], [0.1651, 0.2658],
])
# A rough sketch of the wanted mechanism, and how far the random search strays from it (m).
GUESS = np.array([0.02, -0.01, 0.28, 0.02, 0.05, 0.10, 0.32, 0.22, 0.22, 0.28])
SPREAD = 0.04
FAILED = 1.0  # residual (m) of a design that cannot run


def build(x: np.ndarray):
    """The candidate drawn with the editor's tools: (project, coupler body, P in its frame)."""
    a0, b0, a, b, p = (tuple(x[k : k + 2]) for k in range(0, 10, 2))
    project = articula.Project("synthesis candidate")
    project.add_ground_point(a0)
    project.add_ground_point(b0)
    crank = project.add_link([a0, a], attach=["ground", None])
    coupler = project.add_link([a, b, p], attach=[crank, None, None])
    project.add_link([b, b0], attach=[coupler, "ground"])
    pivot = next(j.name for j in project.joints if j.parent == "ground" and j.child == crank)
    project.add_motor(pivot)
    pose = project.body(coupler).pose
    w, _, _, z = pose.quaternion
    angle = 2.0 * math.atan2(z, w)
    d = np.asarray(p) - pose.position[:2]
    local = (math.cos(angle) * d[0] + math.sin(angle) * d[1],
             -math.sin(angle) * d[0] + math.cos(angle) * d[1], 0.0)
    return project, coupler, local


def coupler_curve(x: np.ndarray, step: float = 1e-3) -> np.ndarray:
    """P's path over one crank turn (1 s), as an (n, 2) array."""
    project, coupler, local = build(x)
    run = project.simulate(duration=1.0, step=step, inverse=True, points={"P": (coupler, local)})
    return np.column_stack([run["P.x"], run["P.y"]])


def nearest_offsets(curve: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """For each target, the vector from the nearest point of the closed polyline to it."""
    s0, s1 = curve, np.roll(curve, -1, axis=0)
    d = s1 - s0
    rel = targets[:, None, :] - s0[None, :, :]
    t = np.clip(np.einsum("mnk,nk->mn", rel, d) / np.maximum((d * d).sum(1), 1e-300), 0.0, 1.0)
    closest = s0[None, :, :] + t[..., None] * d[None, :, :]
    off = targets[:, None, :] - closest
    best = np.argmin((off * off).sum(2), axis=1)
    return off[np.arange(len(targets)), best]


def residuals(x: np.ndarray, targets: np.ndarray = TARGETS) -> np.ndarray:
    try:
        return nearest_offsets(coupler_curve(x), targets).ravel()
    except (articula.SetupError, articula.ProjectError, ValueError):
        return np.full(2 * len(targets), FAILED)


def score(**params) -> dict:
    """Global stage: the design's largest distance to a target (raises if it cannot run)."""
    x = np.array([params[n] for n in NAMES])
    off = nearest_offsets(coupler_curve(x), TARGETS)
    return {"max_error": float(np.max(np.hypot(off[:, 0], off[:, 1])))}


def refine(max_evaluations: int, **params) -> dict:
    """Local stage: least squares on the offsets from one start (runs on a worker)."""
    from scipy.optimize import least_squares

    x0 = np.array([params[n] for n in NAMES])
    fit = least_squares(residuals, x0, method="trf", x_scale=0.01, diff_step=1e-7,
                        max_nfev=max_evaluations)
    off = fit.fun.reshape(-1, 2)
    return {**{f"best_{n}": v for n, v in zip(NAMES, fit.x)},
            "max_error": float(np.max(np.hypot(off[:, 0], off[:, 1]))),
            "evaluations": int(fit.nfev)}


def random_designs(n: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    xs = GUESS + rng.uniform(-SPREAD, SPREAD, size=(n, len(NAMES)))
    return [dict(zip(NAMES, x.tolist())) for x in xs]


def check(x: np.ndarray, tolerance: float) -> float:
    """Largest distance from a target to the curve traced with a 10x finer step."""
    off = nearest_offsets(coupler_curve(x, step=1e-4), TARGETS)
    return float(np.max(np.hypot(off[:, 0], off[:, 1])))


def plot(x: np.ndarray, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = coupler_curve(x, step=1e-4)
    fig, ax = plt.subplots(figsize=(6, 5))
    ax.plot(curve[:, 0], curve[:, 1], label="coupler curve")
    ax.plot(TARGETS[:, 0], TARGETS[:, 1], "o", color="#cc3311", label="target points")
    pts = x.reshape(5, 2)
    for i, j in ((0, 2), (2, 3), (3, 1), (2, 4), (3, 4)):
        ax.plot(*zip(pts[i], pts[j]), color="0.4")
    ax.plot(pts[:2, 0], pts[:2, 1], "^", color="0.2", label="ground pivots")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_aspect("equal")
    ax.legend()
    ax.set_title("Synthesized four-bar (as drawn)")
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--candidates", type=int, default=400)
    ap.add_argument("--starts", type=int, default=4)
    ap.add_argument("--evaluations", type=int, default=400, help="per local refinement")
    ap.add_argument("--tolerance", type=float, default=1e-3, help="m")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--workers", type=int, default=None, help="LocalCluster workers")
    ap.add_argument("--cluster", default="local", help="'local', 'serial' or an address")
    ap.add_argument("--plot", default=None, help="PNG of the best design's curve")
    args = ap.parse_args(argv)

    client = (study.local_client(args.workers) if args.cluster == "local" else args.cluster)
    try:
        table = study.run(score, random_designs(args.candidates, args.seed), cluster=client)
        good = table[table["ok"]].sort_values("max_error")
        print(f"global stage: {len(good)} of {len(table)} candidates run; best max error "
              f"{1e3 * good['max_error'].iloc[0]:.1f} mm")
        starts = good[NAMES].head(args.starts).to_dict("records")
        fn = functools.partial(refine, args.evaluations)
        fits = study.run(fn, starts, cluster=client)
    finally:
        if not isinstance(client, str):
            client.close()
            client.cluster.close()
    fits = fits[fits["ok"]].sort_values("max_error")
    best = fits.iloc[0]
    x = np.array([best[f"best_{n}"] for n in NAMES])
    error = check(x, args.tolerance)
    print("local stage: max error per start (mm):",
          ", ".join(f"{1e3 * e:.3f}" for e in fits["max_error"]))
    print("best design (m): " + ", ".join(f"{n}={v:.5f}" for n, v in zip(NAMES, x)))
    print(f"coupler passes every target within {1e3 * error:.4f} mm "
          f"(tolerance {1e3 * args.tolerance:g} mm)")
    if args.plot:
        plot(x, args.plot)
        print(f"plot: {args.plot}")
    return 0 if error <= args.tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
