#!/usr/bin/env python3
"""Designs per second of a study of the four-bar (1 s simulated, 1 ms RK4 steps, every row kept),
serially in Python and on a LocalCluster, and where the time per design goes.

A design is what articula.study does for each parameter set: copy the base project, change the
crank length (one checked edit), compile and assemble, simulate 1 s, reduce the arrays to two
numbers. Reported:
  - C++ runner: run_rows alone for the same run (rows discarded), timed in C++;
  - simulate(): the same run from Python, arrays included: its excess over the runner is the
    binding's cost per design (row copies, NumPy arrays, dict);
  - serial design: the whole design in this process (study.run(cluster="serial"));
  - LocalCluster: study.run on N single-threaded worker processes, batched ("auto") and one
    design per task (batch_size=1); the Dask overhead per design is N x wall / designs - serial.

    PYTHONPATH=build/python python3 bench/python_throughput.py [--designs 400] [--workers 2]
"""

import argparse
import os
import pathlib
import statistics
import time

import numpy as np

import articula
from articula import study

SAMPLE = pathlib.Path(__file__).resolve().parents[1] / "samples" / "fourbar.json"


def edited(project: articula.Project, crank: float) -> articula.Project:
    joint = project.joint("A")
    joint.parent_frame = articula.Pose([crank, 0.0, 0.0])
    project.set_joint("A", joint)
    return project


def design(project: articula.Project, crank: float) -> dict:
    run = edited(project, crank).simulate(duration=1.0, step=1e-3)
    return {"peak_torque": float(np.max(np.abs(run["A0.tau"]))),
            "swing": float(np.ptp(run["B0.q"]))}


def time_runs(base: articula.Project, repeat: int) -> dict:
    """Medians of single runs, the kinds interleaved so that a change of load hits them alike."""
    def timed(fn):
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start

    kinds = {
        "runner": lambda: None,
        "simulate": lambda: base.simulate(duration=1.0, step=1e-3),
        "sampled": lambda: base.simulate(duration=1.0, step=1e-3, sample=0.01),
        "prepare": lambda: edited(base.copy(), 0.1).compile(),
    }
    times = {k: [] for k in kinds}
    for _ in range(repeat):
        for k, fn in kinds.items():
            times[k].append(base._run_rows_seconds(1.0, 1e-3) if k == "runner" else timed(fn))
    return {k: statistics.median(v) for k, v in times.items()}


def time_studies(base, designs, workers: int, rounds: int):
    """Best wall time of the serial study and of the cluster studies, alternated."""
    client = study.local_client(workers)
    serial, cluster = float("inf"), {"auto": float("inf"), 1: float("inf")}
    try:
        study.run(design, designs[: 4 * workers], base, cluster=client, progress=False)
        for _ in range(rounds):
            start = time.perf_counter()
            reference = study.run(design, designs, base, cluster="serial", progress=False)
            serial = min(serial, time.perf_counter() - start)
            assert reference["ok"].all()
            for batch in cluster:
                start = time.perf_counter()
                table = study.run(design, designs, base, cluster=client, batch_size=batch,
                                  progress=False)
                cluster[batch] = min(cluster[batch], time.perf_counter() - start)
                assert np.array_equal(table["peak_torque"], reference["peak_torque"])
    finally:
        client.close()
        client.cluster.close()
    return serial, cluster


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--designs", type=int, default=400)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3, help="study timings: best of")
    args = ap.parse_args()
    load = os.getloadavg()[0]  # other work on the machine skews the cluster figures

    base = articula.load(str(SAMPLE))
    base.compile()
    designs = [{"crank": c} for c in np.linspace(0.09, 0.11, args.designs)]
    t = time_runs(base, args.repeat)
    runner, simulate, sampled, prepare = t["runner"], t["simulate"], t["sampled"], t["prepare"]
    serial, cluster = time_studies(base, designs, args.workers, args.rounds)

    n, w = args.designs, args.workers
    per = serial / n
    print(f"four-bar, 1 s at 1 ms (RK4), {n} designs; medians of {args.repeat} runs, studies "
          f"best of {args.rounds}; "
          f"load average before: {load:.2f}")
    print(f"  C++ runner alone          {1e3 * runner:8.3f} ms")
    print(f"  simulate() from Python    {1e3 * simulate:8.3f} ms  (binding: "
          f"{1e3 * (simulate - runner):.3f} ms per run)")
    print(f"  simulate(sample=0.01)     {1e3 * sampled:8.3f} ms  (101 rows evaluated, not 1001)")
    print(f"  copy, edit, compile       {1e3 * prepare:8.3f} ms  (compile and assemble)")
    print(f"  serial design (study)     {1e3 * per:8.3f} ms  -> {n / serial:7.1f} designs/s")
    for batch, wall in cluster.items():
        over = w * wall / n - per
        print(f"  LocalCluster {w} workers, batch {batch!s:>4}: {n / wall:7.1f} designs/s "
              f"({serial / wall:.2f}x serial; Dask overhead {1e3 * over:.3f} ms per design "
              f"per worker)")


if __name__ == "__main__":
    main()
