"""articula.templates: the parameterised mechanisms as projects, with their documented mobility,
parameters by keyword, and errors naming the parameter."""

import pytest

from articula import templates


@pytest.mark.parametrize(
    "make, kwargs, mobility",
    [
        (templates.stewart, {"legs": 6, "height": 0.5}, 6),
        (templates.rssr, {"universal_at_rocker": True, "material": "aluminium"}, 1),
        (templates.bennett, {"section": {"shape": "round", "diameter": 0.02}}, 1),
        (templates.delta, {"material": 2700.0}, 3),
        (templates.dh_arm, {"preset": "puma560"}, 6),
        (templates.ladder, {"loops": 3}, 3),
    ],
)
def test_templates_have_their_mobility(make, kwargs, mobility):
    p = make(**kwargs)
    assert p.info()["mobility"] == mobility
    assert p.assembly()["residual"] <= 1e-9


def test_a_driven_template_simulates():
    p = templates.stewart(drive_legs=True, drive_amplitude=0.02)
    run = p.simulate(duration=0.05)
    assert len(run["t"]) == 51 and max(run["loop_error"]) < 1e-9


def test_dh_rows_and_errors():
    arm = templates.dh_arm(rows=[{"a": 0.3, "mass": 2.0}, {"a": 0.2, "q0": 0.5}])
    assert len(arm.bodies) == 2 and arm.joint(arm.joints[1].name).q0 == [0.5]
    with pytest.raises(TypeError, match="unknown parameter 'legz'"):
        templates.stewart(legz=6)
    with pytest.raises(ValueError, match="legs"):
        templates.stewart(legs=2)
    with pytest.raises(ValueError, match="material"):
        templates.rssr(material="wood")
