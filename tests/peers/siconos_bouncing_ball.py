#!/usr/bin/python3
"""Issue 16's second reference: the bouncing_ball sample against Siconos (Debian python3-siconos).

The same ball (mass, radius, drop height, restitution from the sample file) as a Lagrangian
system under a Newton impact law, stepped by Siconos' Moreau-Jean time-stepping scheme (an LCP
per step, first order: an impact lands within the step that reaches it). Articula's impacts come
from `articula-cli simulate --events` (located to 1e-12 s). Checked: the same impacts faster than
1 cm/s, Siconos' times within 20 of its steps of Articula's, its rebound ratios e to 1e-3, and
Articula's first impact at the closed form sqrt(2 (h0 - r) / g) to 1e-9 s.
Usage: siconos_bouncing_ball.py ARTICULA_CLI SAMPLE_JSON
"""
import csv
import json
import math
import subprocess
import sys
import tempfile

import numpy as np
import siconos.kernel as sk

STEP = 1e-4  # s: Siconos' step
T_END = 1.2  # s: three impacts over 1 cm/s


def sample_ball(path):
    d = json.load(open(path))
    c = d["contacts"][0]
    return {"m": d["bodies"][0]["mass"], "r": c["radius"], "e": c["restitution"],
            "g": -d["gravity"][1], "h0": d["joints"][0]["q0"][0]}


def articula_impacts(cli, sample):
    with tempfile.TemporaryDirectory() as tmp:
        events = tmp + "/events.csv"
        subprocess.run([cli, "simulate", sample, "--duration", str(T_END), "--events", events,
                        "--output", tmp + "/out.csv", "--quiet"], check=True)
        return [float(r["t"]) for r in csv.DictReader(open(events)) if r["kind"] == "impact"]


def siconos_impacts(b):
    """Times of the steps at whose end the ball's velocity turned from falling to rising."""
    ball = sk.LagrangianLinearTIDS([b["h0"]], [0.0], np.array([[b["m"]]]))
    ball.setFExtPtr(np.array([-b["m"] * b["g"]]))
    # The gap y = q - r >= 0 (H q + b), Newton's law with restitution e at impacts.
    inter = sk.Interaction(sk.NewtonImpactNSL(b["e"]),
                           sk.LagrangianLinearTIR(np.array([[1.0]]), np.array([-b["r"]])))
    nsds = sk.NonSmoothDynamicalSystem(0.0, T_END)
    nsds.insertDynamicalSystem(ball)
    nsds.link(inter, ball)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, STEP), sk.MoreauJeanOSI(0.5), sk.LCP())
    out, v = [], 0.0
    while sim.hasNextEvent():
        sim.computeOneStep()
        vn = ball.velocity()[0]
        if v < -1e-2 and vn > 0:
            out.append((sim.nextTime(), v, vn))
        v = vn
        sim.nextStep()
    return out


def main():
    cli, sample = sys.argv[1], sys.argv[2]
    b = sample_ball(sample)
    ours = articula_impacts(cli, sample)
    peer = siconos_impacts(b)
    # Articula's impacts over 1 cm/s: the speeds fall by e each bounce from the first's.
    v1 = math.sqrt(2 * b["g"] * (b["h0"] - b["r"]))
    fast = [t for k, t in enumerate(ours) if v1 * b["e"] ** k > 1e-2]
    print("articula impacts:", ["%.9f" % t for t in fast])
    print("siconos impacts: ", ["%.5f (%.4g -> %.4g)" % p for p in peer])
    ok = len(fast) == len(peer) and len(fast) >= 3
    dt = max((abs(t - p[0]) for t, p in zip(fast, peer)), default=math.inf)
    ok = ok and dt <= 20 * STEP
    first = math.sqrt(2 * (b["h0"] - b["r"]) / b["g"])
    ok = ok and abs(ours[0] - first) <= 1e-9
    ratio = max(abs(-after / before - b["e"]) for _, before, after in peer)
    ok = ok and ratio <= 1e-3  # Siconos' speeds at the ends of the impact's step: g h off
    print("impacts %d / %d, times within %.2g s (%.1f steps), rebound ratios e to %.1g, first "
          "impact %.2g s off the closed form" % (len(fast), len(peer), dt, dt / STEP, ratio,
                                                 abs(ours[0] - first)))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
