"""Shared fixtures of the Python tests: where the sources and articula-cli are, and reading the
CLI's CSV exactly. CTest sets ARTICULA_SOURCE_DIR, ARTICULA_CLI and PYTHONPATH (the build's
python/ folder); run by hand with the same variables."""

import os
import pathlib
import subprocess

import numpy as np
import pytest

SOURCE_DIR = pathlib.Path(
    os.environ.get("ARTICULA_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2])
)
SAMPLES = sorted((SOURCE_DIR / "samples").glob("*.json"))


@pytest.fixture(scope="session")
def source_dir() -> pathlib.Path:
    return SOURCE_DIR


@pytest.fixture(scope="session")
def cli() -> str:
    path = os.environ.get("ARTICULA_CLI", "")
    if not path or not os.path.exists(path):
        pytest.skip("articula-cli not built (ARTICULA_CLI)")
    return path


def run_cli(cli: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([cli, *args], capture_output=True, text=True, timeout=120)


def read_csv(text: str) -> dict:
    """The CLI's CSV as {column: float64 array}. The CLI prints the shortest text that reads
    back to the same double (std::to_chars), so float() recovers every bit."""
    lines = text.splitlines()
    header = lines[0].split(",")
    rows = [[float(x) for x in line.split(",")] for line in lines[1:]]
    data = np.array(rows, dtype=np.float64).reshape(len(rows), len(header))
    return {name: data[:, c].copy() for c, name in enumerate(header)}


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal to the last bit (NaN equals NaN whatever its payload; -0.0 differs from 0.0)."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    b = np.ascontiguousarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return False
    nan = np.isnan(a)
    if not np.array_equal(nan, np.isnan(b)):
        return False
    return bool(np.array_equal(a[~nan].view(np.uint64), b[~nan].view(np.uint64)))
