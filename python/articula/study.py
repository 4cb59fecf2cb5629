"""Design studies: map a function of a project over parameter sets, on a Dask cluster.

A study evaluates ``fn(project, **params)`` for every parameter set (a *design*) and returns one
row per design in a :class:`pandas.DataFrame`::

    import articula
    from articula import study

    def evaluate(project, crank):
        joint = project.joint("A")                  # a copy: change it, then hand it back
        joint.parent_frame = articula.Pose([crank, 0, 0])
        project.set_joint("A", joint)               # checked; the crank is now `crank` long
        run = project.simulate(duration=1.0)
        return {"peak_torque": abs(run["A0.tau"]).max()}

    if __name__ == "__main__":   # LocalCluster workers are spawned processes: guard the script
        designs = study.grid(crank=[0.08, 0.09, 0.10])
        table = study.run(evaluate, designs, base="samples/fourbar.json")

Where it runs (``cluster=``): ``"local"`` (default) starts a ``dask.distributed.LocalCluster``
with one single-threaded worker process per core and closes it at the end; a scheduler address
(``"tcp://10.0.0.5:8786"``) or a ``distributed.Client`` uses a cluster that is already running;
``"serial"`` runs in this process without Dask (for debugging and reference results).

A design whose function raises (a mechanism that does not assemble, a run that diverges, a bad
value) is a result, not a crash: its row has ``ok == False`` and the error in ``error``,
``error_type`` and, for :class:`articula.ProjectError`, ``error_pointer``. Designs are sent in
batches (``batch_size``) to amortise Dask's per-task cost; a batch lost with its worker is
computed again by Dask elsewhere, and a batch that keeps killing workers is split so that only
the design responsible is reported as failed.
"""

from __future__ import annotations

import itertools
import os
import sys
import time
import traceback
from typing import Any, Callable, Iterable, Mapping, Sequence

__all__ = ["run", "grid", "local_client", "Progress"]

_RESERVED = ("design", "ok", "error", "error_type", "error_pointer", "seconds", "worker")


def grid(**axes: Sequence[Any]) -> list[dict[str, Any]]:
    """The full factorial of the given axes: ``grid(a=[1, 2], b=[3])`` is
    ``[{"a": 1, "b": 3}, {"a": 2, "b": 3}]`` (last axis fastest)."""
    names = list(axes)
    return [dict(zip(names, values)) for values in itertools.product(*axes.values())]


def local_client(n_workers: int | None = None, threads_per_worker: int = 1, **kwargs: Any):
    """A ``distributed.Client`` on a new ``LocalCluster`` of worker processes (one per core by
    default, single-threaded: simulations release the GIL but a process per core also isolates
    crashes). The workers can import articula. Close it (or use ``with``) when done."""
    from distributed import Client, LocalCluster

    _make_importable()
    cluster = LocalCluster(
        n_workers=n_workers or os.cpu_count() or 1,
        threads_per_worker=threads_per_worker,
        processes=True,
        dashboard_address=kwargs.pop("dashboard_address", None),
        **kwargs,
    )
    client = Client(cluster)
    client._articula_owns_cluster = True  # close the cluster with the client
    return client


class Progress:
    """Default progress report on stderr: one line rewritten in place on a terminal (at most
    every ``interval`` s), else a line every ``log_interval`` s and at the end."""

    def __init__(self, stream=None, interval: float = 0.5, log_interval: float = 10.0):
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.interval = interval if self.tty else log_interval
        self._last = time.perf_counter()
        self._start = self._last

    def __call__(self, done: int, total: int, failed: int) -> None:
        now = time.perf_counter()
        if done < total and now - self._last < self.interval:
            return
        self._last = now
        text = f"study: {done}/{total} designs, {failed} failed, {now - self._start:.1f} s"
        if self.tty:
            self.stream.write("\r" + text + ("\n" if done == total else ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def run(
    fn: Callable[..., Any],
    designs: Iterable[Mapping[str, Any]] | Any,
    base: Any = None,
    *,
    cluster: Any = "local",
    n_workers: int | None = None,
    batch_size: int | str = "auto",
    progress: bool | Callable[[int, int, int], None] = True,
    resubmits: int = 2,
):
    """Evaluate ``fn`` for every design and return a DataFrame, one row per design in order.

    fn: called as ``fn(project, **params)`` when ``base`` is given (a fresh copy of the base
        project for every design, to edit freely), else ``fn(**params)``. It returns a dict
        (one column per key), or any other value (column ``value``).
    designs: a sequence of dicts of parameters, or a DataFrame (one design per row).
    base: an :class:`articula.Project`, or the path of a project file (read here, so workers
        need not see the file), or None.
    cluster: "local" (a LocalCluster of ``n_workers`` processes, closed at the end), a scheduler
        address, a ``distributed.Client``, or "serial" (this process, no Dask).
    batch_size: designs per Dask task; "auto" gives each worker about four batches.
    progress: True for a line on stderr, False for none, or a callable(done, total, failed).
    resubmits: how many times a batch whose worker keeps dying is sent again before its
        designs are reported as failed (Dask itself also retries on another worker).

    Columns: ``design`` (index), the parameters, the function's outputs, then ``ok``,
    ``error``, ``error_type``, ``error_pointer``, ``seconds`` (time in fn) and ``worker``.
    """
    params = _designs_list(designs)
    base_project = _base_project(base)
    report = Progress() if progress is True else (progress or None)
    if cluster == "serial":
        rows = _run_serial(fn, base_project, params, report)
    else:
        rows = _run_dask(fn, base_project, params, cluster, n_workers, batch_size, report, resubmits)
    return _table(params, rows)


# ---------------------------------------------------------------------------------------------
# Running designs (this part runs on the workers).


def _evaluate(fn, base, index: int, params: Mapping[str, Any], worker: str) -> dict[str, Any]:
    """One design, with its failure caught and described."""
    row: dict[str, Any] = {"design": index}
    start = time.perf_counter()
    try:
        out = fn(base.copy(), **params) if base is not None else fn(**params)
        if not isinstance(out, Mapping):
            out = {"value": out}
        clash = [k for k in out if k in _RESERVED or k in params]
        if clash:
            raise ValueError(f"output names clash with parameters or study columns: {clash}")
        row.update(out)
        row.update(ok=True, error=None, error_type=None, error_pointer=None)
    except Exception as e:  # a failed design is a result
        row.update(
            ok=False,
            error=str(e) or traceback.format_exception_only(type(e), e)[-1].strip(),
            error_type=type(e).__name__,
            error_pointer=getattr(e, "pointer", None),
        )
    row["seconds"] = time.perf_counter() - start
    row["worker"] = worker
    return row


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except Exception:
        return f"pid {os.getpid()}"


def _run_batch(fn, base, batch: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    worker = _worker_name()
    return [_evaluate(fn, base, i, p, worker) for i, p in batch]


# ---------------------------------------------------------------------------------------------
# Scheduling (this part runs here).


def _run_serial(fn, base, params, report) -> dict[int, dict[str, Any]]:
    rows: dict[int, dict[str, Any]] = {}
    failed = 0
    for i, p in enumerate(params):
        rows[i] = _evaluate(fn, base, i, p, "serial")
        failed += not rows[i]["ok"]
        if report:
            report(len(rows), len(params), failed)
    return rows


def _run_dask(fn, base, params, cluster, n_workers, batch_size, report, resubmits):
    from distributed import Client, as_completed

    owns = False
    if isinstance(cluster, Client):
        client = cluster
    elif cluster == "local":
        client, owns = local_client(n_workers), True
    elif isinstance(cluster, str):
        client, owns = Client(cluster), True
    else:
        raise TypeError("cluster must be 'local', 'serial', a scheduler address or a Client")
    try:
        size = _batch_size(batch_size, len(params), client)
        items = list(enumerate(params))
        batches = [items[k : k + size] for k in range(0, len(items), size)]
        attempt: dict[Any, tuple[list, int]] = {}  # future -> (its designs, resubmissions)

        def submit(batch, tries):
            fut = client.submit(_run_batch, fn, base, batch, pure=False)
            attempt[fut] = (batch, tries)
            return fut

        rows: dict[int, dict[str, Any]] = {}
        failed = 0
        queue = as_completed([submit(b, 0) for b in batches])
        for fut in queue:
            batch, tries = attempt.pop(fut)
            try:
                results = fut.result()
            except Exception as e:  # lost with the workers running it (KilledWorker), ...
                if tries < resubmits:  # again, one design per task: find the one responsible
                    for part in [batch] if len(batch) == 1 else [[item] for item in batch]:
                        queue.add(submit(part, tries + 1))
                    continue
                results = [_lost(i, p, e) for i, p in batch]
            for r in results:
                rows[r["design"]] = r
                failed += not r["ok"]
            if report:
                report(len(rows), len(params), failed)
        return rows
    finally:
        if owns:
            _close(client)


def _lost(index: int, params: Mapping[str, Any], e: BaseException) -> dict[str, Any]:
    return {
        "design": index,
        "ok": False,
        "error": f"the design's task failed on the cluster: {e!r}",
        "error_type": type(e).__name__,
        "error_pointer": None,
        "seconds": float("nan"),
        "worker": None,
    }


def _close(client) -> None:
    cluster = client.cluster if getattr(client, "_articula_owns_cluster", False) else None
    client.close()
    if cluster is not None:
        cluster.close()


def _batch_size(batch_size, n: int, client) -> int:
    if batch_size != "auto":
        if int(batch_size) < 1:
            raise ValueError("batch_size must be at least 1")
        return int(batch_size)
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    return max(1, min(64, -(-n // (4 * workers))))


def _make_importable() -> None:
    """Worker processes inherit the environment, not sys.path: put articula's folder on their
    PYTHONPATH when it is not on it already."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    if here not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([here] + [p for p in paths if p])


def _designs_list(designs) -> list[dict[str, Any]]:
    if hasattr(designs, "to_dict") and hasattr(designs, "columns"):  # a DataFrame
        designs = designs.to_dict("records")
    out = [dict(d) for d in designs]
    for d in out:
        bad = [k for k in d if k in _RESERVED]
        if bad:
            raise ValueError(f"parameter names reserved for study columns: {bad}")
    return out


def _base_project(base):
    if base is None:
        return None
    import articula

    if isinstance(base, articula.Project):
        return base
    if isinstance(base, (str, os.PathLike)):
        return articula.load(os.fspath(base))
    raise TypeError("base must be an articula.Project, a project file path or None")


def _table(params: list[dict[str, Any]], rows: dict[int, dict[str, Any]]):
    import pandas as pd

    records = []
    for i, p in enumerate(params):
        r = rows[i]
        out = {k: v for k, v in r.items() if k not in _RESERVED}
        status = {k: r.get(k) for k in _RESERVED}
        records.append({"design": i, **p, **out, **{k: status[k] for k in _RESERVED[1:]}})
    table = pd.DataFrame.from_records(records)
    if not records:
        table = pd.DataFrame(columns=list(_RESERVED))
    return table.set_index("design", drop=False).rename_axis(None)
