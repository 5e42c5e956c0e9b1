"""The runs of a route of the planner's day (feedc_network.TransitNetwork), kept as the feed writes
them: the fixed-time runs, and each frequency window as it is written (first start, end exclusive,
headway, trip), not as the runs it expands to (docs/client.md, "Plan a journey", item 1). Standard
library only.

A run is the tuple (start, trip_id): seconds from the start of the network's service date (a run
of the day before less a day) and its trip. A route's runs, in order, are exactly what expanding
every window would give, sorted by (start, trip_id); the earliest run at or after a time and the
next run after one are computed per window, arithmetically, and by binary search on the fixed
runs: 40 windows of headway 1 s over a day are 40 windows here, not 3.5 million runs.
"""
import bisect
from collections import namedtuple

# A frequency window as written (frequencies.txt), of service date `shift` days back (0, or -86400
# for the day before's): runs start at first + shift, first + shift + headway, ... before end + shift.
Window = namedtuple("Window", "first end headway trip_id shift")


class Skipped:
    """The runs of one route the day's live times take out (feedc_network.LiveTimetable): every
    run of the trips in `trips` (a delay or a cancellation by trip id), and the runs in `runs`
    ((start, trip_id): a run GTFS-Realtime messages predict or cancel)."""
    __slots__ = ("trips", "runs")

    def __init__(self, trips=None, runs=None):
        self.trips, self.runs = set() if trips is None else trips, set() if runs is None else runs


NOTHING_SKIPPED = Skipped(frozenset(), frozenset())


class Runs:
    """The runs of one route: `fixed` ((start, trip_id) of each fixed-time run, any order) and
    `windows` (Window list; one with no run, end not past first, is left out). Read only once
    made, so that routes may share it."""
    __slots__ = ("fixed", "fixed_starts", "windows", "firsts", "reach", "trips")

    def __init__(self, fixed=(), windows=()):
        self.fixed = sorted(fixed)
        self.fixed_starts = [start for start, _ in self.fixed]
        self.windows = sorted((w for w in windows if w.end > w.first), key=lambda w: (w.first + w.shift, w.trip_id))
        # Each window's first start, and the furthest end of it and the windows before it: the
        # windows started by a time end the backward look once none of them reaches past it.
        self.firsts = [w.first + w.shift for w in self.windows]
        self.reach, furthest = [], None
        for w in self.windows:
            furthest = w.end + w.shift if furthest is None else max(furthest, w.end + w.shift)
            self.reach.append(furthest)
        self.trips = {trip for _, trip in self.fixed} | {w.trip_id for w in self.windows}

    def of_trip(self, trip):
        """The runs of `trip` alone (what a delay moves): its fixed runs and its windows."""
        return Runs([run for run in self.fixed if run[1] == trip], [w for w in self.windows if w.trip_id == trip])

    def has(self, start, trip):
        """Whether run (start, trip) is one of these: a fixed run, or a run of a window of `trip`."""
        index = bisect.bisect_left(self.fixed, (start, trip))
        if index < len(self.fixed) and self.fixed[index] == (start, trip):
            return True
        return any(w.trip_id == trip and w.first + w.shift <= start < w.end + w.shift and (start - w.first - w.shift) % w.headway == 0
                   for w in self.windows)

    def first_at(self, time, skipped=NOTHING_SKIPPED):
        """The earliest run starting at or after `time` that `skipped` (Skipped) leaves, by
        (start, trip_id); None when there is none."""
        return self._next(time, None, skipped)

    def after(self, run, skipped=NOTHING_SKIPPED):
        """The run after `run` ((start, trip_id)) in (start, trip_id) order that `skipped` leaves;
        None when there is none."""
        return self._next(run[0], run[1], skipped)

    def _next(self, time, trip, skipped):
        """The least run (s, t) left by `skipped` with s > time, or s == time and (trip is None or
        t > trip): the least candidate of the fixed runs and of every window."""
        if trip is None:
            index = bisect.bisect_left(self.fixed_starts, time)
        else:
            index = bisect.bisect_right(self.fixed, (time, trip))
        best = None
        while index < len(self.fixed):
            run = self.fixed[index]
            if run[1] not in skipped.trips and run not in skipped.runs:
                best = run
                break
            index += 1
        # Windows starting after `time`, by (first, trip_id): the first one not skipped has the
        # least candidate of them, its first run (or, past runs skipped one by one, a later one).
        started = bisect.bisect_right(self.firsts, time)
        for index in range(started, len(self.windows)):
            if best is not None and self.firsts[index] > best[0]:
                break
            candidate = self._candidate(self.windows[index], time, trip, skipped)
            if candidate is not None and (best is None or candidate < best):
                best = candidate
            if candidate == (self.firsts[index], self.windows[index].trip_id):
                break  # a first run: the windows after it start later, or as late with a later trip
        # Windows started by `time`, back from the latest, while one of them may still run after it.
        for index in range(started - 1, -1, -1):
            if self.reach[index] <= time:
                break
            candidate = self._candidate(self.windows[index], time, trip, skipped)
            if candidate is not None and (best is None or candidate < best):
                best = candidate
        return best

    @staticmethod
    def _candidate(window, time, trip, skipped):
        """The least run of `window` left by `skipped` after (time, trip) as _next means it."""
        if window.trip_id in skipped.trips:
            return None
        first, end, headway = window.first + window.shift, window.end + window.shift, window.headway
        if time < first:
            start = first
        elif trip is None or window.trip_id > trip:
            start = first + -((first - time) // headway) * headway        # at or after time
        else:
            start = first + ((time - first) // headway + 1) * headway     # after time
        while start < end and (start, window.trip_id) in skipped.runs:
            start += headway
        return (start, window.trip_id) if start < end else None

    def expand(self):
        """Every run in order (start, trip_id): the eager expansion these stand for, for tests and
        small routes only: a window of headway 1 s over a day is 86,400 runs."""
        runs = list(self.fixed)
        for w in self.windows:
            runs.extend((start + w.shift, w.trip_id) for start in range(w.first, w.end, w.headway))
        return sorted(set(runs))
