"""articula.trajectory_inverse (issue 19): the seed paper's four-bar whose crank follows
theta(t) = 0.5 (1 - cos pi t), given as 2,001 targets at 1 ms. The crank torque equals the exact
inverse dynamics of Project.simulate() with the law as a motion drive to 1e-6 of its peak (the
C++ test's tolerance), and `articula-cli trajectory-inverse` on the same targets to the last bit;
bad targets and options raise ValueError."""

import json

import numpy as np
import pytest

import articula
from conftest import read_csv, run_cli, same_bits

LAW = "0.5*(1-cos(pi*t))"


@pytest.fixture(scope="module")
def driven(source_dir, tmp_path_factory):
    doc = json.loads(
        (source_dir / "tests" / "data" / "factor_graph" / "paper_fourbar_free.json").read_text()
    )
    doc["joints"][0]["drive"] = {"type": "motion", "q": LAW}
    path = tmp_path_factory.mktemp("traj") / "fourbar_driven.json"
    path.write_text(json.dumps(doc))
    return path


def targets(steps=2000, h=1e-3):
    t = np.arange(steps + 1) * h
    return t, (0.5 * (1 - np.cos(np.pi * t))).reshape(-1, 1)


def test_the_crank_torque_is_the_exact_inverse_dynamics(driven):
    t, z = targets()
    r = articula.trajectory_inverse(driven, z, 1e-3)
    assert r["joints"] == ["A"]
    assert r["tau"].shape == r["q"].shape == (2001, 1)
    assert same_bits(r["t"], t)
    exact = articula.load(str(driven)).simulate(duration=2.0, step=1e-3)
    peak = np.abs(exact["A.tau"]).max()
    assert peak > 10  # N m: a real load
    assert np.abs(r["tau"][:, 0] - exact["A.tau"]).max() <= 1e-6 * peak  # measured 6.1e-7
    assert np.abs(r["q"][:, 0] - z[:, 0]).max() <= 1e-12  # rad: hard targets
    assert r["max_loop_error"] <= 1e-12  # m


def test_equals_the_cli_to_the_last_bit(cli, driven, tmp_path):
    t, z = targets(400)
    csv_in = tmp_path / "z.csv"
    csv_in.write_text("t,A\n" + "".join(f"{a!r},{b!r}\n" for a, b in zip(t, z[:, 0])))
    out = run_cli(cli, "trajectory-inverse", str(driven), str(csv_in), "--quiet")
    assert out.returncode == 0, out.stderr
    csv = read_csv(out.stdout)
    r = articula.trajectory_inverse(articula.load(str(driven)), z, 1e-3)
    for col, key in (("A.q", "q"), ("A.qd", "qd"), ("A.qdd", "qdd"), ("A.tau", "tau")):
        assert same_bits(r[key][:, 0], csv[col]), col


def test_bad_targets_and_options_raise(driven, source_dir):
    _, z = targets(10)
    with pytest.raises(ValueError, match="one column per motion-driven joint"):
        articula.trajectory_inverse(driven, np.hstack([z, z]), 1e-3)
    with pytest.raises(ValueError, match="step"):
        articula.trajectory_inverse(driven, z, 0.0)
    with pytest.raises(ValueError, match="not finite"):
        articula.trajectory_inverse(driven, np.full_like(z, np.nan), 1e-3)
    free = source_dir / "tests" / "data" / "factor_graph" / "paper_fourbar_free.json"
    # As the CLI (exit 3): the true cause, not a shape mismatch against zero columns.
    with pytest.raises(articula.SetupError, match="no motion-driven joint"):
        articula.trajectory_inverse(free, z, 1e-3)
    with pytest.raises(ValueError, match="sigma_integration must be > 0"):
        articula.trajectory_inverse(driven, z, 1e-3, sigma_integration=0.0)
    with pytest.raises(ValueError, match="sigma_jerk must be > 0 or unset"):
        articula.trajectory_inverse(driven, z, 1e-3, sigma_jerk=-1.0)
