"""Project.simulate() against articula-cli's CSV, bit for bit, for every sample; info() against
`articula-cli info`; errors with the CLI's JSON pointers (contract-additions-2 §6)."""

import json
import threading

import numpy as np
import pytest

import articula
from conftest import SAMPLES, read_csv, run_cli, same_bits


def compare(cli, path, *options, **kwargs):
    out = run_cli(cli, "simulate", str(path), "--quiet", *options)
    try:
        run = articula.load(str(path)).simulate(**kwargs)
    except articula.SetupError as e:  # then the CLI fails the same way
        assert out.returncode == 3, out.stderr
        assert str(e) in out.stderr
        return None
    assert out.returncode == 0, out.stderr
    csv = read_csv(out.stdout)
    assert list(run) == list(csv), "same columns in the same order"
    for name in csv:
        assert same_bits(run[name], csv[name]), f"{path.name}: column {name} differs"
    return run


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_every_sample_equals_the_cli_bit_for_bit(cli, path):
    run = compare(cli, path)  # the file's own duration, step and integrator
    settings = json.loads(path.read_text()).get("simulation", {})
    steps = round(settings.get("duration", 5.0) / settings.get("step", 1e-3))
    assert run is not None and len(run["t"]) == steps + 1


@pytest.mark.parametrize(
    "options, kwargs",
    [
        ((), {}),  # the file's own settings (2 s, 1 ms, rk4)
        (("--integrator", "euler", "--step", "0.002"), {"integrator": "euler", "step": 0.002}),
        (("--integrator", "rk45", "--duration", "0.5"), {"integrator": "rk45", "duration": 0.5}),
        (("--sample", "0.01", "--duration", "1"), {"sample": 0.01, "duration": 1.0}),
        (("--solver", "method2", "--duration", "0.3"), {"solver": "method2", "duration": 0.3}),
        (("--inverse", "--duration", "0.3"), {"inverse": True, "duration": 0.3}),
    ],
)
def test_options_equal_the_cli(cli, source_dir, options, kwargs):
    assert compare(cli, source_dir / "samples" / "fourbar.json", *options, **kwargs) is not None


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_info_equals_the_cli(cli, path):
    out = run_cli(cli, "info", str(path))
    assert out.returncode == 0, out.stderr
    assert articula.load(str(path)).info() == json.loads(out.stdout)


def test_load_errors_carry_the_cli_pointer(cli, tmp_path, source_dir):
    doc = json.loads((source_dir / "samples" / "fourbar.json").read_text())
    doc["bodies"][1]["mass"] = -1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    out = run_cli(cli, "info", str(bad))
    assert out.returncode == 2
    with pytest.raises(articula.ProjectError) as e:
        articula.load(str(bad))
    assert e.value.pointer == "/bodies/1/mass"
    assert e.value.message and e.value.message in str(e.value)
    assert f"{e.value.pointer}: {e.value.message}" in out.stderr
    assert isinstance(e.value, ValueError)


def test_bad_run_options_name_the_field(source_dir):
    p = articula.load(str(source_dir / "samples" / "fourbar.json"))
    with pytest.raises(articula.ProjectError) as e:
        p.simulate(integrator="leapfrog")
    assert e.value.pointer == "/simulation/integrator"
    with pytest.raises(articula.ProjectError) as e:
        p.simulate(step=0.0)
    assert e.value.pointer == "/simulation/step"


def test_a_loop_that_cannot_close_is_a_setup_error(source_dir):
    p = articula.load(str(source_dir / "samples" / "fourbar.json"))
    j = p.joint("A")
    j.parent_frame = articula.Pose([0.9, 0, 0])  # crank 0.9 m: the loop cannot close
    p.set_joint("A", j)
    with pytest.raises(articula.SetupError):
        p.simulate(duration=0.1)


def test_the_gil_is_released_while_simulating(source_dir):
    p = articula.load(str(source_dir / "samples" / "stewart_platform.json"))
    result = {}
    worker = threading.Thread(target=lambda: result.update(p.simulate(duration=1.0)))
    worker.start()
    count = 0
    while worker.is_alive():  # runs only if simulate() let go of the GIL
        count += 1
    worker.join()
    assert "t" in result
    assert count > 10000


def test_traced_points_follow_the_body(source_dir):
    p = articula.load(str(source_dir / "samples" / "fourbar.json"))
    run = p.simulate(duration=0.5, points={"P": ("crank", (0.1, 0.0, 0.0))})
    q = run["A0.q"]
    assert np.allclose(run["P.x"], 0.1 * np.cos(q), atol=1e-12)
    assert np.allclose(run["P.y"], 0.1 * np.sin(q), atol=1e-12)
    assert np.all(run["P.z"] == 0.0)
