"""Type stubs of the compiled articula module (python/src): what editors complete."""

import os
import types
from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str
templates: types.ModuleType  # re-exported with its functions by articula/templates.py

Vector = Sequence[float]
Array = npt.NDArray[np.float64]

class ProjectError(ValueError):
    """Invalid input; ``pointer`` is the JSON pointer of the field, ``message`` the problem."""

    pointer: str
    message: str

class SetupError(RuntimeError):
    """The mechanism cannot be assembled or simulated."""

class Pose:
    """Placement of a frame: a position (m) and a unit quaternion [w, x, y, z]."""

    position: Array
    quaternion: list[float]
    extra: dict[str, Any]
    def __init__(self, position: Vector = ..., quaternion: Vector = ...) -> None: ...

class Body:
    """A rigid body; inertia [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] about the centre of mass."""

    name: str
    mass: float
    com: Array
    inertia: list[float]
    pose: Optional[Pose]
    extra: dict[str, Any]
    def __init__(
        self,
        name: str,
        mass: float = 1.0,
        com: Vector = ...,
        inertia: Vector = ...,
        pose: Optional[Pose] = None,
    ) -> None: ...

class Drive:
    """A motion drive (expression is q(t)) or a force drive (expression is the force in t)."""

    kind: str
    expression: str
    law: Optional[dict[str, Any]]
    extra: dict[str, Any]
    def __init__(
        self, kind: str = "motion", expression: str = "", law: Optional[Mapping[str, Any]] = None
    ) -> None: ...

class Spring:
    """Joint spring-damper: tau = -stiffness (q - rest) - damping qd."""

    stiffness: float
    rest: float
    damping: float
    extra: dict[str, Any]
    def __init__(self, stiffness: float = 0.0, rest: float = 0.0, damping: float = 0.0) -> None: ...

class Joint:
    """A joint between parent and child ('ground' is the world), about/along frame z."""

    name: str
    type: str
    pitch: float
    parent: str
    child: str
    parent_frame: Pose
    child_frame: Pose
    q0: Optional[list[float]]
    qd0: Optional[list[float]]
    drive: Optional[Drive]
    spring: Optional[Spring]
    extra: dict[str, Any]
    @property
    def nq(self) -> int: ...
    @property
    def nv(self) -> int: ...
    def __init__(
        self,
        name: str,
        type: str,
        parent: str,
        child: str,
        parent_frame: Pose = ...,
        child_frame: Pose = ...,
        q0: Optional[Sequence[float]] = None,
        qd0: Optional[Sequence[float]] = None,
        drive: Optional[Drive] = None,
        spring: Optional[Spring] = None,
        pitch: float = 0.0,
    ) -> None: ...

class Force:
    """Point-to-point spring-damper between two bodies."""

    name: str
    type: str
    body1: str
    body2: str
    point1: Array
    point2: Array
    stiffness: float
    rest_length: float
    damping: float
    extra: dict[str, Any]
    def __init__(
        self,
        name: str,
        body1: str,
        body2: str,
        point1: Vector = ...,
        point2: Vector = ...,
        stiffness: float = 0.0,
        rest_length: float = 0.0,
        damping: float = 0.0,
    ) -> None: ...

class Coupling:
    """q_B - q_B(0) = ratio (q_A - q_A(0)); type gear, belt, rack_pinion or linear."""

    name: str
    type: str
    joints: list[str]
    ratio: float
    radii: Optional[list[float]]
    extra: dict[str, Any]
    def __init__(
        self,
        name: str,
        type: str,
        joints: Sequence[str],
        ratio: float = 1.0,
        radii: Optional[Sequence[float]] = None,
    ) -> None: ...

class Simulation:
    """A simulation stepped by hand (Project.simulation())."""

    @property
    def time(self) -> float: ...
    @property
    def q(self) -> Array: ...
    @property
    def qd(self) -> Array: ...
    @property
    def qdd(self) -> Array: ...
    @property
    def tau(self) -> Array: ...
    @property
    def columns(self) -> list[str]: ...
    @property
    def loop_error(self) -> float: ...
    @property
    def energy(self) -> dict[str, float]: ...
    @property
    def coupling_forces(self) -> dict[str, float]: ...
    @property
    def solver(self) -> str: ...
    @property
    def accepted_steps(self) -> int: ...
    @property
    def rejected_steps(self) -> int: ...
    def step(self, h: Optional[float] = None, integrator: Optional[str] = None) -> None: ...
    def run_to(
        self, t_end: float, h: Optional[float] = None, integrator: Optional[str] = None
    ) -> None: ...
    def advance(
        self, t_end: float, rtol: float = 1e-8, atol: float = 1e-10, max_step: Optional[float] = None
    ) -> None: ...
    def set_drive(self, joint: str, expression: str) -> None: ...
    def joint(self, name: str) -> dict[str, Array]: ...
    def row(self) -> dict[str, float]: ...
    def point(self, body: str, point: Vector) -> Array: ...
    def state(self) -> dict[str, Any]: ...
    def restore(self, state: Mapping[str, Any]) -> None: ...

class Project:
    """A mechanism project: its description, checked undoable edits, analyses, simulation."""

    path: str
    name: str
    gravity: Array
    settings: Optional[dict[str, Any]]
    @property
    def warnings(self) -> list[str]: ...
    @property
    def revision(self) -> int: ...
    @property
    def bodies(self) -> list[Body]: ...
    @property
    def joints(self) -> list[Joint]: ...
    @property
    def forces(self) -> list[Force]: ...
    @property
    def couplings(self) -> list[Coupling]: ...
    @property
    def history(self) -> list[str]: ...
    @property
    def redo_history(self) -> list[str]: ...
    def __init__(self, name: str = "") -> None: ...
    # files
    def save(self, path: Optional[str] = None) -> None: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def copy(self) -> Project: ...
    # items
    def body(self, name: str) -> Body: ...
    def joint(self, name: str) -> Joint: ...
    def force(self, name: str) -> Force: ...
    def coupling(self, name: str) -> Coupling: ...
    def add_body(self, body: Body) -> None: ...
    def add_joint(self, joint: Joint) -> None: ...
    def add_force(self, force: Force) -> None: ...
    def add_coupling(self, coupling: Coupling) -> None: ...
    def set_body(self, name: str, body: Body) -> None: ...
    def set_joint(self, name: str, joint: Joint) -> None: ...
    def set_force(self, name: str, force: Force) -> None: ...
    def set_coupling(self, name: str, coupling: Coupling) -> None: ...
    def remove_body(self, name: str) -> None: ...
    def remove_joint(self, name: str) -> None: ...
    def remove_force(self, name: str) -> None: ...
    def remove_coupling(self, name: str) -> None: ...
    def undo(self) -> bool: ...
    def redo(self) -> bool: ...
    # sketch edits, drives, springs
    def add_ground_point(self, at: Vector) -> None: ...
    def remove_ground_point(self, at: Vector) -> None: ...
    def add_link(
        self, points: Sequence[Vector], attach: Optional[Sequence[Optional[str]]] = None
    ) -> str: ...
    def add_pin(self, body_a: str, body_b: str, at: Vector) -> None: ...
    def add_slider(self, guide: str, at: Vector, direction: Vector) -> None: ...
    def move_point(self, from_: Vector, to: Vector) -> None: ...
    def add_motor(self, joint: str) -> None: ...
    def set_drive(
        self,
        joint: str,
        expression: str = "",
        kind: str = "motion",
        law: Optional[Mapping[str, Any]] = None,
    ) -> None: ...
    def remove_drive(self, joint: str) -> None: ...
    def set_spring(
        self, joint: str, stiffness: float = 0.0, rest: float = 0.0, damping: float = 0.0
    ) -> None: ...
    def remove_spring(self, joint: str) -> None: ...
    def add_coupling_from_radii(
        self, type: str, joint_a: str, joint_b: str, radius_a: float, radius_b: float
    ) -> str: ...
    # analyses and simulation
    def compile(self) -> None: ...
    def info(self) -> dict[str, Any]: ...
    def mobility(self) -> dict[str, Any]: ...
    def assembly(self) -> dict[str, Any]: ...
    def status(self) -> dict[str, Any]: ...
    def columns(self) -> list[str]: ...
    def point(self, body: str, point: Vector) -> Array: ...
    def simulate(
        self,
        duration: Optional[float] = None,
        step: Optional[float] = None,
        integrator: Optional[str] = None,
        *,
        sample: Optional[float] = None,
        solver: Optional[str] = None,
        inverse: bool = False,
        points: Optional[Mapping[str, tuple[str, Vector]]] = None,
    ) -> dict[str, Array]: ...
    def report(
        self,
        duration: Optional[float] = None,
        step: Optional[float] = None,
        integrator: Optional[str] = None,
        *,
        sample: Optional[float] = None,
        solver: Optional[str] = None,
        points: Optional[Mapping[str, tuple[str, Vector]]] = None,
    ) -> dict[str, Any]: ...
    def simulation(
        self, solver: Optional[str] = None, inverse: bool = False, stabilization_time: float = 0.05
    ) -> Simulation: ...

def load(path: str, restore_floating: bool = False) -> Project: ...
def loads(text: str, restore_floating: bool = False) -> Project: ...
def fixed_lag_forward(
    project_or_path: Union[Project, str, os.PathLike[str]],
    step: Optional[float] = None,
    duration: Optional[float] = None,
    window: int = 2,
    sigma: float = 1e-3,
) -> dict[str, Any]: ...
def trajectory_inverse(
    project_or_path: Union[Project, str, os.PathLike[str]],
    targets: npt.ArrayLike,
    step: float,
    sigma_prior: float = 0.0,
    sigma_integration: float = 1e-3,
    sigma_jerk: Optional[float] = None,
) -> dict[str, Any]: ...
