"""articula.fixed_lag_forward (issue 19): the fixed-lag factor-graph simulation of the paper's
four-bar against the RK4 run of Project.simulate(), in the paper's measure (RMSE of the points
P1, P2), to the bound tests/factor_graph/test_fixed_lag.cpp uses; equal to `articula-cli
fg-simulate` to the last bit; refusals raise."""

import numpy as np
import pytest

import articula
from conftest import read_csv, run_cli, same_bits


@pytest.fixture(scope="module")
def fourbar(source_dir):
    return source_dir / "tests" / "data" / "factor_graph" / "paper_fourbar_free.json"


def natural(a, p1):
    """The paper's natural coordinates [x1 y1 x2 y2] from the joint angles A and P1: P1 at the
    crank's end (1 m from A at the origin), P2 at the coupler's (2 m further, at A + P1)."""
    x1, y1 = np.cos(a), np.sin(a)
    return np.stack([x1, y1, x1 + 2 * np.cos(a + p1), y1 + 2 * np.sin(a + p1)], axis=1)


def test_the_paper_fourbar_follows_rk4(fourbar):
    r = articula.fixed_lag_forward(fourbar, duration=1.0)
    steps = 1000
    assert r["t"].shape == (steps + 1,) and r["t"][-1] == pytest.approx(1.0, abs=1e-12)
    assert r["q"].shape == r["qd"].shape == (steps + 1, len(r["coordinates"]))
    assert r["step"] == 1e-3 and r["window"] == 2  # from the file's simulation block
    col = {name: k for k, name in enumerate(r["coordinates"])}
    # The reference: RK4 at the same step, with P1 and P2 traced by the library's kinematics.
    points = {"P1": ("crank", (1, 0, 0)), "P2": ("coupler", (2, 0, 0))}
    ref = articula.load(str(fourbar)).simulate(duration=1.0, step=1e-3, points=points)
    ref_xy = np.stack([ref["P1.x"], ref["P1.y"], ref["P2.x"], ref["P2.y"]], axis=1)
    # natural() is the kinematics of the file: on the reference's angles it gives its points.
    assert np.abs(natural(ref["A.q"], ref["P1.q"]) - ref_xy).max() < 1e-12  # m
    fl_xy = natural(r["q"][:, col["A.q"]], r["q"][:, col["P1.q"]])
    assert np.abs(ref_xy - ref_xy[0]).max() > 0.1  # m: it moves, the comparison means something
    rmse = np.sqrt(np.mean((fl_xy - ref_xy) ** 2))
    assert rmse < 3.118e-3 / 100  # m: the C++ test's bound, a hundredth of the paper's Table 1
    assert r["max_loop_error"] < 1e-6  # m, as the C++ test
    assert 0 < r["iterations"] <= 2 * steps


def test_equals_the_cli_to_the_last_bit(cli, fourbar):
    args = ["--duration", "0.1", "--window", "5", "--quiet"]
    out = run_cli(cli, "fg-simulate", str(fourbar), *args)
    assert out.returncode == 0, out.stderr
    csv = read_csv(out.stdout)
    p = articula.load(str(fourbar))  # a Project works as well as a path
    r = articula.fixed_lag_forward(p, duration=0.1, window=5)
    assert same_bits(r["t"], csv["t"])
    assert len(csv) == 2 + 2 * len(r["coordinates"])  # t, q, qd of the tree joints, loop_error
    for k, name in enumerate(r["coordinates"]):
        assert same_bits(r["q"][:, k], csv[name]), name
        assert same_bits(r["qd"][:, k], csv[name + "d"]), name  # J.q -> J.qd
    assert same_bits(r["loop_error"], csv["loop_error"])
    assert r["max_loop_error"] == r["loop_error"].max()


def test_refusals_raise(source_dir, fourbar):
    with pytest.raises(articula.SetupError, match="has a drive"):
        articula.fixed_lag_forward(source_dir / "samples" / "fourbar.json", duration=0.1)
    with pytest.raises(ValueError, match="window"):
        articula.fixed_lag_forward(fourbar, window=0)
    with pytest.raises(ValueError, match="sigma"):
        articula.fixed_lag_forward(fourbar, sigma=-1.0)
    with pytest.raises(articula.ProjectError):
        articula.fixed_lag_forward(source_dir / "tests" / "no_such_file.json")
