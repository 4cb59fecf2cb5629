"""The Simulation object: stepping by hand reproduces simulate(), state and joint outputs,
drives changed between steps, analyses of a sample."""

import math

import numpy as np
import pytest

import articula


@pytest.fixture
def fourbar(source_dir):
    return articula.load(str(source_dir / "samples" / "fourbar.json"))


def test_stepping_by_hand_reproduces_simulate(fourbar):
    run = fourbar.simulate(duration=0.2, step=1e-3)
    sim = fourbar.simulation()
    assert sim.columns == list(run)
    for n in range(1, 201):
        sim.run_to(n * 1e-3)  # lands on n*h as the runner does
    row = sim.row()
    for name, values in run.items():
        assert row[name] == pytest.approx(values[-1], rel=1e-12, abs=1e-12), name
    assert sim.time == pytest.approx(0.2, abs=1e-15)


def test_state_and_joint_outputs(fourbar):
    sim = fourbar.simulation()
    sim.step(1e-3)
    a0 = sim.joint("A0")
    assert a0["q"][0] == pytest.approx(0.3 + 2 * math.pi * 1e-3, abs=1e-12)
    assert a0["qd"][0] == pytest.approx(2 * math.pi, abs=1e-9)
    assert set(a0) == {"q", "qd", "qdd", "tau", "force", "moment"}
    assert sim.loop_error < 1e-12
    e = sim.energy
    assert abs(e["residual"]) < 1e-9
    assert len(sim.q) == len(sim.qd) == len(sim.qdd) == len(sim.tau)
    crank_tip = sim.point("crank", (0.1, 0, 0))
    q = a0["q"][0]
    assert np.allclose(crank_tip, [0.1 * math.cos(q), 0.1 * math.sin(q), 0], atol=1e-12)


def test_changing_a_drive_between_steps(fourbar):
    sim = fourbar.simulation()
    sim.run_to(0.1)
    sim.set_drive("A0", "0.3 + 4*pi*t")  # twice as fast from now on
    sim.run_to(0.2)
    assert sim.joint("A0")["qd"][0] == pytest.approx(4 * math.pi, rel=1e-9)
    assert sim.loop_error < 1e-12
    with pytest.raises(ValueError):
        sim.set_drive("A0", "sin(")
    with pytest.raises(KeyError):
        sim.set_drive("nowhere", "t")


def test_restore_retraces_the_run(fourbar):
    sim = fourbar.simulation()
    sim.run_to(0.1)
    saved = sim.state()
    sim.run_to(0.2)
    first = sim.row()
    sim.restore(saved)
    assert sim.time == pytest.approx(0.1)
    sim.run_to(0.2)
    assert sim.row() == first  # the same steps from the same state: the same numbers


def test_adaptive_integration(fourbar):
    sim = fourbar.simulation()
    sim.advance(0.3, rtol=1e-9, atol=1e-11)
    assert sim.time == pytest.approx(0.3)
    assert sim.accepted_steps > 0
    q = sim.joint("A0")["q"][0]
    assert q == pytest.approx(0.3 + 2 * math.pi * 0.3, abs=1e-8)


def test_analyses(source_dir):
    six_bar = articula.load(str(source_dir / "samples" / "watt_six_bar.json"))
    m = six_bar.mobility()
    assert m["mobility"] == six_bar.info()["mobility"]
    assert m["loops"] == len(six_bar.info()["loop_joints"])
    a = six_bar.assembly()
    assert a["converged"] and a["residual"] <= 1e-12
    assert set(a["q"]) == set(six_bar.info()["tree_joints"])
    s = six_bar.status()
    assert s["ready"] and s["dof"] == m["mobility"]
    incomplete = articula.Project()
    incomplete.add_link([(0, 0), (0.1, 0)], attach=[None, None])  # not pinned to anything
    s = incomplete.status()
    assert not s["ready"] and s["disconnected"] == ["link1"]
    with pytest.raises(articula.ProjectError):
        incomplete.info()
