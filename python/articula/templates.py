"""Parameterised mechanisms as new projects: Stewart-Gough platform, RSSR/RSUR, Bennett, Delta,
serial arms from a DH table, the ladder of RBDA Fig. 8.4 (core/spec/templates, as File > New
from Template… in the application).

Parameters are keyword arguments in SI units (m, kg, rad, s); each function's docstring lists
them. Materials are given by name ("steel", "aluminium") or by density (kg/m^3), bar sections
as dicts (``{"shape": "round", "diameter": 0.02}``)::

    from articula import templates
    p = templates.stewart(legs=6, height=0.5, drive_legs=True)
    p.info()["mobility"]    # 6
"""

from ._articula import templates as _compiled

stewart = _compiled.stewart
rssr = _compiled.rssr
bennett = _compiled.bennett
delta = _compiled.delta
dh_arm = _compiled.dh_arm
ladder = _compiled.ladder

__all__ = ["stewart", "rssr", "bennett", "delta", "dh_arm", "ladder"]
