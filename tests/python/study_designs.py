"""Design functions of the study tests. They live in a module of their own so that Dask's
workers import them by name (tests/python is on the workers' PYTHONPATH)."""

import time

import numpy as np

import articula


def fourbar_design(project: articula.Project, crank: float, rocker: float, delay: float = 0.0):
    """The sample four-bar with another crank and rocker length: peak drive torque and rocker
    swing over 0.2 s. A crank too long for the loop fails (SetupError)."""
    a = project.joint("A")
    a.parent_frame = articula.Pose([crank, 0, 0])
    project.set_joint("A", a)
    b = project.joint("B")
    b.child_frame = articula.Pose([rocker, 0, 0])
    project.set_joint("B", b)
    if delay:
        time.sleep(delay)  # lengthens the study so that a worker can be killed mid-way
    run = project.simulate(duration=0.2, step=1e-3)
    return {
        "peak_torque": float(np.max(np.abs(run["A0.tau"]))),
        "rocker_swing": float(np.ptp(run["B0.q"])),
        "final_rocker": float(run["B0.q"][-1]),
    }


def negative_mass(project: articula.Project, mass: float):
    body = project.body("crank")
    body.mass = mass
    project.set_body("crank", body)
    return {"crank_mass": project.body("crank").mass}
