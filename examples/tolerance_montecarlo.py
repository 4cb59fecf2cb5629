#!/usr/bin/env python3
"""Monte-Carlo tolerance study of the sample four-bar's output (the rocker angle).

Every link length (ground, crank, coupler, rocker) is made with a manufacturing error drawn from
a normal distribution (standard deviation --sigma, default 0.05 mm, i.e. +-0.15 mm at 3 sigma).
For each of --designs mechanisms the crank turns once (1 s, the sample's motor) and the output
error is the largest deviation of the rocker angle from the nominal mechanism's over the turn.
The designs run on a Dask cluster through articula.study; the histogram of the output error is
saved to --plot (PNG).

    PYTHONPATH=build/python python3 examples/tolerance_montecarlo.py --designs 500
    ... --cluster tcp://scheduler:8786      # an existing cluster instead of a LocalCluster
"""

import argparse
import functools
import pathlib
import sys

import numpy as np

import articula
from articula import study

SAMPLE = pathlib.Path(__file__).resolve().parents[1] / "samples" / "fourbar.json"
# Where each length lives in the sample: (joint, frame) whose x offset is the length.
LENGTHS = {
    "ground": ("B0", "parent_frame"),
    "crank": ("A", "parent_frame"),
    "coupler": ("B", "parent_frame"),
    "rocker": ("B", "child_frame"),
}


def set_lengths(project: articula.Project, **lengths: float) -> None:
    """Give the four-bar these link lengths (m); the assembly closes the loop from the sketch."""
    for name, value in lengths.items():
        joint_name, frame = LENGTHS[name]
        joint = project.joint(joint_name)
        setattr(joint, frame, articula.Pose([value, 0.0, 0.0]))
        project.set_joint(joint_name, joint)


def rocker_angle(project: articula.Project, step: float) -> np.ndarray:
    run = project.simulate(duration=1.0, step=step, inverse=True)
    return run["B0.q"]


def output_error(project: articula.Project, nominal: np.ndarray, step: float, **lengths):
    """Largest |rocker angle - nominal| over one crank turn, rad."""
    set_lengths(project, **lengths)
    theta = rocker_angle(project, step)
    return {"output_error": float(np.max(np.abs(theta - nominal)))}


def nominal_lengths(project: articula.Project) -> dict:
    return {k: float(getattr(project.joint(j), f).position[0]) for k, (j, f) in LENGTHS.items()}


def sample_designs(nominal: dict, sigma: float, n: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    return [{k: v + sigma * rng.standard_normal() for k, v in nominal.items()} for _ in range(n)]


def plot(table, path: pathlib.Path, sigma: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    err = 1e3 * table.loc[table["ok"], "output_error"].to_numpy()  # mrad
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.hist(err, bins=40, color="#4477aa", edgecolor="white")
    p99 = np.percentile(err, 99)
    ax.axvline(p99, color="#cc3311", linestyle="--", label=f"99th percentile {p99:.2f} mrad")
    ax.set_xlabel("largest rocker angle error over one crank turn (mrad)")
    ax.set_ylabel("designs")
    ax.set_title(f"Four-bar output error, link lengths sigma = {sigma * 1e3:.3g} mm, "
                 f"{len(err)} designs")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--designs", type=int, default=500)
    ap.add_argument("--sigma", type=float, default=0.05e-3, help="length std. deviation, m")
    ap.add_argument("--step", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None, help="LocalCluster workers")
    ap.add_argument("--cluster", default="local", help="'local', 'serial' or an address")
    ap.add_argument("--plot", type=pathlib.Path, default=pathlib.Path("tolerance_histogram.png"))
    args = ap.parse_args(argv)

    base = articula.load(str(SAMPLE))
    nominal = rocker_angle(base.copy(), args.step)
    designs = sample_designs(nominal_lengths(base), args.sigma, args.designs, args.seed)
    fn = functools.partial(output_error, nominal=nominal, step=args.step)
    table = study.run(fn, designs, base, cluster=args.cluster, n_workers=args.workers)
    ok = table["ok"]
    err = 1e3 * table.loc[ok, "output_error"]
    print(f"{ok.sum()} of {len(table)} designs simulated; output error (mrad): mean "
          f"{err.mean():.3f}, std {err.std():.3f}, 99th percentile {np.percentile(err, 99):.3f}, "
          f"max {err.max():.3f}")
    for _, row in table.loc[~ok].iterrows():
        print(f"design {row['design']} failed: {row['error_type']}: {row['error']}")
    plot(table, args.plot, args.sigma)
    print(f"histogram: {args.plot}")
    return 0 if ok.any() else 1


if __name__ == "__main__":
    sys.exit(main())
