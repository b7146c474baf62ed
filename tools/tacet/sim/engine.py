# SPDX-License-Identifier: MIT
"""The simulation engine (simulator/engine.h) called in process, through ctypes.

``library(repo, build_dir)`` builds ``libtacet_engine.so`` in a sim build tree (configuring
it first when needed, as ``tacet conformance`` builds its interpreter) and returns its path;
``Engine(path).run(taskset, horizon=..., seed=...)`` runs one simulation and returns a
``Result``. One process runs one simulation at a time (the kernel inside is one per process);
sweeps run one engine per worker process.
"""

from __future__ import annotations

import ctypes
import math
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from tacet.core.errors import TacetError
from tacet.core.targets import TARGETS
from tacet.project.cmake import artifacts, build, configure
from tacet.sim.taskset import MAX_SECTIONS, MODELS, TaskSet

TARGET = "tacet_engine"
ABI_VERSION = 1  # TSIM_ABI_VERSION

u32 = ctypes.c_uint32
u64 = ctypes.c_uint64


class _Section(ctypes.Structure):
    _fields_ = (("mutex", u32), ("reserved", u32), ("offset", u64), ("length", u64))


class _Thread(ctypes.Structure):
    _fields_ = (
        ("name", ctypes.c_char_p),
        ("priority", u32),
        ("threshold", u32),
        ("period", u64),
        ("deadline", u64),
        ("offset", u64),
        ("jitter", u64),
        ("exec", u32),
        ("n_sections", u32),
        ("wcet", u64),
        ("bcet", u64),
        ("mean", ctypes.c_double),
        ("stddev", ctypes.c_double),
        ("trace", ctypes.POINTER(u64)),
        ("trace_len", u64),
        ("sections", _Section * MAX_SECTIONS),
    )


class _Mutex(ctypes.Structure):
    _fields_ = (("name", ctypes.c_char_p), ("inherit", u32), ("reserved", u32))


_SwitchFn = ctypes.CFUNCTYPE(u64, ctypes.c_int32, ctypes.c_int32, ctypes.c_void_p)


class _Config(ctypes.Structure):
    _fields_ = (
        ("abi", u32),
        ("n_threads", u32),
        ("n_mutexes", u32),
        ("reserved", u32),
        ("threads", ctypes.POINTER(_Thread)),
        ("mutexes", ctypes.POINTER(_Mutex)),
        ("horizon", u64),
        ("seed", u64),
        ("switch_cost", u64),
        ("switch_fn", _SwitchFn),
        ("switch_arg", ctypes.c_void_p),
        ("release_cost", u64),
    )


class _RegFiles(ctypes.Structure):
    _fields_ = (
        ("n_threads", u32),
        ("n_files", u32),
        ("file", ctypes.POINTER(u32)),
        ("t_str", u64),
        ("n_str", u64),
        ("n_greg", u64),
        ("n_sreg", u64),
        ("n_ch", u64),
        ("t_chk", u64),
        ("base", u64),
    )


class _Measured(ctypes.Structure):
    _fields_ = (("n", u32), ("costs", ctypes.POINTER(u64)), ("state", u64))


@dataclass(frozen=True)
class MeasuredCost:
    """A switch cost drawn from measurements (simulator/engine.h, ``tsim_measured``): each
    switch costs one of ``costs`` (cycles), drawn uniformly, the draws seeded by the run's seed.
    ``source`` says where the samples come from (tools/tacet/sim/switchcost.py)."""

    costs: tuple[int, ...]
    source: str = ""

    def __post_init__(self) -> None:
        # Checked once, here, rather than at every run that prices its switches with it.
        if not self.costs or len(self.costs) > 2**32 - 1:
            raise TacetError("a measured switch cost needs at least one sample")
        for value in self.costs:
            _check_int("a measured switch cost", value, 0, TIME_MAX - 1)

    def worst(self) -> int:
        """The most one switch costs: what a constant-cost analysis charges."""
        return max(self.costs)


@dataclass(frozen=True)
class RegFiles:
    """Kim et al.'s switch cost model (simulator/engine.h, ``tsim_regfiles``): ``files`` register
    files, the interrupts' included, tasks mapped by the paper's rate-monotonic algorithm;
    a switch costs eq. 1 (one file), 3 (the incoming task owns its file) or 4 (it shares one),
    plus ``base``. The defaults are an AVR's (the paper's ATmega103): PUSH and POP 2 cycles,
    32 general registers and SREG, 1 cycle to select a file, 2 to check."""

    files: int
    t_str: int = 2
    n_str: int = 1
    n_greg: int = 32
    n_sreg: int = 1
    n_ch: int = 1
    t_chk: int = 2
    base: int = 0

    def costs(self) -> tuple[int, int, int]:
        """Eq. 1 (one file), eq. 3 (a file of its own) and eq. 4 (a shared file), each a
        save and a restore, plus ``base``."""
        word = self.t_str * self.n_str
        full = 2 * word * (self.n_greg + self.n_sreg)
        select = self.n_ch + self.t_chk
        return (
            self.base + full,
            self.base + 2 * word * self.n_sreg + select,
            (self.base + full + select),
        )

    def worst(self, periods: list[int], engine: Engine) -> int:
        """The most one switch costs with these tasks: what a constant-cost analysis charges."""
        one, own, shared = self.costs()
        if self.files <= 1:
            return one
        return shared if engine.regfile_map(periods, self.files)[1] else own


@dataclass(frozen=True)
class ThreadResult:
    """One thread over the run: in cycles; response times from the nominal release."""

    name: str
    released: int
    completed: int
    missed: int
    unfinished: int
    oldest_unfinished: int
    response_min: int
    response_max: int
    response_sum: int
    response_p99: int
    exec_min: int
    exec_max: int
    exec_sum: int
    blocking_max: int
    blocking_sum: int
    lock_waits: int
    preemptions_max: int
    yields: int
    switches_in: int
    preemptions: int
    cycles: int

    @property
    def response_avg(self) -> float | None:
        return self.response_sum / self.completed if self.completed else None

    @property
    def worst(self) -> int:
        """The longest any job took or had been waiting at the end: its response, or how long
        the oldest unfinished job had been waiting (a bound must cover both)."""
        return max(self.response_max, self.oldest_unfinished)


class _ThreadResult(ctypes.Structure):
    _fields_ = tuple((f.name, u64) for f in fields(ThreadResult) if f.name != "name")


@dataclass(frozen=True)
class Result:
    threads: tuple[ThreadResult, ...]
    horizon: int
    seed: int
    end: int
    released: int
    completed: int
    missed: int
    context_switches: int
    preemptions: int
    interrupts: int
    idle_cycles: int
    switch_cycles: int
    release_cycles: int

    def thread(self, name: str) -> ThreadResult:
        return next(t for t in self.threads if t.name == name)

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for t, d in zip(self.threads, out["threads"], strict=True):
            d["response_avg"] = t.response_avg
        return out


_TOTALS = (
    "end",
    "released",
    "completed",
    "missed",
    "context_switches",
    "preemptions",
    "interrupts",
    "idle_cycles",
    "switch_cycles",
    "release_cycles",
)


class _Result(ctypes.Structure):
    _fields_ = tuple((name, u64) for name in _TOTALS)


_STRUCTS = (_Section, _Thread, _Mutex, _Config, _ThreadResult, _Result)
U64_MAX = 2**64 - 1
TIME_MAX = 2**62  # engine.c: times stay below


# The kernel inside the library is one per process, whichever Engine object calls it.
_ONE_KERNEL = threading.Lock()


class Engine:
    """The engine library. ``run`` is serialised: the kernel is one per process."""

    def __init__(self, path: Path) -> None:
        try:
            self.lib = ctypes.CDLL(str(path))
        except OSError as error:
            raise TacetError(f"cannot load the simulation engine {path}: {error}") from None
        self.path = path
        self.lib.tsim_run.restype = ctypes.c_int
        self.lib.tsim_run.argtypes = (
            ctypes.POINTER(_Config),
            ctypes.POINTER(_ThreadResult),
            ctypes.POINTER(_Result),
            ctypes.c_char_p,
            ctypes.c_size_t,
        )
        sizes = (u32 * 6)()
        self.lib.tsim_abi.restype = u32
        abi = self.lib.tsim_abi(sizes)
        mine = [ctypes.sizeof(s) for s in _STRUCTS]
        if abi != ABI_VERSION or list(sizes) != mine:
            raise TacetError(
                f"the simulation engine {path} has ABI {abi} with structure sizes "
                f"{list(sizes)}; tacet expects ABI {ABI_VERSION} with {mine} (rebuild it)"
            )
        self.lib.tsim_priorities.restype = u32
        self.priorities = int(self.lib.tsim_priorities())
        try:  # a library built before Kim et al.'s model (the same ABI otherwise)
            regfile_map, regfile_cost = self.lib.tsim_regfile_map, self.lib.tsim_regfile_cost
        except AttributeError:
            raise TacetError(
                f"the simulation engine {path} has no register-file model (rebuild it)"
            ) from None
        regfile_map.restype = u32
        regfile_map.argtypes = (ctypes.POINTER(u64), u32, u32, ctypes.POINTER(u32))
        self._regfile_cost = _SwitchFn(ctypes.cast(regfile_cost, ctypes.c_void_p).value)
        measured = getattr(self.lib, "tsim_measured_cost", None)
        if measured is None:
            raise TacetError(
                f"the simulation engine {path} has no measured-cost model (rebuild it)"
            )
        self._measured_cost = _SwitchFn(ctypes.cast(measured, ctypes.c_void_p).value)

    def regfile_map(self, periods: list[int], files: int) -> tuple[list[int], int]:
        """Kim et al.'s mapping (``tsim_regfile_map``): each task's register file, 0-based, and
        how many tasks share the shared file (0 when none do)."""
        _check_int("the number of register files", files, 1, 2**32 - 1)
        n = len(periods)
        out = (u32 * max(1, n))()
        shared = self.lib.tsim_regfile_map((u64 * max(1, n))(*periods), n, files, out)
        return list(out)[:n], int(shared)

    def run(
        self,
        taskset: TaskSet,
        *,
        horizon: int,
        seed: int = 0,
        switch_cost: int = 0,
        release_cost: int = 0,
        switch_model: Callable[[int, int], int] | None = None,
        regfiles: RegFiles | None = None,
        measured: MeasuredCost | None = None,
    ) -> Result:
        """Simulate ``taskset`` for ``horizon`` cycles. ``switch_model(from, to)`` (thread
        indices, -1 for none), when given, prices each switch instead of ``switch_cost``
        (a Python call per switch: for experiments, not for speed); ``regfiles`` prices it
        with Kim et al.'s model, in C, the tasks mapped to files by rate-monotonic order;
        ``measured`` with a sample drawn from measurements, in C."""
        if sum(x is not None for x in (switch_model, regfiles, measured)) > 1:
            raise TacetError("give one switch cost model: switch_model, regfiles or measured")
        _check_int("horizon", horizon, 1, TIME_MAX - 1)
        _check_int("seed", seed, 0, U64_MAX)
        _check_int("switch_cost", switch_cost, 0, TIME_MAX - 1)
        _check_int("release_cost", release_cost, 0, TIME_MAX - 1)
        keep: list[Any] = []  # what the C side points at, alive until the call returns
        threads, mutexes = _structures(taskset, keep)
        config = _Config(
            abi=ABI_VERSION,
            n_threads=len(taskset.tasks),
            n_mutexes=len(taskset.mutexes),
            threads=threads,
            mutexes=mutexes,
            horizon=horizon,
            seed=seed,
            switch_cost=switch_cost,
            release_cost=release_cost,
        )
        failure: list[BaseException] = []
        if switch_model is not None:

            def cost(from_: int, to: int, _arg: object) -> int:
                try:
                    value = switch_model(from_, to)
                    _check_int("the switch model's cost", value, 0, TIME_MAX - 1)
                    return value
                except BaseException as error:  # re-raised after the run
                    failure.append(error)
                    return 0

            config.switch_fn = _SwitchFn(cost)
            keep.append(config.switch_fn)
        elif regfiles is not None:
            model = self._regfile_model(taskset, regfiles)
            keep.append(model)
            config.switch_fn = self._regfile_cost
            config.switch_arg = ctypes.cast(ctypes.pointer(model), ctypes.c_void_p)
        elif measured is not None:
            array = (u64 * len(measured.costs))(*measured.costs)
            # The draws' state from the run's seed (a fixed offset: not the execution times').
            sample = _Measured(len(measured.costs), array, (seed ^ 0x5EED5EED5EED5EED) & U64_MAX)
            keep += [array, sample]
            config.switch_fn = self._measured_cost
            config.switch_arg = ctypes.cast(ctypes.pointer(sample), ctypes.c_void_p)
        out = (_ThreadResult * len(taskset.tasks))()
        total = _Result()
        error = ctypes.create_string_buffer(256)
        with _ONE_KERNEL:
            status = self.lib.tsim_run(ctypes.byref(config), out, ctypes.byref(total), error, 256)
        if failure:
            raise failure[0]
        if status != 0:
            raise TacetError(f"the simulation engine refused the task set: {error.value.decode()}")
        k = len(_ThreadResult._fields_)  # every field a uint64_t: read them as one array
        values = list((u64 * (k * len(taskset.tasks))).from_buffer(out))
        results = tuple(
            ThreadResult(t.name, *values[i * k : (i + 1) * k]) for i, t in enumerate(taskset.tasks)
        )
        return Result(results, horizon, seed, *(u64 * len(_TOTALS)).from_buffer(total))

    def _regfile_model(self, taskset: TaskSet, r: RegFiles) -> _RegFiles:
        for name in ("t_str", "n_str", "n_greg", "n_sreg", "n_ch", "t_chk", "base"):
            _check_int(f"regfiles {name}", getattr(r, name), 0, 2**20)
        files, _ = self.regfile_map([t.period for t in taskset.tasks], r.files)
        array = (u32 * len(files))(*files)
        model = _RegFiles(len(files), r.files, ctypes.cast(array, ctypes.POINTER(u32)))
        for name in ("t_str", "n_str", "n_greg", "n_sreg", "n_ch", "t_chk", "base"):
            setattr(model, name, getattr(r, name))
        model._array = array  # type: ignore[attr-defined]  # alive with the model
        return model


def _check_int(what: str, value: object, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise TacetError(f"{what} must be an integer in {low}..{high} (got {value!r})")


_EXEC = {name: i for i, name in enumerate(MODELS)}


def _structures(taskset: TaskSet, keep: list[Any]) -> tuple[Any, Any]:
    """The task set as the engine's arrays; errors name the thread and what is wrong (a
    checked description never has them: this guards direct callers)."""
    if not taskset.tasks:
        raise TacetError("the task set has no threads")
    index = {name: i for i, (name, _) in enumerate(taskset.mutexes)}
    threads = (_Thread * len(taskset.tasks))()
    for i, t in enumerate(taskset.tasks):
        name = t.name.encode()
        keep.append(name)
        e = t.execution
        if e.model not in _EXEC:
            raise TacetError(f"thread {t.name!r}: unknown execution model {e.model!r}")
        if len(t.sections) > MAX_SECTIONS:
            raise TacetError(
                f"thread {t.name!r}: {len(t.sections)} critical sections; the simulator takes "
                f"at most {MAX_SECTIONS}"
            )
        threads[i] = _Thread(
            name,
            t.priority,
            t.threshold,
            t.period,
            t.deadline,
            t.offset,
            t.jitter,
            _EXEC[e.model],
            len(t.sections),
            t.wcet,
            e.bcet if e.bcet is not None else 0,
            e.mean if e.mean is not None else math.nan,
            e.stddev if e.stddev is not None else math.nan,
        )
        c = threads[i]
        if e.values:
            trace = (u64 * len(e.values))(*e.values)
            keep.append(trace)
            c.trace = ctypes.cast(trace, ctypes.POINTER(u64))
            c.trace_len = len(e.values)
        for k, s in enumerate(t.sections):
            if s.mutex not in index:
                raise TacetError(f"thread {t.name!r}: unknown mutex {s.mutex!r}")
            c.sections[k].mutex = index[s.mutex]
            c.sections[k].offset = s.offset
            c.sections[k].length = s.length
    mutexes = (_Mutex * max(1, len(taskset.mutexes)))()
    for m, (name, inherit) in zip(mutexes, taskset.mutexes, strict=False):
        encoded = name.encode()
        keep.append(encoded)
        m.name = encoded
        m.inherit = 1 if inherit else 0
    keep += [threads, mutexes]
    return threads, mutexes


def library(repo: Path, build_dir: Path | None = None) -> Path:
    """Build the engine library in ``build_dir`` (default: the sim target's, build/sim),
    configuring the tree first when it is not configured (by tacet) or lacks the library."""
    target = TARGETS["sim"]
    build_dir = build_dir if build_dir is not None else target.build_dir(repo)
    reply = build_dir / ".cmake" / "api" / "v1" / "reply"
    if not any(reply.glob("index-*.json")):
        configure(target, repo, build_dir, output="on-failure")
    libraries = artifacts(build_dir, "SHARED_LIBRARY")
    if TARGET not in libraries:  # configured before the engine existed
        configure(target, repo, build_dir, output="on-failure")
        libraries = artifacts(build_dir, "SHARED_LIBRARY")
    if TARGET not in libraries:
        raise TacetError(f"no {TARGET} library in {build_dir} (is it a cross or sanitizer build?)")
    build(build_dir, "the simulation engine", TARGET, output="on-failure")
    return libraries[TARGET]


def load(repo: Path, build_dir: Path | None = None) -> Engine:
    """The engine of ``build_dir``, built if needed, loaded (the process maps it once)."""
    return Engine(library(repo, build_dir))
