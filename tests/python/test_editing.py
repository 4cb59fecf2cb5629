"""Editing the mechanism description from Python: drawing with the editor's tools saves the
same file the editor writes (tests/doc/test_drawn_file.cpp keeps the golden file equal to the
editor's output), numeric edits, checks with JSON pointers, undo and redo."""

import json
import math

import numpy as np
import pytest

import articula

A0, B0, A, B = (0, 0), (0.3, 0), (0.06, 0.08), (0.3, 0.25)


def draw_fourbar() -> articula.Project:
    p = articula.Project("Drawn four-bar")
    p.add_ground_point(A0)
    p.add_ground_point(B0)
    crank = p.add_link([A0, A], attach=["ground", None])
    coupler = p.add_link([A, B], attach=[crank, None])
    p.add_link([B, B0], attach=[coupler, "ground"])
    pivot = next(j.name for j in p.joints if j.parent == "ground" and j.child == crank)
    p.add_motor(pivot)
    return p


def test_drawn_fourbar_saves_the_file_the_editor_writes(tmp_path, source_dir):
    p = draw_fourbar()
    out = tmp_path / "drawn.json"
    p.save(str(out))
    golden = source_dir / "tests" / "data" / "python" / "drawn_fourbar.json"
    assert out.read_bytes() == golden.read_bytes()
    assert p.path == str(out)


def test_drawn_fourbar_is_a_driven_crank_rocker():
    p = draw_fourbar()
    assert p.status()["dof"] == 1 and p.status()["free_dof"] == 0
    assert p.mobility()["mobility"] == 1
    assert p.mobility()["redundant"] == 3  # the out-of-plane rows of a planar loop
    assert p.info()["drives"] == 1
    run = p.simulate(duration=1.0, inverse=True)
    crank = run["J1.q"]
    assert crank[-1] - crank[0] == pytest.approx(2 * math.pi, abs=1e-9)
    assert np.max(run["loop_error"]) < 1e-12


def test_saved_file_reloads_equal():
    p = draw_fourbar()
    again = articula.loads(p.to_json())
    assert again.to_json() == p.to_json()
    assert again.bodies == p.bodies and again.joints == p.joints


def test_undo_to_empty_and_redo_to_the_end():
    p = draw_fourbar()
    final = p.to_json()
    steps = [final]
    while p.undo():
        steps.append(p.to_json())
    assert not p.bodies and not p.joints
    assert len(p.redo_history) == len(steps) - 1
    for expected in reversed(steps[:-1]):
        assert p.redo()
        assert p.to_json() == expected
    assert not p.redo()


def test_a_pendulum_built_from_numeric_items():
    p = articula.Project("pendulum")
    p.add_body(articula.Body("bob", mass=2.0, com=[0.5, 0, 0], inertia=[1e-4, 0.01, 0.01, 0, 0, 0]))
    p.add_joint(articula.Joint("pivot", "revolute", "ground", "bob", q0=[-math.pi / 2]))
    assert p.info()["mobility"] == 1
    run = p.simulate(duration=0.5, step=1e-3)
    energy = run["kinetic_energy"] + run["potential_energy"]
    assert np.ptp(energy) < 1e-9 * 2 * 9.81 * 0.5
    p.set_spring("pivot", stiffness=50.0, rest=-math.pi / 2, damping=0.1)
    assert p.joint("pivot").spring == articula.Spring(50.0, -math.pi / 2, 0.1)
    body = p.body("bob")
    body.name = "mass"
    p.set_body("bob", body)  # a rename carries the joint along
    assert p.joint("pivot").child == "mass"


def test_refused_edits_name_the_field_and_leave_the_project_unchanged():
    p = draw_fourbar()
    before = p.to_json()
    body = p.body("link2")
    body.mass = -1.0
    with pytest.raises(articula.ProjectError) as e:
        p.set_body("link2", body)
    assert e.value.pointer == "/bodies/1"
    assert "mass" in e.value.message
    with pytest.raises(articula.ProjectError) as e:
        p.add_joint(articula.Joint("J1", "revolute", "ground", "link1"))
    assert e.value.pointer == "/joints/4" and "J1" in e.value.message
    with pytest.raises(KeyError):
        p.remove_body("nowhere")
    with pytest.raises(ValueError):
        p.set_drive("J1", "2*pi*t +")  # an expression that does not parse
    assert p.to_json() == before


def test_forces_couplings_and_drives():
    p = articula.Project("geared")
    for name in ("left", "right"):
        p.add_body(articula.Body(name, mass=1.0, inertia=[0.01, 0.01, 0.01, 0, 0, 0]))
    p.add_joint(articula.Joint("L", "revolute", "ground", "left"))
    p.add_joint(
        articula.Joint("R", "revolute", "ground", "right", parent_frame=articula.Pose([0.3, 0, 0]))
    )
    name = p.add_coupling_from_radii("gear", "L", "R", 0.1, 0.2)
    assert p.coupling(name).ratio == pytest.approx(-0.5)
    p.set_drive("L", "2*pi*t")
    p.add_force(articula.Force("spring", "ground", "right", [0.3, 0.2, 0], [0.1, 0, 0], 100.0))
    run = p.simulate(duration=0.2)
    assert np.allclose(run["R.q"], -0.5 * run["L.q"], atol=1e-9)
    assert f"{name}.tau" in run
    p.remove_joint("R")  # its coupling goes with it
    assert p.couplings == []
    p.undo()
    assert [c.name for c in p.couplings] == [name]


def test_pickling_keeps_the_document():
    import pickle

    p = draw_fourbar()
    q = pickle.loads(pickle.dumps(p))
    assert q.to_json() == p.to_json()
    with pytest.raises(articula.ProjectError) as e:
        articula.loads(json.dumps({"format": "articula", "version": 1, "bodies": 3}))
    err = pickle.loads(pickle.dumps(e.value))
    assert err.pointer == e.value.pointer and err.message == e.value.message
