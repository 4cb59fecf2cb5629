"""Project.report() against `articula-cli report`: the same document (JSON numbers read back
compare equal, the CLI writes the shortest round-trip form), and bad points named
(contract-additions-2 §4)."""

import json

import pytest

import articula
from conftest import SOURCE_DIR, run_cli


def test_report_equals_the_cli(cli, tmp_path):
    path = SOURCE_DIR / "samples" / "slider_crank.json"
    out = tmp_path / "r.json"
    done = run_cli(cli, "report", str(path), "--duration", "0.2", "--sample", "0.01",
                   "--point", "pin=conrod@0.2,0,0", "--output", str(out))
    assert done.returncode == 0, done.stderr
    expected = json.loads(out.read_text())
    points = {"pin": ("conrod", (0.2, 0, 0))}
    got = articula.load(str(path)).report(0.2, sample=0.01, points=points)
    assert got == expected
    drive = got["drives"]["crank_pin"]
    assert len(drive["reflected_inertia"]["value"]) == 21
    assert drive["positive_work"] >= 0 >= drive["negative_work"]
    assert len(got["points"]["pin"]["apparent_mass"]) == 9


def test_report_names_a_bad_point():
    project = articula.load(str(SOURCE_DIR / "samples" / "fourbar.json"))
    with pytest.raises(ValueError, match=r"points\['p'\]: unknown body 'wheel'"):
        project.report(0.01, points={"p": ("wheel", (0, 0, 0))})
    with pytest.raises(ValueError, match=r"points\['p'\]: a point is"):
        project.report(0.01, points={"p": ("crank", (0,))})
