"""articula.study on a real multi-process Dask cluster on loopback: a dask-scheduler and two
dask-worker processes started here (bounded in time, always stopped). A 200-design sweep gives
the serial results; failing designs are rows with their error; a worker killed mid-study loses
no design (Dask computes its tasks again on the other worker)."""

import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

import articula
from articula import study
from study_designs import fourbar_design, negative_mass

distributed = pytest.importorskip("distributed")

HERE = pathlib.Path(__file__).resolve().parent
START_TIMEOUT = 60


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_workers(address: str, n: int) -> None:
    with distributed.Client(address, timeout=START_TIMEOUT) as c:
        c.wait_for_workers(n, timeout=START_TIMEOUT)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@pytest.fixture(scope="module")
def cluster():
    """(scheduler address, {worker address: process}) of a cluster on 127.0.0.1."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(HERE)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    )
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = []
    workers = {}
    try:
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                 "--port", str(port), "--no-dashboard", "--idle-timeout", "600"],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
        )
        for _ in range(2):
            wport = free_port()
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "distributed.cli.dask_worker", address, "--host",
                     "127.0.0.1", "--worker-port", str(wport), "--nthreads", "1", "--no-nanny",
                     "--no-dashboard", "--death-timeout", "60"],
                    env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )
            )
            workers[f"tcp://127.0.0.1:{wport}"] = procs[-1]
        wait_for_workers(address, 2)
        yield address, workers
    finally:
        for p in reversed(procs):
            stop(p)


def sweep():
    designs = study.grid(crank=np.linspace(0.08, 0.12, 20).tolist(),
                         rocker=np.linspace(0.23, 0.27, 10).tolist())
    designs[57]["crank"] = 0.9  # a crank the loop cannot close with: a failed design
    return designs


def check_against_serial(table, serial):
    assert len(table) == 200 and list(table["design"]) == list(range(200))
    assert table["ok"].sum() == 199
    bad = table.loc[57]
    assert not bad["ok"] and bad["error_type"] == "SetupError" and bad["error"]
    ok = table["ok"]
    for col in ("peak_torque", "rocker_swing", "final_rocker"):
        assert np.array_equal(table.loc[ok, col].to_numpy(), serial.loc[ok, col].to_numpy()), col
    assert serial.loc[57, "error"] == bad["error"]


@pytest.fixture(scope="module")
def base(source_dir):
    return articula.load(str(source_dir / "samples" / "fourbar.json"))


@pytest.fixture(scope="module")
def serial(base):
    return study.run(fourbar_design, sweep(), base, cluster="serial", progress=False)


def test_sweep_on_the_cluster_equals_serial(cluster, base, serial):
    address, workers = cluster
    seen = []
    table = study.run(fourbar_design, sweep(), base, cluster=address,
                      progress=lambda done, total, failed: seen.append((done, total, failed)))
    check_against_serial(table, serial)
    assert seen[-1] == (200, 200, 1)
    assert set(table["worker"]) <= set(workers)
    assert len(set(table["worker"])) == 2, "both workers took designs"


def test_failures_are_rows_with_their_error(cluster, base):
    address, _ = cluster
    table = study.run(negative_mass, [{"mass": 0.5}, {"mass": -1.0}], base, cluster=address,
                      progress=False)
    assert list(table["ok"]) == [True, False]
    assert table.loc[0, "crank_mass"] == 0.5
    assert table.loc[1, "error_type"] == "ProjectError"
    assert table.loc[1, "error_pointer"] == "/bodies/0"
    assert "mass" in table.loc[1, "error"]


def test_a_worker_killed_mid_study_loses_no_design(cluster, base, serial):
    address, workers = cluster
    victim_address, victim = next(iter(workers.items()))
    killed = []

    def kill_once(done, total, failed):
        if done >= 40 and not killed:
            victim.send_signal(signal.SIGKILL)
            killed.append(time.perf_counter())

    designs = [dict(d, delay=0.01) for d in sweep()]
    table = study.run(fourbar_design, designs, base, cluster=address, batch_size=1,
                      progress=kill_once)
    assert killed and victim.wait(10) == -signal.SIGKILL
    check_against_serial(table.drop(columns=["delay"]), serial)
    assert (table["worker"] == victim_address).sum() >= 1  # it had done some before it died
    with distributed.Client(address, timeout=START_TIMEOUT) as c:
        assert victim_address not in c.scheduler_info()["workers"]
