"""The two worked examples run end to end on a LocalCluster of two workers: the path synthesis
finds a four-bar whose coupler passes every target within 1 mm, and the Monte-Carlo tolerance
study writes its histogram."""

import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("distributed")


def run_example(source_dir, name, *args):
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run([sys.executable, str(source_dir / "examples" / name), *args],
                          capture_output=True, text=True, timeout=240, env=env)


def test_synthesis_passes_the_points_within_a_millimetre(source_dir, tmp_path):
    png = tmp_path / "synthesis.png"
    out = run_example(source_dir, "fourbar_synthesis.py", "--workers", "2", "--candidates",
                      "200", "--starts", "2", "--plot", str(png))
    assert out.returncode == 0, out.stdout + out.stderr
    error_mm = float(re.search(r"every target within ([0-9.]+) mm", out.stdout).group(1))
    assert error_mm <= 1.0
    assert png.stat().st_size > 10000


def test_tolerance_study_writes_its_histogram(source_dir, tmp_path):
    png = tmp_path / "hist.png"
    out = run_example(source_dir, "tolerance_montecarlo.py", "--workers", "2", "--designs",
                      "120", "--plot", str(png))
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r"120 of 120 designs simulated; output error \(mrad\): mean [0-9.]+",
                     out.stdout)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10000
