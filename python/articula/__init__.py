"""Articula: mechanism dynamics from Python.

Load or build a project, edit it, analyse it and simulate it with the same code as
``articula-cli``::

    import articula
    p = articula.load("samples/fourbar.json")
    p.info()["mobility"]                      # 1
    run = p.simulate(duration=1.0)            # {"t": array, "A0.q": array, ...}
    run["A0.tau"].max()

Design studies over many parameter sets, on a Dask cluster: :mod:`articula.study`.
"""

from ._articula import (  # noqa: F401  (re-exported)
    Body,
    Coupling,
    Drive,
    Force,
    Joint,
    Pose,
    Project,
    ProjectError,
    SetupError,
    Simulation,
    Spring,
    fixed_lag_forward,
    trajectory_inverse,
    load,
    loads,
)

from . import templates  # noqa: E402,F401  (articula.templates.stewart(...), ...)

try:
    from ._articula import __version__  # noqa: F401
except ImportError:  # pragma: no cover
    __version__ = "unknown"

__all__ = [
    "Body",
    "Coupling",
    "Drive",
    "Force",
    "Joint",
    "Pose",
    "Project",
    "ProjectError",
    "SetupError",
    "Simulation",
    "Spring",
    "fixed_lag_forward",
    "trajectory_inverse",
    "load",
    "loads",
    "templates",
]
